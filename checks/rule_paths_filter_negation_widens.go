package checks

import (
	"github.com/cicheck/cicheck/finding"
	"github.com/cicheck/cicheck/pathsfilter"
)

// PathsFilterNegationWidens: a paths-filter filter mixes positive and `!` patterns under `some`, so it matches almost every file.
var PathsFilterNegationWidens = &Rule{
	ID:       pathsfilter.RuleNegationWidens,
	Severity: finding.Error,
	Doc:      `a paths-filter filter mixes positive and ` + "`" + `!` + "`" + ` patterns under ` + "`" + `some` + "`" + `, so it matches almost every file`,
	Help: `Under dorny/paths-filter's default ` + "`" + `predicate-quantifier: some` + "`" + `, every pattern is its own predicate and a file belongs to the filter when **any** predicate matches. A ` + "`" + `!x/**` + "`" + ` pattern does not subtract from the others: it matches every file outside ` + "`" + `x/` + "`" + `. So ` + "`" + `['src/**', '!src/docs/**']` + "`" + ` is true for ` + "`" + `README.md` + "`" + `, and two ` + "`" + `!` + "`" + ` patterns together match every file (maintainer, dorny/paths-filter #45, #97).

cicheck shows a concrete path that wakes the filter. Fixes: ` + "`" + `predicate-quantifier: every` + "`" + ` with exactly one positive pattern, ` + "`" + `predicate-quantifier: some-with-excludes` + "`" + ` (v4.0.3 or later), or one extglob such as ` + "`" + `src/**/!(*.md)` + "`" + `.`,
	Bad: `on: pull_request
jobs:
  changes:
    runs-on: ubuntu-latest
    outputs:
      cuda: ${{ steps.filter.outputs.cuda }}
    steps:
      - uses: dorny/paths-filter@v3
        id: filter
        with:
          filters: |
            cuda:
              - 'csrc/**'
              - '!csrc/rocm/**'
  build:
    needs: changes
    if: needs.changes.outputs.cuda == 'true'
    runs-on: [self-hosted, gpu]
    steps: [{run: make}]
`,
	Good: `on: pull_request
jobs:
  changes:
    runs-on: ubuntu-latest
    outputs:
      cuda: ${{ steps.filter.outputs.cuda }}
    steps:
      - uses: dorny/paths-filter@v3
        id: filter
        with:
          predicate-quantifier: every
          filters: |
            cuda:
              - 'csrc/**'
              - '!csrc/rocm/**'
  build:
    needs: changes
    if: needs.changes.outputs.cuda == 'true'
    runs-on: [self-hosted, gpu]
    steps: [{run: make}]
`,
	Run: pathsFilterRun((*pathsfilter.Analysis).NegationWidens),
}
