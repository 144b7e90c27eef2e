package lint

import (
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestRecoveredPanic(t *testing.T) {
	err := recovered("w.yml", func() { panic("boom") })
	var ie *InternalError
	if !errors.As(err, &ie) || err.Error() != "internal error while linting w.yml: boom (please report this)" {
		t.Fatalf("err = %v", err)
	}
	if err := recovered("w.yml", func() {}); err != nil {
		t.Fatal(err)
	}
}

// TestLinter: the library lints a repository as the CLI does: findings
// with repository-relative paths, a file GitHub cannot read as a workflow
// as an invalid-workflow-file finding while the others are linted, and a
// sub-folder of .github/workflows skipped.
func TestLinter(t *testing.T) {
	root := t.TempDir()
	write := func(p, s string) {
		t.Helper()
		p = filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(".git/HEAD", "ref: refs/heads/main\n")
	write(".github/workflows/ci.yml", "on: push\njobs:\n  a:\n    needs: b\n    runs-on: ubuntu-latest\n    steps: [{run: x}]\n  b:\n    needs: a\n    runs-on: ubuntu-latest\n    steps: [{run: x}]\n")
	write(".github/workflows/empty.yml", "")
	write(".github/workflows/old/skipped.yml", "not: [a workflow")
	var logged []string
	l := New(Options{WorkingDir: filepath.Join(root, ".github"), Log: func(f string, a ...any) { logged = append(logged, fmt.Sprintf(f, a...)) }})
	res, err := l.LintRepo()
	if err != nil {
		t.Fatal(err)
	}
	var rules []string
	for _, f := range res.Findings {
		rules = append(rules, f.File+":"+f.Rule)
	}
	if !slices.Contains(rules, ".github/workflows/ci.yml:needs-cycle") || !slices.Contains(rules, ".github/workflows/empty.yml:invalid-workflow-file") {
		t.Errorf("findings %v: want needs-cycle in ci.yml, invalid-workflow-file in empty.yml", rules)
	}
	if len(res.InputErrors) != 0 {
		t.Errorf("input errors %q", res.InputErrors)
	}
	if _, ok := res.Sources[".github/workflows/ci.yml"]; !ok {
		t.Errorf("sources %v", slices.Collect(maps.Keys(res.Sources)))
	}
	if !slices.ContainsFunc(logged, func(s string) bool { return strings.Contains(s, "skipping .github/workflows/old/") }) {
		t.Errorf("log %q: want the sub-folder skipped", logged)
	}
	if _, err := l.LintFiles([]string{"no-such.yml"}); err == nil || !strings.Contains(err.Error(), "no-such.yml") {
		t.Errorf("missing file: %v", err)
	}
}
