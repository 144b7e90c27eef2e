package repofs_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"testing/fstest"
	"time"

	"github.com/cicheck/cicheck/internal/repofs"
)

// tree makes a repository with a file, a symlink inside, symlinks out of
// it and (on Unix) a named pipe.
func tree(t *testing.T) (root, outside string) {
	t.Helper()
	base := t.TempDir()
	root, outside = filepath.Join(base, "repo"), filepath.Join(base, "secret")
	must(t, os.MkdirAll(filepath.Join(root, "d"), 0o755))
	must(t, os.MkdirAll(outside, 0o755))
	must(t, os.WriteFile(filepath.Join(outside, "passwd"), []byte("root:x:0:0\n"), 0o644))
	must(t, os.WriteFile(filepath.Join(root, "d", "a.yml"), []byte("on: push\n"), 0o644))
	must(t, os.Symlink(filepath.Join("d", "a.yml"), filepath.Join(root, "in.yml")))
	must(t, os.Symlink(filepath.Join(outside, "passwd"), filepath.Join(root, "out.yml")))
	must(t, os.Symlink(outside, filepath.Join(root, "outdir")))
	must(t, os.Symlink("loop", filepath.Join(root, "loop")))
	if runtime.GOOS != "windows" {
		must(t, syscall.Mkfifo(filepath.Join(root, "fifo.yml"), 0o644))
		must(t, os.Symlink("/dev/zero", filepath.Join(root, "zero.yml")))
	}
	return root, outside
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func TestDirFS(t *testing.T) {
	root, _ := tree(t)
	fsys := repofs.DirFS(root)
	cases := []struct {
		name string
		want error // nil: read, with the file's text
	}{
		{"d/a.yml", nil},
		{"in.yml", nil}, // near miss: a link that stays inside is followed
		{"out.yml", repofs.ErrOutside},
		{"outdir/passwd", repofs.ErrOutside},
		{"loop", nil}, // an error, not a hang (checked below)
		{"fifo.yml", repofs.ErrNotRegular},
		{"zero.yml", repofs.ErrOutside},
		{"missing.yml", fs.ErrNotExist},
		{"../repo/d/a.yml", fs.ErrInvalid},
	}
	for _, c := range cases {
		if runtime.GOOS == "windows" && strings.Contains(c.name, "fifo") {
			continue
		}
		done := make(chan struct{})
		var b []byte
		var err error
		go func() {
			defer close(done)
			b, err = repofs.ReadFile(fsys, c.name, 1<<10, "test file")
		}()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: the read blocks", c.name)
		}
		switch {
		case c.name == "loop":
			if err == nil {
				t.Errorf("loop: read %q", b)
			}
		case c.want == nil:
			if err != nil || string(b) != "on: push\n" {
				t.Errorf("%s: %q, %v", c.name, b, err)
			}
		case !errors.Is(err, c.want):
			t.Errorf("%s: error %v, want %v", c.name, err, c.want)
		}
		if err != nil && strings.Contains(err.Error(), "secret") {
			t.Errorf("%s: the error names a path outside the repository: %v", c.name, err)
		}
	}
	if _, err := fs.Stat(fsys, "fifo.yml"); runtime.GOOS != "windows" && !errors.Is(err, repofs.ErrNotRegular) {
		t.Errorf("stat fifo: %v", err)
	}
	if es, err := fs.ReadDir(fsys, "d"); err != nil || len(es) != 1 {
		t.Errorf("readdir: %v %v", es, err)
	}
}

func TestLimits(t *testing.T) {
	fsys := fstest.MapFS{"big": {Data: make([]byte, 2048)}, "ok": {Data: make([]byte, 1024)}}
	if _, err := repofs.ReadFile(fsys, "ok", 1024, "baseline"); err != nil {
		t.Errorf("at the limit: %v", err)
	}
	_, err := repofs.ReadFile(fsys, "big", 1024, "baseline")
	var tl *repofs.TooLargeError
	if !errors.As(err, &tl) || err.Error() != "big: larger than the 1 KiB limit for a baseline" {
		t.Errorf("over the limit: %v", err)
	}
	if _, err := repofs.ReadStream(strings.NewReader(strings.Repeat("x", 11)), "<stdin>", 10, "comment"); err == nil || err.Error() != "<stdin>: larger than the 10 bytes limit for a comment" {
		t.Errorf("stream over the limit: %v", err)
	}
	if b, err := repofs.ReadStream(strings.NewReader("0123456789"), "<stdin>", 10, "comment"); err != nil || len(b) != 10 {
		t.Errorf("stream at the limit: %q %v", b, err)
	}
}

func TestReadPath(t *testing.T) {
	root, outside := tree(t)
	// A path the user names may lie anywhere...
	if b, err := repofs.ReadPath(filepath.Join(outside, "passwd"), 1<<10, "baseline"); err != nil || len(b) == 0 {
		t.Errorf("named path: %q %v", b, err)
	}
	if runtime.GOOS == "windows" {
		return
	}
	// ...but is never a pipe or an endless device.
	done := make(chan error, 1)
	go func() {
		_, err := repofs.ReadPath(filepath.Join(root, "fifo.yml"), 1<<10, "baseline")
		done <- err
	}()
	select {
	case err := <-done:
		if !errors.Is(err, repofs.ErrNotRegular) {
			t.Errorf("fifo: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("fifo: the read blocks")
	}
	if _, err := repofs.ReadPath("/dev/zero", 1<<10, "baseline"); !errors.Is(err, repofs.ErrNotRegular) {
		t.Errorf("/dev/zero: %v", err)
	}
}
