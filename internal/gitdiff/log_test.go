package gitdiff

import (
	"reflect"
	"strings"
	"testing"

	"github.com/cicheck/cicheck/pathsfilter"
)

const (
	shaA = "4db0058bc4706a90279f413aa50cce1561fa1316"
	shaB = "81a21ace930b106e16c77013bfc2b98065d89115"
	shaC = "86a22e23e9f72b4d3db5b1cce73786289bec9ef4"
)

func cf(status, p string) pathsfilter.ChangedFile {
	return pathsfilter.ChangedFile{Path: p, Status: status}
}

// z joins fields as git log -z prints them.
func z(fields ...string) []byte { return []byte(strings.Join(fields, "\x00")) }

func TestParseLog(t *testing.T) {
	cases := []struct {
		name string
		in   []byte
		want []Commit
		err  string
	}{
		{name: "empty", in: nil},
		{name: "merge, deletion, empty commit, rename, copy, root",
			in: z("", shaA+" "+shaB+" "+shaC, "Merge branch 'f'", "\nA", "d", "",
				shaB+" "+shaC, "del", "\nD", "c", "",
				shaC+" "+shaA, "empty", "",
				shaA+" "+shaB, "ren", "\nR100", "a", "b", "C075", "b", "b2", "M", "x y", "",
				shaB, "root", "\nA", "a", ""),
			want: []Commit{
				{SHA: shaA, Parents: []string{shaB, shaC}, Subject: "Merge branch 'f'", Files: []pathsfilter.ChangedFile{cf(pathsfilter.StatusAdded, "d")}},
				{SHA: shaB, Parents: []string{shaC}, Subject: "del", Files: []pathsfilter.ChangedFile{cf(pathsfilter.StatusDeleted, "c")}},
				{SHA: shaC, Parents: []string{shaA}, Subject: "empty"},
				{SHA: shaA, Parents: []string{shaB}, Subject: "ren", Files: []pathsfilter.ChangedFile{
					cf(pathsfilter.StatusDeleted, "a"), cf(pathsfilter.StatusAdded, "b"), cf(pathsfilter.StatusAdded, "b2"), cf(pathsfilter.StatusModified, "x y")}},
				{SHA: shaB, Parents: []string{}, Subject: "root", Files: []pathsfilter.ChangedFile{cf(pathsfilter.StatusAdded, "a")}},
			}},
		{name: "last commit empty", in: z("", shaA, "only", ""), want: []Commit{{SHA: shaA, Parents: []string{}, Subject: "only"}}},
		{name: "empty subject", in: z("", shaA, "", "\nM", "f", ""), want: []Commit{{SHA: shaA, Parents: []string{}, Files: []pathsfilter.ChangedFile{cf(pathsfilter.StatusModified, "f")}}}},
		{name: "path with newline", in: z("", shaA, "s", "\nA", "a\nb", ""), want: []Commit{{SHA: shaA, Parents: []string{}, Subject: "s", Files: []pathsfilter.ChangedFile{cf(pathsfilter.StatusAdded, "a\nb")}}}},
		{name: "no leading NUL", in: []byte(shaA + "\x00s\x00"), err: "does not start a commit"},
		{name: "short sha", in: z("", "abc", "s", ""), err: `bad commit line "abc"`},
		{name: "bad parent", in: z("", shaA+" xyz", "s", ""), err: `bad parent "xyz"`},
		{name: "no subject", in: z("", shaA), err: "without its subject"},
		{name: "unknown status", in: z("", shaA, "s", "\nX", "a", ""), err: `unknown status "X"`},
		{name: "status with junk", in: z("", shaA, "s", "\nMM", "a", ""), err: `unknown status "MM"`},
		{name: "rename without new path", in: z("", shaA, "s", "\nR100", "a", ""), err: `status "R100" without its path`},
		{name: "status at end", in: z("", shaA, "s", "\nM"), err: `status "M" without its path`},
		{name: "junk after subject", in: z("", shaA, "s", "junk", ""), err: `unexpected field "junk"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := ParseLog(c.in)
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("err = %v, want %q", err, c.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, c.want) {
				t.Fatalf("got  %+v\nwant %+v", got, c.want)
			}
		})
	}
}

func TestLogArgs(t *testing.T) {
	got := strings.Join(LogArgs([]string{"main~3..main"}, 0, false), " ")
	if strings.Contains(got, "--first-parent") || strings.Contains(got, "--max-count") || !strings.HasSuffix(got, "--end-of-options main~3..main --") {
		t.Errorf("args %s", got)
	}
	got = strings.Join(LogArgs([]string{"HEAD"}, 200, true), " ")
	if !strings.Contains(got, "--first-parent") || !strings.Contains(got, "--max-count=200") {
		t.Errorf("args %s", got)
	}
}

// FuzzParseLog: any input parses or fails without panicking, and every
// parsed commit has a valid id and non-empty paths.
func FuzzParseLog(f *testing.F) {
	f.Add(z("", shaA+" "+shaB, "s", "\nR100", "a", "b", "M", "c", ""))
	f.Add(z("", shaA, "", ""))
	f.Add(z("", shaA, "s", "\nM"))
	f.Add([]byte{0})
	f.Add([]byte("\x00\x00\x00"))
	f.Fuzz(func(t *testing.T, b []byte) {
		cs, err := ParseLog(b)
		if err != nil {
			return
		}
		for _, c := range cs {
			if !isHex(c.SHA) {
				t.Fatalf("bad sha %q", c.SHA)
			}
			for _, f := range c.Files {
				if f.Path == "" || f.Status == "" {
					t.Fatalf("empty file %+v", f)
				}
			}
		}
	})
}
