package workflowgraph

import (
	"slices"
	"sync"
	"testing"
	"testing/fstest"

	"github.com/rhysd/actionlint"
)

// TestGraphMemo: the cached graph queries answer as the uncached ones do,
// hand callers their own slices, and are safe from several goroutines (run
// with -race), as is the Classifier's per-label cache.
func TestGraphMemo(t *testing.T) {
	w, _, err := Load(fstest.MapFS{"ci.yml": {Data: []byte(pipeline)}}, "ci.yml")
	if err != nil || w == nil || w.memo == nil {
		t.Fatal(err)
	}
	bare := &Workflow{Jobs: w.Jobs, byID: w.byID} // built by hand: no memo
	c := NewClassifier([]string{"*gpu*", "h100"}, nil, []string{"self-hosted"}, nil)
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 20 {
				if got, want := w.TopoOrder(), bare.TopoOrder(); !slices.Equal(got, want) {
					t.Errorf("TopoOrder = %v, want %v", got, want)
				}
				for _, j := range w.Jobs {
					if got, want := w.Ancestors(j.ID), bare.Ancestors(j.ID); !slices.Equal(got, want) {
						t.Errorf("Ancestors(%s) = %v, want %v", j.ID, got, want)
					}
					if c.IsGPU(j) != (match(c.gpuLabels, j.Runner.All()) != "") || c.IsHeavy(j) != (match(c.heavyLabels, j.Runner.All()) != "") {
						t.Errorf("%s: cached classification differs", j.ID)
					}
				}
			}
		}()
	}
	wg.Wait()
	// The caller owns the slice: editing it does not change the cache.
	o := w.TopoOrder()
	o[0] = "x"
	if w.TopoOrder()[0] == "x" {
		t.Error("TopoOrder handed out its cache")
	}
	for _, j := range w.Jobs {
		if a := w.Ancestors(j.ID); len(a) > 0 {
			a[0] = "x"
			if w.Ancestors(j.ID)[0] == "x" {
				t.Error("Ancestors handed out its cache")
			}
		}
	}
}

// TestStatusFuncsCache: StatusFuncs is computed at parse time, agrees with
// expr.StatusCalls, and a Cond edited afterwards is not answered from the
// cache.
func TestStatusFuncsCache(t *testing.T) {
	c := parseCond(&actionlint.String{Value: "${{ always() && !cancelled() }}"}, nil)
	if got := c.StatusFuncs(); !slices.Equal(got, []string{"always", "cancelled"}) {
		t.Fatalf("StatusFuncs = %v", got)
	}
	c.StatusFuncs()[0] = "x" // the caller owns the slice
	if c.StatusFuncs()[0] != "always" {
		t.Error("StatusFuncs handed out its cache")
	}
	c.Expr, _ = ParseExpr("failure()")
	if got := c.StatusFuncs(); !slices.Equal(got, []string{"failure"}) {
		t.Errorf("after editing Expr: %v", got)
	}
	tmpl := parseCond(&actionlint.String{Value: "run ${{ success() }} ${{ always() }}"}, nil)
	if got := tmpl.StatusFuncs(); !tmpl.AlwaysTrue || !slices.Equal(got, []string{"always", "success"}) {
		t.Errorf("templated: %v", got)
	}
	if (&Cond{}).StatusFuncs() != nil || (*Cond)(nil).StatusFuncs() != nil {
		t.Error("no condition: want nil")
	}
}
