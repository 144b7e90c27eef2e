package explain

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/rhysd/actionlint"

	"github.com/cicheck/cicheck/config"
	"github.com/cicheck/cicheck/pathsfilter"
	"github.com/cicheck/cicheck/simulate"
	"github.com/cicheck/cicheck/workflowgraph"
)

// load reads a fixture repository's ci.yml and configuration.
func load(t *testing.T, fixture string) ([]*workflowgraph.Workflow, *config.Config) {
	t.Helper()
	fsys := os.DirFS(filepath.Join("..", "fixtures", fixture))
	cfg, err := config.Load(fsys, ".cicheck.yaml")
	if err != nil {
		t.Fatal(err)
	}
	w, _, err := workflowgraph.Load(fsys, ".github/workflows/ci.yml")
	if err != nil || w == nil {
		t.Fatalf("load: %v", err)
	}
	return []*workflowgraph.Workflow{w}, cfg
}

func changed(paths ...string) []pathsfilter.ChangedFile {
	var out []pathsfilter.ChangedFile
	for _, p := range paths {
		out = append(out, pathsfilter.ChangedFile{Path: p, Status: pathsfilter.StatusModified})
	}
	return out
}

func verdictsOf(r *Report) map[string]simulate.Decision {
	m := map[string]simulate.Decision{}
	for _, j := range r.Workflows[0].Jobs {
		m[j.ID] = j.Verdict
	}
	return m
}

var gb10 = []string{"clippy", "webui-installed-artifact", "xla-compile", "xla-link", "cuda-sm70", "cuda-blockfloat"}

// TestSeedAcceptance is seed 002's acceptance criteria on the fixed fixture.
func TestSeedAcceptance(t *testing.T) {
	wfs, cfg := load(t, "paths-mlx")
	opts := func(labels ...string) Options {
		return Options{Labels: labels, Set: map[string]string{"github.repository": "lablup/mlxcel"},
			Classifier: cfg.Classifier(), PathsFilter: cfg.PathsFilter}
	}
	run := func(files []pathsfilter.ChangedFile, o Options) map[string]simulate.Decision {
		return verdictsOf(Explain(files, wfs, nil, o))
	}
	cases := []struct {
		name   string
		files  []pathsfilter.ChangedFile
		labels []string
		want   map[string]simulate.Decision
	}{
		{"docs and workflow comment", changed("docs/installation.md", ".github/workflows/ci.yml"), nil,
			map[string]simulate.Decision{"clippy": Skip, "webui-installed-artifact": Skip, "xla-compile": Skip, "xla-link": Skip, "cuda-sm70": Skip, "cuda-blockfloat": Skip, "rocm-build": Skip, "workflow-lint": Run}},
		{"patches-rocm only", changed("src/lib/mlx-cpp/patches-rocm/hip/gemm.hip"), nil,
			map[string]simulate.Decision{"rocm-build": Run, "cuda-sm70": Skip, "cuda-blockfloat": Skip, "clippy": Skip}},
		{"patches only", changed("src/lib/mlx-cpp/patches/mlx/backend/metal/copy.metal"), nil,
			map[string]simulate.Decision{"rocm-build": Skip, "cuda-sm70": Skip}},
		{"patches-cuda only", changed("src/lib/mlx-cpp/patches-cuda/mlx/backend/cuda/gemm.cu"), nil,
			map[string]simulate.Decision{"rocm-build": Skip, "cuda-sm70": Run, "cuda-blockfloat": Run}},
		{"turbo is shared", changed("src/lib/mlx-cpp/turbo/kernel.cpp"), nil,
			map[string]simulate.Decision{"rocm-build": Run, "cuda-sm70": Run}},
		{"label wakes all", changed("docs/installation.md"), []string{"ci:full"},
			map[string]simulate.Decision{"clippy": Run, "webui-installed-artifact": Run, "xla-compile": Run, "xla-link": Run, "cuda-sm70": Run, "cuda-blockfloat": Run, "rocm-build": Run}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := run(c.files, opts(c.labels...))
			for id, want := range c.want {
				if got[id] != want {
					t.Errorf("%s = %s, want %s", id, got[id], want)
				}
			}
		})
	}
}

// TestSeedBefore: the unfixed filters wake the CUDA jobs for a ROCm-only
// change (the `!` widens under some) and every job for a workflow edit.
func TestSeedBefore(t *testing.T) {
	wfs, cfg := load(t, "paths-mlx-before")
	o := Options{Set: map[string]string{"github.repository": "lablup/mlxcel"}, Classifier: cfg.Classifier(), PathsFilter: cfg.PathsFilter}
	got := verdictsOf(Explain(changed("src/lib/mlx-cpp/patches-rocm/hip/gemm.hip"), wfs, nil, o))
	if got["cuda-sm70"] != Run || got["rocm-build"] != Run {
		t.Errorf("patches-rocm: %v", got)
	}
	got = verdictsOf(Explain(changed(".github/workflows/ci.yml", "docs/installation.md"), wfs, nil, o))
	for _, id := range gb10 {
		if got[id] != Run {
			t.Errorf("workflow edit: %s = %s, want run", id, got[id])
		}
	}
}

// TestUnknownStaysUnknown: without --set github.repository the heavy jobs
// that a filter would wake are unknown, and those it would not are skip.
func TestUnknownStaysUnknown(t *testing.T) {
	wfs, cfg := load(t, "paths-mlx")
	r := Explain(changed("src/lib/mlx-cpp/patches-rocm/a.hip"), wfs, nil, Options{Classifier: cfg.Classifier(), PathsFilter: cfg.PathsFilter})
	got := verdictsOf(r)
	if got["rocm-build"] != Unknown || got["cuda-sm70"] != Skip {
		t.Errorf("verdicts = %v", got)
	}
	var b bytes.Buffer
	if err := Write(&b, "text", r, 1, nil); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "--set github.repository=") {
		t.Errorf("reason does not say how to decide:\n%s", b.String())
	}
}

func TestAdvise(t *testing.T) {
	base := []byte("jobs:\n  a:\n    runs-on: GB10\n    steps:\n      - run: make # build\n  b:\n    runs-on: GB10\n    steps: [{run: x}]\n")
	head := []byte("jobs:\n  a:\n    runs-on: GB10\n    # a comment\n    steps:\n      - run: 'make' # build it\n  b:\n    runs-on: GB10\n    steps: [{run: y}]\n")
	w := &Workflow{File: "ci.yml", Jobs: []*Job{{ID: "a", Verdict: Skip, Heavy: true, Runner: "GB10"}, {ID: "b", Verdict: Skip, Heavy: true, Runner: "GB10"}}}
	headAST, _ := actionlint.Parse(head)
	adv := Advise(w, base, headAST, nil, "ci:full")
	if len(adv) != 1 || adv[0].Job != "b" {
		t.Fatalf("advisories = %+v", adv)
	}
	if want := "heavy job b changed in ci.yml but will not run for this diff (runner GB10); add the label ci:full to run it before merging"; adv[0].Message != want {
		t.Errorf("message = %q", adv[0].Message)
	}
	if adv := Advise(w, base, headAST, []string{"ci:full"}, "ci:full"); len(adv) != 0 {
		t.Errorf("with the label: %+v", adv)
	}
}

// TestFailedStepAndTrigger: a release that rejects the quantifier fails the
// changes job, so the gated job is skipped by the implicit success(); an
// on.pull_request.paths miss skips every job.
func TestFailedStepAndTrigger(t *testing.T) {
	src := `on:
  pull_request:
    paths: ['src/**']
jobs:
  changes:
    runs-on: ubuntu-latest
    outputs:
      src: ${{ steps.f.outputs.src }}
    steps:
      - uses: dorny/paths-filter@v4.0.2
        id: f
        with:
          predicate-quantifier: some-with-excludes
          filters: |
            src: 'src/**'
  build:
    needs: changes
    if: needs.changes.outputs.src == 'true'
    runs-on: [self-hosted, gpu]
    steps: [{run: make}]
`
	fsys := fstest.MapFS{".github/workflows/ci.yml": {Data: []byte(src)}}
	w, _, err := workflowgraph.Load(fsys, ".github/workflows/ci.yml")
	if err != nil || w == nil {
		t.Fatal(err)
	}
	cl := workflowgraph.NewClassifier([]string{"gpu"}, nil, nil, nil)
	r := Explain(changed("src/a.go"), []*workflowgraph.Workflow{w}, fsys, Options{Classifier: cl})
	j := r.Workflows[0].Jobs[0]
	if j.ID != "build" || j.Verdict != Skip || !j.GPU || !strings.Contains(j.Reason, "changes") {
		t.Errorf("build = %+v", j)
	}
	if r.Workflows[0].Jobs[1].Verdict != Run {
		t.Errorf("changes = %+v", r.Workflows[0].Jobs[1])
	}
	r = Explain(changed("docs/a.md"), []*workflowgraph.Workflow{w}, fsys, Options{})
	if tr := r.Workflows[0].Triggered; tr == nil || *tr {
		t.Errorf("triggered = %v", tr)
	}
	for _, j := range r.Workflows[0].Jobs {
		if j.Verdict != Skip || !strings.HasPrefix(j.Reason, "workflow not triggered") {
			t.Errorf("%s = %+v", j.ID, j)
		}
	}
}

// TestStepIfAndAPICap: a paths-filter step whose own if: is false sets no
// output; on pull requests the API shows the action only 3,000 files.
func TestStepIfAndAPICap(t *testing.T) {
	src := `on: [push, pull_request]
jobs:
  changes:
    runs-on: ubuntu-latest
    outputs:
      src: ${{ steps.f.outputs.src }}
    steps:
      - uses: dorny/paths-filter@v3
        id: f
        if: github.event_name == 'push'
        with:
          filters: |
            src: 'src/**'
  build:
    needs: changes
    if: needs.changes.outputs.src == 'true'
    runs-on: ubuntu-latest
    steps: [{run: make}]
`
	fsys := fstest.MapFS{".github/workflows/ci.yml": {Data: []byte(src)}}
	w, _, err := workflowgraph.Load(fsys, ".github/workflows/ci.yml")
	if err != nil || w == nil {
		t.Fatal(err)
	}
	wfs := []*workflowgraph.Workflow{w}
	// The step is skipped, so the output is unset: null, loose-equal to ''
	// (gha-job-status.md §6), and `== 'true'` is false: build is skipped.
	r := Explain(changed("src/a.go"), wfs, fsys, Options{Event: "pull_request"})
	if got := verdictsOf(r); got["build"] != Skip {
		t.Errorf("pull_request: %v", got)
	}
	for _, j := range r.Workflows[0].Jobs {
		if j.ID == "build" && j.Reason != "src=unset (paths-filter step f is skipped by its if:)" {
			t.Errorf("build reason = %q, want the unset output named", j.Reason)
		}
	}
	if got := verdictsOf(Explain(changed("src/a.go"), wfs, fsys, Options{Event: "push"})); got["build"] != Run {
		t.Errorf("push: %v", got)
	}
	// 3,001 files, the only match last: invisible through the API.
	var files []pathsfilter.ChangedFile
	for i := 0; i < 3000; i++ {
		files = append(files, pathsfilter.ChangedFile{Path: fmt.Sprintf("docs/%d.md", i), Status: pathsfilter.StatusModified})
	}
	files = append(files, pathsfilter.ChangedFile{Path: "src/late.go", Status: pathsfilter.StatusModified})
	steps := pathsfilter.FindSteps(w.AST, w.Source, w.Path, fsys, pathsfilter.DefaultConfig())
	if !steps[0].UsesAPI("pull_request") || steps[0].UsesAPI("push") {
		t.Fatal("UsesAPI")
	}
	r = Explain(files, wfs, fsys, Options{Event: "pull_request"})
	if m := r.Workflows[0].Filters[0].Match; m == nil || *m {
		t.Errorf("src filter beyond the API cap: %v", m)
	}
}

func FuzzJobDefinitions(f *testing.F) {
	f.Add("jobs:\n  a:\n    runs-on: x # c\n    steps: [{run: 'y'}]\n")
	f.Add("jobs: {a: {<<: {b: 1}}}\n")
	f.Add("- x\n")
	f.Fuzz(func(t *testing.T, src string) {
		a := JobDefinitions([]byte(src))
		b := JobDefinitions([]byte(src))
		if len(a) != len(b) {
			t.Fatal("not deterministic")
		}
		for k, v := range a {
			if b[k] != v {
				t.Fatal("not deterministic")
			}
		}
	})
}

// TestBranchFilter: on.<event>.branches is checked against the branch
// given with --set (github.base_ref for a pull request, github.ref for a
// push); without one the reason says it was not checked instead of
// passing silently.
func TestBranchFilter(t *testing.T) {
	src := `on:
  pull_request:
    branches: [main, 'release/**']
  push:
    branches-ignore: ['wip/*']
jobs:
  build:
    runs-on: ubuntu-latest
    steps: [{run: make}]
`
	fsys := fstest.MapFS{".github/workflows/ci.yml": {Data: []byte(src)}}
	w, _, err := workflowgraph.Load(fsys, ".github/workflows/ci.yml")
	if err != nil || w == nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		event, key, value string
		want              string // triggered, or "unknown"
		reason            string
	}{
		{"pull_request", "", "", "true", "on.pull_request; its branches filter is not checked (--set github.base_ref=BRANCH)"},
		{"pull_request", "github.base_ref", "main", "true", "on.pull_request; on.pull_request.branches: main matches \"main\""},
		{"pull_request", "github.base_ref", "release/1.2", "true", "on.pull_request; on.pull_request.branches: release/1.2 matches \"release/**\""},
		{"pull_request", "github.base_ref", "dev", "false", "on.pull_request.branches: base branch dev is not included"},
		{"push", "github.ref", "refs/heads/wip/x", "false", "on.push.branches-ignore: branch wip/x is ignored"},
		{"push", "github.ref", "refs/heads/main", "true", "on.push; on.push.branches-ignore: main is not ignored"},
		{"push", "", "", "true", "on.push; its branches-ignore filter is not checked (--set github.ref=refs/heads/BRANCH)"},
	} {
		o := Options{Event: c.event, Set: map[string]string{}}
		if c.key != "" {
			o.Set[c.key] = c.value
		}
		wr := Explain(changed("a.go"), []*workflowgraph.Workflow{w}, fsys, o).Workflows[0]
		got := "unknown"
		if wr.Triggered != nil {
			got = fmt.Sprint(*wr.Triggered)
		}
		if got != c.want || wr.TriggerReason != c.reason {
			t.Errorf("%s %s=%s: triggered %s (%s), want %s (%s)", c.event, c.key, c.value, got, wr.TriggerReason, c.want, c.reason)
		}
	}
}

// TestFailedStepReason: a job whose paths-filter step fails says so, not
// "(scenario)": explain-diff has no user scenario.
func TestFailedStepReason(t *testing.T) {
	src := `on: pull_request
jobs:
  changes:
    runs-on: ubuntu-latest
    steps:
      - uses: dorny/paths-filter@v3
        id: f
        with:
          list-files: bogus
          filters: |
            src: 'src/**'
`
	fsys := fstest.MapFS{".github/workflows/ci.yml": {Data: []byte(src)}}
	w, _, err := workflowgraph.Load(fsys, ".github/workflows/ci.yml")
	if err != nil || w == nil {
		t.Fatal(err)
	}
	j := Explain(changed("src/a.go"), []*workflowgraph.Workflow{w}, fsys, Options{}).Workflows[0].Jobs[0]
	if want := "implicit success() is true; ends failure (its paths-filter step fails)"; j.Reason != want {
		t.Errorf("reason = %q, want %q", j.Reason, want)
	}
}

// TestPreparedMatchesExplain: a Prepared reused across changes answers
// exactly what a fresh Explain answers for each, so replay and
// explain-diff cannot disagree.
func TestPreparedMatchesExplain(t *testing.T) {
	for _, fixture := range []string{"paths-mlx", "paths-mlx-before"} {
		wfs, cfg := load(t, fixture)
		o := Options{Set: map[string]string{"github.repository": "lablup/mlxcel", "github.base_ref": "main"},
			Classifier: cfg.Classifier(), PathsFilter: cfg.PathsFilter}
		p := Prepare(wfs, nil, o)
		for _, files := range [][]pathsfilter.ChangedFile{
			changed(".github/workflows/ci.yml"), changed("docs/a.md"), nil,
			changed("src/lib/mlx-cpp/patches-rocm/a.hip", "Cargo.lock"), changed(".github/workflows/ci.yml"),
		} {
			var a, b bytes.Buffer
			if err := Write(&a, "json", p.Explain(files), len(files), nil); err != nil {
				t.Fatal(err)
			}
			if err := Write(&b, "json", Explain(files, wfs, nil, o), len(files), nil); err != nil {
				t.Fatal(err)
			}
			if a.String() != b.String() {
				t.Errorf("%s %v: prepared\n%s\nfresh\n%s", fixture, files, a.String(), b.String())
			}
			// Verdicts only: the same verdicts and classes, no reasons.
			full, brief := p.Explain(files).Workflows[0].Jobs, p.Verdicts(files).Workflows[0].Jobs
			for i := range full {
				if brief[i].ID != full[i].ID || brief[i].Verdict != full[i].Verdict || brief[i].Heavy != full[i].Heavy || brief[i].GPU != full[i].GPU || brief[i].Reason != "" {
					t.Errorf("%s %v: verdicts-only %+v, explained %+v", fixture, files, brief[i], full[i])
				}
			}
		}
	}
}

// TestLabelsUnknown: with LabelsUnknown and no labels, a condition that
// reads the opt-in label is undecided when the filter is false; the near
// misses (an empty known set, the label given, the filter true) decide.
func TestLabelsUnknown(t *testing.T) {
	wfs, cfg := load(t, "paths-mlx")
	base := Options{Set: map[string]string{"github.repository": "lablup/mlxcel"}, Classifier: cfg.Classifier(), PathsFilter: cfg.PathsFilter}
	cases := []struct {
		name    string
		labels  []string
		unknown bool
		files   []pathsfilter.ChangedFile
		want    simulate.Decision
		reason  string
	}{
		{"unknown labels, filter false", nil, true, changed("docs/a.md"), Unknown, "label ci:full unknown; condition is unknown: github.event is not given (its labels: --label L or --no-labels)"},
		{"unknown labels, filter true", nil, true, changed("src/main.rs"), Run, ""},
		{"known empty set", []string{}, true, changed("docs/a.md"), Skip, "label ci:full absent"},
		{"labels not given, not unknown", nil, false, changed("docs/a.md"), Skip, "label ci:full absent"},
		{"label given", []string{"ci:full"}, true, changed("docs/a.md"), Run, "label ci:full present"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			o := base
			o.Labels, o.LabelsUnknown = c.labels, c.unknown
			r := Explain(c.files, wfs, nil, o)
			found := false
			for _, j := range r.Workflows[0].Jobs {
				if j.ID != "clippy" {
					continue
				}
				found = true
				if j.Verdict != c.want || !strings.Contains(j.Reason, c.reason) {
					t.Errorf("clippy = %s (%s), want %s with %q", j.Verdict, j.Reason, c.want, c.reason)
				}
			}
			if !found {
				t.Fatal("no clippy job")
			}
		})
	}
}

// TestMarkdownPicture: the markdown report's picture is drawn in the
// graph's scheme: top-down, a legend with the scenario's states, a GPU and
// heavy job in the graph's GPU + heavy colour, skipped jobs grey, a job
// with a status check a hexagon.
func TestMarkdownPicture(t *testing.T) {
	fsys := fstest.MapFS{"w.yml": {Data: []byte(`on: pull_request
jobs:
  lint: {runs-on: ubuntu-latest, steps: [{run: x}]}
  gpu:
    needs: lint
    if: github.event_name == 'push'
    runs-on: [self-hosted, h100]
    steps: [{run: x}]
  notify:
    needs: gpu
    if: ${{ always() && !cancelled() }}
    runs-on: ubuntu-latest
    steps: [{run: x}]
`)}}
	w, _, err := workflowgraph.Load(fsys, "w.yml")
	if err != nil || w == nil {
		t.Fatal(err)
	}
	r := Explain(changed("a.py"), []*workflowgraph.Workflow{w}, nil, Options{Classifier: config.Default().Classifier()})
	var b bytes.Buffer
	if err := Write(&b, "markdown", r, 1, nil); err != nil {
		t.Fatal(err)
	}
	md := b.String()
	for _, want := range []string{
		"```mermaid\nflowchart TD\n",
		`legend4("skipped in this scenario")`,
		`legend7{{"explicit status check"}}`,
		`j0("gpu [GPU, heavy]<br/>skip")`, // heavy jobs first
		`j1("lint<br/>run")`,
		`j2{{"notify<br/>run"}}`,
		"classDef skip fill:#eaeef2,",
		"class legend4,j0 skip\n",
		"    j1 --> j0\n    j0 --> j2\n",
		"  legend ~~~ j1\n", // the legend above the first row
	} {
		if !strings.Contains(md, want) {
			t.Errorf("markdown lacks %q:\n%s", want, md)
		}
	}
	if strings.Contains(md, "never runs") {
		t.Errorf("a scenario picture has no never-runs entry:\n%s", md)
	}
}
