package checks

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/cicheck/cicheck/config"
	"github.com/cicheck/cicheck/finding"
	"github.com/cicheck/cicheck/workflowgraph"
)

var updateGate = flag.Bool("update-gate", false, "rewrite checks/testdata/gate_*.golden")

// gateRules are the rules of the GPU-gate family.
var gateRules = []*Rule{GPUGate, ClosureBridge, AlwaysWithoutCancelled, GateReadsUnguardedOutput, DeadNeedsResult, IfEvalError, StatusFnArgs}

func checkGolden(t *testing.T, name, got string) {
	t.Helper()
	golden := filepath.Join("testdata", name+".golden")
	if *updateGate {
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Errorf("%s: got\n%s\nwant\n%s", name, got, want)
	}
}

func TestGateRules(t *testing.T) {
	files, _ := filepath.Glob("testdata/gate_*.yml")
	if len(files) == 0 {
		t.Fatal("no testdata")
	}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".yml")
		t.Run(name, func(t *testing.T) {
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			checkGolden(t, name, render(Run(loadSrc(t, string(src)), "", nil, gateRules)))
		})
	}
}

func loadFixture(t *testing.T, dir string) *workflowgraph.Workflow {
	t.Helper()
	w, _, err := workflowgraph.Load(os.DirFS(filepath.Join("..", "fixtures", dir)), ".github/workflows/pr-test.yml")
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// Issue 3 §5: the broken pipeline has exactly one error, on the image
// resolve job; the fixed one has none.
func TestGateFixtures(t *testing.T) {
	for _, dir := range []string{"gate-broken", "gate-fixed"} {
		got := render(Run(loadFixture(t, dir), "", nil, gateRules))
		checkGolden(t, "gate_fixture_"+strings.TrimPrefix(dir, "gate-"), got)
	}
	// strict: true makes the advice a warning (the near miss of the default,
	// a notice, in the golden above).
	loud, err := config.Parse("c.yaml", []byte("rules:\n  gpu-gate:\n    strict: true\n"))
	if err != nil {
		t.Fatal(err)
	}
	if fs := Run(loadFixture(t, "gate-fixed"), "", loud, gateRules); len(fs) != 1 || fs[0].Severity != finding.Warning {
		t.Errorf("strict: true: %s", render(fs))
	}
	cfg, err := config.Parse("c.yaml", []byte("rules:\n  gpu-gate:\n    strict: false\n"))
	if err != nil {
		t.Fatal(err)
	}
	if got := render(Run(loadFixture(t, "gate-fixed"), "", cfg, gateRules)); got != "" {
		t.Errorf("strict: false must drop the warnings:\n%s", got)
	}
}

func FuzzGateRules(f *testing.F) {
	files, _ := filepath.Glob("testdata/gate_*.yml")
	for _, p := range files {
		b, _ := os.ReadFile(p)
		f.Add(string(b))
	}
	f.Add("on: push\njobs:\n  a: {runs-on: h100, if: \"${{ always() }} x\", needs: [b, c]}\n  b: {runs-on: x, needs: c, if: failure('c')}\n  c: {runs-on: x, needs: a}\n")
	f.Fuzz(func(t *testing.T, src string) {
		if len(src) > 20000 {
			return
		}
		w, _, err := workflowgraph.Load(fstestFS(src), "w.yml")
		if err != nil || w == nil {
			return
		}
		_ = Run(w, "", nil, gateRules)
	})
}

func fstestFS(src string) fstest.MapFS { return fstest.MapFS{"w.yml": {Data: []byte(src)}} }

// TestGateAnalysisBound: past maxGateJobs the gate rules built on the
// forced table report one whole-file notice each instead of the table's
// V² bits; at the bound they analyse as usual (here: a bridge found).
func TestGateAnalysisBound(t *testing.T) {
	src := func(n int) string {
		var b strings.Builder
		b.WriteString("on: push\njobs:\n  a: {runs-on: ubuntu-latest, steps: [{run: x}]}\n" +
			"  d: {needs: a, if: always(), runs-on: ubuntu-latest, steps: [{run: x}]}\n" +
			"  g: {needs: d, runs-on: [self-hosted, h100], steps: [{run: x}]}\n")
		for i := 3; i < n; i++ {
			fmt.Fprintf(&b, "  x%d: {runs-on: ubuntu-latest, steps: [{run: x}]}\n", i)
		}
		return b.String()
	}
	for _, n := range []int{maxGateJobs, maxGateJobs + 1} {
		var got []string
		for _, f := range Run(loadSrc(t, src(n)), "w.yml", nil, []*Rule{GPUGate, ClosureBridge}) {
			got = append(got, fmt.Sprintf("%s %s %d: %s", f.Rule, f.Severity, f.Line, f.Message))
		}
		want := []string{"gpu-gate error 5: g has no status check, so GitHub gates it on success() of its whole closure: a failure of a (bridged by d) skips it (a GPU job)"}
		if n > maxGateJobs {
			want = []string{
				"closure-bridge notice 0: 10001 jobs, more than the 10000 whose gates cicheck analyses (the analysis grows with the square of the jobs): closure-bridge did not check this workflow",
				"gpu-gate notice 0: 10001 jobs, more than the 10000 whose gates cicheck analyses (the analysis grows with the square of the jobs): gpu-gate did not check this workflow",
			}
		}
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("%d jobs: got\n%s\nwant\n%s", n, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	}
}
