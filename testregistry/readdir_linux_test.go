package testregistry

import (
	"encoding/binary"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// dirent64 encodes one linux_dirent64 record, padded to 8 bytes as the
// kernel pads it.
func dirent64(name string, typ byte) []byte {
	n := (19 + len(name) + 1 + 7) &^ 7
	b := make([]byte, n)
	binary.NativeEndian.PutUint16(b[16:18], uint16(n))
	b[18] = typ
	copy(b[19:], name)
	return b
}

func TestAppendDirents(t *testing.T) {
	var b []byte
	for _, r := range []struct {
		name string
		typ  byte
	}{{".", 4}, {"..", 4}, {"a.py", 8}, {"sub", 4}, {"ln", 10}, {"odd", 0}} {
		b = append(b, dirent64(r.name, r.typ)...)
	}
	got := appendDirents(nil, b, &dirRef{dir: "."})
	var names []string
	for _, e := range got {
		names = append(names, e.name)
	}
	if strings.Join(names, ",") != "a.py,sub,ln,odd" {
		t.Fatalf("names = %v", names)
	}
	if got[0].typ != 0 || got[1].typ != fs.ModeDir || got[2].typ != fs.ModeSymlink || got[3].typ != ^fs.FileMode(0) {
		t.Errorf("types = %v %v %v %v", got[0].typ, got[1].typ, got[2].typ, got[3].typ)
	}
	// A record whose length is impossible ends the parse; the ones before
	// it stand.
	bad := dirent64("x", 8)
	binary.NativeEndian.PutUint16(bad[16:18], 12)
	if got := appendDirents(nil, append(dirent64("a", 8), bad...), &dirRef{dir: "."}); len(got) != 1 || got[0].name != "a" {
		t.Errorf("short record: %v", got)
	}
	long := dirent64("y", 8)
	binary.NativeEndian.PutUint16(long[16:18], 400)
	if got := appendDirents(nil, append(dirent64("a", 8), long...), &dirRef{dir: "."}); len(got) != 1 {
		t.Errorf("overlong record: %v", got)
	}
}

// TestDirEntryUnknownType: a file system that records no d_type gets the
// type from lstat, as os.ReadDir does.
func TestDirEntryUnknownType(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "d/sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	d := DirFS(dir).(dirFS)
	for name, want := range map[string]fs.FileMode{"sub": fs.ModeDir, "gone": 0} {
		e := &dirEntry{name: name, typ: ^fs.FileMode(0), in: &dirRef{fsys: d, dir: "d"}}
		if got := e.Type(); got != want || e.IsDir() != (want == fs.ModeDir) {
			t.Errorf("%s: Type() = %v, want %v", name, got, want)
		}
	}
}

// FuzzAppendDirents: any block the kernel could hand back parses without
// a panic into names that hold no NUL and are never "." or "..".
func FuzzAppendDirents(f *testing.F) {
	f.Add(append(dirent64("a.py", 8), dirent64("sub", 4)...))
	f.Add(append(dirent64(".", 4), dirent64("..", 4)...))
	f.Add(dirent64("", 0))
	f.Add([]byte{})
	f.Add(make([]byte, 19))
	f.Fuzz(func(t *testing.T, b []byte) {
		for _, e := range appendDirents(nil, b, &dirRef{dir: "."}) {
			if strings.IndexByte(e.name, 0) >= 0 || e.name == "." || e.name == ".." {
				t.Fatalf("entry %q", e.name)
			}
		}
	})
}
