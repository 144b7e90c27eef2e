package checks

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cicheck/cicheck/config"
	"github.com/cicheck/cicheck/workflowgraph"
)

// corpusDir is ../shared/corpus from the module root.
var corpusDir = filepath.Join("..", "..", "shared", "corpus")

type corpusFile struct {
	path, rel string
	src       []byte
}

func corpusFiles(b *testing.B) []corpusFile {
	b.Helper()
	if st, err := os.Stat(corpusDir); err != nil || !st.IsDir() {
		b.Skip("../shared/corpus is absent; the corpus benchmark needs it")
	}
	var out []corpusFile
	_ = filepath.WalkDir(corpusDir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".yml") && !strings.HasSuffix(p, ".yaml") {
			return nil
		}
		src, err := os.ReadFile(p)
		if err == nil && len(src) > 0 {
			rel, _ := filepath.Rel(corpusDir, p)
			out = append(out, corpusFile{p, filepath.ToSlash(rel), src})
		}
		return nil
	})
	return out
}

// BenchmarkGateOverhead measures, over every corpus workflow in one run,
// what a lint costs without the GPU-gate rules (actionlint, graph build,
// the other cicheck rules) and what the gate rules add, and reports the
// ratio as gate-%: issue 3 asks for under 10%.
//
//	go test ./checks/ -run '^$' -bench GateOverhead -benchtime 3x
func BenchmarkGateOverhead(b *testing.B) {
	files := corpusFiles(b)
	cfg := config.Default()
	gate := map[*Rule]bool{}
	for _, r := range gateRules {
		gate[r] = true
	}
	var others []*Rule
	for _, r := range All() {
		if !gate[r] {
			others = append(others, r)
		}
	}
	root, _ := filepath.Abs(corpusDir)
	l, err := NewLinter(LinterOptions{WorkingDir: root})
	if err != nil {
		b.Fatal(err)
	}
	fsys := os.DirFS(root)
	var base, extra time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, f := range files {
			t0 := time.Now()
			_, ast, err := l.Lint(f.path, root, f.rel, f.src)
			if err != nil || ast == nil {
				base += time.Since(t0)
				continue
			}
			w := workflowgraph.Build(fsys, f.rel, f.src, ast)
			_ = Run(w, f.rel, cfg, others)
			t1 := time.Now()
			_ = Run(w, f.rel, cfg, gateRules)
			t2 := time.Now()
			base += t1.Sub(t0)
			extra += t2.Sub(t1)
		}
	}
	b.ReportMetric(100*float64(extra)/float64(base), "gate-%")
	b.ReportMetric(float64(base.Microseconds())/float64(b.N), "lint-µs/op")
	b.ReportMetric(float64(extra.Microseconds())/float64(b.N), "gate-µs/op")
}
