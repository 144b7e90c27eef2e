package checks

import (
	"fmt"
	"strings"

	"github.com/cicheck/cicheck/finding"
)

// NeedsCycle reports jobs whose needs form a cycle.
var NeedsCycle = &Rule{
	ID:       "needs-cycle",
	Severity: finding.Error,
	Doc:      "jobs' needs form a cycle, so the workflow is invalid and no job runs",
	Help: "A cycle in `needs:` makes the whole workflow invalid: GitHub starts no job.\n" +
		"cicheck reports each cycle once, at the first job of the cycle in the file, and names every edge.",
	Bad: `on: push
jobs:
  a: {needs: b, runs-on: ubuntu-latest, steps: [{run: echo a}]}
  b: {needs: a, runs-on: ubuntu-latest, steps: [{run: echo b}]}
`,
	Good: `on: push
jobs:
  a: {runs-on: ubuntu-latest, steps: [{run: echo a}]}
  b: {needs: a, runs-on: ubuntu-latest, steps: [{run: echo b}]}
`,
	Run: func(p *Pass) {
		w := p.Workflow
		for _, cyc := range w.Cycles {
			// Report at the cycle's job that comes first in the file.
			first := w.Job(cyc[0])
			for _, id := range cyc {
				if j := w.Job(id); j != nil && j.Line < first.Line {
					first = j
				}
			}
			var edges []string
			for i, id := range cyc {
				edges = append(edges, fmt.Sprintf("%q needs %q", id, cyc[(i+1)%len(cyc)]))
			}
			p.Report(finding.Finding{Job: first.ID, Line: first.Line, Column: first.Column,
				Message: "needs cycle: " + strings.Join(edges, ", ") + "; GitHub rejects the workflow and runs no job"})
		}
	},
}
