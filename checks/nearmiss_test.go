package checks

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/cicheck/cicheck/finding"
)

// Near misses of the bridge guards (gateAnalysis.bridges and
// simulate.Forced.Through). GitHub prefixes an if: without a status check
// with success(), which is false when any transitive ancestor failed or was
// skipped. A bridge is a direct need D with a gate (!cancelled(), always(),
// failure()) that runs through such an ancestor a while the job is still
// skipped: the job's author meant "run when my needs succeed". Each
// workflow in testdata/nearmiss is one step away from a bridge; the job is
// skipped anyway through one of its direct needs, which is what its needs:
// say, so the rules must stay quiet (gpu-gate keeps only its strict-mode
// warning for a GPU-path job without a gate). The files' comments say what
// GitHub does for each job; the other half of each near miss (a job that
// does have the bridge) must still be reported.
func TestBridgeNearMiss(t *testing.T) {
	const R = "gate-reads-unguarded-output"
	tests := []struct {
		file, rule, job string
		want            string // "" quiet, else the finding's severity
	}{
		// Guard: the ancestor a is itself a direct need of the job.
		{"ancestor_is_direct_need", "closure-bridge", "publish", ""},
		{"ancestor_is_direct_need", "closure-bridge", "publish-late", "warning"},
		{"ancestor_is_direct_need", "gpu-gate", "gpu-test", "notice"},
		{"ancestor_is_direct_need", "gpu-gate", "gpu-late", "error"},
		// Guard: another direct need is skipped by a's failure or skip.
		{"sibling_skipped", "closure-bridge", "publish", ""},
		{"sibling_skipped", "closure-bridge", "publish-other", "warning"},
		{"sibling_skipped", "gpu-gate", "gpu-test", "notice"},
		{"sibling_skipped", "gpu-gate", "gpu-other", "error"},
		// Guard: another direct need fails (its if: raises) under a's failure.
		{"sibling_fails", "closure-bridge", "publish", ""},
		// Guard: an if: that does not parse is not an implicit success().
		{"unparsable_if", "gpu-gate", "gpu-test", ""},
		{"parsable_if", "closure-bridge", "publish", "warning"},
		{"parsable_if", "gpu-gate", "gpu-test", "error"},
		// Guard: a workflow GitHub rejects runs no job.
		{"rejected_unknown_need", "gpu-gate", "gpu-test", ""},
		{"rejected_cycle", "gpu-gate", "gpu-test", ""},
		// Certain skips: another direct need skipped by the same skip, an
		// always-skipped job that is no ancestor.
		{"certain", "closure-bridge", "publish", "warning"},
		{"certain", "closure-bridge", "release", "error"},
		{"certain", "closure-bridge", "ship", "warning"},
		// A GPU job with its own gate is not skipped with its ancestor.
		{"gpu_gated_below", "gpu-gate", "prep", "error"},
		{"gpu_gated_below", "gpu-gate", "gpu-test", ""},
		// dead-needs-result: a condition that is false whatever the
		// needs do is not the success() trap.
		{"dead_needs_typo", "dead-needs-result", "cleanup", "error"},
		{"dead_needs_typo", "dead-needs-result", "typo", ""},
		// gate-reads-unguarded-output: a need that is never silently
		// skipped, or a read that something guards.
		{"reads_unguarded", R, "reads-setup", ""},
		{"reads_unguarded", R, "reads-own-repo", ""},
		{"reads_unguarded", R, "reads-not-failed", ""},
		{"reads_unguarded", R, "reads-not-scheduled", "warning"},
		{"reads_unguarded", R, "step-guard", "warning"},
		{"reads_unguarded", R, "step-guard-only", ""},
		{"reads_unguarded", R, "script-guard", ""},
		{"reads_unguarded", R, "passes-result", ""},
		{"reads_unguarded", R, "if-true", ""},
		{"reads_unguarded", R, "not-a-need", ""},
	}
	rules := map[string]*Rule{}
	for _, r := range gateRules {
		rules[r.ID] = r
	}
	for _, tt := range tests {
		t.Run(tt.file+"/"+tt.rule+"/"+tt.job, func(t *testing.T) {
			src, err := os.ReadFile(filepath.Join("testdata", "nearmiss", tt.file+".yml"))
			if err != nil {
				t.Fatal(err)
			}
			r := rules[tt.rule]
			if r == nil {
				t.Fatalf("no gate rule %q", tt.rule)
			}
			w := loadSrc(t, string(src))
			if w.Job(tt.job) == nil {
				t.Fatalf("no job %q in %s", tt.job, tt.file)
			}
			var got []finding.Finding
			for _, f := range Run(w, "", nil, []*Rule{r}) {
				if f.Job == tt.job {
					got = append(got, f)
				}
			}
			switch {
			case tt.want == "" && len(got) > 0:
				t.Errorf("want no finding, got\n%s", render(got))
			case tt.want != "" && (len(got) != 1 || got[0].Severity.String() != tt.want):
				t.Errorf("want one %s, got\n%s", tt.want, render(got))
			}
		})
	}
}

// The certain-skip message names every trigger on which the job could run,
// in sorted order.
func TestCertainMessage(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("testdata", "nearmiss", "certain.yml"))
	if err != nil {
		t.Fatal(err)
	}
	want := "on every pull_request and workflow_dispatch run lint's if: is false, so lint is skipped and release never runs " +
		"(build runs through the skip, but release has no status check, so GitHub gates it on success() of its whole closure)"
	for _, f := range Run(loadSrc(t, string(src)), "", nil, []*Rule{ClosureBridge}) {
		if f.Job == "release" && f.Message != want {
			t.Errorf("release: %s\nwant %s", f.Message, want)
		}
	}
}
