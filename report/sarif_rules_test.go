package report_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/cicheck/cicheck/finding"
	"github.com/cicheck/cicheck/lint"
	"github.com/cicheck/cicheck/report"
)

// The SARIF of cicheck's real rule metadata (every documented rule and
// actionlint's kinds), of a clean run and a failed one, is valid SARIF
// 2.1.0 and carries what GitHub code scanning asks of every rule.
func TestSARIFRealRules(t *testing.T) {
	schema := report.LoadSARIFSchema(t)
	infos := lint.RuleInfos()
	fs := []finding.Finding{{Rule: "gpu-gate", Severity: finding.Error, File: ".github/workflows/nightly.yml", Line: 58, Column: 3, Message: "m", Job: "resolve-image"}}
	for name, failures := range map[string][]string{"clean": nil, "failed": {"bad config"}} {
		var buf bytes.Buffer
		if err := report.Write(&buf, "sarif", fs, report.Options{Rules: infos, ToolVersion: "0.0.0-dev", Failures: failures}); err != nil {
			t.Fatal(err)
		}
		var doc any
		if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
			t.Fatal(err)
		}
		if errs := report.SchemaValidate(schema, doc); len(errs) > 0 {
			t.Errorf("%s: schema violations:\n%s", name, strings.Join(errs, "\n"))
		}
		for _, p := range report.CheckGitHubSARIF(buf.Bytes(), failures) {
			t.Errorf("%s: %s", name, p)
		}
	}
	// Every cicheck rule's fullDescription says more than its one line:
	// the first paragraph of its documentation.
	for _, ri := range infos {
		if d, ok := lint.FindRuleDoc(ri.ID); ok && d.Help != "" && !strings.Contains(ri.Full, "\n\n") {
			t.Errorf("%s: fullDescription %q has no paragraph of the documentation", ri.ID, ri.Full)
		}
	}
}
