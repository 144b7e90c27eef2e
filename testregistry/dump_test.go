package testregistry

import (
	"encoding/json"
	"os"
	"testing"
)

// TestDumpForDifferential writes the scanner's view of the repository named
// by $REGISTRY_DUMP_DIR as JSON to $REGISTRY_DUMP_OUT, in collect.py's shape.
// bench/registry/difftest.py uses it to compare cicheck with Python's ast on
// randomly mutated files. Skipped unless both variables are set.
func TestDumpForDifferential(t *testing.T) {
	dir, out := os.Getenv("REGISTRY_DUMP_DIR"), os.Getenv("REGISTRY_DUMP_OUT")
	if dir == "" || out == "" {
		t.Skip("REGISTRY_DUMP_DIR and REGISTRY_DUMP_OUT not set")
	}
	r, err := Scan(os.DirFS(dir), DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	type callErr struct {
		File    string `json:"file"`
		Line    int    `json:"line"`
		Col     int    `json:"col"`
		Message string `json:"message"`
	}
	type fileErr struct {
		File    string `json:"file"`
		Line    int    `json:"line"`
		Rule    string `json:"rule"`
		Message string `json:"message"`
	}
	var v struct {
		Files         []string       `json:"files"`
		Registrations []Registration `json:"registrations"`
		CallErrors    []callErr      `json:"call_errors"`
		FileErrors    []fileErr      `json:"file_errors"`
	}
	v.Files, v.Registrations = r.Files, r.Registrations
	for _, e := range r.firsts {
		v.CallErrors = append(v.CallErrors, callErr{e.file, e.line, e.col, e.msg})
	}
	for _, f := range r.Findings {
		switch f.Rule {
		case RuleSyntaxError, RuleNoRegistry, RuleGPUInImplicit, RuleMentionNoCall, RuleRocmAliasQuirk:
			v.FileErrors = append(v.FileErrors, fileErr{f.File, f.Line, f.Rule, f.Message})
		}
	}
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(out, b, 0o644); err != nil {
		t.Fatal(err)
	}
}
