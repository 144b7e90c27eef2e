package checks

import (
	"github.com/cicheck/cicheck/finding"
	"github.com/cicheck/cicheck/pathsfilter"
)

// PathsFilterOutputUnknown: reads an output (such as any_changed) that the modelled dorny/paths-filter release does not set.
var PathsFilterOutputUnknown = &Rule{
	ID:       pathsfilter.RuleOutputUnknown,
	Severity: finding.Warning,
	Doc:      `reads an output (such as any_changed) that the modelled dorny/paths-filter release does not set`,
	Help:     `Some unreleased revisions of dorny/paths-filter set ` + "`" + `any_changed` + "`" + `/` + "`" + `all_changed` + "`" + `; no release up to v4.0.3 does. cicheck treats such a reference as unknown (not as an empty string) and reports it.`,
	Bad: `on: pull_request
jobs:
  changes:
    runs-on: ubuntu-latest
    outputs:
      any: ${{ steps.filter.outputs.any_changed }}
    steps:
      - uses: dorny/paths-filter@v3
        id: filter
        with:
          filters: |
            src: 'src/**'
  build:
    needs: changes
    if: needs.changes.outputs.any == 'true'
    runs-on: [self-hosted, gpu]
    steps: [{run: make}]
`,
	Good: `on: pull_request
jobs:
  changes:
    runs-on: ubuntu-latest
    outputs:
      any: ${{ steps.filter.outputs.src }}
    steps:
      - uses: dorny/paths-filter@v3
        id: filter
        with:
          filters: |
            src: 'src/**'
  build:
    needs: changes
    if: needs.changes.outputs.any == 'true'
    runs-on: [self-hosted, gpu]
    steps: [{run: make}]
`,
	Run: pathsFilterRun((*pathsfilter.Analysis).OutputUnknown),
}
