// Package checks holds cicheck's own workflow rules, the registry that
// lists them, the driver that runs them over a workflowgraph.Workflow, the
// adapter that runs the embedded actionlint and converts its errors into
// findings, and inline suppressions.
//
// A rule is a value (Rule): id, default severity, one-line doc, long doc
// with a bad and a good example, and a run function. One file per rule
// (rule_<id>.go); adding a rule is one line in registry.go.
package checks

import (
	"fmt"

	"github.com/cicheck/cicheck/config"
	"github.com/cicheck/cicheck/finding"
	"github.com/cicheck/cicheck/workflowgraph"
)

// Rule is one cicheck check.
type Rule struct {
	// ID is the kebab-case id used in findings, config and suppressions.
	ID       string
	Severity finding.Severity
	// Doc is a one-line summary; Help is the long markdown documentation.
	Doc, Help string
	// Bad and Good are example workflows: Bad triggers the rule, Good does not.
	Bad, Good string
	Run       func(*Pass)
}

// Pass is what a rule sees while it runs over one workflow.
type Pass struct {
	Workflow   *workflowgraph.Workflow
	Config     *config.Config
	Classifier *workflowgraph.Classifier
	// File is the path findings are reported under (as the user sees it).
	File string
	// Rule is the rule being run.
	Rule *Rule

	severity finding.Severity
	findings []finding.Finding
	memo     map[string]any // shared by every rule of one Run
}

// Memo returns the value computed once per workflow under key and shared
// by every rule of the run, so that rules built on the same analysis (all
// the paths-filter lints, say) do not redo it. Not safe across goroutines;
// one Run is sequential.
func (p *Pass) Memo(key string, compute func() any) any {
	if p.memo == nil {
		p.memo = map[string]any{}
	}
	if v, ok := p.memo[key]; ok {
		return v
	}
	v := compute()
	p.memo[key] = v
	return v
}

// Report records a finding. Empty Rule, Severity and File are filled in
// from the running rule (with the configured severity) and the pass.
func (p *Pass) Report(f finding.Finding) {
	if f.Rule == "" && p.Rule != nil {
		f.Rule = p.Rule.ID
	}
	if f.Severity == 0 {
		f.Severity = p.severity
	}
	if f.File == "" {
		f.File = p.File
	}
	p.findings = append(p.findings, f)
}

// Reportf reports at a job's position with a formatted message.
func (p *Pass) Reportf(j *workflowgraph.Job, line, col int, format string, args ...any) {
	f := finding.Finding{Line: line, Column: col, Message: fmt.Sprintf(format, args...)}
	if j != nil {
		f.Job = j.ID
		if line == 0 {
			f.Line, f.Column = j.Line, j.Column
		}
	}
	p.Report(f)
}

// Severity returns the severity this rule reports at after configuration.
func (p *Pass) Severity() finding.Severity { return p.severity }
