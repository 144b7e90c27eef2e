package checks

import (
	"github.com/cicheck/cicheck/finding"
	"github.com/cicheck/cicheck/pathsfilter"
)

// TriggerPathsNegationOnly: on.<event>.paths holds only `!` patterns, so no path is ever included.
var TriggerPathsNegationOnly = &Rule{
	ID:       pathsfilter.RuleTriggerNegationOnly,
	Severity: finding.Error,
	Doc:      `on.<event>.paths holds only ` + "`" + `!` + "`" + ` patterns, so no path is ever included`,
	Help:     `GitHub's ` + "`" + `paths` + "`" + ` filter includes a file only when a positive pattern matches it and no later ` + "`" + `!` + "`" + ` pattern excludes it. With only ` + "`" + `!` + "`" + ` patterns nothing is included and the workflow never runs for a path change. Start with a positive pattern such as ` + "`" + `'**'` + "`" + `.`,
	Bad: `on:
  pull_request:
    paths: ['!docs/**']
jobs:
  build: {runs-on: ubuntu-latest, steps: [{run: make}]}
`,
	Good: `on:
  pull_request:
    paths: ['**', '!docs/**']
jobs:
  build: {runs-on: ubuntu-latest, steps: [{run: make}]}
`,
	Run: pathsFilterRun((*pathsfilter.Analysis).TriggerNegationOnly),
}
