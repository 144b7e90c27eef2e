package checks

import (
	"github.com/cicheck/cicheck/config"
	"github.com/cicheck/cicheck/finding"
	"github.com/cicheck/cicheck/workflowgraph"
)

// Run runs rules (All when nil) over w and returns their findings, sorted.
// Rules disabled in cfg are skipped; configured severities apply.
func Run(w *workflowgraph.Workflow, file string, cfg *config.Config, rules []*Rule) []finding.Finding {
	if w == nil {
		return nil
	}
	if cfg == nil {
		cfg = config.Default()
	}
	if rules == nil {
		rules = All
	}
	if file == "" {
		file = w.Path
	}
	cl := cfg.Classifier()
	var out []finding.Finding
	memo := map[string]any{}
	for _, r := range rules {
		if r.Run == nil || !cfg.RuleEnabled(r.ID) {
			continue
		}
		p := &Pass{Workflow: w, Config: cfg, Classifier: cl, File: file, Rule: r, severity: cfg.RuleSeverity(r.ID, r.Severity), memo: memo}
		r.Run(p)
		out = append(out, p.findings...)
	}
	return finding.Sort(out)
}
