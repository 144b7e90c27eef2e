package checks

import (
	"github.com/cicheck/cicheck/finding"
	"github.com/cicheck/cicheck/pathsfilter"
)

// PathsFilterExtglobNegation: a `!(…)` extglob in a paths-filter pattern, whose matches are often surprising.
var PathsFilterExtglobNegation = &Rule{
	ID:       pathsfilter.RuleExtglobNegation,
	Severity: finding.Notice,
	Doc:      `a ` + "`" + `!(…)` + "`" + ` extglob in a paths-filter pattern, whose matches are often surprising`,
	Help:     `` + "`" + `!(…)` + "`" + ` negates what the group matches inside one path position, not the whole file: ` + "`" + `!(**/*.tsx|**/*.less)` + "`" + ` still matches a root-level ` + "`" + `root.tsx` + "`" + ` (dorny/paths-filter #135), and ` + "`" + `!(a/**|b/**)**` + "`" + ` depends on the order of its alternatives (#113). cicheck shows a path the pattern matches although it looks excluded.`,
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
            src: '!(**/*.tsx|**/*.less)'
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
              - '**'
              - '!**/*.tsx'
              - '!**/*.less'
  build:
    needs: changes
    if: needs.changes.outputs.src == 'true'
    runs-on: [self-hosted, gpu]
    steps: [{run: make}]
`,
	Run: pathsFilterRun((*pathsfilter.Analysis).ExtglobNegation),
}
