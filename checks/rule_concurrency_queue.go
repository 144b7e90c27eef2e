package checks

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/cicheck/cicheck/finding"
	"github.com/cicheck/cicheck/internal/ghschema"
	"github.com/cicheck/cicheck/internal/textdist"
)

// ConcurrencyQueue validates `concurrency.queue`, which the embedded
// actionlint (1.7.12) rejects as an unknown key: cicheck drops that error
// (internal/ghschema) and checks the key against GitHub's documentation
// instead.
var ConcurrencyQueue = &Rule{
	ID:       "concurrency-queue",
	Severity: finding.Error,
	Doc:      "a concurrency queue: value GitHub rejects, or queue: max with cancel-in-progress: true",
	Help: "GitHub added `queue` to a workflow's and a job's `concurrency:` in May 2026: `single` (the default) keeps at most one pending run in the group, `max` up to 100. " +
		"Any other value, and `queue: max` together with `cancel-in-progress: true`, fail GitHub's workflow validation, so the workflow does not run.\n\n" +
		"actionlint 1.7.12 rejects every `queue:` key as unexpected; cicheck drops exactly that error and checks the value itself. " +
		"An expression (`${{ … }}`) in either key is not decided.\n\n" +
		"Source: https://docs.github.com/en/actions/how-tos/write-workflows/choose-when-workflows-run/control-workflow-concurrency#example-queueing-multiple-pending-runs",
	Bad: `on: push
concurrency:
  group: deploy
  cancel-in-progress: true
  queue: max
jobs:
  deploy: {runs-on: ubuntu-latest, steps: [{run: ./deploy}]}
`,
	Good: `on: push
concurrency:
  group: deploy
  cancel-in-progress: false
  queue: max
jobs:
  deploy: {runs-on: ubuntu-latest, steps: [{run: ./deploy}]}
`,
	Run: func(p *Pass) {
		for _, c := range p.Workflow.Concurrencies() {
			f := finding.Finding{Line: c.QueueLine, Column: c.QueueColumn}
			if j := p.Workflow.Job(c.Job); j != nil && c.Job != "" {
				f.Job = j.ID
			}
			where := "the workflow's concurrency"
			if c.Job != "" {
				where = fmt.Sprintf("job %q's concurrency", c.Job)
			}
			switch {
			case !c.QueueScalar:
				f.Message = fmt.Sprintf("queue in %s must be single or max, not a mapping or a list; GitHub rejects the workflow", where)
			case strings.Contains(c.Queue, "${{"):
				continue // decided at run time
			case !slices.Contains(ghschema.QueueValues, c.Queue):
				f.Message = fmt.Sprintf("queue %q in %s is not a value GitHub accepts (single, the default, or max); GitHub rejects the workflow", c.Queue, where)
				if s := textdist.Closest(strings.ToLower(c.Queue), ghschema.QueueValues); s != "" || slices.Contains(ghschema.QueueValues, strings.ToLower(c.Queue)) {
					f.Fix = "queue: " + cmp.Or(s, strings.ToLower(c.Queue))
				}
			case c.Queue == "max" && strings.EqualFold(strings.TrimSpace(c.Cancel), "true"):
				f.Message = fmt.Sprintf("queue: max with cancel-in-progress: true (line %d) in %s: GitHub rejects the combination, since each new run would cancel the one in progress while the queue keeps the pending ones; drop one of them", c.CancelLine, where)
			default:
				continue
			}
			p.Report(f)
		}
	},
}
