package scalebench

import (
	"fmt"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/cicheck/cicheck/checks"
	"github.com/cicheck/cicheck/config"
	"github.com/cicheck/cicheck/simulate"
	"github.com/cicheck/cicheck/workflowgraph"
)

func load(tb testing.TB, n int, shape string) *workflowgraph.Workflow {
	tb.Helper()
	src, err := Pipeline(n, shape)
	if err != nil {
		tb.Fatal(err)
	}
	w, _, err := workflowgraph.Load(fstest.MapFS{"w.yml": {Data: src}}, "w.yml")
	if err != nil {
		tb.Fatal(err)
	}
	return w
}

// TestPipeline: the generator gives the jobs asked for, is deterministic,
// and its pipelines have what the benchmark is about: bridged GPU jobs
// (gpu-gate errors) whose messages stay short however long the pipeline.
func TestPipeline(t *testing.T) {
	for _, shape := range Shapes {
		a, _ := Pipeline(300, shape)
		b, _ := Pipeline(300, shape)
		if string(a) != string(b) {
			t.Fatalf("%s: two runs differ", shape)
		}
		w := load(t, 300, shape)
		if len(w.Jobs) != 300 || len(w.Cycles) > 0 {
			t.Fatalf("%s: %d jobs, cycles %v", shape, len(w.Jobs), w.Cycles)
		}
		errs, longest := 0, 0
		for _, f := range checks.Run(w, "w.yml", config.Default(), []*checks.Rule{checks.GPUGate}) {
			if f.Severity.String() == "error" {
				errs++
			}
			longest = max(longest, len(f.Message))
		}
		if errs < 50 || longest > 700 {
			t.Fatalf("%s: %d gpu-gate errors, longest message %d bytes", shape, errs, longest)
		}
	}
	if _, err := Pipeline(0, "chain"); err == nil {
		t.Fatal("0 jobs accepted")
	}
	if _, err := Pipeline(3, "star"); err == nil || !strings.Contains(err.Error(), "star") {
		t.Fatalf("unknown shape: %v", err)
	}
}

// sizes runs f on each shape at 1,000, 2,000 and 4,000 jobs and reports
// ns/job, which should stay about flat as the pipeline grows.
func sizes(b *testing.B, f func(w *workflowgraph.Workflow)) {
	for _, shape := range Shapes {
		for _, n := range []int{1000, 2000, 4000} {
			b.Run(fmt.Sprintf("%s-%d", shape, n), func(b *testing.B) {
				w := load(b, n, shape)
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					f(w)
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/job")
			})
		}
	}
}

// BenchmarkRules runs every cicheck rule (no actionlint) on generated
// pipelines, from a fresh graph each time (the gate analysis is memoised
// per graph).
//
//	go test ./bench/scale -run '^$' -bench . -benchtime 3x
func BenchmarkRules(b *testing.B) {
	sizes(b, func(w *workflowgraph.Workflow) {
		_ = checks.Run(workflowgraph.Build(nil, "w.yml", w.Source, w.AST), "w.yml", config.Default(), nil)
	})
}

// BenchmarkSimulate is `simulate --fail j1` without the CLI.
func BenchmarkSimulate(b *testing.B) {
	sizes(b, func(w *workflowgraph.Workflow) {
		_ = simulate.Run(w, simulate.Scenario{Outcomes: map[string]simulate.Result{"j1": simulate.Failure}})
	})
}
