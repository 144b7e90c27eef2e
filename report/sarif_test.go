package report

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/cicheck/cicheck/finding"
	"github.com/cicheck/cicheck/internal/project"
)

// decodeSARIF renders fs as SARIF and decodes it generically, so the test
// sees the document a consumer sees rather than our own structs.
func decodeSARIF(t *testing.T, fs []finding.Finding, opts Options) map[string]any {
	t.Helper()
	var buf bytes.Buffer
	if err := Write(&buf, "sarif", fs, opts); err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatalf("SARIF is not JSON: %v\n%s", err, buf.String())
	}
	return doc
}

// get walks a decoded JSON document: keys for objects, ints for arrays.
func get(t *testing.T, v any, path ...any) any {
	t.Helper()
	for _, p := range path {
		switch k := p.(type) {
		case string:
			m, ok := v.(map[string]any)
			if !ok {
				t.Fatalf("at %q: not an object: %v", k, v)
			}
			if v, ok = m[k]; !ok {
				t.Fatalf("missing required property %q in %v", k, m)
			}
		case int:
			a, ok := v.([]any)
			if !ok || k >= len(a) {
				t.Fatalf("at [%d]: not an array that long: %v", k, v)
			}
			v = a[k]
		}
	}
	return v
}

func TestSARIFRequiredFields(t *testing.T) {
	fs := []finding.Finding{
		{Rule: "known", Severity: finding.Error, File: ".github/workflows/ci.yml", Line: 4, Column: 7, Message: "m1", Job: "build"},
		{Rule: "unlisted", Severity: finding.Notice, File: ".github/workflows/ci.yml", Message: "whole file"},
		{Rule: "known", Severity: finding.Warning, File: "./sub dir/a#b.yml", Line: 2, Message: "m2", Fix: "do x"},
	}
	rules := []RuleInfo{
		{ID: "zeta", Short: "Z", Severity: finding.Notice},
		{ID: "known", Short: "Known rule", Help: "Long *markdown*.", HelpURI: "https://example.com/known", Severity: finding.Error},
		{ID: "known", Short: "duplicate, ignored"},
	}
	doc := decodeSARIF(t, fs, Options{Rules: rules, ToolName: "cicheck", ToolVersion: "1.2.3"})
	if get(t, doc, "version") != "2.1.0" || get(t, doc, "$schema") != "https://json.schemastore.org/sarif-2.1.0.json" {
		t.Errorf("bad version or $schema: %v %v", doc["version"], doc["$schema"])
	}
	runs := get(t, doc, "runs").([]any)
	if len(runs) != 1 {
		t.Fatalf("%d runs, want 1", len(runs))
	}
	driver := get(t, runs[0], "tool", "driver")
	if get(t, driver, "name") != "cicheck" || get(t, driver, "version") != "1.2.3" || driver.(map[string]any)["informationUri"] != nil && get(t, driver, "informationUri") != project.Home {
		t.Errorf("bad driver: %v", driver)
	}
	rs := get(t, driver, "rules").([]any)
	var ids []string
	for i, r := range rs {
		ids = append(ids, get(t, r, "id").(string))
		for _, p := range [][]any{{"shortDescription", "text"}, {"help", "text"}, {"defaultConfiguration", "level"}} {
			if s, _ := get(t, r, p...).(string); s == "" {
				t.Errorf("rule %d: empty %v", i, p)
			}
		}
	}
	if got := strings.Join(ids, ","); got != "known,unlisted,zeta" {
		t.Errorf("rule ids = %s, want known,unlisted,zeta (opts.Rules plus unlisted finding rules, sorted, no duplicates)", got)
	}
	if get(t, rs[0], "shortDescription", "text") != "Known rule" || get(t, rs[0], "help", "markdown") != "Long *markdown*." ||
		get(t, rs[0], "helpUri") != "https://example.com/known" || get(t, rs[0], "defaultConfiguration", "level") != "error" {
		t.Errorf("known rule metadata lost: %v", rs[0])
	}
	if get(t, rs[2], "defaultConfiguration", "level") != "note" {
		t.Errorf("notice rule level: %v", rs[2])
	}

	results := get(t, runs[0], "results").([]any)
	if len(results) != len(fs) {
		t.Fatalf("%d results, want %d", len(results), len(fs))
	}
	for i, r := range results {
		id := get(t, r, "ruleId").(string)
		idx := int(get(t, r, "ruleIndex").(float64))
		if ids[idx] != id {
			t.Errorf("result %d: ruleIndex %d names %s, ruleId is %s", i, idx, ids[idx], id)
		}
		if lvl := get(t, r, "level"); lvl != "error" && lvl != "warning" && lvl != "note" {
			t.Errorf("result %d: level %v", i, lvl)
		}
		if s, _ := get(t, r, "message", "text").(string); s == "" {
			t.Errorf("result %d: empty message", i)
		}
		art := get(t, r, "locations", 0, "physicalLocation", "artifactLocation")
		uri := get(t, art, "uri").(string)
		if uri == "" || strings.HasPrefix(uri, "/") || strings.HasPrefix(uri, "./") || strings.Contains(uri, `\`) {
			t.Errorf("result %d: uri %q is not a clean relative reference", i, uri)
		}
		if get(t, art, "uriBaseId") != "%SRCROOT%" {
			t.Errorf("result %d: uriBaseId %v", i, art)
		}
		if fp, _ := get(t, r, "partialFingerprints", "cicheck/v1").(string); fp == "" {
			t.Errorf("result %d: no fingerprint", i)
		}
		// SARIF requires region numbers >= 1: unknown ones must be absent.
		phys := get(t, r, "locations", 0, "physicalLocation").(map[string]any)
		if region, ok := phys["region"].(map[string]any); ok {
			for k, v := range region {
				if v.(float64) < 1 {
					t.Errorf("result %d: region.%s = %v", i, k, v)
				}
			}
		}
	}
	// Results follow finding.Sort: "./sub dir/a#b.yml" < ".github/...".
	first := get(t, results[0], "locations", 0, "physicalLocation")
	if get(t, first, "artifactLocation", "uri") != "sub%20dir/a%23b.yml" {
		t.Errorf("uri not escaped: %v", first)
	}
	if region := get(t, first, "region").(map[string]any); region["startLine"] != 2.0 || region["startColumn"] != nil {
		t.Errorf("line-only region: %v", region)
	}
	if get(t, results[0], "properties", "fix") != "do x" {
		t.Errorf("fix not in properties: %v", results[0])
	}
	whole := get(t, results[1], "locations", 0, "physicalLocation").(map[string]any)
	if _, ok := whole["region"]; ok {
		t.Errorf("whole-file finding has a region: %v", whole)
	}
}

func TestSARIFEmpty(t *testing.T) {
	doc := decodeSARIF(t, nil, Options{})
	if rs, ok := get(t, doc, "runs", 0, "results").([]any); !ok || len(rs) != 0 {
		t.Errorf("results = %v, want []", rs)
	}
	if rs, ok := get(t, doc, "runs", 0, "tool", "driver", "rules").([]any); !ok || len(rs) != 0 {
		t.Errorf("rules = %v, want []", rs)
	}
	if get(t, doc, "runs", 0, "tool", "driver", "name") != "cicheck" {
		t.Error("default tool name is not cicheck")
	}
}

func TestSARIFFingerprintIgnoresLines(t *testing.T) {
	f := finding.Finding{Rule: "r", Severity: finding.Error, File: "a.yml", Line: 10, Column: 3, Job: "j", Message: "needs x (line 10)"}
	moved := f
	moved.Line, moved.Column, moved.Message = 42, 9, "needs x (line 42)"
	fp := func(f finding.Finding) any {
		return get(t, decodeSARIF(t, []finding.Finding{f}, Options{}), "runs", 0, "results", 0, "partialFingerprints", "cicheck/v1")
	}
	if a, b := fp(f), fp(moved); a != b {
		t.Errorf("fingerprint changed with the line: %v vs %v", a, b)
	}
	if want := Fingerprint(f) + ":1"; fp(f) != want {
		t.Errorf("fingerprint %v, want %s", fp(f), want)
	}
	// Two equal messages in one job stay two alerts.
	twin := f
	twin.Line = 20
	rs := get(t, decodeSARIF(t, []finding.Finding{twin, f}, Options{}), "runs", 0, "results").([]any)
	a := get(t, rs[0], "partialFingerprints", "cicheck/v1")
	b := get(t, rs[1], "partialFingerprints", "cicheck/v1")
	if a == b || a != Fingerprint(f)+":1" || b != Fingerprint(f)+":2" {
		t.Errorf("twin fingerprints %v, %v", a, b)
	}
}

func TestArtifactLocation(t *testing.T) {
	tests := []struct {
		file, uri, base string
	}{
		{".github/workflows/ci.yml", ".github/workflows/ci.yml", "%SRCROOT%"},
		{"./a.yml", "a.yml", "%SRCROOT%"},
		{"dir/../b.yml", "b.yml", "%SRCROOT%"},
		{"with space%.yml", "with%20space%25.yml", "%SRCROOT%"},
		{"c:d.yml", "./c:d.yml", "%SRCROOT%"}, // a colon in the first segment would read as a scheme
		{"/abs/x.yml", "file:///abs/x.yml", ""},
		{"", "./", "%SRCROOT%"},
	}
	for _, tt := range tests {
		got := artifactLocation(tt.file)
		if got.URI != tt.uri || got.URIBaseID != tt.base {
			t.Errorf("artifactLocation(%q) = %+v, want {%s %s}", tt.file, got, tt.uri, tt.base)
		}
	}
}
