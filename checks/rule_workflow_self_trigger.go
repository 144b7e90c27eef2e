package checks

import (
	"github.com/cicheck/cicheck/finding"
	"github.com/cicheck/cicheck/pathsfilter"
)

// WorkflowSelfTrigger: a paths-filter filter lists the workflow file that
// contains it (seed 002, defect 1).
var WorkflowSelfTrigger = &Rule{
	ID:       pathsfilter.RuleSelfTrigger,
	Severity: finding.Notice,
	Doc:      "a paths-filter filter matches its own workflow file, so any edit to it wakes every job behind the filter",
	Help: "Listing `.github/workflows/ci.yml` in a filter (or a glob such as `.github/**` that matches it) makes every edit to the workflow, " +
		"including a comment in an unrelated job, run every job gated on that filter. On a scarce self-hosted runner that is hours of queue for nothing.\n\n" +
		"The protection it aims for is better split in two: a cheap hosted job that lints workflow changes (actionlint, cicheck), and an opt-in " +
		"label (for example `ci:full`) ORed into the heavy jobs' `if:` so a change to a heavy job's own script can be run deliberately. " +
		"`cicheck explain-diff` warns when a heavy job's definition changed without the label.",
	Bad: `on: pull_request
jobs:
  changes:
    runs-on: ubuntu-latest
    outputs:
      rust: ${{ steps.filter.outputs.rust }}
    steps:
      - uses: dorny/paths-filter@v3
        id: filter
        with:
          filters: |
            rust:
              - '**/*.rs'
              - '.github/workflows/**'
  clippy:
    needs: changes
    if: needs.changes.outputs.rust == 'true'
    runs-on: [self-hosted, GB10]
    steps: [{run: cargo clippy}]
`,
	Good: `on: pull_request
jobs:
  changes:
    runs-on: ubuntu-latest
    outputs:
      rust: ${{ steps.filter.outputs.rust }}
    steps:
      - uses: dorny/paths-filter@v3
        id: filter
        with:
          filters: |
            rust:
              - '**/*.rs'
  clippy:
    needs: changes
    if: needs.changes.outputs.rust == 'true' || contains(github.event.pull_request.labels.*.name, 'ci:full')
    runs-on: [self-hosted, GB10]
    steps: [{run: cargo clippy}]
`,
	Run: pathsFilterRun((*pathsfilter.Analysis).SelfTrigger),
}
