package checks

import (
	"fmt"
	"strings"

	"github.com/rhysd/actionlint"

	"github.com/cicheck/cicheck/expr"
	"github.com/cicheck/cicheck/finding"
	"github.com/cicheck/cicheck/simulate"
)

// IfEvalError flags job conditions that raise for a reachable scenario.
var IfEvalError = &Rule{
	ID:       "if-eval-error",
	Severity: finding.Warning,
	Doc:      "a job if: raises an evaluation error in a reachable scenario, which fails the job",
	Help: "An error while evaluating a job `if:` fails the job with `Error when evaluating 'if' for job '<id>'`, " +
		"and its dependents behave as after a failure (gha-job-status.md §9). The usual cause is " +
		"`fromJSON(needs.X.outputs.y)` under `always()` or `!cancelled()`: when X is skipped or fails before setting " +
		"the output, the value is `''`, which is not JSON.\n\ncicheck evaluates the condition with each direct " +
		"need succeeding, failing without outputs, or skipped (when it can be), and reports the first scenario " +
		"that raises. Give the read a fallback: `fromJSON(needs.X.outputs.y || '[]')`.",
	Bad: `on: push
jobs:
  plan:
    runs-on: ubuntu-latest
    outputs: {stages: "${{ steps.p.outputs.stages }}"}
    steps:
      - id: p
        run: echo 'stages=["a"]' >> "$GITHUB_OUTPUT"
  run:
    needs: plan
    if: ${{ !cancelled() && contains(fromJSON(needs.plan.outputs.stages), 'a') }}
    runs-on: ubuntu-latest
    steps: [{run: make a}]
`,
	Good: `on: push
jobs:
  plan:
    runs-on: ubuntu-latest
    outputs: {stages: "${{ steps.p.outputs.stages }}"}
    steps:
      - id: p
        run: echo 'stages=["a"]' >> "$GITHUB_OUTPUT"
  run:
    needs: plan
    if: ${{ !cancelled() && contains(fromJSON(needs.plan.outputs.stages || '[]'), 'a') }}
    runs-on: ubuntu-latest
    steps: [{run: make a}]
`,
	Run: func(p *Pass) {
		for _, j := range p.Workflow.Jobs {
			if j.If == nil || j.If.Expr == nil || !mayRaise(j.If.Expr) {
				continue
			}
			c := simulate.Condition(j)
			root := c.Effective()
			try := func(known map[string]needState) string {
				v := expr.Eval(root, condEnv(j, known, false))
				switch {
				case v.Kind == expr.KindError:
					return v.Why
				case v.Kind == expr.KindUnknown && v.MayErr != "":
					return v.MayErr
				}
				return ""
			}
			var when, msg string
			if m := try(nil); m != "" {
				when, msg = "in some runs", m
			}
			for _, n := range j.Needs {
				if msg != "" {
					break
				}
				nj := p.Workflow.Job(n)
				canSkip := nj != nil && (nj.If != nil || len(nj.Needs) > 0)
				for _, r := range []simulate.Result{simulate.Skipped, simulate.Failure} {
					if r == simulate.Skipped && !canSkip {
						continue
					}
					if m := try(map[string]needState{n: {result: r, outputs: expr.Object(nil)}}); m != "" {
						when, msg = "when "+n+" "+map[simulate.Result]string{simulate.Failure: "fails before setting its outputs", simulate.Skipped: "is skipped"}[r], m
						break
					}
				}
			}
			if msg == "" {
				continue
			}
			line, col := condPos(j)
			p.Report(finding.Finding{Job: j.ID, Line: line, Column: col,
				Message: fmt.Sprintf("%s's if: raises %s (%s): GitHub then fails the job with \"Error when evaluating 'if' for job '%s'\"", j.ID, when, msg, j.ID)})
		}
	},
}

// mayRaise: only fromJSON and format raise during evaluation, so a
// condition without them needs no scenario enumeration.
func mayRaise(n actionlint.ExprNode) bool {
	found := false
	actionlint.VisitExprNode(n, func(node, _ actionlint.ExprNode, entering bool) {
		if c, ok := node.(*actionlint.FuncCallNode); ok && entering {
			switch strings.ToLower(c.Callee) {
			case "fromjson", "format":
				found = true
			}
		}
	})
	return found
}
