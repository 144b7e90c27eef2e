package checks

import (
	"github.com/cicheck/cicheck/finding"
	"github.com/cicheck/cicheck/pathsfilter"
)

// PathsFilterUnsupportedGlob: a paths-filter pattern uses a glob construct cicheck cannot simulate.
var PathsFilterUnsupportedGlob = &Rule{
	ID:       pathsfilter.RuleUnsupportedGlob,
	Severity: finding.Warning,
	Doc:      `a paths-filter pattern uses a glob construct cicheck cannot simulate`,
	Help:     `cicheck reproduces picomatch 2.3.1 exactly; a construct it does not model is reported here instead of being guessed, and the filter's simulated result is unknown.`,
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
          filters: |
            src: 'src/(?<!test_)*.py'
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
	Run: pathsFilterRun((*pathsfilter.Analysis).UnsupportedGlob),
}
