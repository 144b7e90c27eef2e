package report

import (
	"bytes"
	"github.com/cicheck/cicheck/internal/safetext"
	"strings"
	"testing"

	"github.com/cicheck/cicheck/finding"
)

func TestEscapeData(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain", "plain"},
		{"%", "%25"},
		{"\r", "%0D"},
		{"\n", "%0A"},
		{"\r\n", "%0D%0A"},
		{":", ":"}, // only properties escape : and ,
		{",", ","},
		{"%0A", "%250A"}, // an already-escaped-looking value stays literal
		{"a::b", "a::b"},
		{"100%\nsure", "100%25%0Asure"},
	}
	for _, tt := range tests {
		if got := escapeData(tt.in); got != tt.want {
			t.Errorf("escapeData(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestEscapeProperty(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain", "plain"},
		{"%", "%25"},
		{"\r", "%0D"},
		{"\n", "%0A"},
		{":", "%3A"},
		{",", "%2C"},
		{"a=b", "a=b"}, // the runner splits a property on its first '=' only
		{"%3A", "%253A"},
		{"dir,x/a:b.yml", "dir%2Cx/a%3Ab.yml"},
		{"%\r\n:,", "%25%0D%0A%3A%2C"},
	}
	for _, tt := range tests {
		if got := escapeProperty(tt.in); got != tt.want {
			t.Errorf("escapeProperty(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestGitHubCommand(t *testing.T) {
	tests := []struct {
		f    finding.Finding
		want string
	}{
		{finding.Finding{Rule: "r", Severity: finding.Error, File: "a.yml", Line: 3, Column: 5, Message: "m"},
			"::error file=a.yml,line=3,col=5,title=r::m\n"},
		{finding.Finding{Rule: "r", Severity: finding.Warning, File: "a.yml", Line: 3, Message: "m"},
			"::warning file=a.yml,line=3,title=r::m\n"},
		{finding.Finding{Rule: "r", Severity: finding.Notice, File: "a.yml", Message: "m"},
			"::notice file=a.yml,title=r::m\n"},
		// A column without a line means nothing to GitHub: drop both.
		{finding.Finding{Rule: "r", Severity: finding.Error, File: "a.yml", Column: 4, Message: "m"},
			"::error file=a.yml,title=r::m\n"},
		{finding.Finding{Severity: finding.Error, Message: "m"}, "::error::m\n"},
		{finding.Finding{Rule: "r", Severity: 0, File: "a.yml", Message: "m"}, "::notice file=a.yml,title=r::m\n"},
		{finding.Finding{Rule: "r", Severity: finding.Error, File: "a.yml", Line: 1, Column: 1, Message: "m", Fix: "f, g"},
			"::error file=a.yml,line=1,col=1,title=r::m%0Afix: f, g\n"},
	}
	for _, tt := range tests {
		var buf bytes.Buffer
		if err := Write(&buf, "github", []finding.Finding{tt.f}, Options{}); err != nil {
			t.Fatal(err)
		}
		if buf.String() != tt.want {
			t.Errorf("%+v:\n got %q\nwant %q", tt.f, buf.String(), tt.want)
		}
	}
}

// unescapeProperty mirrors the runner's decoding, to check round trips.
func unescapeProperty(s string) string {
	return strings.NewReplacer("%0D", "\r", "%0A", "\n", "%3A", ":", "%2C", ",", "%25", "%").Replace(s)
}

func unescapeData(s string) string {
	return strings.NewReplacer("%0D", "\r", "%0A", "\n", "%25", "%").Replace(s)
}

// checkGitHubLine asserts that one rendered command is a single line whose
// properties and data decode back to the finding.
func checkGitHubLine(t *testing.T, f finding.Finding, out string) {
	t.Helper()
	if !strings.HasSuffix(out, "\n") || strings.Count(out, "\n") != 1 || strings.Contains(out, "\r") {
		t.Fatalf("not exactly one line: %q", out)
	}
	line := strings.TrimSuffix(out, "\n")
	rest, ok := strings.CutPrefix(line, "::"+githubCommand(f.Severity))
	if !ok {
		t.Fatalf("bad command: %q", line)
	}
	props, data, ok := strings.Cut(rest, "::")
	if !ok {
		t.Fatalf("no data separator: %q", line)
	}
	wantMsg := f.Message
	if f.Fix != "" {
		wantMsg += "\nfix: " + f.Fix
	}
	wantMsg = visible(wantMsg)
	if got := unescapeData(data); got != wantMsg {
		t.Errorf("data decodes to %q, want %q", got, wantMsg)
	}
	got := map[string]string{}
	if props != "" {
		for _, kv := range strings.Split(strings.TrimPrefix(props, " "), ",") {
			k, v, _ := strings.Cut(kv, "=")
			got[k] = unescapeProperty(v)
		}
	}
	if f.File != "" && got["file"] != visible(f.File) {
		t.Errorf("file decodes to %q, want %q", got["file"], f.File)
	}
	if f.Rule != "" && got["title"] != visible(f.Rule) {
		t.Errorf("title decodes to %q, want %q", got["title"], f.Rule)
	}
}

// visible is what an annotation shows of s: the workflow-command escaping
// round-trips, except that control and bidi characters other than CR and
// LF are spelled out (a log viewer must not interpret them) and invalid
// UTF-8 is U+FFFD.
func visible(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r != '\r' && r != '\n' && safetext.IsUnsafe(r) {
			b.WriteString(safetext.EscapeRune(r))
		} else {
			b.WriteRune(r)
		}
	}
	return b.String()
}

func TestGitHubRoundTrip(t *testing.T) {
	for _, s := range []string{"%", "\r", "\n", ":", ",", "=", "::", "%25", "a,b:c\r\nd%e", "日本 \x00\x1b"} {
		f := finding.Finding{Rule: "r" + s, Severity: finding.Warning, File: "f" + s + ".yml", Line: 1, Column: 1, Message: "m" + s, Fix: s}
		var buf bytes.Buffer
		if err := Write(&buf, "github", []finding.Finding{f}, Options{}); err != nil {
			t.Fatal(err)
		}
		checkGitHubLine(t, f, buf.String())
	}
}

func FuzzGitHub(f *testing.F) {
	f.Add("rule", "a.yml", "message", "fix", 1, 2)
	f.Add("odd:rule,id", "dir,with:odd/100% ci.yml", "100% sure:\r\nline two\n::error::x", "%0A", 0, 0)
	f.Add("", "", "", "", -1, 7)
	f.Add("\r", "\n", "%", ",", 3, 0)
	f.Fuzz(func(t *testing.T, rule, file, msg, fix string, line, col int) {
		if strings.ContainsAny(escapeData(msg), "\r\n") || strings.ContainsAny(escapeProperty(file), "\r\n:,") {
			t.Fatal("escaped output contains a raw special character")
		}
		if unescapeData(escapeData(msg)) != visible(msg) || unescapeProperty(escapeProperty(file)) != visible(file) {
			t.Fatal("escaping does not round-trip")
		}
		fd := finding.Finding{Rule: rule, Severity: finding.Error, File: file, Line: line, Column: col, Message: msg, Fix: fix}
		var buf bytes.Buffer
		if err := Write(&buf, "github", []finding.Finding{fd}, Options{}); err != nil {
			t.Fatal(err)
		}
		checkGitHubLine(t, fd, buf.String())
	})
}
