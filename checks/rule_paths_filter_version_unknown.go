package checks

import (
	"github.com/cicheck/cicheck/finding"
	"github.com/cicheck/cicheck/pathsfilter"
)

// PathsFilterVersionUnknown: the dorny/paths-filter ref maps to no known release.
var PathsFilterVersionUnknown = &Rule{
	ID:       pathsfilter.RuleVersionUnknown,
	Severity: finding.Warning,
	Doc:      `the dorny/paths-filter ref maps to no known release`,
	Help:     `cicheck models each release's quantifier semantics, so it resolves ` + "`" + `dorny/paths-filter@REF` + "`" + ` through a tag table. A branch or an unknown SHA resolves to nothing: cicheck simulates the newest modelled release and reports quantifier-dependent results as unknown. Pin a release tag, or map the ref under ` + "`" + `paths-filter.tags` + "`" + ` in .cicheck.yaml.`,
	Bad: `on: pull_request
jobs:
  changes:
    runs-on: ubuntu-latest
    outputs:
      src: ${{ steps.filter.outputs.src }}
    steps:
      - uses: dorny/paths-filter@master
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
	Good: `on: pull_request
jobs:
  changes:
    runs-on: ubuntu-latest
    outputs:
      src: ${{ steps.filter.outputs.src }}
    steps:
      - uses: dorny/paths-filter@v3.0.4
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
	Run: pathsFilterRun((*pathsfilter.Analysis).VersionUnknown),
}
