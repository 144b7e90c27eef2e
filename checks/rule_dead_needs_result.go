package checks

import (
	"github.com/rhysd/actionlint"

	"github.com/cicheck/cicheck/expr"
	"github.com/cicheck/cicheck/finding"
	"github.com/cicheck/cicheck/simulate"
	"github.com/cicheck/cicheck/workflowgraph"
)

// DeadNeedsResult flags conditions that test for a failed need under the
// implicit success(), which requires every need to succeed.
var DeadNeedsResult = &Rule{
	ID:       "dead-needs-result",
	Severity: finding.Error,
	Doc:      "an if: that needs a direct need to not succeed, under the implicit success(), can never be true",
	Help: "Without a status-check function GitHub evaluates `success() && (<if>)`, and `success()` is true only " +
		"when every ancestor succeeded. A condition such as `needs.build.result == 'failure'`, `!= 'success'` or " +
		"`== 'skipped'` can then never be true: the job never runs (gha-job-status.md §3).\n\n" +
		"cicheck confirms it by enumerating the direct needs' results: false when all succeed, possibly true " +
		"when one does not. Add a status function, e.g. `if: ${{ !cancelled() && needs.build.result == 'failure' }}` " +
		"or `failure()`.",
	Bad: `on: push
jobs:
  build: {runs-on: ubuntu-latest, steps: [{run: make}]}
  report-failure:
    needs: build
    if: needs.build.result == 'failure'
    runs-on: ubuntu-latest
    steps: [{run: ./notify.sh}]
`,
	Good: `on: push
jobs:
  build: {runs-on: ubuntu-latest, steps: [{run: make}]}
  report-failure:
    needs: build
    if: ${{ !cancelled() && needs.build.result == 'failure' }}
    runs-on: ubuntu-latest
    steps: [{run: ./notify.sh}]
`,
	Run: func(p *Pass) {
		for _, j := range p.Workflow.Jobs {
			if j.If == nil || j.If.Expr == nil || j.If.HasStatusFunc() || len(j.Needs) == 0 || !readsResult(j.If.Expr) {
				continue
			}
			if !deadUnderSuccess(j) {
				continue
			}
			line, col := condPos(j)
			p.Report(finding.Finding{Job: j.ID, Line: line, Column: col,
				Fix: "if: ${{ !cancelled() && " + paren(j.If.Expr) + " }}",
				Message: j.ID + "'s if: can only be true when a direct need did not succeed, but without a status function GitHub adds success(), " +
					"which requires every need to succeed: the condition can never be true"})
		}
	},
}

func readsResult(n actionlint.ExprNode) bool {
	found := false
	actionlint.VisitExprNode(n, func(node, _ actionlint.ExprNode, entering bool) {
		d, ok := node.(*actionlint.ObjectDerefNode)
		if !ok || !entering || d.Property != "result" {
			return
		}
		// needs.<id>.result, or the needs.*.result filter
		// (contains(needs.*.result, 'failure')).
		if simulate.NeedsRef(d.Receiver) != "" {
			found = true
		} else if a, ok := d.Receiver.(*actionlint.ArrayDerefNode); ok {
			if v, ok := a.Receiver.(*actionlint.VariableNode); ok && v.Name == "needs" {
				found = true
			}
		}
	})
	return found
}

// deadUnderSuccess: false when every direct need succeeded (the only case
// success() allows), possibly true when one of them did not.
func deadUnderSuccess(j *workflowgraph.Job) bool {
	all := map[string]needState{}
	for _, n := range j.Needs {
		all[n] = needState{result: simulate.Success}
	}
	env := condEnv(j, all, false)
	env.Success = expr.Bool(true)
	if expr.Eval(j.If.Expr, env).Truthy() != expr.No {
		return false
	}
	for _, n := range j.Needs {
		for _, r := range []simulate.Result{simulate.Failure, simulate.Cancelled, simulate.Skipped} {
			one := map[string]needState{}
			for k, v := range all {
				one[k] = v
			}
			one[n] = needState{result: r, outputs: expr.Object(nil)}
			if expr.Eval(j.If.Expr, condEnv(j, one, false)).Truthy() != expr.No {
				return true
			}
		}
	}
	return false
}
