package workflowgraph

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCorpus loads every real-world workflow of ../shared/corpus: no panic,
// every graph query terminates, unusable files are errors naming the file.
func TestCorpus(t *testing.T) {
	dir, _ := filepath.Abs(filepath.Join("..", "..", "shared", "corpus"))
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		t.Skipf("corpus %s is absent; skipping", dir)
	}
	fsys := os.DirFS(dir)
	n, graphs, symbolic := 0, 0, 0
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !(strings.HasSuffix(p, ".yml") || strings.HasSuffix(p, ".yaml")) {
			return err
		}
		n++
		w, _, lerr := Load(fsys, p)
		if lerr != nil {
			if !strings.HasPrefix(lerr.Error(), p+":") {
				t.Errorf("error does not name the file: %v", lerr)
			}
			return nil
		}
		if w == nil {
			return nil
		}
		graphs++
		if got := len(w.TopoOrder()); got != len(w.Jobs) {
			t.Errorf("%s: topo order %d of %d jobs", p, got, len(w.Jobs))
		}
		for _, j := range w.Jobs {
			w.Ancestors(j.ID)
			w.Descendants(j.ID)
			if len(j.Runner.Symbolic) > 0 {
				symbolic++
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d files, %d graphs, %d jobs with a symbolic runner", n, graphs, symbolic)
	if graphs == 0 {
		t.Error("no workflow loaded")
	}
}
