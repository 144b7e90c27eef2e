package report

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/cicheck/cicheck/finding"
)

func TestReporterSettings(t *testing.T) {
	noEnv := func(string) string { return "" }
	for _, c := range []struct {
		s       Settings
		wantErr string
	}{
		{Settings{"text", "error", "auto"}, ""},
		{Settings{"sarif", "never", "never"}, ""},
		{Settings{"yaml", "error", "auto"}, `invalid --format "yaml" (valid: text, github, json, sarif)`},
		{Settings{"text", "fatal", "auto"}, `invalid --fail-on "fatal" (valid: error, warning, notice, never)`},
		{Settings{"text", "error", "sometimes"}, `invalid --color "sometimes" (valid: auto, always, never)`},
	} {
		_, err := NewReporter(c.s, &bytes.Buffer{}, noEnv)
		if got := ""; err != nil {
			got = err.Error()
			if got != c.wantErr {
				t.Errorf("%+v: %q, want %q", c.s, got, c.wantErr)
			}
		} else if c.wantErr != "" {
			t.Errorf("%+v: accepted, want %q", c.s, c.wantErr)
		}
	}
}

func TestReporterThreshold(t *testing.T) {
	warn := []finding.Finding{{File: "a.yml", Line: 1, Column: 1, Rule: "r", Severity: finding.Warning, Message: "m"}}
	for _, c := range []struct {
		failOn string
		fs     []finding.Finding
		failed bool
	}{
		{"error", warn, false},
		{"warning", warn, true},
		{"notice", warn, true},
		{"never", warn, false},
		{"notice", nil, false},
	} {
		r, err := NewReporter(Settings{"json", c.failOn, "never"}, &bytes.Buffer{}, func(string) string { return "" })
		if err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		failed, err := r.Write(&out, c.fs, nil, "v", nil)
		if err != nil || failed != c.failed {
			t.Errorf("--fail-on %s: failed %t (%v), want %t", c.failOn, failed, err, c.failed)
		}
	}
}

// TestReporterColor: only always colours a buffer; auto colours a
// terminal only, and NO_COLOR wins over auto.
func TestReporterColor(t *testing.T) {
	fs := []finding.Finding{{File: "a.yml", Line: 1, Column: 1, Rule: "r", Severity: finding.Error, Message: "m"}}
	for _, c := range []struct {
		color   string
		noColor string
		want    bool
	}{
		{"always", "", true},
		{"never", "", false},
		{"auto", "", false}, // a buffer is not a terminal
		{"always", "1", true},
	} {
		r, err := NewReporter(Settings{"text", "error", c.color}, &bytes.Buffer{}, func(k string) string {
			if k == "NO_COLOR" {
				return c.noColor
			}
			return ""
		})
		if err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		if _, err := r.Write(&out, fs, nil, "v", nil); err != nil {
			t.Fatal(err)
		}
		if got := strings.Contains(out.String(), "\x1b["); got != c.want {
			t.Errorf("--color %s NO_COLOR=%q: coloured %t, want %t", c.color, c.noColor, got, c.want)
		}
	}
	// auto on a file that is not a terminal: no colour.
	f, err := os.CreateTemp(t.TempDir(), "out")
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = f.Close() }()
	r, _ := NewReporter(Settings{"text", "error", "auto"}, f, func(string) string { return "" })
	if r.color {
		t.Error("auto coloured a regular file")
	}
}
