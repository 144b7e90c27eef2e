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
// It works on the needs graph's strongly connected components, in
// dependency order: a component's first disabled ancestor is the least,
// over the components its jobs need, of their own disabled jobs and their
// first; a job on a cycle also has its own component's. A need n parks d
// through that job exactly when n's first is d's. (Listing every job's
// ancestors made a chain of n jobs behind an if: false n² in time and
// memory.)
func parkedBy(w *workflowgraph.Workflow, disabled []*workflowgraph.Job) func(d *workflowgraph.Job) (*workflowgraph.Job, string) {
	index := make(map[string]int, len(disabled))
	for i, j := range disabled {
		index[j.ID] = i
	}
	least := func(a, b int) int { // -1 is none
		if a < 0 || (b >= 0 && b < a) {
			return b
		}
		return a
	}
	comps := w.Components()
	compOf := make(map[string]int, len(w.Jobs))
	first := make([]int, len(comps)) // a component's first disabled ancestor
	own := make([]int, len(comps))   // its own first disabled job
	for c, ids := range comps {
		for _, id := range ids {
			compOf[id] = c
		}
		own[c], first[c] = -1, -1
		cyclic := false
		for _, id := range ids {
			if i, ok := index[id]; ok {
				own[c] = least(own[c], i)
			}
			for _, n := range w.Job(id).Needs {
				nj := w.Job(n)
				if nj == nil {
					continue
				}
				if p := compOf[nj.ID]; p != c {
					first[c] = least(first[c], least(own[p], first[p]))
				} else {
					cyclic = true
				}
			}
		}
		if cyclic {
			first[c] = least(first[c], own[c])
		}
	}
	firstOf := func(id string) int {
		if c, ok := compOf[id]; ok {
			return first[c]
		}
		return -1
	}
	return func(d *workflowgraph.Job) (*workflowgraph.Job, string) {
		k := firstOf(d.ID)
		if k < 0 {
			return nil, ""
		}
		j := disabled[k]
		if slices.Contains(d.Needs, j.ID) {
			return j, ""
		}
		for _, n := range d.Needs {
			if nj := w.Job(n); nj != nil && firstOf(nj.ID) == k {
				return j, n
			}
		}
		return j, "" // not reached: some need leads to j
	}
}

// mayRunAfterSkip: the condition calls a status function and success()
// is not one of its top-level conjuncts, so the job may run although a
// job it needs was skipped (always(), failure(), !cancelled(), and also
// !success(), which is true then). success() as a conjunct, written or
// implicit, is false then.
func mayRunAfterSkip(c *workflowgraph.Cond) bool {
	return c.HasStatusFunc() && !expr.SuccessConjunct(c.Expr)
}

// alwaysFalse: the condition is false whatever the run (it reads nothing
// the run decides, or what it reads cannot make it true).
func alwaysFalse(c *workflowgraph.Cond) bool {
	if c == nil || c.Expr == nil || c.ParseError != "" || c.AlwaysTrue {
		return false
	}
	return expr.Eval(c.Expr, nil).Truthy() == expr.No
}
