package checks

import (
	"github.com/cicheck/cicheck/finding"
	"github.com/cicheck/cicheck/pathsfilter"
)

// PathsFilterQuantifierUnsupported: the pinned dorny/paths-filter release rejects this predicate-quantifier value, so the step fails.
var PathsFilterQuantifierUnsupported = &Rule{
	ID:       pathsfilter.RuleQuantifierUnsupported,
	Severity: finding.Error,
	Doc:      `the pinned dorny/paths-filter release rejects this predicate-quantifier value, so the step fails`,
	Help:     `From v3.0.3 the action validates ` + "`" + `predicate-quantifier` + "`" + ` exactly (case-sensitive): ` + "`" + `some` + "`" + ` or ` + "`" + `every` + "`" + `, plus ` + "`" + `some-with-excludes` + "`" + ` from v4.0.3. Any other value fails the step with ` + "`" + `Input parameter 'predicate-quantifier' is set to invalid value '<v>'` + "`" + `, so no filter output is set and every job gated on them is skipped. cicheck resolves the release from the ` + "`" + `uses:` + "`" + ` ref through its tag table (` + "`" + `paths-filter.tags` + "`" + ` in .cicheck.yaml).`,
	Bad: `on: pull_request
jobs:
  changes:
    runs-on: ubuntu-latest
    outputs:
      rocm: ${{ steps.filter.outputs.rocm }}
    steps:
      - uses: dorny/paths-filter@v4.0.2
        id: filter
        with:
          predicate-quantifier: some-with-excludes
          filters: |
            rocm:
              - 'csrc/**'
              - '!csrc/cuda/**'
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
      rocm: ${{ steps.filter.outputs.rocm }}
    steps:
      - uses: dorny/paths-filter@v4.0.3
        id: filter
        with:
          predicate-quantifier: some-with-excludes
          filters: |
            rocm:
              - 'csrc/**'
              - '!csrc/cuda/**'
  build:
    needs: changes
    if: needs.changes.outputs.rocm == 'true'
    runs-on: [self-hosted, gpu]
    steps: [{run: make}]
`,
	Run: pathsFilterRun((*pathsfilter.Analysis).QuantifierUnsupported),
}
