package checks

import (
	"github.com/cicheck/cicheck/config"
	"github.com/cicheck/cicheck/finding"
	"github.com/cicheck/cicheck/workflowgraph"
)

// Run runs rules (All() when nil) over w and returns their findings, sorted.
// Rules disabled in cfg are skipped; configured severities apply.
func Run(w *workflowgraph.Workflow, file string, cfg *config.Config, rules []*Rule) []finding.Finding {
	if w == nil {
		return nil
	}
	if cfg == nil {
		cfg = config.Default()
	}
	if rules == nil {
		rules = All()
	}
	if file == "" {
		file = w.Path
	}
	cl := cfg.Classifier()
	var out []finding.Finding
	// One Pass serves every rule in turn (rules do not keep it): a Pass per
	// rule per workflow showed in allocation profiles.
	p := &Pass{Workflow: w, Config: cfg, Classifier: cl, File: file, memo: map[string]any{}}
	for _, r := range rules {
		if r.Run == nil || !cfg.RuleEnabled(r.ID) {
			continue
		}
		p.Rule, p.severity, p.findings = r, cfg.RuleSeverity(r.ID, r.Severity), p.findings[:0]
		r.Run(p)
		out = append(out, p.findings...)
	}
	return finding.Sort(out)
}
