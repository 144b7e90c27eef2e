package report

import (
	"bytes"
	"encoding/json"

	"github.com/cicheck/cicheck/finding"
)

// JSONVersion is the version of the json format's schema. It changes only
// when a field is removed or changes meaning; adding a field keeps it.
const JSONVersion = 1

// JSONDocument is the json format (schema version 1, see SCHEMA.md):
//
//	{
//	  "version": 1,
//	  "findings": [
//	    {
//	      "rule": "job-needs-unknown",   // rule id
//	      "severity": "error",           // "error" | "warning" | "notice"
//	      "file": ".github/workflows/ci.yml",
//	      "line": 12,                    // 1-based; 0 = whole file
//	      "column": 5,                   // 1-based, in characters; 0 = unknown
//	      "message": "...",
//	      "job": "build",                // "" when not about one job
//	      "fix": "..."                   // suggested fix, "" when none
//	    }
//	  ]
//	}
//
// Every key is always present; "findings" is an array (empty, never null),
// sorted by (file, line, column, rule, message). Output is indented with two
// spaces and ends with a newline.
type JSONDocument struct {
	Version  int               `json:"version"`
	Findings []finding.Finding `json:"findings"`
}

func writeJSON(buf *bytes.Buffer, fs []finding.Finding, _ Options) error {
	if fs == nil {
		fs = []finding.Finding{}
	}
	enc := json.NewEncoder(buf)
	enc.SetIndent("", "  ")
	// Messages quote workflow text such as "a < b && c": keep it readable.
	enc.SetEscapeHTML(false)
	return enc.Encode(JSONDocument{Version: JSONVersion, Findings: fs})
}
