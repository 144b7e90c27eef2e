package workflowgraph

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
)

// FuzzLoad: loading and graph building never panic or hang, whatever the
// bytes; every query on the graph terminates. Seeds: the inline cases plus
// testdata/fuzz/FuzzLoad.
func FuzzLoad(f *testing.F) {
	f.Add([]byte(pipeline))
	f.Add([]byte(callee))
	f.Add([]byte("on: push\njobs:\n  a: {needs: a, runs-on: x, steps: [{run: a}]}\n"))
	f.Add([]byte("on: push\njobs:\n  a:\n    uses: ./w.yml\n    with: {runs_on: '[\"h100\"]'}\n"))
	f.Add([]byte("on: push\njobs:\n  a:\n    if: |\n      ${{ success('x') }}\n    runs-on: ${{ format('{0}-{1}', matrix.a, matrix.b) }}\n    strategy: {matrix: {a: [x, y], b: [[1, 2]]}}\n"))
	f.Add([]byte("\x00\xff"))
	f.Add([]byte(""))
	seeds, _ := filepath.Glob(filepath.Join("testdata", "*.yml"))
	for _, s := range seeds {
		if b, err := os.ReadFile(s); err == nil {
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		fsys := fstest.MapFS{
			"w.yml":                     {Data: src},
			".github/workflows/gpu.yml": {Data: []byte(callee)},
		}
		w, _, err := Load(fsys, "w.yml")
		if err != nil || w == nil {
			return
		}
		order := w.TopoOrder()
		if len(order) != len(w.Jobs) {
			t.Fatalf("topo order has %d jobs, workflow %d", len(order), len(w.Jobs))
		}
		for _, j := range w.Jobs {
			w.Ancestors(j.ID)
			w.Descendants(j.ID)
			j.If.StatusFuncs()
			_ = j.Runner.All()
			// Ids as written, looked up in any case; a need that names a job
			// is spelled as that job's ID.
			if w.Job(j.ID) != j || w.Job(strings.ToLower(j.ID)) != j {
				t.Fatalf("job %q is not found by its id", j.ID)
			}
			for _, n := range j.Needs {
				if x := w.Job(n); x != nil && x.ID != n {
					t.Fatalf("need %q of %q names %q", n, j.ID, x.ID)
				}
			}
		}
	})
}
