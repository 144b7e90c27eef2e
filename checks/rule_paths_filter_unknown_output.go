package checks

import (
	"github.com/cicheck/cicheck/finding"
	"github.com/cicheck/cicheck/pathsfilter"
)

// PathsFilterUnknownOutput: a job output or condition reads a paths-filter output that the step never sets.
var PathsFilterUnknownOutput = &Rule{
	ID:       pathsfilter.RuleUnknownOutput,
	Severity: finding.Error,
	Doc:      `a job output or condition reads a paths-filter output that the step never sets`,
	Help:     `dorny/paths-filter sets ` + "`" + `<filter>` + "`" + `, ` + "`" + `<filter>_count` + "`" + `, ` + "`" + `<filter>_files` + "`" + ` (only with ` + "`" + `list-files` + "`" + `) and ` + "`" + `changes` + "`" + `. actionlint cannot check these names because action outputs are untyped. Re-exporting ` + "`" + `steps.filter.outputs.rocm` + "`" + ` when no filter is named ` + "`" + `rocm` + "`" + ` yields an empty output, so ` + "`" + `needs.changes.outputs.rocm == 'true'` + "`" + ` is never true and the jobs behind it never wake.`,
	Bad: `on: pull_request
jobs:
  changes:
    runs-on: ubuntu-latest
    outputs:
      rocm: ${{ steps.filter.outputs.rocm }}
    steps:
      - uses: dorny/paths-filter@v3
        id: filter
        with:
          filters: |
            hip: 'csrc/hip/**'
  build:
    needs: changes
    if: needs.changes.outputs.rocm == 'true'
    runs-on: [self-hosted, gpu]
    steps: [{run: make}]
`,
	Good: `on: pull_request
jobs:
  changes:
    runs-on: ubuntu-latest
    outputs:
      rocm: ${{ steps.filter.outputs.hip }}
    steps:
      - uses: dorny/paths-filter@v3
        id: filter
        with:
          filters: |
            hip: 'csrc/hip/**'
  build:
    needs: changes
    if: needs.changes.outputs.rocm == 'true'
    runs-on: [self-hosted, gpu]
    steps: [{run: make}]
`,
	Run: pathsFilterRun((*pathsfilter.Analysis).UnknownOutput),
}
