package checks

import (
	"fmt"
	"strings"

	"github.com/cicheck/cicheck/finding"
	"github.com/cicheck/cicheck/internal/plural"
	"github.com/cicheck/cicheck/reach"
	"github.com/cicheck/cicheck/workflowgraph"
)

// JobNeverRuns reports a job that no trigger of its workflow lets run:
// its condition, or the conditions of the ancestors its implicit
// success() needs, contradict the triggers or each other. Only a proof is
// reported (package reach); what depends on labels, vars or outputs may
// run.
var JobNeverRuns = &Rule{
	ID:       "job-never-runs",
	Severity: finding.Warning,
	Doc:      "no trigger of the workflow lets the job run: its condition, or those of the ancestors it needs, can never hold",
	Help: "A job runs only when its `if:` holds and, without a status check, when every ancestor ran and succeeded " +
		"(the implicit `success()` covers the whole dependency closure; a skipped ancestor makes it false). cicheck " +
		"checks every trigger of the workflow (event, activity types, branch and tag filters, the type and options of each " +
		"`workflow_dispatch` and `workflow_call` input) and proves when no combination lets the job run: a nightly job that " +
		"tests `github.event_name == 'pull_request'`, a push to `main` only with `if: github.ref != 'refs/heads/main'`, a " +
		"boolean input compared with the string `'true'` (GitHub compares a boolean with a string as numbers, so it is never " +
		"equal), a choice input compared with a value outside its options, `types: [labeled]` with " +
		"`github.event.action == 'opened'`, a job that needs two jobs gated on different events, or an ancestor that runs " +
		"only on other refs than the job. The message names the contradiction. Labels, vars, secrets and job outputs are " +
		"free: a condition that depends on them may run and is not reported.\n\n" +
		"An error on a GPU or heavy job (or one it takes with it), a warning otherwise. A literal `if: false` and the jobs " +
		"it parks are `job-disabled`'s (a notice).",
	Bad: `on:
  schedule: [{cron: "0 3 * * *"}]
  workflow_dispatch:
jobs:
  build:
    runs-on: ubuntu-latest
    steps: [{run: make}]
  gpu-tests:
    needs: build
    if: github.event_name == 'pull_request'
    runs-on: [self-hosted, h100]
    steps: [{run: make gpu-test}]
`,
	Good: `on:
  schedule: [{cron: "0 3 * * *"}]
  workflow_dispatch:
jobs:
  build:
    runs-on: ubuntu-latest
    steps: [{run: make}]
  gpu-tests:
    needs: build
    if: github.event_name == 'schedule' || github.event_name == 'workflow_dispatch'
    runs-on: [self-hosted, h100]
    steps: [{run: make gpu-test}]
`,
	Run: func(p *Pass) {
		w := p.Workflow
		res := reach.Analyze(w)
		for _, pr := range res.Proofs {
			j := w.Job(pr.Job)
			if j == nil {
				continue
			}
			msg := neverRunsMessage(w, j, pr, res.Triggers)
			if n := len(pr.Parked); n > 0 {
				msg += fmt.Sprintf(", and with it %s: %s", plural.Count(n, "job"), strings.Join(pr.Parked, ", "))
			}
			sev := p.Severity()
			if sev == finding.Warning && (accelOrHeavy(p, j) || anyAccelOrHeavy(p, w, pr.Parked)) {
				sev = finding.Error
			}
			line, col := condPos(j)
			p.Report(finding.Finding{Job: j.ID, Line: line, Column: col, Severity: sev, Message: msg})
		}
	},
}

func accelOrHeavy(p *Pass, j *workflowgraph.Job) bool {
	return p.Classifier != nil && (p.Classifier.IsGPU(j) || p.Classifier.IsHeavy(j))
}

func anyAccelOrHeavy(p *Pass, w *workflowgraph.Workflow, ids []string) bool {
	for _, id := range ids {
		if j := w.Job(id); j != nil && accelOrHeavy(p, j) {
			return true
		}
	}
	return false
}

// condText is a job's if: as written, on one line and not too long.
func condText(j *workflowgraph.Job) string {
	if j == nil || j.If == nil {
		return ""
	}
	s := strings.Join(strings.Fields(j.If.Raw), " ")
	if r := []rune(s); len(r) > 120 {
		s = string(r[:117]) + "..."
	}
	return "`" + s + "`"
}

// at is a job's id with the line of its if: (or of its key).
func at(j *workflowgraph.Job) string {
	line, _ := condPos(j)
	return fmt.Sprintf("%s (line %d)", j.ID, line)
}

func neverRunsMessage(w *workflowgraph.Workflow, j *workflowgraph.Job, pr reach.Proof, triggers []string) string {
	on := "on every trigger of this workflow (" + strings.Join(triggers, ", ") + ")"
	const gate = "it has no status check, so it runs only when every ancestor ran and succeeded"
	other, third := w.Job(pr.Other), w.Job(pr.Third)
	switch {
	case pr.Kind == reach.Own:
		return fmt.Sprintf("%s never runs: its if: %s is false %s", j.ID, condText(j), on)
	case pr.Kind == reach.AncestorNeverSucceeds && other != nil:
		return fmt.Sprintf("%s never runs: %s, but %s runs only when one of its own ancestors did not succeed: its if: %s is false when they all succeed",
			j.ID, gate, at(other), condText(other))
	case pr.Kind == reach.Conflict && other != nil:
		return fmt.Sprintf("%s never runs: %s, and %s %s is skipped whenever %s can run: %s and %s cannot both hold",
			j.ID, gate, on, at(other), at(j), condText(other), condText(j))
	case pr.Kind == reach.Pair && other != nil && third != nil:
		return fmt.Sprintf("%s never runs: %s, and %s and %s never run in the same run: %s and %s cannot both hold %s",
			j.ID, gate, at(other), at(third), condText(other), condText(third), on)
	}
	return fmt.Sprintf("%s never runs: %s, and no trigger of this workflow (%s) lets it and all of its ancestors run together", j.ID, gate, strings.Join(triggers, ", "))
}
