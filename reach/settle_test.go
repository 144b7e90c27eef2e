package reach_test

import (
	"testing"

	"github.com/cicheck/cicheck/reach"
	"github.com/cicheck/cicheck/simulate"
)

// TestSettle: a job proven never to run is settled as skipped where
// simulate leaves it unknown, but not in a scenario the proof does not
// cover: a ref set outside the trigger's filter, an input given, or an
// event the workflow does not run on.
func TestSettle(t *testing.T) {
	w := load(t, "on:\n  push:\n    branches: [main]\njobs:\n"+job("gpu", "", "github.ref != 'refs/heads/main' && vars.X == 'y'"))
	verdict := func(sc simulate.Scenario) simulate.Decision {
		return reach.Settle(w, sc, simulate.Run(w, sc))[0].Verdict
	}
	if got := verdict(simulate.Scenario{}); got != simulate.VerdictSkip {
		t.Errorf("no facts: %s, want skip", got)
	}
	if got := verdict(simulate.Scenario{Event: "push"}); got != simulate.VerdictSkip {
		t.Errorf("its own event: %s, want skip", got)
	}
	for name, sc := range map[string]simulate.Scenario{
		"a ref outside the filter": {Set: map[string]string{"github.ref": "refs/heads/dev"}},
		"another event":            {Event: "workflow_dispatch"},
		"an input":                 {Inputs: map[string]string{"x": "1"}},
	} {
		if got := verdict(sc); got != simulate.VerdictUnknown {
			t.Errorf("%s: %s, want unknown (simulate's own verdict)", name, got)
		}
	}
}
