package checks

import (
	"github.com/cicheck/cicheck/expr"
	"github.com/cicheck/cicheck/finding"
)

// AlwaysWithoutCancelled flags GPU-path jobs that keep being scheduled
// after a run is cancelled.
var AlwaysWithoutCancelled = &Rule{
	ID:       "always-without-cancelled",
	Severity: finding.Warning,
	Doc:      "a GPU-path job gated on always() keeps being scheduled after the run is cancelled",
	Help: "`always()` is true even after the workflow run is cancelled: a job gated on it is still scheduled " +
		"when its needs finish, and a running one is not cancelled (gha-job-status.md §5). On the GPU path that " +
		"holds scarce runners for a run nobody wants, for example one superseded by a `concurrency` group with " +
		"`cancel-in-progress`.\n\ncicheck evaluates the condition with the run cancelled; when it can still be " +
		"true, it suggests `!cancelled()` in place of `always()`, which GitHub recommends.",
	Bad: `on: push
jobs:
  build: {runs-on: ubuntu-latest, steps: [{run: make}]}
  gpu:
    needs: build
    if: ${{ always() && needs.build.result == 'success' }}
    runs-on: [self-hosted, h100]
    steps: [{run: make gpu-test}]
`,
	Good: `on: push
jobs:
  build: {runs-on: ubuntu-latest, steps: [{run: make}]}
  gpu:
    needs: build
    if: ${{ !cancelled() && needs.build.result == 'success' }}
    runs-on: [self-hosted, h100]
    steps: [{run: make gpu-test}]
`,
	Run: func(p *Pass) {
		g := gateAnalysisOf(p)
		for _, j := range p.Workflow.Jobs {
			if !g.path[j.ID] || j.If == nil || j.If.Expr == nil {
				continue
			}
			if !containsStr(j.If.StatusFuncs(), "always") || hasNotCancelled(j.If.Expr) {
				continue
			}
			if expr.Eval(j.If.Expr, condEnv(j, nil, true)).Truthy() == expr.No {
				continue // something else in the condition stops it after a cancel
			}
			line, col := condPos(j)
			p.Report(withEdit(finding.Finding{Job: j.ID, Line: line, Column: col,
				Message: j.ID + " is on the GPU path and gated on always() without !cancelled(): after the run is cancelled GitHub still schedules it and it holds scarce runners"},
				j, finding.CondEdit{Cancel: true}))
		}
	},
}

func containsStr(s []string, x string) bool {
	for _, v := range s {
		if v == x {
			return true
		}
	}
	return false
}
