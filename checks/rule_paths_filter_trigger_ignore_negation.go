package checks

import (
	"github.com/cicheck/cicheck/finding"
	"github.com/cicheck/cicheck/pathsfilter"
)

// TriggerPathsIgnoreNegation: a `!` pattern inside on.<event>.paths-ignore, whose meaning is undocumented.
var TriggerPathsIgnoreNegation = &Rule{
	ID:       pathsfilter.RuleTriggerIgnoreNegation,
	Severity: finding.Warning,
	Doc:      `a ` + "`" + `!` + "`" + ` pattern inside on.<event>.paths-ignore, whose meaning is undocumented`,
	Help:     `GitHub documents ` + "`" + `!` + "`" + ` only for ` + "`" + `paths` + "`" + `. Inside ` + "`" + `paths-ignore` + "`" + ` its effect is undocumented, so cicheck reports the trigger as unknown. Use ` + "`" + `paths` + "`" + ` with a positive pattern first and the exception after it.`,
	Bad: `on:
  pull_request:
    paths-ignore: ['docs/**', '!docs/api/**']
jobs:
  build: {runs-on: ubuntu-latest, steps: [{run: make}]}
`,
	Good: `on:
  pull_request:
    paths: ['**', '!docs/**', 'docs/api/**']
jobs:
  build: {runs-on: ubuntu-latest, steps: [{run: make}]}
`,
	Run: pathsFilterRun((*pathsfilter.Analysis).TriggerIgnoreNegation),
}
