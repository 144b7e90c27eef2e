package checks

import (
	"github.com/cicheck/cicheck/finding"
	"github.com/cicheck/cicheck/pathsfilter"
)

// PathsFilterInvalid: the paths-filter step's filters or list-files input is invalid, so the step fails at run time.
var PathsFilterInvalid = &Rule{
	ID:       pathsfilter.RuleInvalid,
	Severity: finding.Error,
	Doc:      `the paths-filter step's filters or list-files input is invalid, so the step fails at run time`,
	Help:     `The ` + "`" + `filters` + "`" + ` input is parsed with js-yaml when the step runs: a number or boolean where a pattern belongs, a null value, or a non-mapping root fails the step, and so does a ` + "`" + `list-files` + "`" + ` value other than none, csv, json, shell or escape. cicheck reports the position in the workflow file.`,
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
            src: 1
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
	Run: pathsFilterRun((*pathsfilter.Analysis).Invalid),
}
