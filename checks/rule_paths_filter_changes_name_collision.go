package checks

import (
	"github.com/cicheck/cicheck/finding"
	"github.com/cicheck/cicheck/pathsfilter"
)

// PathsFilterChangesNameCollision: a filter named `changes` replaces the step's `changes` output.
var PathsFilterChangesNameCollision = &Rule{
	ID:       pathsfilter.RuleChangesCollision,
	Severity: finding.Warning,
	Doc:      `a filter named ` + "`" + `changes` + "`" + ` replaces the step's ` + "`" + `changes` + "`" + ` output`,
	Help:     `dorny/paths-filter's ` + "`" + `changes` + "`" + ` output lists the names of the true filters as JSON. When a filter is itself named ` + "`" + `changes` + "`" + `, that output holds the filter's ` + "`" + `'true'` + "`" + `/` + "`" + `'false'` + "`" + ` instead, and the list is not set.`,
	Bad: `on: pull_request
jobs:
  changes:
    runs-on: ubuntu-latest
    outputs:
      changes: ${{ steps.filter.outputs.changes }}
    steps:
      - uses: dorny/paths-filter@v3
        id: filter
        with:
          filters: |
            changes: 'src/**'
  build:
    needs: changes
    if: needs.changes.outputs.changes == 'true'
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
          filters: |
            src: 'src/**'
  build:
    needs: changes
    if: needs.changes.outputs.src == 'true'
    runs-on: [self-hosted, gpu]
    steps: [{run: make}]
`,
	Run: pathsFilterRun((*pathsfilter.Analysis).ChangesCollision),
}
