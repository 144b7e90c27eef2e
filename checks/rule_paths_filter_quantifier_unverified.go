package checks

import (
	"github.com/cicheck/cicheck/finding"
	"github.com/cicheck/cicheck/pathsfilter"
)

// PathsFilterQuantifierUnverified: some-with-excludes with `!` patterns inside a status key: the release's behaviour is unknown.
var PathsFilterQuantifierUnverified = &Rule{
	ID:       pathsfilter.RuleQuantifierUnverified,
	Severity: finding.Warning,
	Doc:      `some-with-excludes with ` + "`" + `!` + "`" + ` patterns inside a status key: the release's behaviour is unknown`,
	Help:     `` + "`" + `some-with-excludes` + "`" + ` (v4.0.3) classifies each rule as an inclusion or an exclusion by its picomatch negation. How a status-keyed list mixing ` + "`" + `!` + "`" + ` and plain patterns is classified is not known, so cicheck reports that filter's result as unknown rather than guessing. Keep exclusions as plain ` + "`" + `!` + "`" + ` entries outside status keys.`,
	Bad: `on: pull_request
jobs:
  changes:
    runs-on: ubuntu-latest
    outputs:
      src: ${{ steps.filter.outputs.src }}
    steps:
      - uses: dorny/paths-filter@v4
        id: filter
        with:
          predicate-quantifier: some-with-excludes
          filters: |
            src:
              - added|modified: ['src/**', '!src/**/*.md']
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
      - uses: dorny/paths-filter@v4
        id: filter
        with:
          predicate-quantifier: some-with-excludes
          filters: |
            src:
              - added|modified: 'src/**'
              - '!src/**/*.md'
  build:
    needs: changes
    if: needs.changes.outputs.src == 'true'
    runs-on: [self-hosted, gpu]
    steps: [{run: make}]
`,
	Run: pathsFilterRun((*pathsfilter.Analysis).QuantifierUnverified),
}
