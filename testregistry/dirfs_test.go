package testregistry

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestDirFS(t *testing.T) {
	dir := t.TempDir()
	big := strings.Repeat("x", 40000)
	for _, d := range []string{"tests/e2e", "tests/ci"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for name, data := range map[string]string{"tests/e2e/test_a.py": "register_cpu_ci(1, 's')\n", "tests/ci/test_b.py": "", "big.txt": big, "empty.py": ""} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	fsys := DirFS(dir)
	for name, want := range map[string]string{"tests/e2e/test_a.py": "register_cpu_ci(1, 's')\n", "big.txt": big, "empty.py": ""} {
		got, err := fs.ReadFile(fsys, name)
		if err != nil || string(got) != want {
			t.Errorf("%s: %d bytes, %v", name, len(got), err)
		}
	}
	if _, err := fs.ReadFile(fsys, "nope.py"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
	if _, err := fs.ReadFile(fsys, "tests"); err == nil {
		t.Errorf("reading a directory succeeded")
	}
	if _, err := fs.ReadFile(fsys, "../x"); err == nil {
		t.Errorf("an invalid path was read")
	}
	if err := os.Symlink("../ci", filepath.Join(dir, "tests/e2e/linked")); err != nil {
		t.Skip("no symlinks here:", err)
	}
	if st, err := fs.Lstat(fsys, "tests/e2e/linked"); err != nil || st.Mode()&fs.ModeSymlink == 0 {
		t.Errorf("Lstat of a symlink: %v %v", st, err)
	}
	files, err := Discover(fsys, DefaultConfig())
	if err != nil || strings.Join(files, ",") != "tests/ci/test_b.py,tests/e2e/linked/test_b.py,tests/e2e/test_a.py" {
		t.Errorf("Discover = %v, %v", files, err)
	}
	if err := CheckFileRunDiscovery(fsys, DefaultConfig()); err == nil || err.Error() != "CI test directory must not be a symlink: tests/e2e/linked" {
		t.Errorf("CheckFileRunDiscovery = %v", err)
	}
}
