package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cicheck/cicheck/finding"
	"github.com/cicheck/cicheck/lint"
)

// TestCorpusRobustness lints every real workflow file in ../shared/corpus
// (about 195 files from public GPU projects, kept outside the repository):
// no panic or internal error, every finding positioned inside its file, and
// byte-identical output across two runs.
func TestCorpusRobustness(t *testing.T) {
	dir, err := filepath.Abs(filepath.Join("..", "..", "..", "shared", "corpus"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("corpus %s is absent (it is not part of a user's clone); skipping", dir)
	}
	var files []string
	_ = filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && lint.IsYAML(p) {
			files = append(files, p)
		}
		return nil
	})
	if len(files) < 100 {
		t.Fatalf("found only %d corpus files under %s", len(files), dir)
	}
	for _, file := range files {
		rel, _ := filepath.Rel(dir, file)
		t.Run(rel, func(t *testing.T) {
			first, code := lintJSON(t, dir, rel)
			if code != exitOK && code != exitFindings && code != exitUsage {
				t.Fatalf("exit %d: %s", code, first)
			}
			second, _ := lintJSON(t, dir, rel)
			if !bytes.Equal(first, second) {
				t.Fatalf("two runs differ:\n%s\n---\n%s", first, second)
			}
			if code == exitUsage {
				return // unusable input (not a workflow): a one-line error, checked in lintJSON
			}
			var out struct {
				Version  int               `json:"version"`
				Findings []finding.Finding `json:"findings"`
			}
			if err := json.Unmarshal(first, &out); err != nil {
				t.Fatalf("output is not JSON: %v\n%s", err, first)
			}
			src, _ := os.ReadFile(file)
			lines := strings.Split(string(src), "\n")
			for _, f := range out.Findings {
				if f.Line < 0 || f.Line > len(lines) {
					t.Errorf("%s: line %d outside the file (%d lines): %s", f.Rule, f.Line, len(lines), f.Message)
					continue
				}
				if f.Line > 0 && f.Column > len([]rune(lines[f.Line-1]))+1 {
					t.Errorf("%s: column %d beyond line %d (%d chars): %s", f.Rule, f.Column, f.Line, len([]rune(lines[f.Line-1])), f.Message)
				}
			}
		})
	}
}

// lintJSON runs `cicheck lint --format json` in-process; unusable input must
// produce exactly one line on stderr and never an internal error.
func lintJSON(t *testing.T, wd, path string) ([]byte, int) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	e := &env{Stdin: strings.NewReader(""), Stdout: &stdout, Stderr: &stderr, Getenv: func(string) string { return "" }, WD: wd}
	code := dispatch(e, []string{"lint", "--format", "json", "--fail-on", "error", path})
	if code == exitInternal || strings.Contains(stderr.String(), "goroutine ") {
		t.Fatalf("internal error on %s: %s", path, stderr.String())
	}
	if code == exitUsage && strings.Count(strings.TrimRight(stderr.String(), "\n"), "\n") != 0 {
		t.Errorf("error on %s is not one line:\n%s", path, stderr.String())
	}
	return stdout.Bytes(), code
}

// TestCorpusSeed003 lints the real radixark/miles pr-test.yml of seed 003
// (from ../shared/corpus, skipped when absent): the job without `if:` that
// skipped every GPU stage must be the gpu-gate error, naming the bridge.
func TestCorpusSeed003(t *testing.T) {
	dir, _ := filepath.Abs(filepath.Join("..", "..", "..", "shared", "corpus"))
	if _, err := os.Stat(filepath.Join(dir, "radixark__miles", "pr-test.yml")); err != nil {
		t.Skipf("corpus %s is absent; skipping", dir)
	}
	out, _ := lintJSON(t, dir, "radixark__miles/pr-test.yml")
	var res struct {
		Findings []finding.Finding `json:"findings"`
	}
	if err := json.Unmarshal(out, &res); err != nil {
		t.Fatal(err)
	}
	var errs []string
	for _, f := range res.Findings {
		if f.Rule == "gpu-gate" && f.Severity == finding.Error {
			errs = append(errs, f.Job+": "+f.Message)
		}
	}
	if len(errs) != 1 || !strings.HasPrefix(errs[0], "resolve-ci-image: ") ||
		!strings.Contains(errs[0], "a failure of stage-a-cpu (bridged by docker-build)") {
		t.Fatalf("gpu-gate errors = %q, want exactly resolve-ci-image bridged by docker-build", errs)
	}
}
