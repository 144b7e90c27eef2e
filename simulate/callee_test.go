package simulate

import (
	"strings"
	"testing"
	"testing/fstest"
)

// TestCalledWorkflow: a job inside a local reusable workflow is named
// CALLER/INNER; the caller's result is aggregated from the called jobs
// (a failure fails it and skips its dependents); the called workflow sees
// the caller's with: values as inputs even on push; when every called job
// is skipped the caller's result is unknown (undocumented).
func TestCalledWorkflow(t *testing.T) {
	fsys := fstest.MapFS{
		".github/workflows/ci.yml": {Data: []byte(`on: push
jobs:
  gpu:
    uses: ./.github/workflows/suite.yml
    with: {suite: e2e}
  after:
    needs: gpu
    runs-on: x
    steps: [{run: echo}]
  publish:
    needs: gpu
    if: needs.gpu.outputs.verdict == 'pass'
    runs-on: x
    steps: [{run: echo}]
`)},
		".github/workflows/suite.yml": {Data: []byte(`on:
  workflow_call:
    inputs: {suite: {type: string}}
    outputs:
      verdict: {value: "${{ jobs.test.outputs.verdict }}"}
jobs:
  test:
    if: inputs.suite == 'e2e'
    runs-on: [self-hosted, h100]
    outputs: {verdict: "${{ steps.s.outputs.verdict }}"}
    steps: [{id: s, run: pytest}]
  lint:
    runs-on: x
    steps: [{run: lint}]
`)},
	}
	w := load(t, fsys, ".github/workflows/ci.yml")
	find := func(vs []Verdict, id string) Verdict {
		for _, v := range vs {
			if v.ID == id {
				return v
			}
		}
		t.Fatalf("no verdict for %s", id)
		return Verdict{}
	}
	vs := Run(w, Scenario{Event: "push", Outcomes: map[string]Result{"gpu/test": Failure}})
	if g := find(vs, "gpu"); g.Result != Failure || len(g.Called) != 2 || find(g.Called, "test").Result != Failure {
		t.Errorf("gpu: %s %+v", g.Result, g.Called)
	}
	if a := find(vs, "after"); a.Verdict != VerdictSkip {
		t.Errorf("after: %s, want skip", a.Verdict)
	}
	// The with: value reaches the called workflow's if: on push.
	vs = Run(w, Scenario{Event: "push", Outcomes: map[string]Result{"gpu/lint": Success}})
	if g := find(vs, "gpu"); g.Result != Success || find(g.Called, "test").Verdict != VerdictRun {
		t.Errorf("gpu with suite=e2e: %s, test %s", g.Result, find(g.Called, "test").Verdict)
	}
	vs = Run(w, Scenario{Event: "push", Results: map[string]Result{"gpu/test": Skipped, "gpu/lint": Skipped}})
	if g := find(vs, "gpu"); g.Result != Unknown {
		t.Errorf("every called job skipped: %s, want unknown", g.Result)
	}
	// The caller's output comes from the called job's, through
	// on.workflow_call.outputs.
	vs = Run(w, Scenario{Event: "push", Outputs: map[string]map[string]string{"gpu/test": {"verdict": "pass"}}, Outcomes: map[string]Result{"gpu/lint": Success}})
	if p := find(vs, "publish"); p.Verdict != VerdictRun {
		t.Errorf("publish with the called job's verdict=pass: %s (%s)", p.Verdict, p.Reason)
	}
	vs = Run(w, Scenario{Event: "push", Outputs: map[string]map[string]string{"gpu/test": {"verdict": "fail"}}, Outcomes: map[string]Result{"gpu/lint": Success}})
	if p := find(vs, "publish"); p.Verdict != VerdictSkip {
		t.Errorf("publish with verdict=fail: %s (%s)", p.Verdict, p.Reason)
	}
	// Not naming a called job keeps the caller a black box, as before.
	if g := find(Run(w, Scenario{Event: "push"}), "gpu"); g.Called != nil || g.Result != Success {
		t.Errorf("unnamed: %s %+v", g.Result, g.Called)
	}
}

// TestCalledWorkflowDetails: the caller's reason names the first called
// job whose result is unknown; a called workflow's output that reads
// cancelled() sees a run that was not cancelled; an output that is not
// exactly one ${{ }} expression stays unknown.
func TestCalledWorkflowDetails(t *testing.T) {
	fsys := fstest.MapFS{
		".github/workflows/ci.yml": {Data: []byte(`on: push
jobs:
  call:
    uses: ./.github/workflows/called.yml
  on-live:
    needs: call
    if: always() && needs.call.outputs.state == 'live'
    runs-on: x
    steps: [{run: echo}]
  on-mixed:
    needs: call
    if: always() && needs.call.outputs.mixed == 'v-x'
    runs-on: x
    steps: [{run: echo}]
`)},
		".github/workflows/called.yml": {Data: []byte(`on:
  workflow_call:
    outputs:
      state: {value: "${{ cancelled() && 'stopped' || 'live' }}"}
      mixed: {value: "v-${{ jobs.a.outputs.v }}"}
jobs:
  a:
    if: vars.RUN == 'y'
    runs-on: x
    outputs: {v: x}
    steps: [{run: echo}]
  b:
    if: vars.RUN == 'y'
    runs-on: x
    steps: [{run: echo}]
`)},
	}
	w := load(t, fsys, ".github/workflows/ci.yml")
	vs := Run(w, Scenario{Event: "push", Outcomes: map[string]Result{"call/b": Success}})
	for _, v := range vs {
		if v.ID == "call" && (v.Result != Unknown || !strings.HasSuffix(v.Reason, "called job a's result is not known")) {
			t.Errorf("call: %s (%s), want unknown naming a, the first", v.Result, v.Reason)
		}
	}
	vs = Run(w, Scenario{Event: "push", Set: map[string]string{"vars.RUN": "y"}, Outcomes: map[string]Result{"call/b": Success}})
	for _, v := range vs {
		switch v.ID {
		case "on-live":
			if v.Verdict != VerdictRun {
				t.Errorf("on-live: %s (%s), want run", v.Verdict, v.Reason)
			}
		case "on-mixed":
			if v.Verdict != VerdictUnknown {
				t.Errorf("on-mixed: %s (%s), want unknown (not one expression)", v.Verdict, v.Reason)
			}
		}
	}
}
