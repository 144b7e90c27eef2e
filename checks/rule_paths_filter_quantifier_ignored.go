package checks

import (
	"github.com/cicheck/cicheck/finding"
	"github.com/cicheck/cicheck/pathsfilter"
)

// PathsFilterQuantifierIgnored: the pinned dorny/paths-filter release ignores predicate-quantifier and evaluates `some`.
var PathsFilterQuantifierIgnored = &Rule{
	ID:       pathsfilter.RuleQuantifierIgnored,
	Severity: finding.Warning,
	Doc:      `the pinned dorny/paths-filter release ignores predicate-quantifier and evaluates ` + "`" + `some` + "`" + ``,
	Help:     `Releases before v3.0.2 do not read ` + "`" + `predicate-quantifier` + "`" + `: the runner only warns about an unexpected input and filters are evaluated with ` + "`" + `some` + "`" + `, so ` + "`" + `!` + "`" + ` exclusions widen the filter instead of narrowing it. Pin v3.0.3 or later.`,
	Bad: `on: pull_request
jobs:
  changes:
    runs-on: ubuntu-latest
    outputs:
      src: ${{ steps.filter.outputs.src }}
    steps:
      - uses: dorny/paths-filter@v2
        id: filter
        with:
          predicate-quantifier: every
          filters: |
            src:
              - 'src/**'
              - '!src/**/*.md'
  build:
    needs: changes
    if: needs.changes.outputs.src == 'true'
    runs-on: [self-hosted, gpu]
    steps: [{run: make}]
`,
	Good: `on: pull_request
jobs:
  changes:
    runs-on: ubuntu-latest
    outputs:
      src: ${{ steps.filter.outputs.src }}
    steps:
      - uses: dorny/paths-filter@v3
        id: filter
        with:
          predicate-quantifier: every
          filters: |
            src:
              - 'src/**'
              - '!src/**/*.md'
  build:
    needs: changes
    if: needs.changes.outputs.src == 'true'
    runs-on: [self-hosted, gpu]
    steps: [{run: make}]
`,
	Run: pathsFilterRun((*pathsfilter.Analysis).QuantifierIgnored),
}
