package explain

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cicheck/cicheck/pathsfilter"
	"github.com/cicheck/cicheck/workflowgraph"
)

// TestCorpus explains a small change on every real workflow of the shared
// corpus: no panic, deterministic JSON, a verdict for every job, and every
// paths-filter step found.
func TestCorpus(t *testing.T) {
	dir := filepath.Join("..", "..", "shared", "corpus")
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("corpus %s is absent (it is not part of a user's clone); skipping", dir)
	}
	fsys := os.DirFS(dir)
	var paths []string
	_ = filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && (strings.HasSuffix(p, ".yml") || strings.HasSuffix(p, ".yaml")) {
			rel, _ := filepath.Rel(dir, p)
			paths = append(paths, filepath.ToSlash(rel))
		}
		return nil
	})
	files := changed("README.md", "src/lib/mlx-cpp/patches-rocm/a.hip", "csrc/kernels/x.cu", "docs/index.md", ".github/workflows/ci.yml")
	steps := 0
	for _, p := range paths {
		w, _, err := workflowgraph.Load(fsys, p)
		if err != nil || w == nil {
			continue
		}
		steps += len(pathsfilter.FindSteps(w.AST, w.Source, p, fsys, pathsfilter.DefaultConfig()))
		cl := workflowgraph.NewClassifier([]string{"*gpu*"}, nil, nil, nil)
		var a, b bytes.Buffer
		for _, buf := range []*bytes.Buffer{&a, &b} {
			r := Explain(files, []*workflowgraph.Workflow{w}, fsys, Options{Labels: []string{"ci:full"}, Classifier: cl})
			if err := Write(buf, "json", r, len(files), nil); err != nil {
				t.Fatal(err)
			}
			if len(r.Workflows[0].Jobs) != len(w.Jobs) {
				t.Errorf("%s: %d verdicts for %d jobs", p, len(r.Workflows[0].Jobs), len(w.Jobs))
			}
		}
		if !bytes.Equal(a.Bytes(), b.Bytes()) {
			t.Errorf("%s: two runs differ", p)
		}
	}
	if steps < 5 {
		t.Errorf("found only %d paths-filter steps in the corpus", steps)
	}
}
