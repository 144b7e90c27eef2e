package report

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/cicheck/cicheck/finding"
)

func TestJSONEmptyIsArray(t *testing.T) {
	for _, fs := range [][]finding.Finding{nil, {}} {
		var buf bytes.Buffer
		if err := Write(&buf, "json", fs, Options{}); err != nil {
			t.Fatal(err)
		}
		if want := "{\n  \"version\": 1,\n  \"findings\": []\n}\n"; buf.String() != want {
			t.Errorf("got %q, want %q", buf.String(), want)
		}
	}
}

func TestJSONSchema(t *testing.T) {
	in := []finding.Finding{
		{Rule: "r", Severity: finding.Warning, File: "a.yml", Line: 2, Column: 3, Message: "a < b && c", Job: "j", Fix: "f"},
		{Rule: "q", Severity: finding.Notice, File: "a.yml", Line: 1},
	}
	var buf bytes.Buffer
	if err := Write(&buf, "json", in, Options{}); err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(buf.String(), "}\n") || !strings.Contains(buf.String(), "\n  \"findings\": [\n    {\n      \"rule\"") {
		t.Errorf("not two-space indented with a trailing newline:\n%s", buf.String())
	}
	if !strings.Contains(buf.String(), `"a < b && c"`) {
		t.Errorf("HTML-escaped message:\n%s", buf.String())
	}
	// Every documented key is present, in every finding, even when empty.
	var raw struct {
		Version  int              `json:"version"`
		Findings []map[string]any `json:"findings"`
	}
	if err := json.Unmarshal(buf.Bytes(), &raw); err != nil {
		t.Fatal(err)
	}
	if raw.Version != 1 {
		t.Errorf("version %d", raw.Version)
	}
	keys := []string{"rule", "severity", "file", "line", "column", "message", "job", "fix"}
	for i, f := range raw.Findings {
		if len(f) != len(keys) {
			t.Errorf("finding %d has keys %v, want exactly %v", i, f, keys)
		}
		for _, k := range keys {
			if _, ok := f[k]; !ok {
				t.Errorf("finding %d lacks %q", i, k)
			}
		}
	}
	// And it round-trips into the Go type, in sorted order.
	var doc JSONDocument
	if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	want := []finding.Finding{in[1], in[0]}
	if !reflect.DeepEqual(doc.Findings, want) {
		t.Errorf("round trip: got %+v, want %+v", doc.Findings, want)
	}
}
