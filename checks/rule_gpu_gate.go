package checks

import (
	"fmt"
	"strings"

	"github.com/cicheck/cicheck/finding"
	"github.com/cicheck/cicheck/internal/plural"
)

// GPUGate is the check cicheck exists for (seed 003): a GPU-path job
// without a status check is gated on success() of its whole closure.
var GPUGate = &Rule{
	ID:       "gpu-gate",
	Severity: finding.Error,
	Doc:      "a GPU-path job without a status check is skipped by failures it does not depend on",
	Help: "A job whose `if:` contains no status-check function (`always()`, `cancelled()`, `failure()`, " +
		"`success()`, found on the parsed expression, case-insensitively, anywhere in it) gets GitHub's implicit " +
		"`success() &&`, and `success()` looks at **every transitive ancestor**, not at the direct needs.\n\n" +
		"So when a direct need D runs through an upstream failure (D is gated on `always()` or `!cancelled()`) " +
		"and succeeds, the job is still skipped: the failure two hops up is in its closure. If the job is on the " +
		"path to the GPU jobs (a GPU job, or an ancestor of one), every GPU job below is skipped with it.\n\n" +
		"- **error**: such a bridge (D, a) exists; the message names a, D and the GPU jobs the skip takes down.\n" +
		"- **notice**: the job has needs but no bridge today; an explicit gate keeps it so when a job is inserted " +
		"upstream. This is advice, not a hazard: it fails nothing and `--fix` leaves it (`--fix=all` applies it). " +
		"`rules.gpu-gate.strict: true` makes these warnings, `strict: false` drops them.\n" +
		"- nothing for jobs without needs.\n" +
		"- one notice for a workflow of more than 10,000 jobs, which the analysis (growing with the square of the " +
		"jobs) does not cover.\n\n" +
		"A GPU job is one whose runner label or group names an accelerator as a whole token (`linux-a100-s2`, " +
		"`aws-g6e-xlarge-plus`, `linux.rocm.gpu.gfx950.1`, `tpuv7x`, `8xh100`; never a GitHub-hosted image), matches " +
		"`gpu.runner-labels`, is listed in `gpu.jobs`, whose symbolic `runs-on` can evaluate to such a label, or " +
		"that asks for a GPU itself (container `--gpus`, a step running `nvidia-smi`); `cicheck runners` shows " +
		"each runner's class and why.\n\n" +
		"The fix keeps the job's intent, built from its direct needs: " +
		"`if: ${{ !cancelled() && needs.D.result == 'success' }}`. A gate in a comment, a string literal " +
		"`'always()'` or a step-level `if:` is not a gate.",
	Bad: `on: push
jobs:
  cpu: {runs-on: ubuntu-latest, steps: [{run: pytest}]}
  build:
    needs: cpu
    if: ${{ !cancelled() }}
    runs-on: ubuntu-latest
    steps: [{run: docker build .}]
  resolve-image:
    needs: build
    runs-on: ubuntu-latest
    steps: [{run: echo image}]
  gpu-tests:
    needs: resolve-image
    if: ${{ !cancelled() && needs.resolve-image.result == 'success' }}
    runs-on: [self-hosted, h100]
    steps: [{run: pytest tests/gpu}]
`,
	Good: `on: push
jobs:
  cpu: {runs-on: ubuntu-latest, steps: [{run: pytest}]}
  build:
    needs: cpu
    if: ${{ !cancelled() }}
    runs-on: ubuntu-latest
    steps: [{run: docker build .}]
  resolve-image:
    needs: build
    if: ${{ !cancelled() && needs.build.result == 'success' }}
    runs-on: ubuntu-latest
    steps: [{run: echo image}]
  gpu-tests:
    needs: resolve-image
    if: ${{ !cancelled() && needs.resolve-image.result == 'success' }}
    runs-on: [self-hosted, h100]
    steps: [{run: pytest tests/gpu}]
`,
	Run: func(p *Pass) {
		g := gateAnalysisOf(p)
		if !g.usable() {
			g.tooBig(p)
			return
		}
		strict, strictSet := p.Config.RuleStrictSet("gpu-gate")
		advice := finding.Notice
		if strict {
			advice = finding.Warning
		}
		for _, j := range p.Workflow.Jobs {
			if !g.path[j.ID] || len(j.Needs) == 0 || !ungated(j) {
				continue
			}
			line, col := condPos(j)
			if bs, total := g.bridges(j); total > 0 {
				msg := fmt.Sprintf("%s has no status check, so GitHub gates it on success() of its whole closure: %s skips it",
					j.ID, describeBridges(bs, total))
				if c := g.certainly(j); c != nil {
					msg = describeCertain(j.ID, c)
				}
				if gpus, n := g.skippedGPU(j); n > 0 {
					if gpus[0] == j.ID {
						msg += " (a GPU job)"
						gpus, n = gpus[1:], n-1
					}
					if n > 0 {
						msg += fmt.Sprintf(", and with it %d GPU %s: %s%s", n, plural.Word(n, "job"),
							strings.Join(gpus[:min(len(gpus), maxListed)], ", "), more(n-maxListed))
					}
				}
				p.Report(withEdit(finding.Finding{Job: j.ID, Line: line, Column: col, Message: msg}, j, gateEdit(j)))
				continue
			}
			if strictSet && !strict {
				continue
			}
			p.Report(withEdit(finding.Finding{Job: j.ID, Line: line, Column: col, Severity: advice,
				Message: j.ID + " is on the GPU path but has no status check: no transitive hazard exists today, " +
					"and an explicit gate keeps it so when a job is inserted upstream"}, j, gateEdit(j)))
		}
	},
}
