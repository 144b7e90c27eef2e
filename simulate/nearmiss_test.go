package simulate

import (
	"os"
	"path/filepath"
	"testing"
	"testing/fstest"
)

// Near misses of job-level continue-on-error. GitHub runs a job whose body
// fails with `continue-on-error: true` to the end and reports its result to
// dependents as success, so jobs that need it run; with `false` (or no key)
// the failure skips them; with an expression we cannot decide which. A
// job that succeeds, is cancelled or is skipped keeps that result whatever
// continue-on-error says: the key only turns a failure into a success. The
// workflow is testdata/continue_on_error.yml: job X is followed by after-X,
// which has no status check and so runs only when X's result is success.
func TestContinueOnErrorNearMiss(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("testdata", "continue_on_error.yml"))
	if err != nil {
		t.Fatal(err)
	}
	w := load(t, fstest.MapFS{"w.yml": {Data: src}}, "w.yml")
	type want struct{ job, verdict, result string }
	tests := []struct {
		name     string
		outcomes map[string]string
		want     []want
	}{
		{"fails: only the literal true turns it into success", map[string]string{"allowed": Failure, "strict": Failure, "unset": Failure, "dynamic": Failure}, []want{
			{"allowed", VerdictRun, Success},
			{"after-allowed", VerdictRun, Success},
			{"strict", VerdictRun, Failure},
			{"after-strict", VerdictSkip, Skipped},
			{"unset", VerdictRun, Failure},
			{"after-unset", VerdictSkip, Skipped},
			{"dynamic", VerdictRun, Unknown},
			{"after-dynamic", VerdictUnknown, Unknown},
		}},
		{"succeeds: the key changes nothing", nil, []want{
			{"allowed", VerdictRun, Success},
			{"after-allowed", VerdictRun, Success},
			{"strict", VerdictRun, Success},
			{"dynamic", VerdictRun, Success},
			{"after-dynamic", VerdictRun, Success},
		}},
		{"cancelled: not a failure, stays cancelled", map[string]string{"allowed": Cancelled, "dynamic": Cancelled}, []want{
			{"allowed", VerdictRun, Cancelled},
			{"after-allowed", VerdictSkip, Skipped},
			{"dynamic", VerdictRun, Cancelled},
			{"after-dynamic", VerdictSkip, Skipped},
		}},
		{"skipped by its own if: the key does not apply", map[string]string{"never": Failure}, []want{
			{"never", VerdictSkip, Skipped},
			{"after-never", VerdictSkip, Skipped},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := map[string]Verdict{}
			for _, v := range Run(w, Scenario{Outcomes: tt.outcomes}) {
				got[v.ID] = v
			}
			for _, x := range tt.want {
				v, ok := got[x.job]
				if !ok {
					t.Fatalf("%s: no verdict", x.job)
				}
				if v.Verdict != x.verdict || v.Result != x.result {
					t.Errorf("%s: %s [%s] (%s), want %s [%s]", x.job, v.Verdict, v.Result, v.Reason, x.verdict, x.result)
				}
			}
		})
	}
}
