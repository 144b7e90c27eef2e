package checks

import (
	"fmt"

	"github.com/cicheck/cicheck/finding"
)

// ClosureBridge is gpu-gate's bridge test for jobs off the GPU path.
var ClosureBridge = &Rule{
	ID:       "closure-bridge",
	Severity: finding.Warning,
	Doc:      "a job without a status check is skipped by an upstream failure that one of its needs runs through",
	Help: "A job whose `if:` has no status-check function is gated on `success()` over its whole dependency " +
		"closure. When one of its direct needs D is gated on `always()`, `!cancelled()` or `failure()` and so runs " +
		"(and may succeed) after an ancestor a failed or was skipped, the job is skipped anyway: every direct need " +
		"succeeded, yet a is in its closure (actions/runner#2205).\n\n" +
		"This is the `gpu-gate` test for jobs that are not on the path to a GPU job. The fix gates the job on its " +
		"direct needs explicitly: `if: ${{ !cancelled() && needs.D.result == 'success' }}`.\n\n" +
		"A workflow of more than 10,000 jobs gets one notice instead: the analysis grows with the square of the jobs.",
	Bad: `on: push
jobs:
  a: {runs-on: ubuntu-latest, steps: [{run: make lint}]}
  b:
    needs: a
    if: ${{ !cancelled() }}
    runs-on: ubuntu-latest
    steps: [{run: make build}]
  c:
    needs: b
    runs-on: ubuntu-latest
    steps: [{run: make publish}]
`,
	Good: `on: push
jobs:
  a: {runs-on: ubuntu-latest, steps: [{run: make lint}]}
  b:
    needs: a
    if: ${{ !cancelled() }}
    runs-on: ubuntu-latest
    steps: [{run: make build}]
  c:
    needs: b
    if: ${{ !cancelled() && needs.b.result == 'success' }}
    runs-on: ubuntu-latest
    steps: [{run: make publish}]
`,
	Run: func(p *Pass) {
		g := gateAnalysisOf(p)
		if !g.usable() {
			g.tooBig(p)
			return
		}
		for _, j := range p.Workflow.Jobs {
			if g.path[j.ID] {
				continue // gpu-gate's
			}
			bs, total := g.bridges(j)
			if total == 0 {
				continue
			}
			line, col := condPos(j)
			f := finding.Finding{Job: j.ID, Line: line, Column: col,
				Message: fmt.Sprintf("%s has no status check, so GitHub gates it on success() of its whole closure: %s skips it although its direct needs succeed",
					j.ID, describeBridges(bs, total))}
			if c := g.certainly(j); c != nil {
				// Not a hypothesis: the job never runs.
				f.Severity, f.Message = finding.Error, describeCertain(j.ID, c)
			}
			p.Report(withEdit(f, j, gateEdit(j)))
		}
	},
}
