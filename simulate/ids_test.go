package simulate

import (
	"testing"
	"testing/fstest"
)

// TestIDsCaseInsensitive: verdicts carry the jobs' keys as written, while
// needs: entries, needs.<id> reads in conditions and the jobs a scenario
// names match in any case, as on GitHub. Each near miss would flip if a
// look-up became case-sensitive: Report reads needs.BUILD, which must be
// Build's result (null would keep it from running after the failure), and
// "build" in the scenario must fail Build.
func TestIDsCaseInsensitive(t *testing.T) {
	w := load(t, fstest.MapFS{"w.yml": {Data: []byte(`on: push
jobs:
  Build:
    runs-on: ubuntu-latest
    steps: [{run: make}]
  GPU_Test:
    needs: build
    runs-on: [self-hosted, h100]
    steps: [{run: make}]
  Report:
    needs: [BUILD, gpu_test]
    if: ${{ always() && needs.BUILD.result == 'failure' && needs.Gpu_Test.result == 'skipped' }}
    runs-on: ubuntu-latest
    steps: [{run: make}]
`)}}, "w.yml")
	got := render(Run(w, Scenario{Outcomes: map[string]Result{"build": Failure}}))
	want := `Build: run [failure]: implicit success() is true; ends failure (scenario)
GPU_Test: skip [skipped]: implicit success() is false: Build failed (direct need)
Report: run [success]: condition is true
`
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	// Without the failure Report is skipped; the condition and the note
	// name the job as its key is written, however the condition spells it.
	got = render(Run(w, Scenario{}))
	want = `Build: run [success]: implicit success() is true
GPU_Test: run [success]: implicit success() is true
Report: skip [skipped]: condition is false: needs.Build.result == 'failure' is false (Build: success)
`
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	// The forced table answers for ids in any case.
	f := New(w).Forced()
	if !f.IsAncestor("BUILD", "gpu_test") || !f.Skipped("GPU_TEST", "build", Failure) {
		t.Errorf("forced look-ups must fold case")
	}
}
