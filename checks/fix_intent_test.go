package checks

import (
	"strings"
	"testing"

	"github.com/cicheck/cicheck/finding"
)

// fixesOf runs the fixable rules on src and returns each finding's fix
// line, by rule and job.
func fixesOf(t *testing.T, src string) map[string]finding.Finding {
	t.Helper()
	out := map[string]finding.Finding{}
	for _, f := range Run(loadSrc(t, src), "w.yml", nil, []*Rule{GPUGate, ClosureBridge, DeadNeedsResult, AlwaysWithoutCancelled, GateReadsUnguardedOutput}) {
		out[f.Rule+"/"+f.Job] = f
	}
	return out
}

// TestFixIntent: a fix never narrows what the job was written for. A
// cleanup that tests `!= 'skipped'` keeps running after a failed build; a
// need read with a fallback gets no success term; a notifier is not told
// to require success. The near misses get the full gate.
func TestFixIntent(t *testing.T) {
	const head = `on: [push, workflow_dispatch]
jobs:
  cpu: {runs-on: ubuntu-latest, steps: [{run: x}]}
  build:
    needs: cpu
    if: ${{ !cancelled() }}
    runs-on: ubuntu-latest
    outputs: {tag: x}
    steps: [{run: x}]
`
	for _, c := range []struct {
		name, job string
		key       string // rule/job
		fix       string // the fix line starts with it
		not       string // and lacks it
	}{
		{"cleanup after a failed build", `  clean:
    needs: build
    if: ${{ needs.build.result != 'skipped' }}
    runs-on: [self-hosted, h100]
    steps: [{run: x}]
`, "dead-needs-result/clean", "if: ${{ !cancelled() && needs.build.result != 'skipped' }}", "== 'success'"},
		{"the same cleanup on the GPU path agrees with gpu-gate", `  clean:
    needs: build
    if: ${{ needs.build.result != 'skipped' }}
    runs-on: [self-hosted, h100]
    steps: [{run: x}]
`, "gpu-gate/clean", "if: ${{ !cancelled() && needs.build.result != 'skipped' }}", "== 'success'"},
		{"a fallback arm", `  gpu:
    needs: build
    if: ${{ inputs.tag || needs.build.outputs.tag }}
    runs-on: [self-hosted, h100]
    steps: [{run: x}]
`, "gpu-gate/gpu", "if: ${{ !cancelled() && (inputs.tag || needs.build.outputs.tag) }}", "needs.build.result"},
		{"near miss: arms reading different needs are no fallback", `  plan:
    runs-on: ubuntu-latest
    outputs: {full: x}
    steps: [{run: x}]
  gpu:
    needs: [build, plan]
    if: ${{ needs.build.outputs.tag != '' || needs.plan.outputs.full == 'true' }}
    runs-on: [self-hosted, h100]
    steps: [{run: x}]
`, "gpu-gate/gpu", "if: ${{ !cancelled() && needs.build.result == 'success' && needs.plan.result == 'success' && (", ""},
		{"near miss: no fallback", `  gpu:
    needs: build
    if: ${{ needs.build.outputs.tag != '' }}
    runs-on: [self-hosted, h100]
    steps: [{run: x}]
`, "gpu-gate/gpu", "if: ${{ !cancelled() && needs.build.result == 'success' && needs.build.outputs.tag != '' }}", ""},
		{"near miss: a success test", `  gpu:
    needs: build
    if: ${{ needs.build.result == 'success' }}
    runs-on: [self-hosted, h100]
    steps: [{run: x}]
`, "gpu-gate/gpu", "if: ${{ !cancelled() && needs.build.result == 'success' }}", "'success' && needs.build.result"},
		{"a notifier reading an output", `  plan:
    runs-on: ubuntu-latest
    if: github.event_name == 'push'
    outputs: {runner: x}
    steps: [{run: x}]
  notify:
    needs: [build, plan]
    if: ${{ always() && needs.plan.outputs.runner != 'none' }}
    runs-on: [self-hosted, h100]
    steps: [{run: x}]
`, "gate-reads-unguarded-output/notify", "guard the read", "if: ${{"},
	} {
		t.Run(c.name, func(t *testing.T) {
			fs := fixesOf(t, head+c.job)
			f, ok := fs[c.key]
			if !ok {
				t.Fatalf("no %s finding: %v", c.key, fs)
			}
			if !strings.HasPrefix(f.Fix, c.fix) || (c.not != "" && strings.Contains(f.Fix, c.not)) {
				t.Errorf("fix %q, want it to start with %q and lack %q", f.Fix, c.fix, c.not)
			}
		})
	}
}

// TestParkedJobIsNotGated: a job disabled with `if: false` gets no gate
// finding and no fix; the near miss, the same job with a live condition,
// does.
func TestParkedJobIsNotGated(t *testing.T) {
	const src = `on: push
jobs:
  cpu: {runs-on: ubuntu-latest, steps: [{run: x}]}
  build:
    needs: cpu
    if: ${{ !cancelled() }}
    runs-on: ubuntu-latest
    steps: [{run: x}]
  gpu:
    needs: build
    if: COND # parked until the runners are back
    runs-on: [self-hosted, h100]
    steps: [{run: x}]
`
	for cond, want := range map[string]bool{"false": false, "${{ false }}": false, "vars.GPU == 'on'": true} {
		_, got := fixesOf(t, strings.Replace(src, "COND", cond, 1))["gpu-gate/gpu"]
		if got != want {
			t.Errorf("if: %s: gpu-gate reported %v, want %v", cond, got, want)
		}
	}
}
