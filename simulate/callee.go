package simulate

import (
	"strings"

	"github.com/cicheck/cicheck/workflowgraph"
)

// innerScenario is the scenario for the workflow that caller job j calls,
// when sc names jobs inside it (CALLER/INNER in Outcomes or Results): those
// entries, the rest of the outcomes defaulting as in sc, the same event and
// contexts (a called workflow sees the caller's github context), and no
// run-wide cancel unless sc has one, and the caller's static with: values
// as inputs. ok is false when sc names none.
func innerScenario(sc Scenario, caller *workflowgraph.Job) (Scenario, bool) {
	prefix := caller.ID + "/"
	inner := Scenario{DefaultOutcome: sc.DefaultOutcome, Cancelled: sc.Cancelled, Event: sc.Event, Labels: sc.Labels,
		Set: sc.Set, VerdictsOnly: sc.VerdictsOnly, Outcomes: map[string]string{}, Results: map[string]string{}, calledFrom: true}
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
func called(j *workflowgraph.Job, sc Scenario) (result, reason string, inner []Verdict) {
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
