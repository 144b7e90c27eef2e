package workflowgraph

import (
	"errors"
	"fmt"
	"math/rand"
	"os"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
)

const pipeline = `name: nightly
on:
  schedule: [{cron: "0 2 * * *"}]
  workflow_dispatch:
jobs:
  policy:
    runs-on: ubuntu-latest
    outputs:
      bypass: ${{ steps.p.outputs.bypass }}
    steps:
      - id: p
        run: echo bypass=true >> "$GITHUB_OUTPUT"
  CPU-Tests:
    needs: policy
    runs-on: [self-hosted, linux]
    steps:
      - run: make test
  image:
    needs: [policy, cpu-tests]
    if: always() && !cancelled() && needs.policy.result == 'success'
    runs-on:
      group: builders
      labels: [docker]
    steps:
      - run: make image
  resolve-image:
    needs: image
    runs-on: ubuntu-latest
    steps:
      - run: echo ok
  gpu:
    needs: [resolve-image]
    if: ${{ !cancelled() && needs.resolve-image.result == 'success' }}
    strategy:
      matrix:
        runner: [h100, a100]
        include:
          - runner: [self-hosted, 8gpu]
    runs-on: ${{ matrix.runner }}
    steps:
      - run: nvidia-smi
  gpu-reusable:
    needs: resolve-image
    uses: ./.github/workflows/gpu.yml
    with:
      runs_on: '["h200","2gpu"]'
  remote:
    uses: pytorch/test-infra/.github/workflows/linux_job_v2.yml@main
    with:
      runner: linux.g5.4xlarge.nvidia.gpu
  dyn:
    needs: policy
    runs-on: ${{ needs.policy.outputs.runner }}
    steps:
      - run: true
  templated:
    if: |
      ${{ false }}
    runs-on: ubuntu-${{ matrix.v }}
    strategy:
      matrix:
        v: ["22.04", "24.04"]
    steps:
      - run: true
`

const callee = `on:
  workflow_call:
    inputs:
      runs_on:
        type: string
        default: '["ubuntu-latest"]'
jobs:
  test:
    runs-on: ${{ fromJSON(inputs.runs_on) }}
    steps:
      - run: pytest
`

func load(t *testing.T, files map[string]string, p string) *Workflow {
	t.Helper()
	fsys := fstest.MapFS{}
	for k, v := range files {
		fsys[k] = &fstest.MapFile{Data: []byte(v)}
	}
	w, fs, err := Load(fsys, p)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range fs {
		t.Logf("finding: %+v", f)
	}
	if w == nil {
		t.Fatal("nil workflow")
	}
	return w
}

func TestPipeline(t *testing.T) {
	w := load(t, map[string]string{
		".github/workflows/nightly.yml": pipeline,
		".github/workflows/gpu.yml":     callee,
	}, ".github/workflows/nightly.yml")

	var ids []string
	for _, j := range w.Jobs {
		ids = append(ids, j.ID)
	}
	// Ids keep the spelling of their keys; `needs: cpu-tests` names CPU-Tests.
	if want := []string{"policy", "CPU-Tests", "image", "resolve-image", "gpu", "gpu-reusable", "remote", "dyn", "templated"}; !slices.Equal(ids, want) {
		t.Fatalf("jobs %v, want %v", ids, want)
	}
	runners := map[string]string{
		"policy":        "ubuntu-latest|",
		"cpu-tests":     "linux,self-hosted|",
		"image":         "docker|",
		"gpu":           "8gpu,a100,h100,self-hosted|",
		"gpu-reusable":  "2gpu,h200|",
		"remote":        "linux.g5.4xlarge.nvidia.gpu|",
		"dyn":           "|${{ needs.policy.outputs.runner }}",
		"templated":     "ubuntu-22.04,ubuntu-24.04|",
		"resolve-image": "ubuntu-latest|",
	}
	for id, want := range runners {
		j := w.Job(id)
		got := strings.Join(j.Runner.Labels, ",") + "|" + strings.Join(j.Runner.Symbolic, ",")
		if got != want {
			t.Errorf("%s runner = %q, want %q", id, got, want)
		}
	}
	if g := w.Job("image").Runner.Group; g != "builders" {
		t.Errorf("group = %q", g)
	}
	if w.Job("gpu-reusable").Callee == nil || w.Job("gpu-reusable").Callee.Job("test") == nil {
		t.Fatalf("callee not attached: %q", w.Job("gpu-reusable").CalleeError)
	}
	if got := w.Job("remote").Runner.InferredFrom; !slices.Equal(got, []string{"runner"}) {
		t.Errorf("inferred from %v", got)
	}

	if got := w.Job("image").Needs; !slices.Equal(got, []string{"policy", "CPU-Tests"}) {
		t.Errorf("needs %v", got)
	}
	if got := w.Ancestors("resolve-image"); !slices.Equal(got, []string{"CPU-Tests", "image", "policy"}) {
		t.Errorf("ancestors %v", got)
	}
	if got := w.Descendants("CPU-TESTS"); !slices.Equal(got, []string{"gpu", "gpu-reusable", "image", "resolve-image"}) {
		t.Errorf("descendants %v", got)
	}
	if got := w.TopoOrder(); !slices.Equal(got, []string{"policy", "CPU-Tests", "image", "resolve-image", "gpu", "gpu-reusable", "remote", "dyn", "templated"}) {
		t.Errorf("topo %v", got)
	}
	if len(w.Cycles) != 0 {
		t.Errorf("cycles %v", w.Cycles)
	}

	conds := map[string]string{
		"policy":        "<nil>",
		"image":         "always,cancelled",
		"resolve-image": "<nil>",
		"gpu":           "cancelled",
	}
	for id, want := range conds {
		c := w.Job(id).If
		got := "<nil>"
		if c != nil {
			got = strings.Join(c.StatusFuncs(), ",")
		}
		if got != want {
			t.Errorf("%s status funcs = %q, want %q", id, got, want)
		}
	}
	if c := w.Job("templated").If; c == nil || !c.AlwaysTrue || c.Expr != nil || len(c.Embedded) != 1 {
		t.Errorf("templated cond = %+v", c)
	}

	cl := NewClassifier([]string{"gpu", "*gpu", "nvidia", "cuda*", "h100", "h200", "a100", "*.nvidia.gpu"}, nil, nil, nil)
	for id, want := range map[string]bool{"gpu": true, "gpu-reusable": true, "remote": true, "image": false, "dyn": false} {
		if got := cl.IsGPU(w.Job(id)); got != want {
			t.Errorf("IsGPU(%s) = %v", id, got)
		}
	}
}

func TestCycles(t *testing.T) {
	w := load(t, map[string]string{"w.yml": `on: push
jobs:
  a: {needs: c, runs-on: x, steps: [{run: a}]}
  b: {needs: a, runs-on: x, steps: [{run: a}]}
  c: {needs: b, runs-on: x, steps: [{run: a}]}
  d: {needs: [d, a], runs-on: x, steps: [{run: a}]}
  e: {needs: nope, runs-on: x, steps: [{run: a}]}
`}, "w.yml")
	if got := w.Cycles; len(got) != 2 || !slices.Equal(got[0], []string{"a", "c", "b"}) || !slices.Equal(got[1], []string{"d"}) {
		t.Errorf("cycles = %v", got)
	}
	if got := w.TopoOrder(); len(got) != 5 {
		t.Errorf("topo = %v", got)
	}
	if got := w.Ancestors("b"); !slices.Equal(got, []string{"a", "b", "c"}) {
		t.Errorf("ancestors = %v", got)
	}
	if got := w.UnknownNeeds(w.Job("e")); !slices.Equal(got, []string{"nope"}) {
		t.Errorf("unknown = %v", got)
	}
}

func TestBadInput(t *testing.T) {
	cases := map[string]struct{ src, want string }{
		"empty":    {"", "w.yml: empty file, not a workflow"},
		"comments": {"# nothing\n", "w.yml: only comments, not a workflow"},
		"binary":   {"on: push\njobs:\n  a\x00\x01\x02", "w.yml:3:4: binary data (a NUL byte), not a YAML workflow"},
		"utf8":     {"on: push\n# caf\xe9\n", "w.yml:2:6: invalid UTF-8, not a YAML workflow"},
		"list":     {"- a\n- b\n", "w.yml:1:1: not a workflow: the top level is a list"},
		"mapping":  {"name: x\nfoo: 1\n", "w.yml:1:1: not a workflow: no \"on\" or \"jobs\" key"},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			_, _, err := Load(fstest.MapFS{"w.yml": {Data: []byte(c.src)}}, "w.yml")
			if err == nil || !strings.HasPrefix(err.Error(), c.want) {
				t.Fatalf("err = %v, want prefix %q", err, c.want)
			}
			var inv *InvalidFile
			if !errors.As(err, &inv) {
				t.Errorf("err %T is not an *InvalidFile: lint could not report it as a finding", err)
			}
		})
	}
	_, _, err := Load(fstest.MapFS{}, "missing.yml")
	if err == nil || !strings.Contains(err.Error(), "missing.yml: file does not exist") {
		t.Errorf("missing: %v", err)
	}
	// Malformed YAML is a finding, not an error.
	_, fs, err := Load(fstest.MapFS{"w.yml": {Data: []byte("on: push\njobs:\n  a: [\n")}}, "w.yml")
	if err != nil || len(fs) == 0 {
		t.Errorf("malformed: err=%v findings=%v", err, fs)
	}
}

func TestMatrixObjectsAndDynamic(t *testing.T) {
	src, err := os.ReadFile("testdata/seed_matrix_include.yml")
	if err != nil {
		t.Fatal(err)
	}
	w := load(t, map[string]string{"w.yml": string(src)}, "w.yml")
	if got := strings.Join(w.Job("gpu").Runner.Labels, ","); got != "h100,l40s,mi300x,self-hosted" {
		t.Errorf("gpu labels %q", got)
	}
	if got := w.Job("dyn").Runner; len(got.Labels) != 0 || strings.Join(got.Symbolic, ",") != "${{ matrix.runner }}" {
		t.Errorf("dyn runner %+v", got)
	}
	if got := w.Job("tmpl").Runner; len(got.Labels) != 0 || len(got.Symbolic) != 1 {
		t.Errorf("tmpl runner %+v", got)
	}
	if c := w.Job("tmpl").If; c == nil || !c.AlwaysTrue || !c.HasStatusFunc() {
		t.Errorf("tmpl cond %+v", c)
	}
}

func TestRunnerConditionalIdiom(t *testing.T) {
	w := load(t, map[string]string{"w.yml": `on: push
jobs:
  build:
    strategy:
      matrix:
        arch: [x86_64, aarch64]
    runs-on: [self-hosted, "${{ matrix.arch == 'aarch64' && 'arm64' || 'x64' }}"]
    steps: [{run: make}]
  pick:
    runs-on: ${{ contains(github.event.pull_request.labels.*.name, 'big') && 'h100' || 'ubuntu-latest' }}
    steps: [{run: make}]
  guarded:
    runs-on: ${{ github.event_name == 'schedule' && 'a100' }}
    steps: [{run: make}]
  remote:
    uses: org/infra/.github/workflows/job.yml@main
    with: {script: make}
`}, "w.yml")
	for id, want := range map[string]string{
		"build":   "arm64,self-hosted,x64|",
		"pick":    "h100,ubuntu-latest|",
		"guarded": "a100|",
		"remote":  "|runs-on inside org/infra/.github/workflows/job.yml@main",
	} {
		r := w.Job(id).Runner
		if got := strings.Join(r.Labels, ",") + "|" + strings.Join(r.Symbolic, ","); got != want {
			t.Errorf("%s: %q, want %q", id, got, want)
		}
	}
}

func TestCalleeMatrixFromInputs(t *testing.T) {
	w := load(t, map[string]string{
		"w.yml": `on: push
jobs:
  gpu:
    uses: ./.github/workflows/suite.yml
    with:
      gpus: '["h100", "b200"]'
`,
		".github/workflows/suite.yml": `on:
  workflow_call:
    inputs:
      gpus: {type: string, default: '["t4"]'}
jobs:
  test:
    strategy:
      matrix:
        gpu: ${{ fromJSON(inputs.gpus) }}
    runs-on: [self-hosted, "${{ matrix.gpu }}"]
    steps: [{run: pytest}]
`}, "w.yml")
	if got := strings.Join(w.Job("gpu").Runner.Labels, ","); got != "b200,h100,self-hosted" {
		t.Errorf("caller labels %q (callee error %q)", got, w.Job("gpu").CalleeError)
	}
}

// An unreadable local reusable workflow (here: not in the file system, as
// in a partial checkout) is judged by the caller's runner-like inputs, like
// a remote one, so the GPU stage stays a GPU stage.
func TestUnreadableLocalCalleeInfersRunner(t *testing.T) {
	src := `on: push
jobs:
  gpu-stage:
    uses: ./.github/workflows/_run-ci.yml
    with:
      runs_on: '["h200","2gpu"]'
  other:
    uses: ./.github/workflows/_other.yml
    with:
      suite: unit
`
	fsys := fstest.MapFS{".github/workflows/ci.yml": {Data: []byte(src)}}
	w, _, err := Load(fsys, ".github/workflows/ci.yml")
	if err != nil {
		t.Fatal(err)
	}
	j := w.Job("gpu-stage")
	if j.CalleeError == "" {
		t.Error("no callee error for a missing reusable workflow")
	}
	if !slices.Equal(j.Runner.Labels, []string{"2gpu", "h200"}) || !slices.Equal(j.Runner.InferredFrom, []string{"runs_on"}) {
		t.Errorf("runner = %+v, want labels h200, 2gpu inferred from runs_on", j.Runner)
	}
	o := w.Job("other").Runner
	if len(o.Labels) != 0 || !slices.Equal(o.Symbolic, []string{"runs-on inside ./.github/workflows/_other.yml (not readable)"}) {
		t.Errorf("other runner = %+v, want it symbolic and unreadable", o)
	}
}

// TestAncestorCountCycles agrees with len(Ancestors) on random graphs
// whose needs point anywhere: cycles through and behind other cycles,
// self-needs, repeated and unknown needs, needs naming a job in another case.
func TestAncestorCountCycles(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	for trial := 0; trial < 300; trial++ {
		n := 1 + rng.Intn(60)
		var b strings.Builder
		b.WriteString("on: push\njobs:\n")
		for i := 0; i < n; i++ {
			id := fmt.Sprintf("j%d", i)
			if i%7 == 3 {
				id = fmt.Sprintf("J%d", i)
			}
			fmt.Fprintf(&b, "  %s:\n    runs-on: ubuntu-latest\n    steps: [{run: x}]\n    needs: [", id)
			for k := 1 + rng.Intn(3); k > 0; k-- {
				// Mostly backward edges, sometimes forward (cycles) or to nothing.
				switch r := rng.Intn(10); {
				case r == 0:
					b.WriteString("nope, ")
				case r < 3 || i == 0:
					fmt.Fprintf(&b, "j%d, ", rng.Intn(n))
				default:
					fmt.Fprintf(&b, "j%d, ", rng.Intn(i))
				}
			}
			b.WriteString("]\n")
		}
		w := load(t, map[string]string{"w.yml": b.String()}, "w.yml")
		for _, j := range w.Jobs {
			if got, want := w.AncestorCount(j.ID), len(w.Ancestors(j.ID)); got != want {
				t.Fatalf("AncestorCount(%s) = %d, want %d\n%s", j.ID, got, want, b.String())
			}
		}
	}
}

// TestAncestorCountLongCycle: a cycle through every job counts every job
// for each (the job itself included, as Ancestors does).
func TestAncestorCountLongCycle(t *testing.T) {
	const n = 3000
	var b strings.Builder
	b.WriteString("on: push\njobs:\n")
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "  j%d: {needs: j%d, runs-on: x, steps: [{run: x}]}\n", i, i%n+1)
	}
	w := load(t, map[string]string{"w.yml": b.String()}, "w.yml")
	for _, id := range []string{"j1", "j1500", "j3000"} {
		if got := w.AncestorCount(id); got != n {
			t.Errorf("AncestorCount(%s) = %d, want %d", id, got, n)
		}
	}
}

// TestAncestorCount agrees with len(Ancestors) on generated DAGs, on a
// workflow with a cycle and for an unknown id.
func TestAncestorCount(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	for trial := 0; trial < 200; trial++ {
		n := 1 + rng.Intn(90)
		var b strings.Builder
		b.WriteString("on: push\njobs:\n")
		for i := 0; i < n; i++ {
			fmt.Fprintf(&b, "  j%d:\n    runs-on: ubuntu-latest\n    steps: [{run: x}]\n", i)
			if i > 0 {
				b.WriteString("    needs: [")
				for k := rng.Intn(4); k >= 0; k-- {
					fmt.Fprintf(&b, "j%d, ", rng.Intn(i))
				}
				b.WriteString("j0]\n")
			}
		}
		if trial%20 == 0 { // a cycle: the fallback path
			b.WriteString("  c1: {needs: c2, runs-on: x, steps: [{run: x}]}\n  c2: {needs: c1, runs-on: x, steps: [{run: x}]}\n")
		}
		w := load(t, map[string]string{"w.yml": b.String()}, "w.yml")
		for _, j := range w.Jobs {
			if got, want := w.AncestorCount(j.ID), len(w.Ancestors(j.ID)); got != want {
				t.Fatalf("AncestorCount(%s) = %d, want %d\n%s", j.ID, got, want, b.String())
			}
		}
		if w.AncestorCount("nope") != 0 {
			t.Fatal("unknown id")
		}
	}
}

// TestComponents: a cycle's jobs share a component, listed in file order,
// and every component comes after those its jobs need.
func TestComponents(t *testing.T) {
	w := load(t, map[string]string{"w.yml": `on: push
jobs:
  a: {runs-on: x, steps: [{run: x}]}
  c: {needs: [b, a], runs-on: x, steps: [{run: x}]}
  b: {needs: c, runs-on: x, steps: [{run: x}]}
  d: {needs: [b, nope], runs-on: x, steps: [{run: x}]}
  e: {needs: e, runs-on: x, steps: [{run: x}]}
`}, "w.yml")
	got := fmt.Sprint(w.Components())
	if want := "[[a] [c b] [d] [e]]"; got != want {
		t.Errorf("Components() = %s, want %s", got, want)
	}
}
