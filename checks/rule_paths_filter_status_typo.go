package checks

import (
	"github.com/cicheck/cicheck/finding"
	"github.com/cicheck/cicheck/pathsfilter"
)

// PathsFilterStatusTypo: a paths-filter status key uses a word the action never produces, so the rule never matches.
var PathsFilterStatusTypo = &Rule{
	ID:       pathsfilter.RuleStatusTypo,
	Severity: finding.Error,
	Doc:      `a paths-filter status key uses a word the action never produces, so the rule never matches`,
	Help:     `Status keys (` + "`" + `added|modified: 'src/**'` + "`" + `) are split on ` + "`" + `|` + "`" + `, trimmed and lower-cased but not validated: ` + "`" + `add:` + "`" + ` silently never matches. Valid words are added, copied, deleted, modified, unmerged, changed and unchanged. ` + "`" + `renamed` + "`" + ` never occurs because the action diffs with ` + "`" + `--no-renames` + "`" + ` (a rename is a deletion plus an addition).`,
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
            src:
              - add|modified: 'src/**'
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
            src:
              - added|modified: 'src/**'
  build:
    needs: changes
    if: needs.changes.outputs.src == 'true'
    runs-on: [self-hosted, gpu]
    steps: [{run: make}]
`,
	Run: pathsFilterRun((*pathsfilter.Analysis).StatusTypo),
}
