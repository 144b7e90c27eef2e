package checks

import (
	"slices"
	"strings"

	"github.com/cicheck/cicheck/expr"
	"github.com/cicheck/cicheck/simulate"
	"github.com/cicheck/cicheck/workflowgraph"
)

// certainSkip is a bridge that is not a hypothesis: on every event that
// can run the job, the ancestor's own if: is false, so the ancestor is
// skipped and the job, gated on success() of its closure, never runs.
type certainSkip struct {
	A      string
	D      string
	Events []string
}

// triggerEvents lists the workflow's trigger events, sorted; nil when one
// of them is workflow_call (the caller's event is not known here).
func triggerEvents(w *workflowgraph.Workflow) []string {
	if w.AST == nil {
		return nil
	}
	var out []string
	for _, ev := range w.AST.On {
		name := strings.ToLower(ev.EventName())
		if name == "workflow_call" {
			return nil
		}
		if !slices.Contains(out, name) {
			out = append(out, name)
		}
	}
	slices.Sort(out)
	return out
}

// ownCondOn is a job's own if: (without the implicit success()) on event,
// with nothing else known.
func ownCondOn(j *workflowgraph.Job, event string) expr.Tri {
	if j.If == nil || j.If.Expr == nil || j.If.ParseError != "" {
		return expr.Yes
	}
	ctx := simulate.Contexts(simulate.Scenario{Event: event})
	ctx["needs"] = expr.OpenObject(nil)
	env := &expr.Env{Contexts: ctx, Success: expr.Unknown("not known"), Failure: expr.Unknown("not known"), Cancelled: expr.Bool(false)}
	v := expr.Eval(j.If.Expr, env)
	if v.Kind == expr.KindError {
		return expr.Maybe
	}
	return v.Truthy()
}

// eventSkipper is a job whose own if: is false on some trigger events.
type eventSkipper struct {
	id     string
	events []string // the events on which it is certainly skipped
}

// skippers lists, in dependency order, the jobs whose own if: is false on
// some trigger event: computed once per workflow, one evaluation per (job,
// event), so the certainty check costs nothing on workflows without them.
func (g *gateAnalysis) skippers(events []string) []eventSkipper {
	if g.eventSkippers != nil {
		return *g.eventSkippers
	}
	var out []eventSkipper
	for _, id := range g.w.TopoOrder() {
		j := g.w.Job(id)
		if j.If == nil {
			continue
		}
		var on []string
		for _, e := range events {
			if ownCondOn(j, e) == expr.No {
				on = append(on, e)
			}
		}
		if len(on) > 0 {
			out = append(out, eventSkipper{id, on})
		}
	}
	g.eventSkippers = &out
	return out
}

// certainly finds, for a job without a status check, an ancestor A reached
// through a gated direct need D whose own if: is false on every trigger
// event on which the job's own if: can be true. D must run through A's
// skip, and no other direct need be skipped by it (as for any bridge).
func (g *gateAnalysis) certainly(j *workflowgraph.Job) *certainSkip {
	events := triggerEvents(g.w)
	if len(events) == 0 || !ungated(j) {
		return nil
	}
	sk := g.skippers(events)
	if len(sk) == 0 {
		return nil
	}
	var runs []string
	for _, e := range events {
		if ownCondOn(j, e) != expr.No {
			runs = append(runs, e)
		}
	}
	if len(runs) == 0 {
		return nil // never runs anyway: not this finding
	}
	f := g.forced()
	for _, d := range j.Needs {
		if !hasGate(g.w.Job(d)) {
			continue
		}
		for _, s := range sk {
			a := s.id
			if !f.IsAncestor(a, d) || slices.Contains(j.Needs, a) || !containsAll(s.events, runs) || f.Skipped(d, a, simulate.Skipped) {
				continue
			}
			through := true
			for _, n := range j.Needs {
				if n != d && f.Skipped(n, a, simulate.Skipped) {
					through = false
				}
			}
			if through {
				return &certainSkip{A: a, D: d, Events: runs}
			}
		}
	}
	return nil
}

func containsAll(set, xs []string) bool {
	for _, x := range xs {
		if !slices.Contains(set, x) {
			return false
		}
	}
	return true
}

// describeCertain renders the certain case for a message's opening.
func describeCertain(j string, c *certainSkip) string {
	return "on every " + strings.Join(c.Events, " and ") + " run " + c.A + "'s if: is false, so " + c.A +
		" is skipped and " + j + " never runs (" + c.D + " runs through the skip, but " + j +
		" has no status check, so GitHub gates it on success() of its whole closure)"
}
