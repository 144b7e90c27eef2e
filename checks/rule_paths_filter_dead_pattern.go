package checks

import (
	"github.com/cicheck/cicheck/finding"
	"github.com/cicheck/cicheck/pathsfilter"
)

// PathsFilterDeadPattern: a paths-filter pattern that can never match a path git reports (leading or trailing `/`).
var PathsFilterDeadPattern = &Rule{
	ID:       pathsfilter.RuleDeadPattern,
	Severity: finding.Warning,
	Doc:      `a paths-filter pattern that can never match a path git reports (leading or trailing ` + "`" + `/` + "`" + `)`,
	Help:     `git reports repository-relative paths without a leading ` + "`" + `/` + "`" + ` and never with a trailing ` + "`" + `/` + "`" + `. picomatch takes both literally, so ` + "`" + `/src/**` + "`" + ` and ` + "`" + `docs/` + "`" + ` never match anything. Write ` + "`" + `src/**` + "`" + ` and ` + "`" + `docs/**` + "`" + `.`,
	Bad: `on: pull_request
jobs:
  changes:
    runs-on: ubuntu-latest
    outputs:
      docs: ${{ steps.filter.outputs.docs }}
    steps:
      - uses: dorny/paths-filter@v3
        id: filter
        with:
          filters: |
            docs: 'docs/'
  build:
    needs: changes
    if: needs.changes.outputs.docs == 'true'
    runs-on: [self-hosted, gpu]
    steps: [{run: make}]
`,
	Good: `on: pull_request
jobs:
  changes:
    runs-on: ubuntu-latest
    outputs:
      docs: ${{ steps.filter.outputs.docs }}
    steps:
      - uses: dorny/paths-filter@v3
        id: filter
        with:
          filters: |
            docs: 'docs/**'
  build:
    needs: changes
    if: needs.changes.outputs.docs == 'true'
    runs-on: [self-hosted, gpu]
    steps: [{run: make}]
`,
	Run: pathsFilterRun((*pathsfilter.Analysis).DeadPattern),
}
