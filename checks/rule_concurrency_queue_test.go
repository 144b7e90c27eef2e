package checks

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/cicheck/cicheck/finding"
	"github.com/cicheck/cicheck/workflowgraph"
)

// TestConcurrencyQueue: GitHub documents queue as single (the default) or
// max, and queue: max with cancel-in-progress: true as a workflow
// validation error:
// https://docs.github.com/en/actions/how-tos/write-workflows/choose-when-workflows-run/control-workflow-concurrency#example-queueing-multiple-pending-runs
// Both levels, workflow and job, are checked; each accepted row is the
// near miss of a rejected one.
func TestConcurrencyQueue(t *testing.T) {
	const jobs = "jobs:\n  a:\n    runs-on: ubuntu-latest\n    steps: [{run: x}]\n"
	job := func(conc string) string {
		return "on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    concurrency: " + conc + "\n    steps: [{run: x}]\n"
	}
	for _, c := range []struct {
		name, src string
		want      string // "" for no finding
	}{
		{"max", "on: push\nconcurrency:\n  group: g\n  queue: max\n" + jobs, ""},
		{"single", "on: push\nconcurrency:\n  group: g\n  queue: single\n" + jobs, ""},
		{"max without cancel", "on: push\nconcurrency:\n  group: g\n  cancel-in-progress: false\n  queue: max\n" + jobs, ""},
		{"single with cancel", "on: push\nconcurrency:\n  group: g\n  cancel-in-progress: true\n  queue: single\n" + jobs, ""},
		{"max with cancel expression", "on: push\nconcurrency:\n  group: g\n  cancel-in-progress: ${{ github.ref != 'refs/heads/main' }}\n  queue: max\n" + jobs, ""},
		{"queue expression", "on: push\nconcurrency:\n  group: g\n  queue: ${{ vars.QUEUE }}\n" + jobs, ""},
		{"no queue", "on: push\nconcurrency:\n  group: g\n  cancel-in-progress: true\n" + jobs, ""},
		{"max with cancel", "on: push\nconcurrency:\n  group: g\n  cancel-in-progress: true\n  queue: max\n" + jobs,
			"w.yml:5:10: error [concurrency-queue] queue: max with cancel-in-progress: true (line 4) in the workflow's concurrency: GitHub rejects the combination, since each new run would cancel the one in progress while the queue keeps the pending ones; drop one of them job= fix=\n"},
		{"unknown value", "on: push\nconcurrency:\n  group: g\n  queue: unlimited\n" + jobs,
			"w.yml:4:10: error [concurrency-queue] queue \"unlimited\" in the workflow's concurrency is not a value GitHub accepts (single, the default, or max); GitHub rejects the workflow job= fix=\n"},
		{"case", "on: push\nconcurrency:\n  group: g\n  queue: Max\n" + jobs,
			"w.yml:4:10: error [concurrency-queue] queue \"Max\" in the workflow's concurrency is not a value GitHub accepts (single, the default, or max); GitHub rejects the workflow job= fix=queue: max\n"},
		{"job max", job("{group: j, queue: max}"), ""},
		{"job typo", job("{group: j, queue: maxx}"),
			"w.yml:5:36: error [concurrency-queue] queue \"maxx\" in job \"a\"'s concurrency is not a value GitHub accepts (single, the default, or max); GitHub rejects the workflow job=a fix=queue: max\n"},
		{"job max with cancel", job("{group: j, cancel-in-progress: true, queue: max}"),
			"w.yml:5:62: error [concurrency-queue] queue: max with cancel-in-progress: true (line 5) in job \"a\"'s concurrency: GitHub rejects the combination, since each new run would cancel the one in progress while the queue keeps the pending ones; drop one of them job=a fix=\n"},
		{"job list", job("{group: j, queue: [max]}"),
			"w.yml:5:36: error [concurrency-queue] queue in job \"a\"'s concurrency must be single or max, not a mapping or a list; GitHub rejects the workflow job=a fix=\n"},
		// queue under another key is not concurrency's.
		{"elsewhere", "on: push\nenv:\n  queue: whatever\n" + jobs, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := render(Run(loadSrc(t, c.src), "", nil, []*Rule{ConcurrencyQueue}))
			if got != c.want {
				t.Errorf("got\n%s\nwant\n%s", got, c.want)
			}
		})
	}
}

// TestConcurrencyQueueParses: actionlint 1.7.12's "unexpected key" error
// for queue is dropped in the graph's parse findings (graph, simulate) as
// in lint, and only that error: another unexpected key is still reported.
func TestConcurrencyQueueParses(t *testing.T) {
	for _, c := range []struct {
		key  string
		kept bool
	}{{"queue", false}, {"queues", true}} {
		src := "on: push\nconcurrency:\n  group: g\n  " + c.key + ": max\njobs:\n  a: {runs-on: ubuntu-latest, steps: [{run: x}]}\n"
		_, parse := loadWithParse(t, src)
		kept := false
		for _, f := range parse {
			kept = kept || strings.Contains(f.Message, `unexpected key "`+c.key+`"`)
		}
		if kept != c.kept {
			t.Errorf("%s: parse findings %v", c.key, parse)
		}
	}
}

func loadWithParse(t *testing.T, src string) (*workflowgraph.Workflow, []finding.Finding) {
	t.Helper()
	w, parse, err := workflowgraph.Load(fstest.MapFS{"w.yml": {Data: []byte(src)}}, "w.yml")
	if err != nil {
		t.Fatal(err)
	}
	return w, parse
}
