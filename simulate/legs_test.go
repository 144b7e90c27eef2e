package simulate

import (
	"strings"
	"testing"
	"testing/fstest"
)

func legsOf(vs []Verdict, id string) (Result, string) {
	for _, v := range vs {
		if v.ID == id {
			var parts []string
			for _, l := range v.Legs {
				parts = append(parts, l.Leg+"="+string(l.Result))
			}
			return v.Result, strings.Join(parts, " ")
		}
	}
	return "", ""
}

// TestMatrixLegs: one leg fails; fail-fast (default) may cancel the legs
// still running; the job fails and its dependents are skipped. Without
// fail-fast the other legs finish; a leg with continue-on-error
// (${{ matrix.experimental }}) does not fail the job.
func TestMatrixLegs(t *testing.T) {
	w := load(t, fstest.MapFS{"w.yml": {Data: []byte(`on: push
jobs:
  test:
    strategy:
      matrix:
        python: ["3.11", "3.12"]
        gpu: [h100, mi300x]
    runs-on: x
    steps: [{run: pytest}]
  slow:
    strategy:
      fail-fast: false
      matrix:
        python: ["3.11", "3.12"]
        include: [{python: "3.13", experimental: "true"}]
    continue-on-error: ${{ matrix.experimental == 'true' }}
    runs-on: x
    steps: [{run: pytest}]
  exp:
    strategy:
      matrix:
        python: ["3.12", "3.13"]
        experimental: ["false"]
        include: [{python: "3.13", experimental: "true"}]
    continue-on-error: ${{ matrix.experimental }}
    runs-on: x
    steps: [{run: pytest}]
  deploy:
    needs: test
    runs-on: x
    steps: [{run: deploy}]
`)}}, "w.yml")
	sc := Scenario{LegOutcomes: map[string][]LegOutcome{
		"test": {{Select: map[string]string{"python": "3.12", "gpu": "mi300x"}, Outcome: Failure}},
		"slow": {{Select: map[string]string{"python": "3.11"}, Outcome: Failure}},
		"exp":  {{Select: map[string]string{"python": "3.13", "experimental": "true"}, Outcome: Failure}},
	}}
	vs := Run(w, sc)
	for _, c := range []struct {
		id     string
		result Result
		legs   string
	}{
		{"test", Failure, "python=3.11,gpu=h100=cancelled|success python=3.11,gpu=mi300x=cancelled|success python=3.12,gpu=h100=cancelled|success python=3.12,gpu=mi300x=failure"},
		// continue-on-error is an expression other than matrix.K: unknown.
		{"slow", Unknown, "python=3.11=unknown python=3.12=success python=3.13,experimental=true=success"},
		// The include entry would overwrite an original value: a leg of its own.
		{"exp", Success, "python=3.12,experimental=false=success python=3.13,experimental=false=success python=3.13,experimental=true=success"},
	} {
		if r, l := legsOf(vs, c.id); r != c.result || l != c.legs {
			t.Errorf("%s: %s [%s], want %s [%s]", c.id, r, l, c.result, c.legs)
		}
	}
	for _, v := range vs {
		if v.ID == "deploy" && v.Verdict != VerdictSkip {
			t.Errorf("deploy: %s (%s), want skip: test failed", v.Verdict, v.Reason)
		}
	}
	// Without named legs, a matrix job is one job, as before.
	if r, l := legsOf(Run(w, Scenario{Outcomes: map[string]Result{"test": Failure}}), "test"); r != Failure || l != "" {
		t.Errorf("unnamed legs: %s [%s]", r, l)
	}
}
