package checks

import (
	"fmt"
	"sort"
	"strings"

	"github.com/rhysd/actionlint"

	"github.com/cicheck/cicheck/expr"
	"github.com/cicheck/cicheck/finding"
	"github.com/cicheck/cicheck/fix"
	"github.com/cicheck/cicheck/internal/bitset"
	"github.com/cicheck/cicheck/simulate"
	"github.com/cicheck/cicheck/workflowgraph"
)

// gateAnalysis is the shared groundwork of the GPU-gate rules
// (gha-job-status.md §11) for one workflow: the GPU path, and what every
// scenario "job a ended with result r, nothing else known" does, from
// simulate's forced table. It is computed once per workflow
// (gateAnalysisOf) and shared by every rule of the run; the table is built
// only when a rule first asks, which most workflows (no gated needs) never do.
type gateAnalysis struct {
	w       *workflowgraph.Workflow
	sim     *simulate.Sim
	gpu     map[string]bool // GPU jobs
	path    map[string]bool // GPU jobs and their ancestors
	gpuMask bitset.Set      // GPU jobs, for simulate.Forced.SkippedBelow
	order   map[string]int  // position in dependency order
	// eventSkippers caches skippers (nil: not computed yet).
	eventSkippers *[]eventSkipper
	sound         *bool // usable's answer (nil: not decided yet)
}

// gateAnalysisOf returns the workflow's gate analysis, computed on the
// first call of the run.
func gateAnalysisOf(p *Pass) *gateAnalysis {
	return p.Memo("checks.gate-analysis", func() any { return newGateAnalysis(p) }).(*gateAnalysis)
}

func newGateAnalysis(p *Pass) *gateAnalysis {
	w := p.Workflow
	g := &gateAnalysis{w: w, gpu: map[string]bool{}, path: map[string]bool{}, order: map[string]int{}}
	topo := w.TopoOrder()
	for i, id := range topo {
		g.order[id] = i
	}
	for _, j := range w.Jobs {
		if p.Classifier.IsGPU(j) {
			g.gpu[j.ID] = true
		}
	}
	// The GPU path: every job reachable from a GPU job by needs, one
	// search from all of them at once.
	var stack []string
	for _, j := range w.Jobs {
		if g.gpu[j.ID] {
			g.path[j.ID] = true
			stack = append(stack, j.ID)
		}
	}
	for len(stack) > 0 {
		id := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, n := range w.Job(id).Needs {
			if w.Job(n) != nil && !g.path[n] {
				g.path[n] = true
				stack = append(stack, n)
			}
		}
	}
	return g
}

// maxGateJobs bounds the workflows the gate analysis covers. simulate's
// forced table keeps a few sets of V bits per job, V²/64 words each: at
// 10,000 jobs about 100 MB at most, but 55,000 one-line jobs (what the
// 4 MiB a workflow may have holds) would need gigabytes. Beyond it the
// rules built on the table say so in one notice each (tooBig).
const maxGateJobs = 10000

// usable reports whether the graph is sound enough, and small enough, to
// reason about; an invalid workflow is reported by other rules. It is
// decided once: rules ask it per job and need, and it looks at every job.
func (g *gateAnalysis) usable() bool {
	if g.sound == nil {
		ok := len(g.w.Cycles) == 0 && len(g.w.Jobs) <= maxGateJobs
		for _, j := range g.w.Jobs {
			ok = ok && len(g.w.UnknownNeeds(j)) == 0
		}
		g.sound = &ok
	}
	return *g.sound
}

// tooBig reports, for a workflow beyond maxGateJobs, that the rule did not
// look at its gates: a whole-file notice, so the skip is never silent.
func (g *gateAnalysis) tooBig(p *Pass) {
	if n := len(g.w.Jobs); n > maxGateJobs {
		p.Report(finding.Finding{Severity: finding.Notice, Message: fmt.Sprintf(
			"%d jobs, more than the %d whose gates cicheck analyses (the analysis grows with the square of the jobs): %s did not check this workflow",
			n, maxGateJobs, p.Rule.ID)})
	}
}

// forced is simulate's table of the scenarios "job a ended with result r;
// every other outcome and every context unknown".
func (g *gateAnalysis) forced() *simulate.Forced {
	if g.sim == nil {
		g.sim = simulate.New(g.w)
	}
	return g.sim.Forced()
}

// hasGate: the job's if: contains a status-check function on its AST.
func hasGate(j *workflowgraph.Job) bool { return j != nil && j.If != nil && j.If.HasStatusFunc() }

// ungated: a job GitHub gates on the implicit success() whose if: parses.
func ungated(j *workflowgraph.Job) bool {
	return j.If == nil || (j.If.ParseError == "" && !j.If.HasStatusFunc() && !parked(j))
}

// parked reports a job disabled with a literal `if: false`: it never runs,
// so no gate decides anything and no fix is wanted.
func parked(j *workflowgraph.Job) bool {
	b, ok := j.If.Expr.(*actionlint.BoolNode)
	return ok && !b.Value
}

// bridge is (D, a): D, a direct need with a gate, runs through a's failure
// or skip (Result), while the job's implicit success() still sees a.
type bridge struct {
	D, A   string
	Result simulate.Result
}

// maxListed bounds the bridges and GPU jobs a message names: a generated
// pipeline can have thousands, and a message that lists them all makes
// the output grow with the square of the workflow. The count stays exact.
const maxListed = 8

// bridges finds j's bridges (spec §11): the first maxListed, in direct-need
// then dependency order, and how many there are. Beyond the spec's test, a
// bridge is dropped when another direct need of j is itself skipped by a's
// failure: j is then skipped through its direct needs, as intended.
func (g *gateAnalysis) bridges(j *workflowgraph.Job) (first []bridge, total int) {
	if !ungated(j) || len(j.Needs) == 0 {
		return nil, 0
	}
	seen := map[string]bool{}
	for _, d := range j.Needs {
		dj := g.w.Job(d)
		if !hasGate(dj) || seen[d] {
			continue
		}
		seen[d] = true
		ts, n := g.forced().Through(d, j.Needs, maxListed-len(first))
		for _, t := range ts {
			first = append(first, bridge{D: d, A: t.Job, Result: t.Result})
		}
		total += n
	}
	return first, total
}

// skippedGPU counts the GPU jobs (j included) that are certainly skipped
// when j is skipped and lists the first maxListed+1 of them, in dependency
// order.
func (g *gateAnalysis) skippedGPU(j *workflowgraph.Job) (first []string, total int) {
	f := g.forced()
	if g.gpuMask == nil {
		g.gpuMask = f.Mask(func(id string) bool { return g.gpu[id] })
	}
	if g.gpu[j.ID] {
		first, total = append(first, j.ID), 1
	}
	below, n := f.SkippedBelow(j.ID, simulate.Skipped, g.gpuMask, maxListed+1-len(first))
	return append(first, below...), total + n
}

// describeBridges renders "a failure of stage-a-cpu (bridged by docker-build)",
// and how many of total it leaves out.
func describeBridges(bs []bridge, total int) string {
	parts := make([]string, len(bs))
	for i, b := range bs {
		what := "a failure"
		if b.Result == simulate.Skipped {
			what = "a skip"
		}
		parts[i] = what + " of " + b.A + " (bridged by " + b.D + ")"
	}
	return strings.Join(parts, " or ") + more(total-len(bs))
}

// more is " (and N more)" for N > 0.
func more(n int) string {
	if n <= 0 {
		return ""
	}
	return fmt.Sprintf(" (and %d more)", n)
}

// gateEdit keeps j's intent with an explicit gate: !cancelled() and the
// success of each direct need, before the job's own condition. A need
// the author planned for not succeeding gets no success term: a condition
// that admits a non-success result of a direct need means "run after a
// failure" (only !cancelled() is added), and a need whose outputs are read
// in one arm of an || that has a fallback arm keeps its fallback.
func gateEdit(j *workflowgraph.Job) finding.CondEdit {
	terms := []string{"!cancelled()"}
	var cond actionlint.ExprNode
	if j.If != nil {
		cond = j.If.Expr
	}
	if dead, redundant := resultTest(j); dead || redundant {
		return finding.CondEdit{Terms: terms[0]} // dead-needs-result's edit
	}
	fallback := fallbackNeeds(cond)
	seen := map[string]bool{}
	for _, n := range j.Needs {
		// Needs are spelled as their jobs' keys, which the term keeps.
		if !seen[n] && !fallback[strings.ToLower(n)] {
			seen[n] = true
			terms = append(terms, "needs."+n+".result == 'success'")
		}
	}
	return finding.CondEdit{Terms: strings.Join(terms, " && ")}
}

// withEdit gives f the fix e, shown as the condition it makes from the
// author's text; an edit that cannot keep that text is no fix, only
// advice.
func withEdit(f finding.Finding, j *workflowgraph.Job, e finding.CondEdit) finding.Finding {
	if cond, ok := fix.Condition(j, e); ok {
		f.Fix, f.Edit = "if: ${{ "+cond+" }}", e
		return f
	}
	switch {
	case e.Cancel:
		f.Fix = "replace always() with !cancelled() in the if:"
	case j.If != nil && j.If.AlwaysTrue:
		f.Fix = "write the if: as one ${{ }} expression (text around it makes a string, always true) that starts with " + e.Terms
	default:
		f.Fix = "start the if: with " + e.Terms + " && (…)"
	}
	return f
}

// authorCond is j's condition as written (inside ${{ }}), for fix lines
// that are not edits; "" when there is none.
func authorCond(j *workflowgraph.Job) string {
	if j.If == nil || j.If.Expr == nil {
		return ""
	}
	v := strings.TrimSpace(j.If.Raw)
	if strings.HasPrefix(v, "${{") && strings.HasSuffix(v, "}}") {
		v = strings.TrimSpace(v[3 : len(v)-2])
	}
	return v
}

// fallbackNeeds are the direct needs (lower-cased) read in one arm of an
// || whose other arm reads no need at all: `inputs.x || needs.y.outputs.z`
// is written to run without y. Arms that read different needs are no fallback: each
// still expects its need to have run.
func fallbackNeeds(n actionlint.ExprNode) map[string]bool {
	out := map[string]bool{}
	if n == nil {
		return out
	}
	actionlint.VisitExprNode(n, func(node, _ actionlint.ExprNode, entering bool) {
		l, ok := node.(*actionlint.LogicalOpNode)
		if !ok || !entering || l.Kind != actionlint.LogicalOpNodeKindOr {
			return
		}
		left, right := needsRead(l.Left), needsRead(l.Right)
		if len(left) == 0 || len(right) == 0 {
			for x := range left {
				out[x] = true
			}
			for x := range right {
				out[x] = true
			}
		}
	})
	return out
}

// needsRead are the needs whose context n reads (needs.<id>.…), lower-cased.
func needsRead(n actionlint.ExprNode) map[string]bool {
	out := map[string]bool{}
	actionlint.VisitExprNode(n, func(node, _ actionlint.ExprNode, entering bool) {
		if id := simulate.NeedsRef(node); entering && id != "" {
			out[id] = true
		}
	})
	return out
}

// condPos is where findings about a job's condition point: its if: or,
// without one, the job's key.
func condPos(j *workflowgraph.Job) (int, int) {
	if j.If != nil && j.If.Line > 0 {
		return j.If.Line, j.If.Column
	}
	return j.Line, j.Column
}

// hasNotCancelled reports a `!cancelled()` node anywhere in n.
func hasNotCancelled(n actionlint.ExprNode) bool {
	found := false
	if n == nil {
		return false
	}
	actionlint.VisitExprNode(n, func(node, _ actionlint.ExprNode, entering bool) {
		if not, ok := node.(*actionlint.NotOpNode); ok && entering {
			if c, ok := not.Operand.(*actionlint.FuncCallNode); ok && strings.EqualFold(c.Callee, "cancelled") {
				found = true
			}
		}
	})
	return found
}

// needState is what a static check assumes about one direct need.
type needState struct {
	result  simulate.Result // "" unknown
	outputs expr.Value      // zero: unknown
}

func needValue(n string, st needState) expr.Value {
	res := expr.Unknown(n + " may or may not run")
	if st.result != "" {
		res = expr.String(string(st.result))
	}
	outs := st.outputs
	if outs.Kind == expr.KindUnknown && outs.Why == "" {
		outs = expr.Unknown("outputs of " + n + " are not given")
	}
	return object(map[string]expr.Value{"result": res, "outputs": outs})
}

// object wraps fields, whose keys are already lower-case, as an object
// value without expr.Object's defensive copy: the map is built for this
// value alone.
func object(fields map[string]expr.Value) expr.Value {
	return expr.Value{Kind: expr.KindObject, Fields: fields}
}

// condEnv builds an Env for j's condition where the listed direct needs are
// known and everything else (other needs, github, vars, inputs) is unknown.
// Status functions follow from the listed results: a non-success direct
// need makes success() false, a failed one makes failure() true.
func condEnv(j *workflowgraph.Job, known map[string]needState, cancelled bool) *expr.Env {
	needs := make(map[string]expr.Value, len(j.Needs))
	success, failure := expr.Unknown("other ancestors are not known"), expr.Unknown("other ancestors are not known")
	for _, n := range j.Needs {
		st, ok := known[n]
		if ok && st.result != "" {
			if st.result != simulate.Success {
				success = expr.Bool(false)
			}
			if st.result == simulate.Failure {
				failure = expr.Bool(true)
			}
		}
		needs[strings.ToLower(n)] = needValue(n, st) // expressions read needs.<id> case-insensitively
	}
	if cancelled {
		success = expr.Bool(false)
	}
	return &expr.Env{
		Contexts:  map[string]expr.Value{"needs": object(needs)},
		Success:   success,
		Failure:   failure,
		Cancelled: expr.Bool(cancelled),
	}
}

// exprRef is an expression found in a job's YAML, with its position.
type exprRef struct {
	node         actionlint.ExprNode
	line, column int
}

// jobExprs parses every ${{ }} in the job's YAML values (if excluded: it is
// j.If) and every bare step if:, from actionlint's AST so that comments
// never count.
func jobExprs(j *workflowgraph.Job) []exprRef {
	if j.AST == nil {
		return nil
	}
	var out []exprRef
	ast := *j.AST
	ast.If = nil // the job's own condition is j.If
	jobStrings(&ast, func(s *actionlint.String, bareIf bool) {
		out = append(out, stringExprs(s, bareIf)...)
	})
	sort.SliceStable(out, func(a, b int) bool {
		if out[a].line != out[b].line {
			return out[a].line < out[b].line
		}
		return out[a].column < out[b].column
	})
	return out
}

func stringExprs(s *actionlint.String, bareIf bool) []exprRef {
	line, col := 0, 0
	if s.Pos != nil {
		line, col = s.Pos.Line, s.Pos.Col
	}
	v := s.Value
	// Fast path, not detection: only expressions that mention both needs
	// and outputs can read a need's output (outputReads), and parsing
	// every ${{ }} is the costly part.
	if !containsFold(v, "needs") || !containsFold(v, "outputs") {
		return nil
	}
	if bareIf && !strings.Contains(v, "${{") && strings.TrimSpace(v) != "" {
		if n, err := expr.Parse(v); err == nil {
			return []exprRef{{n, line, col}}
		}
		return nil
	}
	var out []exprRef
	for {
		i := strings.Index(v, "${{")
		if i < 0 {
			return out
		}
		v = v[i+3:]
		e := strings.Index(v, "}}")
		if e < 0 {
			return out
		}
		// Only pieces that mention both can read an output (a run: script
		// has many ${{ }} pieces, few of them about needs).
		if piece := v[:e]; containsFold(piece, "needs") && containsFold(piece, "outputs") {
			if n, err := expr.Parse(piece); err == nil {
				out = append(out, exprRef{n, line, col})
			}
		}
		v = v[e+2:]
	}
}

// outputReads returns the (need, output) pairs `needs.X.outputs.Y` read in n.
func outputReads(n actionlint.ExprNode) [][2]string {
	var out [][2]string
	if n == nil {
		return nil
	}
	actionlint.VisitExprNode(n, func(node, _ actionlint.ExprNode, entering bool) {
		d, ok := node.(*actionlint.ObjectDerefNode)
		if !ok || !entering {
			return
		}
		o, ok := d.Receiver.(*actionlint.ObjectDerefNode)
		if !ok || o.Property != "outputs" {
			return
		}
		if x := simulate.NeedsRef(o.Receiver); x != "" {
			out = append(out, [2]string{x, d.Property})
		}
	})
	return out
}

// containsFold reports whether s contains the lower-case ASCII word sub,
// ignoring ASCII case, without lower-casing (and copying) s.
func containsFold(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		j := 0
		for j < len(sub) && s[i+j]|0x20 == sub[j] {
			j++
		}
		if j == len(sub) {
			return true
		}
	}
	return false
}
