package simulate

import (
	"strings"

	"github.com/rhysd/actionlint"

	"github.com/cicheck/cicheck/expr"
	"github.com/cicheck/cicheck/workflowgraph"
)

// innerScenario is the scenario for the workflow that caller job j calls,
// when sc names jobs inside it (CALLER/INNER in Outcomes, Results or
// Outputs): those
// entries, the rest of the outcomes defaulting as in sc, the same event and
// contexts (a called workflow sees the caller's github context), and no
// run-wide cancel unless sc has one, and the caller's static with: values
// as inputs. ok is false when sc names none.
func innerScenario(sc Scenario, caller *workflowgraph.Job) (Scenario, bool) {
	prefix := strings.ToLower(caller.ID) + "/" // the keys are folded below
	inner := Scenario{DefaultOutcome: sc.DefaultOutcome, Cancelled: sc.Cancelled, Event: sc.Event, Labels: sc.Labels,
		Set: sc.Set, VerdictsOnly: sc.VerdictsOnly, Outcomes: map[string]Result{}, Results: map[string]Result{}, calledFrom: true}
	named := false
	for k, v := range sc.Outcomes {
		if id, ok := strings.CutPrefix(strings.ToLower(k), prefix); ok {
			inner.Outcomes[id], named = v, true
		}
	}
	for k, v := range sc.Results {
		if id, ok := strings.CutPrefix(strings.ToLower(k), prefix); ok {
			inner.Results[id], named = v, true
		}
	}
	for k, v := range sc.Outputs {
		if id, ok := strings.CutPrefix(strings.ToLower(k), prefix); ok {
			if inner.Outputs == nil {
				inner.Outputs = map[string]map[string]string{}
			}
			inner.Outputs[id], named = v, true
		}
	}
	// The caller's with: values that are static become the inputs.
	for k, v := range caller.Callee.Inputs {
		if !strings.Contains(v, "${{") {
			if inner.Inputs == nil {
				inner.Inputs = map[string]string{}
			}
			inner.Inputs[k] = v
		}
	}
	return inner, named
}

// called simulates the local reusable workflow that caller job j calls and
// aggregates its jobs' results as GitHub reports the caller's: failure if
// a called job failed, else cancelled if one was cancelled, else unknown
// if one's result is, else success; when every called job was skipped,
// whether GitHub reports success or skipped is not documented: unknown.
func called(j *workflowgraph.Job, sc Scenario) (result Result, reason string, inner []Verdict) {
	inner = Run(j.Callee, sc)
	failed, cancelled, unknown, ran := "", "", "", false
	for _, v := range inner {
		switch v.Result {
		case Failure:
			if failed == "" {
				failed = v.ID
			}
		case Cancelled:
			if cancelled == "" {
				cancelled = v.ID
			}
		case Unknown:
			if unknown == "" {
				unknown = v.ID
			}
		}
		ran = ran || v.Result != Skipped
	}
	switch {
	case failed != "":
		return Failure, "called job " + failed + " failed", inner
	case cancelled != "":
		return Cancelled, "called job " + cancelled + " was cancelled", inner
	case unknown != "":
		return Unknown, "called job " + unknown + "'s result is not known", inner
	case !ran:
		return Unknown, "every called job was skipped, and whether GitHub then reports the caller as success or skipped is not documented", inner
	}
	return Success, "every called job succeeded or was skipped", inner
}

// callerOutputs evaluates the called workflow's on.workflow_call.outputs
// (`value: ${{ jobs.X.outputs.Y }}`) over the called jobs' results and
// outputs in the scenario: what needs.<caller>.outputs.<name> reads. A
// value that cannot be told stays unknown.
func callerOutputs(j *workflowgraph.Job, sc Scenario, inner []Verdict) map[string]expr.Value {
	call, ok := j.Callee.AST.FindWorkflowCallEvent()
	if !ok || call == nil {
		return nil
	}
	st := &state{s: New(j.Callee), sc: sc, given: foldKeys(sc.Outputs)}
	jobs := map[string]expr.Value{}
	for _, v := range inner {
		cj := j.Callee.Job(v.ID)
		if cj == nil {
			continue
		}
		// jobs.X is read case-insensitively: the keys are lower-cased.
		jobs[strings.ToLower(v.ID)] = object(map[string]expr.Value{"result": expr.String(string(v.Result)), "outputs": st.jobOutputs(cj, v.Result)})
	}
	env := &expr.Env{Contexts: map[string]expr.Value{"jobs": object(jobs)}, Success: expr.Unknown("not known"),
		Failure: expr.Unknown("not known"), Cancelled: expr.Bool(false)}
	out := map[string]expr.Value{}
	for name, o := range call.Outputs {
		if o == nil || o.Value == nil {
			continue
		}
		v := expr.Unknown("needs." + j.ID + ".outputs." + name + " is not known")
		if nodes := templateExprs(o.Value.Value); len(nodes) == 1 {
			if r := expr.Eval(nodes[0], env); r.Kind != expr.KindError {
				v = r
			}
		}
		out[strings.ToLower(name)] = v
	}
	return out
}

// templateExprs parses a value that is exactly one ${{ }} expression.
func templateExprs(s string) []actionlint.ExprNode {
	t := strings.TrimSpace(s)
	if !strings.HasPrefix(t, "${{") || !strings.HasSuffix(t, "}}") || strings.Count(t, "${{") != 1 {
		return nil
	}
	n, err := expr.Parse(t[3 : len(t)-2])
	if err != nil {
		return nil
	}
	return []actionlint.ExprNode{n}
}
