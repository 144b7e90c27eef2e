package checks

import (
	"fmt"
	"slices"
	"strings"

	"github.com/cicheck/cicheck/expr"
	"github.com/cicheck/cicheck/finding"
	"github.com/cicheck/cicheck/internal/plural"
	"github.com/cicheck/cicheck/workflowgraph"
)

// JobDisabled reports a job parked with a constant-false `if:` (the usual
// way to switch a job off), and the jobs it parks with it. actionlint's
// if-cond error for the constant ("remove the if: section") is replaced by
// this notice: the condition is deliberate.
var JobDisabled = &Rule{
	ID:       "job-disabled",
	Severity: finding.Notice,
	Doc:      "a job's if: is always false, so the job is disabled, and so is every job that needs it without a status check",
	Help: "`if: false` (or any condition that is false whatever the run: `${{ false }}`, `1 == 2`) parks a job: GitHub skips it on every run. " +
		"cicheck says so as a notice, on the condition, instead of actionlint's error asking to remove it.\n\n" +
		"A job that needs a disabled job, directly or through others, and has no status check other than `success()` (`always()`, `!cancelled()`, `failure()`, …) " +
		"is gated on the `success()` of its whole ancestor closure, so it is skipped too: it is reported as parked, naming the disabled job. " +
		"A job with such a status check may still run and is not reported.",
	Bad: `on: push
jobs:
  flaky-e2e:
    if: false
    runs-on: ubuntu-latest
    steps: [{run: make e2e}]
  report:
    needs: flaky-e2e
    runs-on: ubuntu-latest
    steps: [{run: make report}]
`,
	Good: `on: push
jobs:
  flaky-e2e:
    if: github.event_name == 'workflow_dispatch'
    runs-on: ubuntu-latest
    steps: [{run: make e2e}]
  report:
    needs: flaky-e2e
    if: ${{ !cancelled() }}
    runs-on: ubuntu-latest
    steps: [{run: make report}]
`,
	Run: func(p *Pass) {
		w := p.Workflow
		var disabled []*workflowgraph.Job
		for _, j := range w.Jobs {
			if alwaysFalse(j.If) {
				disabled = append(disabled, j)
			}
		}
		if len(disabled) == 0 {
			return
		}
		parked := map[string][]string{} // disabled job -> the jobs it parks, in file order
		parker := parkedBy(w, disabled)
		for _, d := range w.Jobs {
			if alwaysFalse(d.If) || mayRunAfterSkip(d.If) {
				continue
			}
			j, via := parker(d)
			if j == nil {
				continue
			}
			through := ""
			if via != "" {
				through = fmt.Sprintf(" (through %s)", via)
			}
			gate := "has no status check, so the implicit success() skips it too"
			if d.If.HasStatusFunc() {
				gate = "is gated on success(), which is false with it skipped"
			}
			p.Reportf(d, 0, 0, "%s never runs while %s is disabled: it needs %s%s and %s", d.ID, j.ID, j.ID, through, gate)
			parked[j.ID] = append(parked[j.ID], d.ID)
		}
		for _, j := range disabled {
			msg := fmt.Sprintf("%s is disabled: its if: (%s) is always false, so it never runs", j.ID, strings.Join(strings.Fields(j.If.Raw), " "))
			if ps := parked[j.ID]; len(ps) > 0 {
				msg += ", nor " + plural.Count(len(ps), "job") + " it parks: " + strings.Join(ps, ", ")
			}
			p.Reportf(j, j.If.Line, j.If.Column, "%s", msg)
		}
	},
}

// parkedBy returns a function giving, for a job d, the first disabled job
// (in file order) among d's ancestors, or nil, and the first direct need
// of d it parks d through ("" when it is a direct need itself).
//
// Without a cycle each job's first disabled ancestor is the least, over
// its needs n, of n's own and n itself if disabled: one pass in
// dependency order, and n parks d through it exactly when n's first is
// d's. (Listing every job's ancestors, as the cyclic case still does, made
// a chain of n jobs behind an if: false n² in time and memory.)
func parkedBy(w *workflowgraph.Workflow, disabled []*workflowgraph.Job) func(d *workflowgraph.Job) (*workflowgraph.Job, string) {
	if len(w.Cycles) > 0 {
		return parkedByScan(w, disabled)
	}
	index := make(map[string]int, len(disabled))
	for i, j := range disabled {
		index[j.ID] = i
	}
	first := make(map[string]int, len(w.Jobs)) // -1: no disabled ancestor
	for _, id := range w.TopoOrder() {
		m := -1
		for _, n := range w.Job(id).Needs {
			nj := w.Job(n)
			if nj == nil {
				continue
			}
			c := first[nj.ID]
			if i, ok := index[nj.ID]; ok && (c < 0 || i < c) {
				c = i
			}
			if c >= 0 && (m < 0 || c < m) {
				m = c
			}
		}
		first[id] = m
	}
	return func(d *workflowgraph.Job) (*workflowgraph.Job, string) {
		k, ok := first[d.ID]
		if !ok || k < 0 {
			return nil, ""
		}
		j := disabled[k]
		if slices.Contains(d.Needs, j.ID) {
			return j, ""
		}
		for _, n := range d.Needs {
			if nj := w.Job(n); nj != nil && first[nj.ID] == k {
				return j, n
			}
		}
		return j, "" // not reached: some need leads to j
	}
}

// parkedByScan is parkedBy by listing ancestors: for a graph with a
// cycle, which has no dependency order.
func parkedByScan(w *workflowgraph.Workflow, disabled []*workflowgraph.Job) func(d *workflowgraph.Job) (*workflowgraph.Job, string) {
	return func(d *workflowgraph.Job) (*workflowgraph.Job, string) {
		anc := w.Ancestors(d.ID)
		for _, j := range disabled {
			if j.ID == d.ID || !slices.Contains(anc, j.ID) {
				continue
			}
			via := ""
			for _, n := range d.Needs {
				if n == j.ID {
					via = ""
					break
				}
				if via == "" && slices.Contains(w.Ancestors(n), j.ID) {
					via = n
				}
			}
			return j, via
		}
		return nil, ""
	}
}

// mayRunAfterSkip: the condition calls a status function other than
// success() (always(), failure(), cancelled(), !cancelled()), so the job
// may run although a job it needs was skipped. success(), written or
// implicit, is false then.
func mayRunAfterSkip(c *workflowgraph.Cond) bool {
	return slices.ContainsFunc(c.StatusFuncs(), func(f string) bool { return f != "success" })
}

// alwaysFalse: the condition is false whatever the run (it reads nothing
// the run decides, or what it reads cannot make it true).
func alwaysFalse(c *workflowgraph.Cond) bool {
	if c == nil || c.Expr == nil || c.ParseError != "" || c.AlwaysTrue {
		return false
	}
	return expr.Eval(c.Expr, nil).Truthy() == expr.No
}
