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
		near := nearIDs(w)
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
				if s := near.closest(n, j); s != "" {
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

// jobIDs holds a workflow's job ids by length, for closest: a suggestion
// is within edit distance 2, so only ids at most 2 longer or shorter can
// be one, and an unknown need far from every id costs no distance at all.
type jobIDs struct {
	w     *workflowgraph.Workflow
	byLen map[int][]string // in file order
}

func nearIDs(w *workflowgraph.Workflow) jobIDs {
	ids := jobIDs{w: w, byLen: map[int][]string{}}
	for _, j := range w.Jobs {
		ids.byLen[len(j.ID)] = append(ids.byLen[len(j.ID)], j.ID)
	}
	return ids
}

// closest returns the job id within edit distance 2 of n, if exactly one,
// and only when the distance is at most half of n's length: "zz" is not a
// typo of "b".
// The job itself and its descendants are never suggested: needing them
// would be a cycle. They are looked up only when some id is near, since
// a search per unknown need made a chain of them n².
func closest(n string, from *workflowgraph.Job, w *workflowgraph.Workflow) string {
	return nearIDs(w).closest(n, from)
}

func (ids jobIDs) closest(n string, from *workflowgraph.Job) string {
	limit := min(2, len(n)/2)
	type near struct {
		id string
		d  int
	}
	var cands []near
	for l := len(n) - limit; l <= len(n)+limit; l++ {
		for _, id := range ids.byLen[l] {
			if d := textdist.Levenshtein(strings.ToLower(n), strings.ToLower(id)); d <= limit { // ids match case-insensitively
				cands = append(cands, near{id, d})
			}
		}
	}
	if len(cands) == 0 {
		return ""
	}
	excluded := map[string]bool{from.ID: true}
	for _, d := range ids.w.Descendants(from.ID) {
		excluded[d] = true
	}
	best, bestD, ties := "", limit+1, 0
	for _, c := range cands {
		switch {
		case excluded[c.id]:
		case c.d < bestD:
			best, bestD, ties = c.id, c.d, 0
		case c.d == bestD:
			ties++
		}
	}
	if ties > 0 {
		return ""
	}
	return best
}
