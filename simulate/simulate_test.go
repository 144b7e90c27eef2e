package simulate

import (
	"os"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/cicheck/cicheck/workflowgraph"
)

func load(t *testing.T, fsys fstest.MapFS, path string) *workflowgraph.Workflow {
	t.Helper()
	w, _, err := workflowgraph.Load(fsys, path)
	if err != nil || w == nil {
		t.Fatalf("load %s: %v", path, err)
	}
	return w
}

func fixture(t *testing.T, dir string) *workflowgraph.Workflow {
	t.Helper()
	fsys := fstest.MapFS{}
	for _, f := range []string{"pr-test.yml", "gpu-stage.yml"} {
		b, err := os.ReadFile("../fixtures/" + dir + "/.github/workflows/" + f)
		if err != nil {
			t.Fatal(err)
		}
		fsys[".github/workflows/"+f] = &fstest.MapFile{Data: b}
	}
	return load(t, fsys, ".github/workflows/pr-test.yml")
}

func render(vs []Verdict) string {
	var b strings.Builder
	for _, v := range vs {
		b.WriteString(v.ID + ": " + string(v.Verdict) + " [" + string(v.Result) + "]: " + v.Reason + "\n")
	}
	return b.String()
}

var nightly = Scenario{
	Event:    "schedule",
	Outcomes: map[string]Result{"stage-a-cpu": Failure},
	Outputs:  map[string]map[string]string{"resolve-ci-policy": {"bypass_fastfail": "true", "skipped_stages": "[]"}, "resolve-ci-image": {"container_image": "img"}},
}

// Spec §12: the seed-003 incident and its fix.
func TestSeed003(t *testing.T) {
	got := render(Run(fixture(t, "gate-broken"), nightly))
	want := `resolve-ci-policy: run [success]: implicit success() and the condition are true
stage-a-cpu: run [failure]: implicit success() is true; ends failure (scenario)
docker-build: run [success]: condition is true
resolve-ci-image: skip [skipped]: implicit success() is false: stage-a-cpu failed (ancestor via docker-build)
`
	if !strings.HasPrefix(got, want) {
		t.Errorf("broken:\n%s\nwant prefix\n%s", got, want)
	}
	if n := strings.Count(got, "gpu-"); n != 7 || strings.Count(got, ": skip [skipped]: condition is false: needs.resolve-ci-image.result == 'success' is false (resolve-ci-image: skipped)") != 7 {
		t.Errorf("broken: want 7 GPU stages skipped through resolve-ci-image:\n%s", got)
	}
	got = render(Run(fixture(t, "gate-fixed"), nightly))
	if strings.Count(got, "gpu-") != 7 || strings.Count(got, "gpu-h1") != 3 || strings.Contains(got, "skip") {
		t.Errorf("fixed: want every job to run:\n%s", got)
	}
	// Without the bypass, docker-build is skipped and everything below too.
	noBypass := nightly
	noBypass.Outputs = map[string]map[string]string{"resolve-ci-policy": {"bypass_fastfail": "false", "skipped_stages": "[]"}}
	for _, v := range Run(fixture(t, "gate-fixed"), noBypass) {
		if v.ID != "resolve-ci-policy" && v.ID != "stage-a-cpu" && v.Verdict != VerdictSkip {
			t.Errorf("fixed without bypass: %s %s: %s", v.ID, v.Verdict, v.Reason)
		}
	}
}

func TestScenarios(t *testing.T) {
	src := `on: push
jobs:
  a:
    if: false
    runs-on: x
    steps: [{run: a}]
  b:
    needs: a
    if: ${{ !cancelled() }}
    runs-on: x
    steps: [{run: b}]
  c:
    needs: b
    runs-on: x
    steps: [{run: c}]
  d:
    needs: b
    if: vars.gpu == 'true' && always()
    runs-on: x
    steps: [{run: d}]
  e:
    needs: [b]
    if: always() && fromJSON(needs.b.outputs.list)
    outputs: {}
    runs-on: x
    steps: [{run: d}]
  f:
    needs: a
    if: failure()
    runs-on: x
    steps: [{run: f}]
`
	w := load(t, fstest.MapFS{"w.yml": {Data: []byte(src)}}, "w.yml")
	tests := []struct {
		name string
		sc   Scenario
		want string
	}{
		{"runner#2205", Scenario{}, `a: skip [skipped]: condition is false: false is false
b: run [success]: condition is true
c: skip [skipped]: implicit success() is false: a was skipped (ancestor via b)
d: unknown [unknown]: condition is unknown: vars.gpu is not given
e: skip [failure]: evaluating if: raises (fromJSON: empty input is not JSON), so GitHub fails the job without running it
f: skip [skipped]: condition is false: failure() is false: no ancestor failed
`},
		{"cancel", Scenario{Cancelled: true, Set: map[string]string{"vars.gpu": "TRUE"}}, `a: skip [skipped]: implicit success() is false: the run was cancelled, so it ends cancelled|skipped
b: skip [skipped]: condition is false: the run was cancelled, so it ends cancelled|skipped
c: skip [skipped]: implicit success() is false: the run was cancelled, so it ends cancelled|skipped
d: run [success]: condition is true
e: skip [failure]: evaluating if: raises (fromJSON: empty input is not JSON), so GitHub fails the job without running it
f: skip [skipped]: condition is false: failure() is false: no ancestor failed; the run was cancelled, so it ends cancelled|skipped
`},
		{"forced", Scenario{Results: map[string]Result{"A": Failure}, DefaultOutcome: Unknown}, `a: run [failure]: given by the scenario: failure
b: run [unknown]: condition is true
c: skip [skipped]: implicit success() is false: a failed (ancestor via b)
d: unknown [unknown]: condition is unknown: vars.gpu is not given
e: unknown [unknown]: condition is unknown: b may or may not run
f: run [unknown]: condition is true
`},
	}
	for _, tt := range tests {
		if got := render(Run(w, tt.sc)); got != tt.want {
			t.Errorf("%s:\n%s\nwant\n%s", tt.name, got, tt.want)
		}
	}
}

func TestInvalid(t *testing.T) {
	w := load(t, fstest.MapFS{"w.yml": {Data: []byte("on: push\njobs:\n  a: {needs: b, runs-on: x, steps: [{run: a}]}\n  b: {needs: a, runs-on: x, steps: [{run: a}]}\n")}}, "w.yml")
	for _, v := range Run(w, Scenario{}) {
		if v.Verdict != VerdictSkip || !strings.Contains(v.Reason, "cycle") {
			t.Errorf("%+v", v)
		}
	}
}

func TestContexts(t *testing.T) {
	src := `on: [pull_request, workflow_dispatch]
jobs:
  gpu:
    if: contains(github.event.pull_request.labels.*.name, 'run-gpu') || inputs.force
    runs-on: x
    steps: [{run: a}]
  ref:
    if: github.ref == 'refs/heads/main' && vars.ENABLED == 'yes'
    runs-on: x
    steps: [{run: a}]
  push-only:
    if: github.event_name == 'push' && github.event.action != 'closed'
    runs-on: x
    steps: [{run: a}]
`
	w := load(t, fstest.MapFS{"w.yml": {Data: []byte(src)}}, "w.yml")
	tests := []struct {
		name string
		sc   Scenario
		want string
	}{
		{"labelled", Scenario{Event: "pull_request", Labels: []string{"Run-GPU"}}, "run unknown skip"},
		{"unlabelled", Scenario{Event: "pull_request", Labels: []string{}, Inputs: map[string]string{"force": "false"}}, "skip unknown skip"},
		{"dispatch", Scenario{Event: "workflow_dispatch", Inputs: map[string]string{"force": "true"}}, "run unknown skip"},
		// On push the inputs context is empty: inputs.force is null.
		{"push", Scenario{Event: "push", Set: map[string]string{"github.ref": "refs/heads/main", "vars.enabled": "YES"}}, "skip run run"},
		// With no event, inputs stay unknown.
		{"no event", Scenario{Set: map[string]string{"github.ref": "refs/heads/main", "vars.enabled": "YES"}}, "unknown run unknown"},
	}
	for _, tt := range tests {
		var got []string
		for _, v := range Run(w, tt.sc) {
			got = append(got, string(v.Verdict))
		}
		if g := strings.Join(got, " "); g != tt.want {
			t.Errorf("%s: got %s, want %s", tt.name, g, tt.want)
		}
	}
}

// TestInputsEmptyOffDispatch: GitHub fills inputs only for
// workflow_dispatch and workflow_call; on push `if: inputs.flag` skips and
// `if: ${{ !inputs.flag }}` runs, on workflow_dispatch without the value
// both are unknown.
func TestInputsEmptyOffDispatch(t *testing.T) {
	w := load(t, fstest.MapFS{"w.yml": {Data: []byte(`on:
  push:
  workflow_dispatch:
    inputs: {flag: {type: boolean}}
jobs:
  on-flag: {if: inputs.flag, runs-on: x, steps: [{run: a}]}
  off-flag: {if: "${{ !inputs.flag }}", runs-on: x, steps: [{run: a}]}
`)}}, "w.yml")
	for ev, want := range map[string]string{"push": "skip run", "workflow_dispatch": "unknown unknown", "schedule": "skip run"} {
		var got []string
		for _, v := range Run(w, Scenario{Event: ev}) {
			got = append(got, string(v.Verdict))
		}
		if g := strings.Join(got, " "); g != want {
			t.Errorf("%s: got %s, want %s", ev, g, want)
		}
	}
}

func FuzzSimulate(f *testing.F) {
	f.Add("on: push\njobs:\n  a: {runs-on: x, if: \"failure() || vars.x\", needs: b}\n  b: {runs-on: x, if: \"${{ !cancelled() }} \"}\n", "b", true)
	f.Add("on: push\njobs:\n  a: {runs-on: x, needs: [b, c]}\n  b: {runs-on: x, needs: c, outputs: {o: x}}\n  c: {runs-on: x, if: \"fromJSON(needs.b.outputs.o)\"}\n", "c", false)
	f.Fuzz(func(t *testing.T, src, fail string, cancel bool) {
		if len(src) > 20000 {
			return
		}
		w, _, err := workflowgraph.Load(fstest.MapFS{"w.yml": {Data: []byte(src)}}, "w.yml")
		if err != nil || w == nil {
			return
		}
		vs := Run(w, Scenario{Outcomes: map[string]Result{fail: Failure}, Cancelled: cancel})
		if len(vs) != len(w.Jobs) {
			t.Fatalf("%d verdicts for %d jobs", len(vs), len(w.Jobs))
		}
		_ = Run(w, Scenario{Results: map[string]Result{fail: Skipped}, DefaultOutcome: Unknown})
	})
}

// TestEmptyOutputIsUnset: an output given as empty is one the job left
// empty, which GitHub does not set (spec §6): it reads as null, so
// `== 'true'` is false and comparing with the empty string is true, for a
// normal job and a reusable-workflow caller alike. An output not given
// stays unknown.
func TestEmptyOutputIsUnset(t *testing.T) {
	src := `on: push
jobs:
  changes:
    runs-on: ubuntu-latest
    outputs:
      rust: ${{ steps.f.outputs.rust }}
      docs: ${{ steps.f.outputs.docs }}
    steps: [{id: f, run: "true"}]
  call:
    uses: ./.github/workflows/called.yml
  rust:
    needs: [changes, call]
    if: needs.changes.outputs.rust == 'true' || needs.call.outputs.rust == 'true'
    runs-on: ubuntu-latest
    steps: [{run: make}]
  empty:
    needs: [changes, call]
    if: needs.changes.outputs.rust == '' && needs.call.outputs.rust == ''
    runs-on: ubuntu-latest
    steps: [{run: make}]
  docs:
    needs: changes
    if: needs.changes.outputs.docs == 'true'
    runs-on: ubuntu-latest
    steps: [{run: make}]
`
	called := `on: {workflow_call: {outputs: {rust: {value: x}}}}
jobs:
  x: {runs-on: ubuntu-latest, steps: [{run: "true"}]}
`
	w := load(t, fstest.MapFS{".github/workflows/ci.yml": {Data: []byte(src)}, ".github/workflows/called.yml": {Data: []byte(called)}}, ".github/workflows/ci.yml")
	got := map[string]Decision{}
	for _, v := range Run(w, Scenario{Outputs: map[string]map[string]string{"changes": {"rust": ""}, "call": {"RUST": ""}}}) {
		got[v.ID] = v.Verdict
	}
	if got["rust"] != VerdictSkip || got["empty"] != VerdictRun || got["docs"] != VerdictUnknown {
		t.Errorf("verdicts = %v, want rust skip, empty run, docs unknown", got)
	}
}

// TestVerdictsOnly: skipping the explanations changes no verdict or
// result, for every job forced to every result (as the GPU-gate rules do).
func TestVerdictsOnly(t *testing.T) {
	for _, dir := range []string{"gate-broken", "gate-fixed"} {
		w := fixture(t, dir)
		s := New(w)
		for _, j := range w.Jobs {
			for _, r := range []Result{Success, Failure, Cancelled, Skipped} {
				sc := Scenario{DefaultOutcome: Unknown, Results: map[string]Result{j.ID: r}}
				full := s.Run(sc)
				sc.VerdictsOnly = true
				for i, v := range s.Run(sc) {
					if v.ID != full[i].ID || v.Verdict != full[i].Verdict || v.Result != full[i].Result {
						t.Fatalf("%s: %s=%s: %+v, want %+v", dir, j.ID, r, v, full[i])
					}
				}
			}
		}
	}
}

// Spec §5: whether a job that never starts after a run cancel ends
// cancelled or skipped is unknown, so a condition that tells the two
// apart is unknown; one that only asks "not success" is decided.
func TestCancelledOrSkippedIsUnknown(t *testing.T) {
	src := `on: push
jobs:
  m:
    runs-on: ubuntu-latest
    steps: [{run: x}]
  p:
    needs: m
    if: always() && needs.m.result == 'skipped'
    runs-on: ubuntu-latest
    steps: [{run: x}]
  q:
    needs: m
    if: always() && needs.m.result == 'cancelled'
    runs-on: ubuntu-latest
    steps: [{run: x}]
  r:
    needs: m
    if: always() && needs.m.result == 'success'
    runs-on: ubuntu-latest
    steps: [{run: x}]
  s:
    needs: m
    if: always()
    runs-on: ubuntu-latest
    steps: [{run: x}]
`
	w := load(t, fstest.MapFS{"w.yml": {Data: []byte(src)}}, "w.yml")
	got := render(Run(w, Scenario{Cancelled: true, Results: map[string]Result{"s": Skipped}}))
	want := `m: skip [skipped]: implicit success() is false: the run was cancelled, so it ends cancelled|skipped
p: unknown [unknown]: condition is unknown: m ends cancelled|skipped after the run cancel (which one is unknown)
q: unknown [unknown]: condition is unknown: m ends cancelled|skipped after the run cancel (which one is unknown)
r: skip [skipped]: condition is false: needs.m.result == 'success' is false (m: cancelled|skipped); the run was cancelled, so it ends cancelled|skipped
s: skip [skipped]: given by the scenario: skipped
`
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// TestTypedInputs: an input's declared type decides its value: a string
// or choice input given "true" is the string 'true' (== 'true' holds), a
// boolean input is a boolean, a number input a number.
func TestTypedInputs(t *testing.T) {
	src := `on:
  workflow_dispatch:
    inputs:
      s: {type: string}
      c: {type: choice, options: ['true', 'false']}
      b: {type: boolean}
      n: {type: number}
jobs:
  s:
    if: inputs.s == 'true'
    runs-on: ubuntu-latest
    steps: [{run: x}]
  c:
    if: inputs.c == 'true'
    runs-on: ubuntu-latest
    steps: [{run: x}]
  b:
    if: inputs.b
    runs-on: ubuntu-latest
    steps: [{run: x}]
  n:
    if: inputs.n == 1.5 && inputs.n > 1
    runs-on: ubuntu-latest
    steps: [{run: x}]
  u:
    if: inputs.undeclared == true
    runs-on: ubuntu-latest
    steps: [{run: x}]
`
	w := load(t, fstest.MapFS{"w.yml": {Data: []byte(src)}}, "w.yml")
	sc := Scenario{Event: "workflow_dispatch", Inputs: map[string]string{"s": "true", "c": "true", "b": "false", "n": "1.5", "undeclared": "true"}}
	got := map[string]Decision{}
	for _, v := range Run(w, sc) {
		got[v.ID] = v.Verdict
	}
	want := map[string]Decision{"s": VerdictRun, "c": VerdictRun, "b": VerdictSkip, "n": VerdictRun, "u": VerdictRun}
	for id, v := range want {
		if got[id] != v {
			t.Errorf("%s: %s, want %s", id, got[id], v)
		}
	}
}

// TestSetTypedValues: --set values land with their JSON type where the
// context has one: event payload booleans (github.event.*.draft) and
// declared boolean inputs; vars stay strings.
func TestSetTypedValues(t *testing.T) {
	src := `on:
  workflow_dispatch:
    inputs:
      b: {type: boolean}
jobs:
  draft:
    if: ${{ !github.event.pull_request.draft }}
    runs-on: ubuntu-latest
    steps: [{run: x}]
  b:
    if: inputs.b
    runs-on: ubuntu-latest
    steps: [{run: x}]
  v:
    if: vars.X == 'false' && vars.X
    runs-on: ubuntu-latest
    steps: [{run: x}]
  e:
    if: github.event.inputs.b == 'false' && github.event.inputs.b
    runs-on: ubuntu-latest
    steps: [{run: x}]
`
	w := load(t, fstest.MapFS{"w.yml": {Data: []byte(src)}}, "w.yml")
	sc := Scenario{Set: map[string]string{"github.event.pull_request.draft": "false", "inputs.b": "false", "vars.X": "false", "github.event.inputs.b": "false"}}
	got := map[string]Decision{}
	for _, v := range Run(w, sc) {
		got[v.ID] = v.Verdict
	}
	want := map[string]Decision{"draft": VerdictRun, "b": VerdictSkip, "v": VerdictRun, "e": VerdictRun}
	for id, v := range want {
		if got[id] != v {
			t.Errorf("%s: %s, want %s", id, got[id], v)
		}
	}
}

// TestSourceOrderRaises: GitHub evaluates && left to right; when the root
// job failed (perhaps before writing its outputs), fromJSON of its output
// may raise before success() is reached, so the job is not "false" but
// may fail evaluating its if:, as lint's if-eval-error says. With the
// output given, or success() first, the condition is false (near misses).
func TestSourceOrderRaises(t *testing.T) {
	w := load(t, fstest.MapFS{"w.yml": {Data: []byte(`on: push
jobs:
  pre-flight:
    runs-on: x
    outputs: {x: "${{ steps.s.outputs.x }}"}
    steps: [{id: s, run: echo}]
  late:
    needs: pre-flight
    if: "'' != '[]' && contains(fromJson(needs.pre-flight.outputs.x), 'y') && success()"
    runs-on: x
    steps: [{run: echo}]
  early:
    needs: pre-flight
    if: "success() && contains(fromJson(needs.pre-flight.outputs.x), 'y')"
    runs-on: x
    steps: [{run: echo}]
`)}}, "w.yml")
	got := func(sc Scenario) string {
		var out []string
		for _, v := range Run(w, sc) {
			out = append(out, string(v.Verdict))
		}
		return strings.Join(out, " ")
	}
	fail := map[string]Result{"pre-flight": Failure}
	if g := got(Scenario{Outcomes: fail}); g != "run unknown skip" {
		t.Errorf("failed pre-flight: %s, want run unknown skip", g)
	}
	given := map[string]map[string]string{"pre-flight": {"x": `["y"]`}}
	if g := got(Scenario{Outcomes: fail, Outputs: given}); g != "run skip skip" {
		t.Errorf("failed pre-flight with its output given: %s, want run skip skip", g)
	}
	var reason string
	for _, v := range Run(w, Scenario{Outcomes: fail}) {
		if v.ID == "late" {
			reason = v.Reason
		}
	}
	if !strings.Contains(reason, "may raise") || !strings.Contains(reason, "fromJSON") {
		t.Errorf("late: reason %q does not say the condition may raise in fromJSON", reason)
	}
}
