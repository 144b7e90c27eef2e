package checks

import (
	"github.com/cicheck/cicheck/finding"
	"github.com/cicheck/cicheck/pathsfilter"
)

// pathsFilterRun adapts one of pathsfilter's lints to a rule: the model and
// the lint logic live in pathsfilter, next to the matcher they depend on.
// Filter files are read through the workflow's repository file system, so a
// step whose filters live in a file is linted like an inline one.
func pathsFilterRun(lint func(*pathsfilter.Analysis) []finding.Finding) func(*Pass) {
	return func(p *Pass) {
		w := p.Workflow
		if w == nil || w.AST == nil {
			return
		}
		// One analysis per workflow, shared by every paths-filter rule.
		a := p.Memo("pathsfilter.analysis", func() any {
			var cfg pathsfilter.Config
			if p.Config != nil {
				cfg = p.Config.PathsFilter
			} else {
				cfg = pathsfilter.DefaultConfig()
			}
			return pathsfilter.Analyze(w.AST, w.Source, p.File, w.FS, cfg)
		}).(*pathsfilter.Analysis)
		for _, f := range lint(a) {
			p.Report(f)
		}
	}
}
