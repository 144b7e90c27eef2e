package checks

import (
	"github.com/cicheck/cicheck/finding"
	"github.com/cicheck/cicheck/pathsfilter"
)

// TriggerPathsPicomatchSyntax: on.<event>.paths uses braces or extglobs, which GitHub's matcher takes literally.
var TriggerPathsPicomatchSyntax = &Rule{
	ID:       pathsfilter.RuleTriggerPicomatch,
	Severity: finding.Warning,
	Doc:      `on.<event>.paths uses braces or extglobs, which GitHub's matcher takes literally`,
	Help:     `GitHub's trigger path filter is not picomatch: ` + "`" + `{a,b}` + "`" + ` and ` + "`" + `@(…)` + "`" + ` are literal text there, so ` + "`" + `src/*.{js,ts}` + "`" + ` never matches ` + "`" + `src/a.ts` + "`" + `. List each alternative as its own pattern.`,
	Bad: `on:
  pull_request:
    paths: ['src/*.{js,ts}']
jobs:
  build: {runs-on: ubuntu-latest, steps: [{run: make}]}
`,
	Good: `on:
  pull_request:
    paths: ['src/*.js', 'src/*.ts']
jobs:
  build: {runs-on: ubuntu-latest, steps: [{run: make}]}
`,
	Run: pathsFilterRun((*pathsfilter.Analysis).TriggerPicomatch),
}
