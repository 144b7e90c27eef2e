package checks

import (
	"fmt"
	"strings"

	"github.com/cicheck/cicheck/finding"
	"github.com/cicheck/cicheck/internal/textdist"
	"github.com/cicheck/cicheck/workflowgraph"
)

// UnknownNeeds reports a `needs:` entry that names no job of the workflow.
var UnknownNeeds = &Rule{
	ID:       "unknown-needs",
	Severity: finding.Error,
	Doc:      "a job needs a job id that does not exist in the workflow",
	Help: "GitHub refuses to start a workflow whose `needs:` names a job that does not exist: no job runs at all.\n" +
		"Job ids compare case-insensitively, as on GitHub (`needs: build` names `Build:`), and cicheck shows each as its job's key is written. " +
		"cicheck suggests the closest existing id.",
	Bad: `on: push
jobs:
  build: {runs-on: ubuntu-latest, steps: [{run: make}]}
  test:
    needs: biuld
    runs-on: ubuntu-latest
    steps: [{run: make test}]
`,
	Good: `on: push
jobs:
  build: {runs-on: ubuntu-latest, steps: [{run: make}]}
  test:
    needs: build
    runs-on: ubuntu-latest
    steps: [{run: make test}]
`,
	Run: func(p *Pass) {
		w := p.Workflow
		for _, j := range w.Jobs {
			for i, n := range j.Needs {
				if w.Job(n) != nil {
					continue
				}
				pos := j.NeedsPos[i]
				f := finding.Finding{Job: j.ID, Line: pos.Line, Column: pos.Column,
					// The message names no other job: a baseline fingerprints it, and
					// adding an unrelated job must not make an accepted finding new.
					Message: fmt.Sprintf("job %q needs job %q, which does not exist in this workflow", j.ID, n)}
				if s := closest(n, j, w); s != "" {
					f.Fix = needsFix(j.Needs, i, s)
				}
				p.Report(f)
			}
		}
	},
}

// needsFix is the whole needs: value with entry i replaced by s, so that
// applying it keeps the job's other needs.
func needsFix(needs []string, i int, s string) string {
	if len(needs) == 1 {
		return "needs: " + s
	}
	out := append([]string(nil), needs...)
	out[i] = s
	return "needs: [" + strings.Join(out, ", ") + "]"
}

// closest returns the job id within edit distance 2 of n, if exactly one,
// and only when the distance is at most half of n's length: "zz" is not a
// typo of "b".
// The job itself and its descendants are never suggested: needing them
// would be a cycle.
func closest(n string, from *workflowgraph.Job, w *workflowgraph.Workflow) string {
	excluded := map[string]bool{from.ID: true}
	for _, d := range w.Descendants(from.ID) {
		excluded[d] = true
	}
	best, bestD, ties := "", 3, 0
	for _, j := range w.Jobs {
		if excluded[j.ID] {
			continue
		}
		d := textdist.Levenshtein(strings.ToLower(n), strings.ToLower(j.ID)) // ids match case-insensitively
		switch {
		case d < bestD:
			best, bestD, ties = j.ID, d, 0
		case d == bestD:
			ties++
		}
	}
	if ties > 0 || 2*bestD > len(n) {
		return ""
	}
	return best
}
