package checks

import (
	"maps"
	"strings"

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
	Doc:      "an if: that tests a direct need for a result other than success, under the implicit success(), is dead or redundant",
	Help: "Without a status-check function GitHub evaluates `success() && (<if>)`, and `success()` is true only " +
		"when every ancestor succeeded. A condition such as `needs.build.result == 'failure'`, `!= 'success'` or " +
		"`== 'skipped'` can then never be true: the job never runs (gha-job-status.md §3).\n\n" +
		"cicheck confirms it by enumerating the direct needs' results: false when all succeed, possibly true " +
		"when one does not. Add a status function, e.g. `if: ${{ !cancelled() && needs.build.result == 'failure' }}` " +
		"or `failure()`.\n\n" +
		"A condition that admits a non-success result but is also true when every need succeeds " +
		"(`needs.build.result != 'skipped'`, the usual cleanup) is not dead, but the test is redundant: the implicit " +
		"`success()` keeps the job from running after a failed build, which is what the test was written for. " +
		"The author most likely meant `!cancelled() && (<the condition>)`, which is the fix in both cases: " +
		"`--fix` adds `!cancelled() &&` before the condition as written.",
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
			dead, redundant := resultTest(j)
			if !dead && !redundant {
				continue
			}
			line, col := condPos(j)
			f := finding.Finding{Job: j.ID, Line: line, Column: col,
				Message: j.ID + "'s if: can only be true when a direct need did not succeed, but without a status function GitHub adds success(), " +
					"which requires every need to succeed: the condition can never be true"}
			if redundant {
				f.Message = j.ID + "'s if: tests a direct need for a result other than success, but without a status function GitHub adds success(), " +
					"which requires every need to succeed: the job never runs after a failed or skipped need and the test is redundant; " +
					"it most likely means to run after a failure too, with !cancelled()"
			}
			p.Report(withEdit(f, j, finding.CondEdit{Terms: "!cancelled()"}))
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
// success() allows).
func deadUnderSuccess(j *workflowgraph.Job) bool {
	all := map[string]needState{}
	for _, n := range j.Needs {
		all[n] = needState{result: simulate.Success}
	}
	env := condEnv(j, all, false)
	env.Success = expr.Bool(true)
	return expr.Eval(j.If.Expr, env).Truthy() == expr.No
}

// admits: j's condition reads the result of a direct need and can be
// true when that need ended with one of results (the other needs
// succeeded).
func admits(j *workflowgraph.Job, results ...simulate.Result) bool {
	if j.If == nil || j.If.Expr == nil {
		return false
	}
	read := resultReads(j)
	all := map[string]needState{}
	for _, n := range j.Needs {
		all[n] = needState{result: simulate.Success}
	}
	for _, n := range j.Needs {
		if !read[strings.ToLower(n)] {
			continue
		}
		for _, r := range results {
			one := maps.Clone(all)
			one[n] = needState{result: r, outputs: expr.Object(nil)}
			if expr.Eval(j.If.Expr, condEnv(j, one, false)).Truthy() != expr.No {
				return true
			}
		}
	}
	return false
}

// resultReads are the direct needs (lower-cased, as expressions match
// them) whose result j's condition reads:
// needs.<id>.result, or all of them through needs.*.result.
func resultReads(j *workflowgraph.Job) map[string]bool {
	out := map[string]bool{}
	actionlint.VisitExprNode(j.If.Expr, func(node, _ actionlint.ExprNode, entering bool) {
		d, ok := node.(*actionlint.ObjectDerefNode)
		if !ok || !entering || !strings.EqualFold(d.Property, "result") {
			return
		}
		if id := simulate.NeedsRef(d.Receiver); id != "" {
			out[id] = true
		} else if a, ok := d.Receiver.(*actionlint.ArrayDerefNode); ok {
			if v, ok := a.Receiver.(*actionlint.VariableNode); ok && v.Name == "needs" {
				for _, n := range j.Needs {
					out[strings.ToLower(n)] = true
				}
			}
		}
	})
	return out
}

// resultTest classifies a condition without a status function that tests
// a direct need's result: dead (true only when a need did not succeed,
// which the implicit success() forbids), redundant (also true when all
// succeed, and meant to run after a failure too), or neither.
func resultTest(j *workflowgraph.Job) (dead, redundant bool) {
	if j.If == nil || j.If.Expr == nil || j.If.HasStatusFunc() || len(j.Needs) == 0 || !readsResult(j.If.Expr) {
		return false, false
	}
	if deadUnderSuccess(j) {
		return admits(j, simulate.Failure, simulate.Cancelled, simulate.Skipped), false
	}
	return false, admits(j, simulate.Failure)
}
