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
		dead bool
	}{
		{"needs.a.result != 'success'", true},
		{"contains(needs.*.result, 'failure')", true},
		{"contains(needs.*.result, 'skipped') || contains(needs.*.result, 'cancelled')", true},
		{"${{ !contains(needs.*.result, 'failure') }}", false},
		{"contains(needs.*.result, 'failure') || github.event_name == 'push'", false},
		{"needs.a.result == 'success'", false},
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
		if dead := strings.Contains(got, "[dead-needs-result]"); dead != r.dead {
			t.Errorf("%s: dead = %v, want %v\n%s", r.cond, dead, r.dead, got)
		}
	}
}
