package checks

import (
	"fmt"
	"strings"

	"github.com/rhysd/actionlint"

	"github.com/cicheck/cicheck/expr"
	"github.com/cicheck/cicheck/finding"
	"github.com/cicheck/cicheck/internal/plural"
	"github.com/cicheck/cicheck/simulate"
	"github.com/cicheck/cicheck/workflowgraph"
)

// GateReadsUnguardedOutput flags jobs that run through upstream failures
// and read an output the failed or skipped job never set.
var GateReadsUnguardedOutput = &Rule{
	ID:       "gate-reads-unguarded-output",
	Severity: finding.Warning,
	Doc:      "a job gated on always()/!cancelled() reads needs.X.outputs.Y while X can be skipped",
	Help: "A job gated on `always()` or `!cancelled()` runs after its needs were skipped. A skipped job has no " +
		"outputs, so `needs.X.outputs.Y` is null, which renders as `''` and is loose-equal to `''`, `0` and " +
		"`false` (gha-job-status.md §6): a runner label, an image name or a `with:` input is silently empty, and " +
		"the run stays green.\n\n" +
		"cicheck reports a (job, need) pair, naming the outputs read, when all of these hold: X can be skipped " +
		"(it has a condition that is not always true, or an ancestor's failure or skip skips it; a root job " +
		"without `if:` never is); the job's condition can be true with X skipped (evaluated three-valued, X's " +
		"outputs empty); the condition does not compare `needs.X.result` with `'skipped'` (the author handles " +
		"that case); and the job reads an output where emptiness matters: in `with:`, `env:`, `runs-on:`, " +
		"`container:` or steps without a `|| 'fallback'`, or in its own `if:` under `!=`, `!` or `== ''` (a " +
		"read such as `== 'true'` is false when empty and can only keep the job from running). A condition " +
		"that raises with X skipped is `if-eval-error`'s finding. A failed X is not reported: the run is " +
		"already red. A summary job (gated on `always()`, nothing depends on it, not a GPU job) gets a notice: " +
		"such jobs usually report what they find, empty values included.\n\n" +
		"Require `needs.X.result == 'success'` in the condition, or give the read a fallback.",
	Bad: `on: [push, pull_request]
jobs:
  setup:
    if: github.event_name == 'push'
    runs-on: ubuntu-latest
    outputs: {image: "${{ steps.s.outputs.image }}"}
    steps: [{id: s, run: echo image=x >> $GITHUB_OUTPUT}]
  test:
    needs: setup
    if: ${{ !cancelled() }}
    runs-on: ubuntu-latest
    container: ${{ needs.setup.outputs.image }}
    steps: [{run: make test}]
`,
	Good: `on: [push, pull_request]
jobs:
  setup:
    if: github.event_name == 'push'
    runs-on: ubuntu-latest
    outputs: {image: "${{ steps.s.outputs.image }}"}
    steps: [{id: s, run: echo image=x >> $GITHUB_OUTPUT}]
  test:
    needs: setup
    if: ${{ !cancelled() && needs.setup.result == 'success' }}
    runs-on: ubuntu-latest
    container: ${{ needs.setup.outputs.image }}
    steps: [{run: make test}]
`,
	Run: func(p *Pass) {
		g := gateAnalysisOf(p)
		for _, j := range p.Workflow.Jobs {
			if j.If == nil || j.If.Expr == nil {
				continue
			}
			always := containsStr(j.If.StatusFuncs(), "always")
			if !always && !hasNotCancelled(j.If.Expr) {
				continue
			}
			// Reads name needs as expressions spell them, lower-cased; direct
			// maps that to the need's job id.
			direct := map[string]string{}
			for _, n := range j.Needs {
				direct[strings.ToLower(n)] = n
			}
			if len(direct) == 0 {
				continue // only a direct need's outputs are read through needs
			}
			// Reads by need, in source order: one finding per (job, need).
			type read struct {
				outs         []string
				line, column int
			}
			reads := map[string]*read{}
			var order []string
			add := func(r exprRef, inIf bool) {
				for _, xy := range outputReadsUnsafe(r.node, inIf) {
					need, ok := direct[xy[0]]
					if !ok {
						continue
					}
					rd := reads[need]
					if rd == nil {
						rd = &read{line: r.line, column: r.column}
						reads[need] = rd
						order = append(order, need)
					}
					if !containsStr(rd.outs, xy[1]) {
						rd.outs = append(rd.outs, xy[1])
					}
				}
			}
			add(exprRef{j.If.Expr, j.If.Line, j.If.Column}, true)
			guarded := stepGuards(j)
			for _, r := range jobExprs(j) {
				for _, xy := range outputReadsUnsafe(r.node, false) {
					if guarded(r.line, xy[0]) {
						r.node = nil // a guarded step: none of its reads of that need count
					}
				}
				if r.node != nil {
					add(r, false)
				}
			}
			for _, need := range order {
				rd := reads[need]
				if mentionsSkipped(j.If.Expr, need) || !g.runsWhileSkipped(j, need) {
					continue
				}
				line, col := rd.line, rd.column
				if line == 0 {
					line, col = condPos(j)
				}
				f := finding.Finding{Job: j.ID, Line: line, Column: col,
					Fix: guardFix(j, need),
					Message: fmt.Sprintf("%s runs when %s is skipped (its if: does not require needs.%s.result == 'success') and reads %s, which %s then empty",
						j.ID, need, need, outputList(need, rd.outs), plural.Word(len(rd.outs), "is", "are"))}
				if always && len(p.Workflow.Children(j.ID)) == 0 && !g.gpu[j.ID] {
					// A summary job: it runs after everything and usually
					// reports what it finds, empty values included.
					f.Severity = finding.Notice
				}
				p.Report(f)
			}
		}
	},
}

// outputList renders "needs.x.outputs.a, needs.x.outputs.b".
func outputList(need string, outs []string) string {
	parts := make([]string, len(outs))
	for i, o := range outs {
		parts[i] = "needs." + need + ".outputs." + o
	}
	return strings.Join(parts, ", ")
}

// runsWhileSkipped reports a silent scenario in which need is skipped and
// j still runs: need's own if: is false, or an ancestor's own if: is false
// and its skip skips need. (A skip caused by a failure leaves the run red:
// not silent.) In each, j's condition is decided by simulate.Forced with
// the skipped job forced and everything else unknown, so a sibling need
// that the skip also skips, or an output of the skipped ancestor that j's
// if: reads, is taken into account; and j cannot run when its if: repeats
// every conjunct of the skipped job's if:.
func (g *gateAnalysis) runsWhileSkipped(j *workflowgraph.Job, need string) bool {
	x := g.w.Job(need)
	if x == nil || !g.usable() {
		return x != nil
	}
	f := g.forced()
	runs := func(a *workflowgraph.Job) bool {
		return ownCanBeFalse(a) && !impliedBy(j, a) && !samePlanner(j, a) && !f.Skipped(j.ID, a.ID, simulate.Skipped)
	}
	if runs(x) {
		return true
	}
	// Only the ancestors whose skip skips need, straight from the table: a
	// sorted list of all ancestors per (job, need) was n² in a chain.
	found := false
	f.SkippedUnder(need, simulate.Skipped, func(a string) bool {
		if aj := g.w.Job(a); aj != nil && runs(aj) {
			found = true
		}
		return !found
	})
	return found
}

// samePlanner: a's if: is decided by outputs of jobs whose outputs j's
// if: also reads (a planner job's selection, say): how the two decisions
// relate is the planner's logic, which cicheck cannot see, so a skip of a
// with j running is not claimed.
func samePlanner(j, a *workflowgraph.Job) bool {
	if j.If == nil || j.If.Expr == nil || a.If == nil || a.If.Expr == nil {
		return false
	}
	jr := map[string]bool{}
	for _, xy := range outputReads(j.If.Expr) {
		jr[xy[0]] = true
	}
	for _, xy := range outputReads(a.If.Expr) {
		if jr[xy[0]] {
			return true
		}
	}
	return false
}

// ownCanBeFalse: a's own if: (not the implicit success()) can be false in
// the project's own repository. A conjunct that compares github.repository
// or github.repository_owner with a literal is taken as true: it skips the
// job only in forks, where the project's pipeline is not what runs.
func ownCanBeFalse(a *workflowgraph.Job) bool {
	if a.If == nil || a.If.Expr == nil || a.If.AlwaysTrue {
		return false
	}
	for _, c := range conjuncts(a.If.Expr) {
		if !repositoryCheck(c) && probeExpr(a, c) != expr.Yes {
			return true
		}
	}
	return false
}

// repositoryCheck: n is github.repository[_owner] == 'literal'.
func repositoryCheck(n actionlint.ExprNode) bool {
	c, ok := n.(*actionlint.CompareOpNode)
	if !ok || c.Kind != actionlint.CompareOpNodeKindEq {
		return false
	}
	for _, pair := range [][2]actionlint.ExprNode{{c.Left, c.Right}, {c.Right, c.Left}} {
		d, isDeref := pair[0].(*actionlint.ObjectDerefNode)
		_, isStr := pair[1].(*actionlint.StringNode)
		if isDeref && isStr {
			if v, ok := d.Receiver.(*actionlint.VariableNode); ok && strings.EqualFold(v.Name, "github") &&
				(strings.EqualFold(d.Property, "repository") || strings.EqualFold(d.Property, "repository_owner")) {
				return true
			}
		}
	}
	return false
}

// impliedBy: j's if: has every top-level conjunct of a's if:, so a false
// a's if: makes j's false too.
func impliedBy(j, a *workflowgraph.Job) bool {
	if j.If == nil || j.If.Expr == nil || a.If == nil || a.If.Expr == nil {
		return false
	}
	have := map[string]bool{}
	for _, c := range conjuncts(j.If.Expr) {
		have[expr.Render(c)] = true
	}
	for _, c := range conjuncts(a.If.Expr) {
		if !have[expr.Render(c)] {
			return false
		}
	}
	return true
}

func conjuncts(n actionlint.ExprNode) []actionlint.ExprNode {
	if l, ok := n.(*actionlint.LogicalOpNode); ok && l.Kind == actionlint.LogicalOpNodeKindAnd {
		return append(conjuncts(l.Left), conjuncts(l.Right)...)
	}
	return []actionlint.ExprNode{n}
}

// stepGuards returns whether a read of need on line is inside a step that
// guards it: the step's if: tests needs.<need>, the step reads
// needs.<need>.result (in its script, env: or with:, to branch on it), or
// its script tests the value with -n or -z.
func stepGuards(j *workflowgraph.Job) func(line int, need string) bool {
	type span struct {
		from, to int
		text     string
	}
	var spans []span
	if j.AST != nil {
		for i, st := range j.AST.Steps {
			if st == nil || st.Pos == nil {
				continue
			}
			to := 1 << 30
			if i+1 < len(j.AST.Steps) && j.AST.Steps[i+1] != nil && j.AST.Steps[i+1].Pos != nil {
				to = j.AST.Steps[i+1].Pos.Line
			}
			var text string
			if st.If != nil {
				text += "if: " + strings.ToLower(st.If.Value) + "\n"
			}
			switch ex := st.Exec.(type) {
			case *actionlint.ExecRun:
				if ex.Run != nil {
					text += strings.ToLower(ex.Run.Value)
				}
			case *actionlint.ExecAction:
				for _, in := range ex.Inputs {
					if in != nil && in.Value != nil {
						text += "\n" + strings.ToLower(in.Value.Value)
					}
				}
			}
			if st.Env != nil {
				for _, v := range st.Env.Vars {
					if v != nil && v.Value != nil {
						text += "\n" + strings.ToLower(v.Value.Value)
					}
				}
			}
			spans = append(spans, span{st.Pos.Line, to, text})
		}
	}
	// The job's own env: and with: (a reusable-workflow call) count for
	// every read: a job that passes the need's result along handles it.
	var jobText string
	if j.AST != nil {
		if j.AST.Env != nil {
			for _, v := range j.AST.Env.Vars {
				if v != nil && v.Value != nil {
					jobText += "\n" + strings.ToLower(v.Value.Value)
				}
			}
		}
		if j.AST.WorkflowCall != nil {
			for _, in := range j.AST.WorkflowCall.Inputs {
				if in != nil && in.Value != nil {
					jobText += "\n" + strings.ToLower(in.Value.Value)
				}
			}
		}
	}
	allSteps := ""
	for _, s := range spans {
		allSteps += "\n" + s.text
	}
	return func(line int, need string) bool {
		ref := "needs." + need + "."
		if strings.Contains(jobText, ref+"result") || strings.Contains(allSteps, ref+"result") {
			return true // the job branches on the need's result somewhere
		}
		for _, s := range spans {
			if line < s.from || line >= s.to {
				continue
			}
			if i := strings.Index(s.text, "\n"); strings.HasPrefix(s.text, "if: ") && i > 0 && strings.Contains(s.text[:i], ref) {
				return true
			}
			if strings.Contains(s.text, ref+"result") {
				return true
			}
			for _, t := range []string{`-n "${{ ` + ref, `-z "${{ ` + ref, `-n "${{` + ref, `-z "${{` + ref} {
				if strings.Contains(s.text, t) {
					return true
				}
			}
		}
		return false
	}
}

// probeExpr is n, a part of j's condition, with nothing known and every
// need succeeded.
func probeExpr(j *workflowgraph.Job, n actionlint.ExprNode) expr.Tri {
	known := map[string]needState{}
	for _, n := range j.Needs {
		known[n] = needState{result: simulate.Success}
	}
	env := condEnv(j, known, false)
	env.Success, env.Failure = expr.Bool(true), expr.Bool(false)
	return expr.Eval(n, env).Truthy()
}

// mentionsSkipped reports a comparison of needs.<need>.result with
// 'skipped' in n: the author considered the skip and handles it.
func mentionsSkipped(n actionlint.ExprNode, need string) bool {
	found := false
	actionlint.VisitExprNode(n, func(node, _ actionlint.ExprNode, entering bool) {
		c, ok := node.(*actionlint.CompareOpNode)
		if !entering || !ok {
			return
		}
		for _, pair := range [][2]actionlint.ExprNode{{c.Left, c.Right}, {c.Right, c.Left}} {
			s, isStr := pair[1].(*actionlint.StringNode)
			d, isDeref := pair[0].(*actionlint.ObjectDerefNode)
			if isStr && isDeref && strings.EqualFold(s.Value, "skipped") && strings.EqualFold(d.Property, "result") && strings.EqualFold(simulate.NeedsRef(d.Receiver), need) {
				found = true
			}
		}
	})
	return found
}

// outputReadsUnsafe is outputReads without the reads that cannot misbehave
// when the output is empty: a read with a fallback (`x || 'default'`), and,
// in the job's own if: (inIf), a read whose emptiness makes its comparison
// false (`== 'true'`, contains(...)): there it can only keep the job from
// running. In the if:, a read under `!=`, `!` or compared with ” is kept.
func outputReadsUnsafe(n actionlint.ExprNode, inIf bool) [][2]string {
	var out [][2]string
	var walk func(n, parent actionlint.ExprNode)
	walk = func(n, parent actionlint.ExprNode) {
		switch n := n.(type) {
		case nil:
			return
		case *actionlint.LogicalOpNode:
			if n.Kind == actionlint.LogicalOpNodeKindOr {
				// The left operand has a fallback: skip its reads.
				walk(n.Right, n)
				return
			}
			walk(n.Left, n)
			walk(n.Right, n)
			return
		case *actionlint.ObjectDerefNode:
			if xy := outputReads(n); len(xy) == 1 && xy[0][1] == n.Property {
				if !inIf || emptyTriggers(parent, n) {
					out = append(out, xy[0])
				}
				return
			}
		}
		for _, c := range children(n) {
			walk(c, n)
		}
	}
	walk(n, nil)
	return out
}

// emptyTriggers: in an if:, an empty read under parent can make it true.
func emptyTriggers(parent, read actionlint.ExprNode) bool {
	switch p := parent.(type) {
	case nil, *actionlint.LogicalOpNode:
		return false // truthiness of '' is false
	case *actionlint.NotOpNode:
		return true
	case *actionlint.CompareOpNode:
		if p.Kind == actionlint.CompareOpNodeKindNotEq {
			return true
		}
		other := p.Left
		if other == read {
			other = p.Right
		}
		if s, ok := other.(*actionlint.StringNode); ok && p.Kind == actionlint.CompareOpNodeKindEq {
			return s.Value == ""
		}
		return p.Kind != actionlint.CompareOpNodeKindEq
	}
	return false // function arguments (contains, fromJSON, ...): if-eval-error's or false
}

// children lists an expression node's operands.
func children(n actionlint.ExprNode) []actionlint.ExprNode {
	switch n := n.(type) {
	case *actionlint.NotOpNode:
		return []actionlint.ExprNode{n.Operand}
	case *actionlint.CompareOpNode:
		return []actionlint.ExprNode{n.Left, n.Right}
	case *actionlint.LogicalOpNode:
		return []actionlint.ExprNode{n.Left, n.Right}
	case *actionlint.FuncCallNode:
		return n.Args
	case *actionlint.ObjectDerefNode:
		return []actionlint.ExprNode{n.Receiver}
	case *actionlint.ArrayDerefNode:
		return []actionlint.ExprNode{n.Receiver}
	case *actionlint.IndexAccessNode:
		return []actionlint.ExprNode{n.Operand, n.Index}
	}
	return nil
}

// guardFix suggests requiring need's success before the condition as
// written. Where that would narrow the job's purpose (a notifier that runs
// after failures, a read with a fallback arm) it suggests guarding the read
// itself instead.
func guardFix(j *workflowgraph.Job, need string) string {
	term := "needs." + need + ".result == 'success'"
	if admits(j, simulate.Failure, simulate.Skipped) || fallbackNeeds(j.If.Expr)[strings.ToLower(need)] || containsStr(j.If.StatusFuncs(), "always") || containsStr(j.If.StatusFuncs(), "failure") {
		return "guard the read where it is used (" + term + " && <the read>), so the job still runs without " + need
	}
	cond := authorCond(j)
	if l, ok := j.If.Expr.(*actionlint.LogicalOpNode); ok && l.Kind == actionlint.LogicalOpNodeKindOr {
		cond = "(" + cond + ")"
	}
	return "if: ${{ " + term + " && " + cond + " }}"
}
