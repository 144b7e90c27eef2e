package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
)

// TestExplainFixtureInSync keeps the acceptance scripts' copy of the seed
// 002 fixtures equal to fixtures/paths-mlx*: the scripts must test the
// fixture the repository ships.
func TestExplainFixtureInSync(t *testing.T) {
	cases := map[string]string{
		"explain_acceptance.txtar": "paths-mlx",
		"explain_unknown.txtar":    "paths-mlx",
		"explain_before.txtar":     "paths-mlx-before",
	}
	for script, fixture := range cases {
		a, err := txtar.ParseFile(filepath.Join("testdata", script))
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range a.Files {
			switch f.Name {
			case ".cicheck.yaml", ".github/actionlint.yaml", ".github/workflows/ci.yml":
			default:
				continue
			}
			want, err := os.ReadFile(filepath.Join("..", "..", "fixtures", fixture, f.Name))
			if err != nil {
				t.Fatal(err)
			}
			if string(want) != string(f.Data) {
				t.Errorf("%s: %s differs from fixtures/%s/%s", script, f.Name, fixture, f.Name)
			}
		}
	}
}

func FuzzParseChangedFiles(f *testing.F) {
	for _, s := range []string{"M\tsrc/a.go\nD\tdocs/b.md\n", "R100\told\tnew\n", "a\n\n./b\r\n", "X\ty\n", "M\n"} {
		f.Add(s, true)
		f.Add(s, false)
	}
	f.Fuzz(func(t *testing.T, s string, ns bool) {
		files, err := edParseChangedFiles(strings.NewReader(s), "f", ns)
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
		files, err := edParseNameStatusZ([]byte(r.in))
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
		files, err := edParseNameStatusZ([]byte(s))
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
		files, err := edParseChangedFiles(strings.NewReader(r.in), "f", r.ns)
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
