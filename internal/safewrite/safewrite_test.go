package safewrite

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func write(t *testing.T, p, s string, mode os.FileMode) {
	t.Helper()
	if err := os.WriteFile(p, []byte(s), mode); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(p, mode); err != nil {
		t.Fatal(err)
	}
}

func read(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// noTemp: a refused or failed write leaves no temporary file behind.
func noTemp(t *testing.T, dir string) {
	t.Helper()
	es, _ := os.ReadDir(dir)
	for _, e := range es {
		if strings.Contains(e.Name(), ".cicheck-") {
			t.Errorf("left %s behind", e.Name())
		}
	}
}

// TestReplace: the file is replaced, keeping its mode; each refusal
// leaves it byte for byte as it was.
func TestReplace(t *testing.T) {
	root := t.TempDir()
	p := filepath.Join(root, "w.yml")
	write(t, p, "old", 0o640)
	if err := Replace(root, p, []byte("old"), []byte("new"), 1<<20); err != nil {
		t.Fatal(err)
	}
	if got := read(t, p); got != "new" {
		t.Errorf("content %q", got)
	}
	if st, _ := os.Stat(p); st.Mode().Perm() != 0o640 {
		t.Errorf("mode %v, want 0640", st.Mode().Perm())
	}
	noTemp(t, root)

	// Changed since it was read: refused (the near miss above had the
	// same text).
	err := Replace(root, p, []byte("old"), []byte("newer"), 1<<20)
	if !IsRefusal(err) || !strings.Contains(err.Error(), "changed since") || read(t, p) != "new" {
		t.Errorf("a changed file: %v, %q", err, read(t, p))
	}

	// Read-only: refused even for root, who could write it.
	write(t, p, "old", 0o444)
	if err := Replace(root, p, []byte("old"), []byte("new"), 1<<20); !IsRefusal(err) || read(t, p) != "old" {
		t.Errorf("a read-only file: %v, %q", err, read(t, p))
	}
	noTemp(t, root)
}

// TestReplaceSymlinks: a symlink to a file inside the repository is
// followed (the link stays a link); one leaving it is never written.
func TestReplaceSymlinks(t *testing.T) {
	outside := t.TempDir()
	root := t.TempDir()
	target := filepath.Join(outside, "victim.yml")
	write(t, target, "old", 0o644)
	link := filepath.Join(root, "w.yml")
	if err := os.Symlink(target, link); err != nil {
		t.Skip(err)
	}
	err := Replace(root, link, []byte("old"), []byte("new"), 1<<20)
	if !IsRefusal(err) || !strings.Contains(err.Error(), "outside the repository") || read(t, target) != "old" {
		t.Errorf("outside: %v, %q", err, read(t, target))
	}
	// The near miss: a link to a file inside the root.
	inner := filepath.Join(root, "real.yml")
	write(t, inner, "old", 0o644)
	link2 := filepath.Join(root, "w2.yml")
	if err := os.Symlink("real.yml", link2); err != nil {
		t.Fatal(err)
	}
	if err := Replace(root, link2, []byte("old"), []byte("new"), 1<<20); err != nil || read(t, inner) != "new" {
		t.Errorf("inside: %v, %q", err, read(t, inner))
	}
	if st, err := os.Lstat(link2); err != nil || st.Mode()&os.ModeSymlink == 0 {
		t.Error("the link was replaced by a file")
	}
}
