package testregistry

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
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

// TestDirFSAsFS runs the standard library's file system conformance check
// over DirFS (ReadDir and ReadFile are DirFS's own on Linux) and compares
// each directory listing with os.ReadDir's: names, order and types.
func TestDirFSAsFS(t *testing.T) {
	dir := t.TempDir()
	for _, d := range []string{"tests/e2e/deep", "tests/.hidden", "empty"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	files := []string{"tests/e2e/test_a.py", "tests/e2e/deep/test_b.py", "tests/.hidden/test_c.py", "tests/B.py", "top.txt"}
	for i, name := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(strings.Repeat("x", i*7000)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// Enough entries that getdents needs more than one call.
	for i := 0; i < 300; i++ {
		if err := os.WriteFile(filepath.Join(dir, "empty", fmt.Sprintf("file-with-a-long-name-%03d.py", i)), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("e2e", filepath.Join(dir, "tests/link")); err != nil {
		t.Skip("no symlinks here:", err)
	}
	fsys := DirFS(dir)
	if err := fstest.TestFS(fsys, append(files, "empty/file-with-a-long-name-299.py")...); err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{".", "tests", "tests/e2e", "empty"} {
		got, err := fs.ReadDir(fsys, d)
		if err != nil {
			t.Fatal(err)
		}
		want, err := os.ReadDir(filepath.Join(dir, d))
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != len(want) {
			t.Fatalf("%s: %d entries, os.ReadDir %d", d, len(got), len(want))
		}
		for i := range got {
			if got[i].Name() != want[i].Name() || got[i].Type() != want[i].Type() || got[i].IsDir() != want[i].IsDir() {
				t.Errorf("%s[%d] = %v, os.ReadDir %v", d, i, got[i], want[i])
			}
		}
	}
	if _, err := fs.ReadDir(fsys, "nope"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("ReadDir of a missing directory: %v", err)
	}
	if _, err := fs.ReadDir(fsys, "top.txt"); err == nil {
		t.Errorf("ReadDir of a file succeeded")
	}
	for _, bad := range []string{"../x", "a\x00b", "/abs"} {
		if _, err := fs.ReadDir(fsys, bad); err == nil {
			t.Errorf("ReadDir(%q) succeeded", bad)
		}
		if _, err := fs.ReadFile(fsys, bad); err == nil {
			t.Errorf("ReadFile(%q) succeeded", bad)
		}
	}
}

// TestDiscoverManyDirectories: the parallel walk finds what fs.WalkDir
// finds (dot-names and non-matching names left out) on a tree of 300
// directories, through DirFS and through a MapFS.
func TestDiscoverManyDirectories(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{}
	for i := 0; i < 300; i++ {
		d := fmt.Sprintf("tests/e2e/g%d/s%d/t%d", i%7, i%13, i)
		files[d+"/test_x.py"] = ""
		files[d+"/helper.py"] = ""
		files[d+"/.hidden/test_y.py"] = ""
	}
	files["tests/fast/test_top.py"] = ""
	writeTree(t, dir, files)
	var want []string
	err := fs.WalkDir(os.DirFS(dir), "tests", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if strings.HasPrefix(d.Name(), ".") {
			return fs.SkipDir
		}
		if !d.IsDir() && strings.HasPrefix(d.Name(), "test_") {
			want = append(want, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	mapfs := fstest.MapFS{}
	for name := range files {
		mapfs[name] = &fstest.MapFile{}
	}
	for _, fsys := range []fs.FS{DirFS(dir), mapfs} {
		got, err := Discover(fsys, DefaultConfig())
		if err != nil || !slices.Equal(got, want) {
			t.Errorf("%T: Discover = %d files (%v), want %d", fsys, len(got), err, len(want))
		}
	}
	if len(want) != 301 {
		t.Errorf("the oracle found %d files", len(want))
	}
}

// writeTree writes files (slash paths) under dir.
func writeTree(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, data := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
