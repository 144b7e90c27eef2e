package checks

import (
	"strings"
	"testing"
)

// TestDeadNeedsResultForms: the rule reads needs.<id>.result and the
// needs.*.result filter (contains(needs.*.result, 'failure') is the common
// "notify on failure" idiom that, without a status function, never runs).
func TestDeadNeedsResultForms(t *testing.T) {
	for _, r := range []struct {
		cond string
		want string // "dead", "redundant" or ""
	}{
		{"needs.a.result != 'success'", "dead"},
		{"contains(needs.*.result, 'failure')", "dead"},
		{"contains(needs.*.result, 'skipped') || contains(needs.*.result, 'cancelled')", "dead"},
		{"${{ !contains(needs.*.result, 'failure') }}", ""}, // admits a skip, not a failure
		// The cleanup idiom: meant to run after a failed build too.
		{"needs.a.result != 'skipped'", "redundant"},
		{"contains(needs.*.result, 'failure') || github.event_name == 'push'", "redundant"},
		{"needs.a.result == 'success'", ""},
		// b's result is not read: a failed b is not what the test is about.
		{"needs.a.result == 'success' && vars.X", ""},
		{"needs.a.result == 'success' || needs.a.result == 'skipped'", ""},
	} {
		src := `on: push
jobs:
  a:
    runs-on: ubuntu-latest
    steps: [{run: x}]
  b:
    runs-on: ubuntu-latest
    steps: [{run: x}]
  c:
    needs: [a, b]
    if: ` + r.cond + `
    runs-on: ubuntu-latest
    steps: [{run: x}]
`
		got := render(Run(loadSrc(t, src), "", nil, []*Rule{DeadNeedsResult}))
		kind := ""
		if strings.Contains(got, "[dead-needs-result]") {
			kind = "dead"
			if strings.Contains(got, "redundant") {
				kind = "redundant"
			}
		}
		if kind != r.want {
			t.Errorf("%s: %q, want %q\n%s", r.cond, kind, r.want, got)
		}
	}
}
