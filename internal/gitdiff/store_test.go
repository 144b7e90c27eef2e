package gitdiff

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/cicheck/cicheck/pathsfilter"
)

// gitRepo makes a repository in a temporary directory and runs each
// command line (split on spaces) in it.
func gitRepo(t *testing.T, cmds ...string) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	dir := t.TempDir()
	for _, c := range append([]string{"git init -q -b main"}, cmds...) {
		args := strings.Fields(c)
		var cmd *exec.Cmd
		switch args[0] {
		case "write": // write PATH WORD
			p := filepath.Join(dir, args[1])
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte(args[2]+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		default:
			cmd = exec.Command(args[0], args[1:]...)
		}
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t",
			"GIT_COMMITTER_EMAIL=t@example.com", "GIT_CONFIG_NOSYSTEM=1", "HOME="+dir)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%s: %v\n%s", c, err, out)
		}
	}
	return dir
}

func TestLogAndStore(t *testing.T) {
	dir := gitRepo(t,
		"write .github/workflows/ci.yml v1", "write src/a.go a", "write docs/x.md x",
		"git add -A", "git commit -q -m root",
		"git mv src/a.go src/b.go", "git commit -q -m rename",
		"git commit -q --allow-empty -m empty",
		"git checkout -q -b side", "write side.txt s", "git add -A", "git commit -q -m side",
		"git checkout -q main", "git rm -q docs/x.md", "git commit -q -m delete",
		"git merge -q --no-ff side -m merge",
		"write .github/workflows/ci.yml v2", "git commit -q -am workflow")
	cs, err := Log(dir, []string{"HEAD"}, 0, true)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range cs {
		var fs []string
		for _, f := range c.Files {
			fs = append(fs, f.Status+":"+f.Path)
		}
		got = append(got, c.Subject+"="+strings.Join(fs, ","))
	}
	want := "workflow=modified:.github/workflows/ci.yml|merge=added:side.txt|delete=removed:docs/x.md|empty=|rename=removed:src/a.go,added:src/b.go|root=added:.github/workflows/ci.yml,added:docs/x.md,added:src/a.go"
	if strings.Join(got, "|") != strings.ReplaceAll(want, "removed", pathsfilter.StatusDeleted) {
		t.Errorf("log:\n%s\nwant\n%s", strings.Join(got, "|"), want)
	}
	if len(cs[1].Parents) != 2 {
		t.Errorf("merge parents %v", cs[1].Parents)
	}
	all, err := Log(dir, []string{"HEAD"}, 0, false)
	if err != nil || len(all) != len(cs)+1 {
		t.Errorf("without --first-parent: %d commits, %v", len(all), err)
	}
	two, err := Log(dir, []string{"HEAD~2..HEAD"}, 0, true)
	if err != nil || len(two) != 2 {
		t.Errorf("range: %d commits, %v", len(two), err)
	}
	if one, err := Log(dir, []string{"HEAD"}, 1, true); err != nil || len(one) != 1 {
		t.Errorf("limit: %d commits, %v", len(one), err)
	}
	if _, err := Log(dir, []string{"nosuch"}, 0, true); err == nil || !strings.HasPrefix(err.Error(), "git log ") || strings.Contains(err.Error(), "\n") {
		t.Errorf("bad rev: %v", err)
	}
	if _, err := Log(dir, []string{"--all"}, 0, true); err == nil || err.Error() != `invalid revision "--all"` {
		t.Errorf("option as rev: %v", err)
	}

	s, err := OpenStore(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = s.Close() }()
	head, err := s.Commit("HEAD")
	if err != nil || head != cs[0].SHA {
		t.Fatalf("HEAD = %s, %v", head, err)
	}
	for _, bad := range []struct{ rev, err string }{
		{"nosuch", "nosuch: unknown revision"},
		{"HEAD:src", "HEAD:src: unknown revision"},
		{"-x", `invalid revision "-x"`},
		{"a\nb", `invalid revision "a\nb"`},
	} {
		if _, err := s.Commit(bad.rev); err == nil || !strings.HasPrefix(err.Error(), bad.err) {
			t.Errorf("%q: %v, want %s", bad.rev, err, bad.err)
		}
	}
	if name, id, err := s.DefaultBranch(); err != nil || name != "main" || id != head {
		t.Errorf("default branch %s %s %v", name, id, err)
	}
	old, err := s.Commit("HEAD~1")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ id, ci string }{{head, "v2\n"}, {old, "v1\n"}} {
		fsys, err := s.FS(c.id)
		if err != nil {
			t.Fatal(err)
		}
		if b, err := fs.ReadFile(fsys, ".github/workflows/ci.yml"); err != nil || string(b) != c.ci {
			t.Errorf("ci.yml at %s = %q, %v", c.id, b, err)
		}
		if err := fstest.TestFS(fsys, ".github/workflows/ci.yml", "src/b.go", "side.txt"); err != nil {
			t.Error(err)
		}
		if _, err := fs.Stat(fsys, "docs/x.md"); err == nil {
			t.Error("a deleted file exists")
		}
		if _, err := fs.ReadFile(fsys, "src/b.go/x"); err == nil {
			t.Error("a file is a directory")
		}
	}
}

func TestStoreNotARepository(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	dir := t.TempDir()
	t.Setenv("GIT_CEILING_DIRECTORIES", filepath.Dir(dir))
	s, err := OpenStore(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = s.Close() }()
	_, err = s.Commit("HEAD")
	if err == nil || !strings.HasPrefix(err.Error(), "git cat-file --batch: fatal: not a git repository") || strings.Contains(err.Error(), "\n") {
		t.Fatalf("err = %v", err)
	}
	if _, _, err2 := s.DefaultBranch(); err2 == nil || err2.Error() != err.Error() {
		t.Errorf("after failure: %v", err2)
	}
}

func TestParseTree(t *testing.T) {
	id := strings.Repeat("\x01", 20)
	good := "100644 a.txt\x00" + id + "40000 dir\x00" + id + "120000 link\x00" + id + "160000 sub\x00" + id + "100755 run\x00" + id
	es, err := parseTree([]byte(good), 20)
	if err != nil || len(es) != 5 || !es[1].mode.IsDir() || es[2].mode&fs.ModeSymlink == 0 || es[3].mode&fs.ModeIrregular == 0 || es[4].mode != 0o755 || es[0].id != strings.Repeat("01", 20) {
		t.Fatalf("%+v %v", es, err)
	}
	for _, bad := range []string{"100644 a.txt\x00" + id[:5], "100644a.txt" + id, "10x644 a\x00" + id, "\x00 a" + id} {
		if _, err := parseTree([]byte(bad), 20); err == nil {
			t.Errorf("%q parsed", bad)
		}
	}
}

// FuzzParseTree: any tree object parses or fails without panicking, and
// every entry has a name and a hex id.
func FuzzParseTree(f *testing.F) {
	id := strings.Repeat("\x01", 20)
	f.Add([]byte("100644 a.txt\x00"+id+"40000 dir\x00"+id), 20)
	f.Add([]byte("160000 sub\x00"+id), 20)
	f.Add([]byte("100644 a\x00"+id[:3]), 20)
	f.Add([]byte("100644 a\x00"+strings.Repeat("\x02", 32)), 32)
	f.Fuzz(func(t *testing.T, b []byte, idLen int) {
		if idLen != 20 && idLen != 32 {
			return
		}
		es, err := parseTree(b, idLen)
		if err != nil {
			return
		}
		for _, e := range es {
			if len(e.id) != 2*idLen {
				t.Fatalf("entry %+v", e)
			}
		}
	})
}

// TestStoreObjectLimit: a blob over the store's limit is not kept in
// memory: its file reports its size (a workflow reader refuses it by
// size) and fails to read, and the pipe stays in step, so the next
// object is read whole. A blob at the limit is read (the near miss).
func TestStoreObjectLimit(t *testing.T) {
	dir := gitRepo(t, "write big.yml 0123456789", "write ok.yml 012345678", "write after.yml x", "git add -A", "git commit -q -m c")
	s, err := OpenStore(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = s.Close() }()
	fsys, err := s.FS("HEAD")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := fs.ReadDir(fsys, "."); err != nil { // the commit and tree, read under the real limit (trees are cached)
		t.Fatal(err)
	}
	s.limit = 10 // "012345678\n" is 10 bytes, "0123456789\n" 11
	f, err := fsys.Open("big.yml")
	if err != nil {
		t.Fatal(err)
	}
	if st, _ := f.Stat(); st.Size() != 11 {
		t.Errorf("size %d, want 11", st.Size())
	}
	if _, err := f.Read(make([]byte, 64)); err == nil {
		t.Error("an object over the limit was read")
	}
	for name, want := range map[string]string{"ok.yml": "012345678\n", "after.yml": "x\n"} {
		if b, err := fs.ReadFile(fsys, name); err != nil || string(b) != want {
			t.Errorf("%s: %q %v", name, b, err)
		}
	}
}
