package simulate

import (
	"strings"
	"testing"
	"testing/fstest"
)

// Refusals are reported in line order, whichever check found them: a cycle
// further down (found first) comes after an if: reading a context a
// job-level if: does not have, higher up.
func TestRefusalsInLineOrder(t *testing.T) {
	w := load(t, fstest.MapFS{"w.yml": {Data: []byte(`on: push
jobs:
  early:
    if: env.X == 'y'
    runs-on: ubuntu-latest
    steps: [{run: a}]
  b:
    needs: c
    runs-on: ubuntu-latest
    steps: [{run: b}]
  c:
    needs: b
    runs-on: ubuntu-latest
    steps: [{run: c}]
`)}}, "w.yml")
	rs := New(w).Refused()
	if len(rs) < 2 {
		t.Fatalf("refusals = %v, want the if: and the cycle", rs)
	}
	for i := 1; i < len(rs); i++ {
		if rs[i].Line < rs[i-1].Line {
			t.Errorf("refusals out of line order: %v", rs)
		}
	}
	if rs[0].Job != "early" || !strings.Contains(rs[len(rs)-1].Reason, "cycle") {
		t.Errorf("refusals = %v, want early's if: first and the cycle last", rs)
	}
}

// Legs named for a job without a matrix (possible through the API; the
// CLI refuses them) leave its result unknown rather than inventing one,
// whatever its body does; the same outcome named for the whole job is
// known.
func TestLegsOfJobWithoutMatrix(t *testing.T) {
	w := load(t, fstest.MapFS{"w.yml": {Data: []byte(`on: push
jobs:
  plain:
    runs-on: ubuntu-latest
    steps: [{run: a}]
`)}}, "w.yml")
	vs := Run(w, Scenario{LegOutcomes: map[string][]LegOutcome{"plain": {{Select: map[string]string{"py": "3.11"}, Outcome: Failure}}}})
	for _, v := range vs {
		if v.ID == "plain" && (v.Result != Unknown || !strings.HasSuffix(v.Reason, "it has no matrix, so it has no legs to name")) {
			t.Errorf("plain with named legs: %s (%s), want unknown: no matrix", v.Result, v.Reason)
		}
	}
	vs = Run(w, Scenario{Outcomes: map[string]Result{"plain": Failure}})
	if r, _ := legsOf(vs, "plain"); r != Failure {
		t.Errorf("plain failing as a whole: %s, want failure", r)
	}
}

// A reusable workflow's output declared without a value (GitHub requires
// one; actionlint reports it) is skipped, not read: the caller's other
// outputs still resolve and nothing panics (the called workflow is
// simulated once one of its jobs is named).
func TestCalledOutputWithoutValue(t *testing.T) {
	w := load(t, fstest.MapFS{
		".github/workflows/caller.yml": {Data: []byte(`on: push
jobs:
  call:
    uses: ./.github/workflows/called.yml
  after:
    needs: call
    if: always() && needs.call.outputs.good == 'live'
    runs-on: ubuntu-latest
    steps: [{run: a}]
`)},
		".github/workflows/called.yml": {Data: []byte(`on:
  workflow_call:
    outputs:
      good:
        value: "${{ cancelled() && 'stopped' || 'live' }}"
      novalue:
        description: declared without a value
jobs:
  inner:
    runs-on: ubuntu-latest
    steps: [{run: b}]
`)},
	}, ".github/workflows/caller.yml")
	vs := Run(w, Scenario{Event: "push", Outcomes: map[string]Result{"call/inner": Success}})
	for _, v := range vs {
		if v.ID == "after" && v.Verdict != VerdictRun {
			t.Errorf("after: %s (%s), want run: the declared output resolves", v.Verdict, v.Reason)
		}
	}
}
