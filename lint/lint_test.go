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
	"testing/fstest"

	"github.com/cicheck/cicheck/config"
	"github.com/cicheck/cicheck/finding"
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

// TestDiscover: what each kind of PATH means, from the repository and from
// a sub-directory, and the files that are not workflows.
func TestDiscover(t *testing.T) {
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
	wf := "on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps: [{run: x}]\n"
	write(".git/HEAD", "ref: refs/heads/main\n")
	write(".github/workflows/b.yml", wf)
	write(".github/workflows/a.YAML", wf)
	write(".github/workflows/notes.txt", "not yaml")
	write(".github/dependabot.yml", "version: 2\n")
	write("flows/.cicheck.yaml", "rules: {}\n")
	write("flows/x.yml", wf)
	write("sub/dir/.keep", "")
	names := func(ts []Target) string {
		var out []string
		for _, t := range ts {
			out = append(out, t.Display+"@"+t.Rel)
		}
		return strings.Join(out, " ")
	}
	for _, c := range []struct {
		wd   string
		args []string
		want string
	}{
		// No PATH: .github/workflows of the repository, sorted, YAML only.
		{"", nil, ".github/workflows/a.YAML@.github/workflows/a.YAML .github/workflows/b.yml@.github/workflows/b.yml"},
		// From a sub-directory: the same files, named from the root.
		{"sub/dir", nil, ".github/workflows/a.YAML@.github/workflows/a.YAML .github/workflows/b.yml@.github/workflows/b.yml"},
		// `.github` means its workflows, not dependabot.yml beside them.
		{"", []string{".github"}, ".github/workflows/a.YAML@.github/workflows/a.YAML .github/workflows/b.yml@.github/workflows/b.yml"},
		// A folder of workflows: its YAML files, cicheck's configuration skipped.
		{"", []string{"flows"}, "flows/x.yml@x.yml"},
		// A file twice, by two spellings: once.
		{"", []string{"flows/x.yml", "./flows/x.yml"}, "flows/x.yml@x.yml"},
		// An absolute path.
		{"", []string{filepath.Join(root, "flows", "x.yml")}, "flows/x.yml@x.yml"},
	} {
		got, err := Discover(filepath.Join(root, c.wd), c.args, func(string, ...any) {})
		if err != nil || names(got) != c.want {
			t.Errorf("Discover(%q, %q) = %s, %v; want %s", c.wd, c.args, names(got), err, c.want)
		}
	}
	for _, c := range []struct {
		wd, arg, want string
	}{
		{"", "missing.yml", "missing.yml: no such file or directory"},
		{"sub", "dir", "dir: no workflow files"},
	} {
		var args []string
		if c.arg != "" {
			args = []string{c.arg}
		}
		if _, err := Discover(filepath.Join(root, c.wd), args, func(string, ...any) {}); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Discover(%q, %q): %v, want %q", c.wd, c.arg, err, c.want)
		}
	}
	// No .github/workflows at all.
	empty := t.TempDir()
	if _, err := Discover(empty, nil, func(string, ...any) {}); err == nil || !strings.Contains(err.Error(), "no .github/workflows directory") {
		t.Errorf("no workflows directory: %v", err)
	}
	// Outside the repository a file is named by its absolute path.
	out := filepath.Join(t.TempDir(), "w.yml")
	if err := os.WriteFile(out, []byte(wf), 0o644); err != nil {
		t.Fatal(err)
	}
	if got, _ := Discover(root, []string{out}, func(string, ...any) {}); len(got) != 1 || got[0].Display != filepath.ToSlash(out) {
		t.Errorf("outside the repository: %s", names(got))
	}
}

// TestRuleConfigAndIgnore: rules.<id>.enabled and .severity apply to every
// finding (actionlint's too), and ignore globs drop whole files.
func TestRuleConfigAndIgnore(t *testing.T) {
	fs := []finding.Finding{{Rule: "unknown-needs", Severity: finding.Error}, {Rule: "syntax-check", Severity: finding.Error}, {Rule: "gpu-gate", Severity: finding.Warning}}
	if got := ApplyRuleConfig(nil, slices.Clone(fs)); len(got) != 3 {
		t.Errorf("no config: %v", got)
	}
	cfg, err := config.Load(fstest.MapFS{"c.yaml": {Data: []byte("rules:\n  syntax-check: {enabled: false}\n  gpu-gate: {severity: error}\nignore: [\"legacy/**\"]\n")}}, "c.yaml")
	if err != nil {
		t.Fatal(err)
	}
	got := ApplyRuleConfig(cfg, slices.Clone(fs))
	if len(got) != 2 || got[0].Rule != "unknown-needs" || got[1].Rule != "gpu-gate" || got[1].Severity != finding.Error {
		t.Errorf("with config: %+v", got)
	}
	if !ignored(cfg, Target{Rel: "legacy/a.yml", Display: "x/legacy/a.yml"}) || ignored(cfg, Target{Rel: "ci.yml", Display: "ci.yml"}) {
		t.Error("ignore globs")
	}
}
