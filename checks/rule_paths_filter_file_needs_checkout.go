package checks

import (
	"github.com/cicheck/cicheck/finding"
	"github.com/cicheck/cicheck/pathsfilter"
)

// PathsFilterFileNeedsCheckout: filters read from a file in the repository, but no checkout step runs first.
var PathsFilterFileNeedsCheckout = &Rule{
	ID:       pathsfilter.RuleFileNeedsCheckout,
	Severity: finding.Warning,
	Doc:      `filters read from a file in the repository, but no checkout step runs first`,
	Help:     `A ` + "`" + `filters` + "`" + ` value with no newline and no ` + "`" + `:` + "`" + ` is a file path. The action reads it from the working directory, so a checkout must come first, even when the changed files come from the API; otherwise the step fails with ` + "`" + `Configuration file '<path>' not found` + "`" + `.`,
	Bad: `on: pull_request
jobs:
  changes:
    runs-on: ubuntu-latest
    outputs:
      src: ${{ steps.filter.outputs.src }}
    steps:
      - uses: dorny/paths-filter@v3
        id: filter
        with:
          filters: .github/filters.yml
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
          filters: |
            src: 'src/**'
  build:
    needs: changes
    if: needs.changes.outputs.src == 'true'
    runs-on: [self-hosted, gpu]
    steps: [{run: make}]
`,
	Run: pathsFilterRun((*pathsfilter.Analysis).FileNeedsCheckout),
}
