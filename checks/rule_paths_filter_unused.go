package checks

import (
	"github.com/cicheck/cicheck/finding"
	"github.com/cicheck/cicheck/pathsfilter"
)

// PathsFilterUnused: a paths-filter filter that no job, job output or step reads.
var PathsFilterUnused = &Rule{
	ID:       pathsfilter.RuleUnused,
	Severity: finding.Notice,
	Doc:      `a paths-filter filter that no job, job output or step reads`,
	Help:     `A filter nobody reads costs nothing at run time but misleads readers into thinking a job is gated on it. cicheck looks for ` + "`" + `steps.<id>.outputs.<filter>` + "`" + ` (and ` + "`" + `_count` + "`" + `, ` + "`" + `_files` + "`" + `, ` + "`" + `changes` + "`" + `) in steps and in job outputs that some job reads through ` + "`" + `needs.<job>.outputs` + "`" + `.`,
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
            src: 'src/**'
            docs: 'docs/**'
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
	Run: pathsFilterRun((*pathsfilter.Analysis).Unused),
}
