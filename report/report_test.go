package report

import (
	"bytes"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/cicheck/cicheck/finding"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// ciYAML is a workflow with a tab inside a run script and CJK text, so the
// golden snippets exercise tab expansion and wide characters.
const ciYAML = "name: CI\n" +
	"on: push\n" +
	"jobs:\n" +
	"  build:\n" +
	"    runs-on: [self-hosted, h100]\n" +
	"    steps:\n" +
	"      - run: |\n" +
	"          echo\t\"日本語 テスト\" && exit 1\n" +
	"  gpu:\n" +
	"    needs: [biuld]\n"

func goldenCases() []struct {
	name     string
	findings []finding.Finding
	opts     Options
} {
	mixed := []finding.Finding{
		{Rule: "needs-unknown", Severity: finding.Error, File: ".github/workflows/ci.yml", Line: 10, Column: 13,
			Message: `job "gpu" needs "biuld", which does not exist`, Job: "gpu", Fix: `did you mean "build"?`},
		{Rule: "gpu-runner", Severity: finding.Warning, File: ".github/workflows/ci.yml", Line: 5, Column: 28,
			Message: `job "build" runs on GPU runner label "h100"`, Job: "build"},
		{Rule: "shellcheck", Severity: finding.Notice, File: ".github/workflows/ci.yml", Line: 8, Column: 17,
			Message: "quoted CJK text after a tab"},
		{Rule: "wide", Severity: finding.Notice, File: ".github/workflows/ci.yml", Line: 8, Column: 21,
			Message: "caret after three wide characters"},
		{Rule: "past-eol", Severity: finding.Warning, File: ".github/workflows/ci.yml", Line: 2, Column: 40,
			Message: "column beyond the end of the line"},
		{Rule: "empty-workflow", Severity: finding.Error, File: ".github/workflows/empty.yml",
			Message: "workflow file is empty"},
		{Rule: "no-source", Severity: finding.Warning, File: ".github/workflows/other.yml", Line: 3, Column: 1,
			Message: "source not available, so no snippet"},
		{Rule: "needs-unknown", Severity: finding.Error, File: ".github/workflows/ci.yml", Line: 10, Column: 0,
			Message: "line known, column unknown"},
	}
	special := []finding.Finding{
		{Rule: "odd:rule,id", Severity: finding.Warning, File: "dir,with:odd/100% ci.yml", Line: 1, Column: 2,
			Message: "100% sure:\r\nline two, with comma\nline <three> & \"quotes\" ::error::injected\n::warning file=x::pwned", Job: "j:1", Fix: "fix%0A literally"},
		{Rule: "ctrl", Severity: finding.Error, File: "a.yml", Line: 1, Column: 1,
			Message: "escape \x1b[31m red, bell \a, bidi \u202e reversed"},
	}
	rules := []RuleInfo{
		{ID: "needs-unknown", Short: "A job needs a job that does not exist", Help: "# needs-unknown\n\nGitHub rejects the workflow.", HelpURI: "https://github.com/cicheck/cicheck/blob/main/docs/rules/needs-unknown.md", Severity: finding.Error},
		{ID: "gpu-runner", Short: "A job runs on a GPU runner", Severity: finding.Warning},
		{ID: "unused-rule", Short: "Listed in the registry, no finding", Severity: finding.Notice},
	}
	src := map[string][]byte{".github/workflows/ci.yml": []byte(ciYAML), ".github/workflows/empty.yml": {}}
	return []struct {
		name     string
		findings []finding.Finding
		opts     Options
	}{
		{"empty", nil, Options{}},
		{"mixed", mixed, Options{Sources: src, Rules: rules, ToolName: "cicheck", ToolVersion: "0.1.0"}},
		{"special", special, Options{Sources: map[string][]byte{"a.yml": []byte("x: \x1b[31m\n")}}},
	}
}

// goldenFormats names each rendering and the extension of its golden file.
var goldenFormats = []struct {
	format, ext string
	color       bool
}{
	{"text", "txt", false},
	{"text", "color.txt", true},
	{"github", "github.txt", false},
	{"json", "json", false},
	{"sarif", "sarif", false},
}

func TestGolden(t *testing.T) {
	for _, tc := range goldenCases() {
		for _, gf := range goldenFormats {
			t.Run(tc.name+"."+gf.ext, func(t *testing.T) {
				opts := tc.opts
				opts.Color = gf.color
				var buf bytes.Buffer
				if err := Write(&buf, gf.format, tc.findings, opts); err != nil {
					t.Fatal(err)
				}
				golden := filepath.Join("testdata", tc.name+"."+gf.ext)
				if *update {
					if err := os.WriteFile(golden, buf.Bytes(), 0o644); err != nil {
						t.Fatal(err)
					}
					return
				}
				want, err := os.ReadFile(golden)
				if err != nil {
					t.Fatalf("%v (run go test ./report -update to create it)", err)
				}
				if got := buf.String(); got != string(want) {
					t.Errorf("output differs from %s (go test ./report -update rewrites it)\ngot:\n%s\nwant:\n%s", golden, got, want)
				}
			})
		}
	}
}

func TestDeterministicAndNoMutation(t *testing.T) {
	for _, tc := range goldenCases() {
		if len(tc.findings) == 0 {
			continue
		}
		orig := slices.Clone(tc.findings)
		rev := slices.Clone(tc.findings)
		slices.Reverse(rev)
		for _, format := range Formats() {
			var a, b bytes.Buffer
			if err := Write(&a, format, tc.findings, tc.opts); err != nil {
				t.Fatal(err)
			}
			if err := Write(&b, format, rev, tc.opts); err != nil {
				t.Fatal(err)
			}
			if a.String() != b.String() {
				t.Errorf("%s/%s: output depends on input order", tc.name, format)
			}
		}
		if !slices.Equal(orig, tc.findings) {
			t.Errorf("%s: Write mutated the caller's slice", tc.name)
		}
	}
}

func TestDuplicatesDropped(t *testing.T) {
	f := finding.Finding{Rule: "r", Severity: finding.Error, File: "a.yml", Line: 1, Column: 1, Message: "m"}
	var buf bytes.Buffer
	if err := Write(&buf, "github", []finding.Finding{f, f}, Options{}); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(buf.String(), "\n"); n != 1 {
		t.Errorf("got %d lines, want 1:\n%s", n, buf.String())
	}
}

func TestUnknownFormat(t *testing.T) {
	var buf bytes.Buffer
	err := Write(&buf, "xml", nil, Options{})
	if err == nil {
		t.Fatal("no error for an unknown format")
	}
	want := `unknown format "xml" (valid: text, github, json, sarif)`
	if err.Error() != want {
		t.Errorf("error = %q, want %q", err, want)
	}
	if buf.Len() != 0 {
		t.Errorf("wrote %q for an unknown format", buf.String())
	}
}

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

func TestWriteError(t *testing.T) {
	fs := []finding.Finding{{Rule: "r", Severity: finding.Error, File: "a.yml", Message: "m"}}
	for _, format := range Formats() {
		if err := Write(failWriter{}, format, fs, Options{}); err == nil || err.Error() != "disk full" {
			t.Errorf("%s: err = %v, want the writer's error", format, err)
		}
	}
}

func TestFingerprint(t *testing.T) {
	base := finding.Finding{Rule: "needs-unknown", Severity: finding.Error, File: ".github/workflows/ci.yml",
		Line: 10, Column: 13, Job: "gpu", Message: `job "gpu" needs "biuld" (line 10, column 13)`}
	fp := Fingerprint(base)
	if len(fp) != 32 || strings.Trim(fp, "0123456789abcdef") != "" {
		t.Fatalf("fingerprint %q is not 32 hex digits", fp)
	}
	// Pinned: baselines store fingerprints, so changing the scheme is a
	// breaking change that needs a new partialFingerprints key.
	if want := "892621ab96d041e7a87004ab729ff6fd"; fp != want && !*update {
		t.Errorf("Fingerprint = %s, want pinned %s", fp, want)
	}
	same := []func(*finding.Finding){
		func(f *finding.Finding) { f.Line, f.Column = 99, 1 },
		func(f *finding.Finding) { f.Message = `job "gpu" needs "biuld" (line 12, column 3)` },
		func(f *finding.Finding) { f.Severity = finding.Warning },
		func(f *finding.Finding) { f.Fix = "something" },
		func(f *finding.Finding) { f.File = "./.github/workflows/ci.yml" },
	}
	for i, mut := range same {
		f := base
		mut(&f)
		if got := Fingerprint(f); got != fp {
			t.Errorf("change %d altered the fingerprint: %+v", i, f)
		}
	}
	different := []func(*finding.Finding){
		func(f *finding.Finding) { f.Rule = "other" },
		func(f *finding.Finding) { f.File = "other.yml" },
		func(f *finding.Finding) { f.Job = "cpu" },
		func(f *finding.Finding) { f.Message = `job "gpu" needs "bild" (line 10, column 13)` },
	}
	for i, mut := range different {
		f := base
		mut(&f)
		if got := Fingerprint(f); got == fp {
			t.Errorf("change %d kept the fingerprint: %+v", i, f)
		}
	}
	// Field boundaries matter: ("ab", "c") is not ("a", "bc").
	a := Fingerprint(finding.Finding{Rule: "ab", File: "c"})
	b := Fingerprint(finding.Finding{Rule: "a", File: "bc"})
	if a == b {
		t.Error("fingerprint ignores field boundaries")
	}
}

func TestNormalizeMessage(t *testing.T) {
	tests := []struct{ in, want string }{
		{"at line 12", "at line N"},
		{"lines 3-5 and Line: 7", "lines N and Line: N"},
		{"col 4, column=5, columns 6 to 9", "col N, column=N, columns N"},
		{"defined at ci.yml:12:3 and x.py:7", "defined at ci.yml:N:N and x.py:N"},
		{"baseline 5 and pipeline 6", "baseline 5 and pipeline 6"},
		{"python:3.11 image, actions/checkout@v4", "python:3.11 image, actions/checkout@v4"},
		{"needs 3 jobs", "needs 3 jobs"},
	}
	for _, tt := range tests {
		if got := normalizeMessage(tt.in); got != tt.want {
			t.Errorf("normalizeMessage(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestHostileNames: a file, job or rule named from a pull request issues no
// workflow command and prints no terminal escape in the text and github
// formats (issue 27).
func TestHostileNames(t *testing.T) {
	fs := []finding.Finding{
		{Rule: "r", Severity: finding.Error, File: "inj\n::warning file=x::INJECTED\nz.rs", Line: 1, Message: "m"},
		{Rule: "r\x1b[2J", Severity: finding.Warning, File: "\u202egnp.yml", Job: "::error::job\x9b", Message: "a\x1b]8;;https://evil\x07b"},
	}
	for _, format := range []string{"text", "github"} {
		var buf bytes.Buffer
		if err := Write(&buf, format, fs, Options{}); err != nil {
			t.Fatal(err)
		}
		out := buf.String()
		if strings.ContainsAny(out, "\x1b\x07\u202e\u009b\r") {
			t.Errorf("%s: raw control character in %q", format, out)
		}
		commands := 0
		for _, l := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
			if strings.HasPrefix(strings.TrimLeftFunc(l, unicode.IsSpace), "::") {
				commands++
				if format == "text" || strings.Contains(l, "INJECTED") && !strings.Contains(l, "%0A") {
					t.Errorf("%s: line runs as a workflow command: %q", format, l)
				}
			}
		}
		if format == "github" && commands != len(fs) {
			t.Errorf("github: %d workflow commands for %d findings:\n%s", commands, len(fs), out)
		}
	}
}
