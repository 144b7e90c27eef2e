package main

import (
	"io"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/rhysd/actionlint"

	"github.com/cicheck/cicheck/config"
)

// corpusFiles lists every .yml/.yaml under ../shared/corpus (the module
// root's sibling), or skips the benchmark when the folder is absent.
func corpusFiles(b *testing.B) (string, []string) {
	dir, _ := filepath.Abs(filepath.Join("..", "..", "..", "shared", "corpus"))
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		b.Skipf("corpus %s is absent; skipping the lint-vs-actionlint benchmark", dir)
	}
	var files []string
	_ = filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && isYAML(p) {
			files = append(files, p)
		}
		return nil
	})
	sort.Strings(files)
	return dir, files
}

// BenchmarkLintCorpus lints every corpus file with cicheck's whole lint
// pipeline (read, actionlint, graph, every cicheck rule, suppressions) and,
// in the same run, with actionlint's library alone (LintFiles, as the
// actionlint command does). bench/lint/run.sh prints the ratio.
func BenchmarkLintCorpus(b *testing.B) {
	dir, files := corpusFiles(b)
	b.Run("cicheck", func(b *testing.B) {
		cfg := config.Default()
		var targets []target
		for _, f := range files {
			targets = append(targets, makeTarget(dir, f))
		}
		b.ResetTimer()
		for range b.N {
			res, err := lintTargets(dir, targets, cfg, "", func(string, ...any) {})
			if err != nil {
				b.Fatal(err)
			}
			if err := writeReportDiscard(res); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("actionlint", func(b *testing.B) {
		for range b.N {
			l, err := actionlint.NewLinter(io.Discard, &actionlint.LinterOptions{WorkingDir: dir, LogWriter: io.Discard})
			if err != nil {
				b.Fatal(err)
			}
			if _, err := l.LintFiles(files, nil); err != nil {
				b.Fatal(err)
			}
		}
	})
}
