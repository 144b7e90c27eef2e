package checks

import (
	"fmt"
	"slices"
	"strings"

	"github.com/cicheck/cicheck/finding"
	"github.com/cicheck/cicheck/internal/textdist"
)

// ParallelSteps checks the parallel-step keys GitHub added on 2026-06-25
// (background, wait, wait-all, cancel, parallel), which the embedded
// actionlint (1.7.12) rejects: cicheck drops those errors
// (internal/ghschema) and checks the steps against GitHub's documentation.
var ParallelSteps = &Rule{
	ID:       "parallel-steps",
	Severity: finding.Error,
	Doc:      "a wait: or cancel: names no background step before it, or a wait, wait-all or cancel step has an if:",
	Help: "`background: true` runs a step asynchronously; `wait: <id>` (or a list of ids) blocks until those background steps finish, " +
		"`wait-all:` until every background step has, `cancel: <id>` stops one background step, and `parallel:` runs a group of steps at once. " +
		"A `wait` or `cancel` finds its steps by `id`, among the steps before it in the job: an id no earlier step has is an error, " +
		"as is a list given to `cancel` (it takes one id) and an `if:` on a `wait`, `wait-all` or `cancel` step (they always run and do not support it). " +
		"An id naming a step that does not run in the background is a warning: there is nothing to wait for.\n\n" +
		"actionlint 1.7.12 rejects these keys; cicheck drops exactly those errors and checks the steps itself.\n\n" +
		"Source: https://docs.github.com/en/actions/reference/workflows-and-actions/workflow-syntax#jobsjob_idstepsbackground",
	Bad: `on: push
jobs:
  test:
    runs-on: ubuntu-latest
    steps:
      - id: server
        run: npm start
        background: true
      - run: npm test
      - wait: sever
`,
	Good: `on: push
jobs:
  test:
    runs-on: ubuntu-latest
    steps:
      - id: server
        run: npm start
        background: true
      - run: npm test
      - cancel: server
`,
	Run: func(p *Pass) {
		for _, js := range p.Workflow.ParallelSteps() {
			job := p.Workflow.Job(js.Job)
			if job == nil {
				continue
			}
			earlier := map[string]bool{} // id (lower-cased) -> runs in the background
			for _, st := range js.Steps {
				ctl := st.Control()
				if ctl != "" && ctl != "parallel" && st.IfLine > 0 {
					p.Reportf(job, st.IfLine, st.IfColumn, "a %s step always runs and does not support if:; GitHub rejects the workflow", ctl)
				}
				var names []string
				switch ctl {
				case "wait":
					names = st.Wait
				case "cancel":
					if st.CancelList {
						p.Reportf(job, st.KeyLine, st.KeyColumn, "cancel takes the id of one background step, not a list; GitHub rejects the workflow")
					} else if st.Cancel != "" {
						names = []string{st.Cancel}
					}
				}
				for _, id := range names {
					bg, ok := earlier[strings.ToLower(id)]
					switch {
					case strings.Contains(id, "${{"):
					case !ok:
						p.Reportf(job, st.KeyLine, st.KeyColumn, "%s", fmt.Sprintf("%s names step %q, which no step before it in job %s has as its id%s", ctl, id, job.ID, closestID(id, earlier)))
					case !bg:
						p.Report(finding.Finding{Severity: finding.Warning, Job: job.ID, Line: st.KeyLine, Column: st.KeyColumn,
							Message: fmt.Sprintf("%s names step %q, which does not run in the background: there is nothing to %s", ctl, id, map[string]string{"wait": "wait for", "cancel": "cancel"}[ctl])})
					}
				}
				if st.ID != "" {
					earlier[strings.ToLower(st.ID)] = isTrue(st.Background)
				}
				for _, g := range st.Parallel {
					if g.ID != "" {
						earlier[strings.ToLower(g.ID)] = true // a group's steps run in the background
					}
				}
			}
		}
	},
}

// isTrue: background: is true, or decided at run time (then it may be).
func isTrue(v string) bool { return strings.EqualFold(v, "true") || strings.Contains(v, "${{") }

// closestID is `; did you mean "x"?` for the earlier id nearest to id.
func closestID(id string, earlier map[string]bool) string {
	ids := make([]string, 0, len(earlier))
	for k := range earlier {
		ids = append(ids, k)
	}
	slices.Sort(ids) // ties go to the first: deterministic
	if s := textdist.Closest(strings.ToLower(id), ids); s != "" {
		return fmt.Sprintf("; did you mean %q?", s)
	}
	return ""
}
