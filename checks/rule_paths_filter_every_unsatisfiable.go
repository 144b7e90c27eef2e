package checks

import (
	"github.com/cicheck/cicheck/finding"
	"github.com/cicheck/cicheck/pathsfilter"
)

// PathsFilterEveryUnsatisfiable: under `predicate-quantifier: every`, a filter's positive patterns cannot all match one file.
var PathsFilterEveryUnsatisfiable = &Rule{
	ID:       pathsfilter.RuleEveryUnsatisfiable,
	Severity: finding.Error,
	Doc:      `under ` + "`" + `predicate-quantifier: every` + "`" + `, a filter's positive patterns cannot all match one file`,
	Help: `With ` + "`" + `predicate-quantifier: every` + "`" + ` a file belongs to the filter only when **every** rule matches it, so all positive patterns must match the same path (dorny/paths-filter #260). Two positives with disjoint literal prefixes (` + "`" + `kernels/**` + "`" + ` and ` + "`" + `csrc/**` + "`" + `) can never both match: the filter is never true and the jobs behind it never run. This is an error when cicheck proves it, a warning when it cannot find a path matching all positives.

Fix: keep one positive pattern (merge alternatives with braces, ` + "`" + `{kernels,csrc}/**` + "`" + `) and the ` + "`" + `!` + "`" + ` exclusions.`,
	Bad: `on: pull_request
jobs:
  changes:
    runs-on: ubuntu-latest
    outputs:
      k: ${{ steps.filter.outputs.k }}
    steps:
      - uses: dorny/paths-filter@v3
        id: filter
        with:
          predicate-quantifier: every
          filters: |
            k:
              - 'kernels/**'
              - 'csrc/**'
              - '!**/*.md'
  build:
    needs: changes
    if: needs.changes.outputs.k == 'true'
    runs-on: [self-hosted, gpu]
    steps: [{run: make}]
`,
	Good: `on: pull_request
jobs:
  changes:
    runs-on: ubuntu-latest
    outputs:
      k: ${{ steps.filter.outputs.k }}
    steps:
      - uses: dorny/paths-filter@v3
        id: filter
        with:
          predicate-quantifier: every
          filters: |
            k:
              - '{kernels,csrc}/**'
              - '!**/*.md'
  build:
    needs: changes
    if: needs.changes.outputs.k == 'true'
    runs-on: [self-hosted, gpu]
    steps: [{run: make}]
`,
	Run: pathsFilterRun((*pathsfilter.Analysis).EveryUnsatisfiable),
}
