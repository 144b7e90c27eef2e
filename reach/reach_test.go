package reach_test

import (
	"fmt"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/cicheck/cicheck/reach"
	"github.com/cicheck/cicheck/workflowgraph"
)

func load(t *testing.T, src string) *workflowgraph.Workflow {
	t.Helper()
	w, fs, err := workflowgraph.Load(fstest.MapFS{"w.yml": {Data: []byte(src)}}, "w.yml")
	if err != nil || w == nil {
		t.Fatalf("load: %v %v", err, fs)
	}
	return w
}

// render is the proofs as one line each: job kind other third [parked].
func render(r reach.Result) string {
	var b strings.Builder
	for _, p := range r.Proofs {
		fmt.Fprintf(&b, "%s %d %s %s %v\n", p.Job, p.Kind, p.Other, p.Third, p.Parked)
	}
	return b.String()
}

const steps = "    runs-on: x\n    steps: [{run: x}]\n"

func job(id, needs, cond string) string {
	s := "  " + id + ":\n"
	if needs != "" {
		s += "    needs: " + needs + "\n"
	}
	if cond != "" {
		s += "    if: " + cond + "\n"
	}
	return s + steps
}

func TestNeverRuns(t *testing.T) {
	dispatch := "on:\n  workflow_dispatch:\n    inputs:\n      gpu: {type: boolean}\n      suite: {type: choice, options: [unit, e2e]}\n  schedule: [{cron: '0 0 * * *'}]\njobs:\n"
	for _, c := range []struct{ name, src, want string }{
		{"an ancestor runs only on pull-request refs, the job only on main",
			"on: [push, pull_request]\njobs:\n" + job("wait", "", "startsWith(github.ref, 'refs/heads/pull-request/')") +
				job("build", "wait", "") + job("update-cache", "build", "github.ref == 'refs/heads/main'"),
			"update-cache 2 wait  []\n"},
		{"a nightly job tests for pull requests", "on:\n  schedule: [{cron: '0 0 * * *'}]\n  workflow_dispatch:\njobs:\n" +
			job("gpu", "", "github.event_name == 'pull_request'"), "gpu 1   []\n"},
		{"push to main only, tests for another ref", "on:\n  push:\n    branches: [main]\njobs:\n" + job("gpu", "", "github.ref != 'refs/heads/main'"),
			"gpu 1   []\n"},
		{"a boolean input compared with a string", dispatch + job("gpu", "", "inputs.gpu == 'true'"), "gpu 1   []\n"},
		{"a choice input compared with a value outside its options", dispatch + job("gpu", "", "inputs.suite == 'nightly'"), "gpu 1   []\n"},
		{"labeled, tested for opened", "on:\n  pull_request:\n    types: [labeled]\njobs:\n" + job("gpu", "", "github.event.action == 'opened'"), "gpu 1   []\n"},
		{"a tags-only push with a branch test", "on:\n  push:\n    tags: ['v*']\njobs:\n" + job("gpu", "", "startsWith(github.ref, 'refs/heads/')"), "gpu 1   []\n"},
		{"needs two jobs gated on different events, and parks the job below",
			"on: [push, pull_request]\njobs:\n" + job("a", "", "github.event_name == 'push'") + job("b", "", "github.event_name == 'pull_request'") +
				job("gpu", "[a, b]", "") + job("report", "gpu", ""),
			"gpu 4 a b [report]\n"},
		{"an ancestor that runs only after a failure", "on: push\njobs:\n" + job("a", "", "") + job("notify", "a", "failure()") + job("gpu", "notify", ""),
			"gpu 3 notify  []\n"},
		{"a status check cannot save a condition that never holds", "on: push\njobs:\n" + job("a", "", "") + job("gpu", "a", "always() && github.event_name == 'schedule'"),
			"gpu 1   []\n"},
		{"a glob branch filter and another branch", "on:\n  push:\n    branches: ['release/*']\njobs:\n" + job("gpu", "", "github.ref == 'refs/heads/main'"), "gpu 1   []\n"},
		// Near misses: each may run.
		{"labels are free", "on: pull_request\njobs:\n" + job("gpu", "", "contains(github.event.pull_request.labels.*.name, 'gpu')"), ""},
		{"vars are free", "on: push\njobs:\n" + job("gpu", "", "vars.RUN_GPU == 'true'"), ""},
		{"an ancestor's output is free", "on: push\njobs:\n" + job("a", "", "") + job("gpu", "a", "needs.a.outputs.crashed == 'true'"), ""},
		{"an || arm holds", "on:\n  schedule: [{cron: '0 0 * * *'}]\njobs:\n" + job("gpu", "", "github.event_name == 'pull_request' || github.event_name == 'schedule'"), ""},
		{"push to any branch includes main", "on: push\njobs:\n" + job("gpu", "", "github.ref == 'refs/heads/main'"), ""},
		{"push to any branch includes a prefix", "on: push\njobs:\n" + job("gpu", "", "startsWith(github.ref, 'refs/heads/pull-request/') && github.ref != 'refs/heads/main'"), ""},
		{"a status check over exclusive needs", "on: [push, pull_request]\njobs:\n" + job("a", "", "github.event_name == 'push'") + job("b", "", "github.event_name == 'pull_request'") +
			job("gpu", "[a, b]", "always()"), ""},
		{"a choice value inside the options", dispatch + job("gpu", "", "inputs.suite == 'e2e'"), ""},
		{"a boolean input tested for truth", dispatch + job("gpu", "", "inputs.gpu"), ""},
		{"a boolean input compared with a boolean", dispatch + job("gpu", "", "inputs.gpu == true"), ""},
		{"a boolean input's payload string", dispatch + job("gpu", "", "github.event.inputs.gpu == 'true'"), ""},
		{"the caller's event is free", "on:\n  workflow_call:\njobs:\n" + job("gpu", "", "github.event_name == 'pull_request'"), ""},
		{"strings compare without case", "on:\n  push:\n    branches: [main]\njobs:\n" + job("gpu", "", "github.ref == 'REFS/HEADS/MAIN'"), ""},
		{"a prefix inside a glob filter", "on:\n  push:\n    branches: ['release/*']\njobs:\n" + job("gpu", "", "startsWith(github.ref, 'refs/heads/release/v2')"), ""},
		{"a test the classes do not decide", "on:\n  push:\n    branches: ['release/*']\njobs:\n" + job("gpu", "", "contains(github.ref, 'v2') && endsWith(github.ref, 'x')"), ""},
		{"if: false is job-disabled's", "on: push\njobs:\n" + job("a", "", "false") + job("b", "a", ""), ""},
		{"a head ref on pull requests", "on: pull_request\njobs:\n" + job("gpu", "", "github.head_ref != '' && github.base_ref == 'main'"), ""},
		{"a truth test on a class", "on: pull_request\njobs:\n" + job("gpu", "", "github.head_ref"), ""},
		{"a head ref on push is empty", "on: push\njobs:\n" + job("gpu", "", "github.head_ref"), "gpu 1   []\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := render(reach.Analyze(load(t, c.src))); got != c.want {
				t.Errorf("got\n%swant\n%s", got, c.want)
			}
		})
	}
}

func TestNoClaimOnBrokenGraphs(t *testing.T) {
	for _, src := range []string{
		"on: push\njobs:\n" + job("a", "nobody", "github.event_name == 'push'") + job("b", "a", "github.event_name == 'schedule'"),
		"on: push\njobs:\n" + job("a", "b", "") + job("b", "a", "") + job("c", "a", "github.event_name == 'schedule'"),
		"on: push\njobs:\n" + job("a", "", "github.event_name == ") + job("b", "a", ""),
	} {
		if got := render(reach.Analyze(load(t, src))); strings.Contains(got, "b ") && !strings.Contains(got, "c ") {
			t.Errorf("%s\n-> %s", src, got)
		}
	}
}

// TestNeedsResultsAreDeadNeedsResults: a condition made false only by a
// need's result (needs.x.result == 'failure' without a status check) is
// dead-needs-result's finding, not this analysis'; the same condition
// that a trigger also makes false is.
func TestNeedsResultsAreDeadNeedsResults(t *testing.T) {
	if got := render(reach.Analyze(load(t, "on: push\njobs:\n"+job("a", "", "")+job("b", "a", "needs.a.result == 'failure'")))); got != "" {
		t.Errorf("needs result: %s", got)
	}
	if got := render(reach.Analyze(load(t, "on: push\njobs:\n"+job("a", "", "")+job("b", "a", "needs.a.result == 'failure' && github.event_name == 'schedule'")))); got != "b 1   []\n" {
		t.Errorf("needs result and a trigger: %q", got)
	}
}

// FuzzAnalyze: whatever the workflow, the analysis terminates without
// panicking, and every job it names exists.
func FuzzAnalyze(f *testing.F) {
	f.Add("on: [push, pull_request]\njobs:\n" + job("a", "", "startsWith(github.ref, 'refs/heads/pull-request/')") + job("b", "a", "github.ref == 'refs/heads/main'"))
	f.Add("on:\n  workflow_dispatch:\n    inputs:\n      x: {type: choice, options: [a, b]}\n      y: {type: boolean}\njobs:\n" + job("a", "", "inputs.x == 'c' || inputs.y == 'true'"))
	f.Add("on:\n  push:\n    branches: ['release/**', '!release/old']\n    tags: [v1]\n  pull_request_target:\n    branches: [main]\njobs:\n" + job("a", "", "github['ref'] == 'x' && contains(github.base_ref, 'm')"))
	f.Add("on: workflow_call\njobs:\n" + job("a", "", "github.event_name == 'push' && github.event.action == '\x1f'"))
	f.Fuzz(func(t *testing.T, src string) {
		w, _, err := workflowgraph.Load(fstest.MapFS{"w.yml": {Data: []byte(src)}}, "w.yml")
		if err != nil || w == nil {
			return
		}
		for _, p := range reach.Analyze(w).Proofs {
			for _, id := range append([]string{p.Job}, p.Parked...) {
				if w.Job(id) == nil {
					t.Fatalf("proof names no job: %+v", p)
				}
			}
		}
	})
}

// TestRequiredNeeds: a job with a status check that requires a need's
// success (a conjunct needs.x.result == 'success') never runs when the
// need never does, and is listed with it; one that only reads the result
// (an || arm) may run.
func TestRequiredNeeds(t *testing.T) {
	base := "on: push\njobs:\n" + job("a", "", "github.event_name == 'schedule'")
	for _, c := range []struct{ cond, want string }{
		{"${{ !cancelled() && needs.a.result == 'success' }}", "a 1   [b]\n"},
		{"${{ always() && 'SUCCESS' == needs.a.result }}", "a 1   [b]\n"},
		{"${{ always() && (needs.a.result == 'success' || vars.X) }}", "a 1   []\n"},
		{"${{ !cancelled() && needs.a.result != 'success' }}", "a 1   []\n"},
	} {
		if got := render(reach.Analyze(load(t, base+job("b", "a", c.cond)))); got != c.want {
			t.Errorf("%s: got %q, want %q", c.cond, got, c.want)
		}
	}
}
