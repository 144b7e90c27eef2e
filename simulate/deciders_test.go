package simulate

import (
	"reflect"
	"testing"
	"testing/fstest"

	"github.com/cicheck/cicheck/workflowgraph"
)

func TestUndecided(t *testing.T) {
	src := `on: [pull_request, workflow_dispatch]
jobs:
  plan:
    runs-on: ubuntu-latest
    outputs: {run_gpu: "${{ steps.p.outputs.run_gpu }}"}
    steps: [{id: p, run: echo}]
  gate:
    needs: plan
    if: ${{ contains(github.event.pull_request.labels.*.name, 'gpu') || vars.FORCE == 'true' }}
    runs-on: ubuntu-latest
    steps: [{run: echo}]
  gpu:
    needs: [plan, gate]
    if: ${{ !cancelled() && needs.plan.outputs.run_gpu == 'true' && inputs.suite != 'none' }}
    runs-on: [self-hosted, h100]
    steps: [{run: echo}]
  cpu:
    runs-on: ubuntu-latest
    steps: [{run: echo}]
  report:
    needs: cpu
    if: ${{ failure() && vars.REPORT == 'true' }}
    runs-on: ubuntu-latest
    steps: [{run: echo}]
`
	w, _, err := workflowgraph.Load(fstest.MapFS{"w.yml": {Data: []byte(src)}}, "w.yml")
	if err != nil {
		t.Fatal(err)
	}
	sim := New(w)
	got := sim.Undecided(Scenario{Event: "pull_request"}, []string{"gpu", "cpu"})
	want := []Undecided{
		{Job: "gpu", Deciders: []Decider{
			{Fact: "github.event.pull_request.labels.*.name", Flag: "--label LABEL (the pull request's labels)"},
			{Fact: "vars.force", Flag: "--set vars.force=…"},
			{Fact: "needs.plan.outputs.run_gpu", Flag: "--output plan.run_gpu=…"},
		}},
		// Near miss: a job the scenario decides waits on nothing a flag gives.
		{Job: "cpu", Reason: "no flag decides it: it waits on the failure itself (a failed job may or may not have set its outputs before failing)"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Undecided:\n got %+v\nwant %+v", got, want)
	}
	// A job the scenario decides (report is skipped: nothing failed) that a
	// row's failure leaves undecided names the fact its failure() branch
	// reads.
	got = sim.Undecided(Scenario{Event: "pull_request"}, []string{"report"})
	want = []Undecided{{Job: "report", Deciders: []Decider{{Fact: "vars.report", Flag: "--set vars.report=…"}}}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Undecided for a failure() branch:\n got %+v\nwant %+v", got, want)
	}
	// Under workflow_dispatch the inputs are facts too (on pull_request
	// they are null), and the labels are not.
	got = sim.Undecided(Scenario{Event: "workflow_dispatch", Set: map[string]string{"vars.FORCE": "true"}}, []string{"gpu"})
	want = []Undecided{{Job: "gpu", Deciders: []Decider{
		{Fact: "inputs.suite", Flag: "--input suite=…"},
		{Fact: "needs.plan.outputs.run_gpu", Flag: "--output plan.run_gpu=…"},
	}}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Undecided under workflow_dispatch:\n got %+v\nwant %+v", got, want)
	}
	// Every fact given: nothing left to decide for gpu.
	sc := Scenario{Event: "pull_request", Labels: []string{"gpu"}, Inputs: map[string]string{"suite": "all"},
		Outputs: map[string]map[string]string{"plan": {"run_gpu": "true"}}}
	if got := sim.Undecided(sc, []string{"gpu"}); len(got) != 1 || len(got[0].Deciders) != 0 {
		t.Errorf("with every fact given: %+v", got)
	}
	if got, want := sc.Describe(), "event pull_request; labels gpu; inputs suite=all; outputs plan.run_gpu=true"; got != want {
		t.Errorf("Describe = %q, want %q", got, want)
	}
	if got, want := (Scenario{}).Describe(), "event unknown (--event); labels unknown (--label); no job outputs given (--output)"; got != want {
		t.Errorf("Describe = %q, want %q", got, want)
	}
}
