package gitdiff

import (
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func FuzzParseChangedFiles(f *testing.F) {
	for _, s := range []string{"M\tsrc/a.go\nD\tdocs/b.md\n", "R100\told\tnew\n", "a\n\n./b\r\n", "X\ty\n", "M\n"} {
		f.Add(s, true)
		f.Add(s, false)
	}
	f.Fuzz(func(t *testing.T, s string, ns bool) {
		files, err := ParseList(strings.NewReader(s), "f", ns)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "f:") {
				t.Fatalf("error without position: %v", err)
			}
			return
		}
		for _, cf := range files {
			if strings.TrimSpace(cf.Path) == "" && !ns {
				t.Fatalf("blank path from %q", s)
			}
		}
	})
}

// TestParseNameStatusZ: `git diff --name-status -z` records, unquoted; a
// rename is the deletion of the old path and the addition of the new one.
func TestParseNameStatusZ(t *testing.T) {
	rows := []struct{ in, want string }{
		{"", ""},
		{"M\x00docs/été.md\x00A\x00a \"q\"\tb\x00", "modified:docs/été.md added:a \"q\"\tb"},
		{"R100\x00old\x00new\x00C75\x00x\x00y\x00", "deleted:old added:new added:y"},
		{"M\x00", "error"},
		{"R100\x00old\x00", "error"},
		{"Z\x00a\x00", "error"},
	}
	for _, r := range rows {
		files, err := ParseNameStatusZ([]byte(r.in))
		var parts []string
		for _, f := range files {
			parts = append(parts, f.Status+":"+f.Path)
		}
		got := strings.Join(parts, " ")
		if err != nil {
			got = "error"
		}
		if got != r.want {
			t.Errorf("%q: got %q, want %q", r.in, got, r.want)
		}
	}
}

func FuzzParseNameStatusZ(f *testing.F) {
	for _, s := range []string{"M\x00a\x00", "R100\x00a\x00b\x00", "M\x00", "\x00\x00"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		files, err := ParseNameStatusZ([]byte(s))
		if err == nil && len(files) == 0 && s != "" && s != "\x00" {
			t.Fatalf("%q: no files and no error", s)
		}
	})
}

// TestParseChangedFilesQuoted: a list made with git diff --name-only or
// --name-status (without -z) holds C-quoted paths; they are unquoted.
func TestParseChangedFilesQuoted(t *testing.T) {
	for _, r := range []struct {
		in   string
		ns   bool
		want string
	}{
		{"\"docs/\\303\\251t\\303\\251.md\"\nplain.md\n", false, "docs/été.md|plain.md"},
		{"M\t\"a\\\"b.md\"\nR100\t\"x\\ty\"\tz\n", true, "a\"b.md|x\ty|z"},
		{"\"unterminated\n", false, "\"unterminated"},
	} {
		files, err := ParseList(strings.NewReader(r.in), "f", r.ns)
		if err != nil {
			t.Fatalf("%q: %v", r.in, err)
		}
		var parts []string
		for _, f := range files {
			parts = append(parts, f.Path)
		}
		if got := strings.Join(parts, "|"); got != r.want {
			t.Errorf("%q: got %q, want %q", r.in, got, r.want)
		}
	}
}

// TestTreeAndStaged: Tree reads every file under the directory at a ref
// with its exact bytes (two git processes), and nothing outside it; Staged
// lists what `git add` staged.
func TestTreeAndStaged(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	dir := t.TempDir()
	git := func(args ...string) {
		t.Helper()
		if _, err := Git(dir, append([]string{"-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false"}, args...)...); err != nil {
			t.Fatal(err)
		}
	}
	write := func(p, s string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, p)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, p), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	git("init", "-q")
	write(".github/workflows/a b.yml", "on: push\n\x00binary\n\n")
	write(".github/filters.yml", "src: ['src/**']")
	write("src/x.go", "package x")
	git("add", "-A")
	git("commit", "-qm", "one")
	write(".github/filters.yml", "changed")
	write("src/y.go", "package y")
	git("add", "src/y.go")
	fsys, err := Tree(dir, "HEAD", ".github")
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	_ = fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			b, _ := fs.ReadFile(fsys, p)
			got[p] = string(b)
		}
		return nil
	})
	want := map[string]string{".github/workflows/a b.yml": "on: push\n\x00binary\n\n", ".github/filters.yml": "src: ['src/**']"}
	if !maps.Equal(got, want) {
		t.Errorf("Tree: got %q, want %q", got, want)
	}
	staged, err := Staged(dir)
	if err != nil || strings.Join(staged, ",") != "src/y.go" {
		t.Errorf("Staged: %q, %v", staged, err)
	}
	if _, err := Tree(dir, "no-such-ref", ".github"); err == nil || !strings.HasPrefix(err.Error(), "git ls-tree") {
		t.Errorf("Tree at a bad ref: %v", err)
	}
	if _, err := Staged(t.TempDir()); err == nil || !strings.Contains(err.Error(), "not in a git repository") {
		t.Errorf("Staged outside a repository: %v", err)
	}
}

// TestTreeMissingBlob: a blob ls-tree lists but the clone does not hold (a
// partial clone) is an error naming the file, never an empty file.
func TestTreeMissingBlob(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	dir := t.TempDir()
	git := func(args ...string) string {
		t.Helper()
		out, err := Git(dir, append([]string{"-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false"}, args...)...)
		if err != nil {
			t.Fatal(err)
		}
		return strings.TrimSpace(string(out))
	}
	git("init", "-q")
	if err := os.MkdirAll(filepath.Join(dir, ".github"), 0o755); err != nil {
		t.Fatal(err)
	}
	for name, body := range map[string]string{"kept.yml": "on: push\n", "gone.yml": "on: pull_request\n"} {
		if err := os.WriteFile(filepath.Join(dir, ".github", name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	git("add", "-A")
	git("commit", "-qm", "one")
	// The near miss: every blob present.
	if fsys, err := Tree(dir, "HEAD", ".github"); err != nil {
		t.Fatal(err)
	} else if b, _ := fs.ReadFile(fsys, ".github/gone.yml"); string(b) != "on: pull_request\n" {
		t.Fatalf("gone.yml = %q", b)
	}
	id := git("rev-parse", "HEAD:.github/gone.yml")
	if err := os.Remove(filepath.Join(dir, ".git", "objects", id[:2], id[2:])); err != nil {
		t.Fatal(err)
	}
	if _, err := Tree(dir, "HEAD", ".github"); err == nil || !strings.Contains(err.Error(), ".github/gone.yml: missing") {
		t.Errorf("missing blob: %v", err)
	}
}

// TestGitOutputBounded: a command printing more than its limit fails
// with that said, not a buffer without end; one within it is read whole.
func TestGitOutputBounded(t *testing.T) {
	dir := gitRepo(t, "write a.txt 0123456789", "git add -A", "git commit -q -m c")
	if out, err := git(dir, 11, "show", "HEAD:a.txt"); err != nil || string(out) != "0123456789\n" {
		t.Errorf("at the limit: %q %v", out, err)
	}
	if _, err := git(dir, 10, "show", "HEAD:a.txt"); err == nil || !strings.Contains(err.Error(), "printed more than the 10 bytes") {
		t.Errorf("over the limit: %v", err)
	}
}
