package checks

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cicheck/cicheck/finding"
)

// Projects caches actionlint's project per root: one load, the same
// project every time.
func TestProjectsCache(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("testdata", "nearmiss", "project"))
	if err != nil {
		t.Fatal(err)
	}
	ps := NewProjects()
	p1, err := ps.get(root)
	if err != nil || p1 == nil {
		t.Fatalf("get: %v, %v", p1, err)
	}
	if p2, err := ps.get(root); err != nil || p2 != p1 {
		t.Errorf("second get: %p, %v; want the cached %p", p2, err, p1)
	}
}

// actionlint matches its paths: configuration against the path relative
// to the project root; cicheck gives it absolute paths, so the match is
// made here, and only for a workflow inside the project.
func TestProjectPathConfigs(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("testdata", "nearmiss", "project"))
	if err != nil {
		t.Fatal(err)
	}
	proj, err := NewProjects().get(root)
	if err != nil {
		t.Fatal(err)
	}
	nightly := filepath.Join(root, ".github", "workflows", "nightly-gpu.yml")
	for _, tt := range []struct {
		name       string
		root, path string
		want       int
	}{
		{"matching workflow", root, nightly, 1},
		{"other workflow", root, filepath.Join(root, ".github", "workflows", "ci.yml"), 0},
		{"relative path", root, ".github/workflows/nightly-gpu.yml", 0},
		{"no root", "", nightly, 0},
		{"outside the project", root, filepath.Join(filepath.Dir(root), "elsewhere", ".github", "workflows", "nightly-gpu.yml"), 0},
	} {
		if got := len(projectPathConfigs(proj, tt.root, tt.path)); got != tt.want {
			t.Errorf("%s: %d path configs, want %d", tt.name, got, tt.want)
		}
	}
	if got := projectPathConfigs(nil, root, nightly); got != nil {
		t.Errorf("no project: %v", got)
	}
}

// relativeMessage drops an absolute project root from messages; a root
// that is empty or relative is left alone, as is text that merely
// contains it.
func TestRelativeMessage(t *testing.T) {
	for _, tt := range []struct{ msg, root, want string }{
		{"open /work/repo/.github/workflows/x.yml: no such file", "/work/repo", "open .github/workflows/x.yml: no such file"},
		{"open /work/repo/.github/workflows/x.yml: no such file", "", "open /work/repo/.github/workflows/x.yml: no such file"},
		{"open repo/.github/workflows/x.yml: no such file", "repo", "open repo/.github/workflows/x.yml: no such file"},
	} {
		if got := relativeMessage(tt.msg, tt.root); got != tt.want {
			t.Errorf("relativeMessage(%q, %q) = %q", tt.msg, tt.root, got)
		}
	}
}

// firstUse moves a "could not read/parse <file>" finding to the first
// uses: line naming the file (blank lines count); other findings stay
// where actionlint put them, even when they quote a file a uses: line
// names.
func TestFirstUse(t *testing.T) {
	src := []byte("on: push\n\njobs:\n  a:\n    # ./.github/workflows/called.yml is ours\n    uses: ./.github/workflows/called.yml\n  b:\n    uses: ./.github/workflows/called.yml\n")
	for _, tt := range []struct {
		msg            string
		line, col      int
		wantL, wantCol int
	}{
		{`could not read reusable workflow file for "./.github/workflows/called.yml": no such file`, 8, 11, 6, 11},
		{`reusable workflow "./.github/workflows/called.yml" has no input "x"`, 8, 11, 8, 11},
		{`could not read reusable workflow file for "./.github/workflows/other.yml": no such file`, 8, 11, 8, 11},
	} {
		f := finding.Finding{Line: tt.line, Column: tt.col, Message: tt.msg}
		firstUse(&f, src)
		if f.Line != tt.wantL || f.Column != tt.wantCol {
			t.Errorf("%s: at %d:%d, want %d:%d", tt.msg, f.Line, f.Column, tt.wantL, tt.wantCol)
		}
	}
}

// sourceLine is line n (1-based) without its newline; empty lines count.
func TestSourceLineNearMiss(t *testing.T) {
	src := []byte("first\n\nthird\n\nfifth\r\n")
	for n, want := range map[int]string{0: "", 1: "first", 2: "", 3: "third", 4: "", 5: "fifth", 7: ""} {
		if got := sourceLine(src, n); got != want {
			t.Errorf("sourceLine(%d) = %q, want %q", n, got, want)
		}
	}
}

// Linting inside a project: its actionlint.yaml's paths: entry drops the
// h100 label error in nightly-gpu.yml but not in ci.yml; the missing local
// reusable workflow is reported at its first uses: line, every time
// (actionlint visits jobs in map order).
func TestLinterProjectNearMiss(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("testdata", "nearmiss", "project"))
	if err != nil {
		t.Fatal(err)
	}
	l, err := NewLinter(LinterOptions{WorkingDir: root})
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		file  string
		label bool
	}{{"nightly-gpu.yml", false}, {"ci.yml", true}} {
		p := filepath.Join(root, ".github", "workflows", tt.file)
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		for range 10 {
			fs, _, err := l.Lint(p, root, tt.file, src)
			if err != nil {
				t.Fatal(err)
			}
			label, missing := false, 0
			for _, f := range fs {
				if strings.Contains(f.Message, `label "h100" is unknown`) {
					label = true
				}
				if strings.HasPrefix(f.Message, "could not ") {
					missing++
					if f.Line != 7 {
						t.Fatalf("%s: %s at line %d, want 7 (first uses:)", tt.file, f.Message, f.Line)
					}
				}
			}
			if label != tt.label || missing == 0 {
				t.Fatalf("%s: label error %v (want %v), %d missing-file errors\n%s", tt.file, label, tt.label, missing, render(fs))
			}
		}
	}
}
