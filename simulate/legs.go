package simulate

import (
	"strings"

	"github.com/cicheck/cicheck/workflowgraph"
)

// LegOutcome gives the matrix legs that match Select (every key=value of
// it) their own outcome.
type LegOutcome struct {
	Select  map[string]string
	Outcome Result
}

// LegVerdict is one matrix leg's result in a scenario that names legs.
type LegVerdict struct {
	Leg    string
	Result Result
	Reason string
}

// legs decides the legs of matrix job j, which runs, when the scenario
// names some of them: each leg's outcome (the named one, else the job's),
// continue-on-error per leg (a literal, or ${{ matrix.K }}), fail-fast
// (default true) cancelling the legs still running when one fails, and the
// job's result aggregated as GitHub does: failure if a leg failed (without
// continue-on-error), else cancelled if one was cancelled, else success
// (unknown when a leg's result is). Whether a leg that fail-fast cancels
// had finished first is a matter of timing: its result is cancelled|its own.
func (st *state) legs(j *workflowgraph.Job, named []LegOutcome, jobOutcome Result) (result Result, reason string, out []LegVerdict) {
	legs, ok := workflowgraph.Legs(j)
	switch {
	case !ok:
		return Unknown, "its matrix is not static, so its legs cannot be told apart", nil
	case len(legs) == 0:
		return Unknown, "it has no matrix, so it has no legs to name", nil
	}
	failFast, failFastKnown := true, true
	if s := j.AST.Strategy; s != nil && s.FailFast != nil {
		if s.FailFast.Expression != nil {
			failFastKnown = false
		} else {
			failFast = s.FailFast.Value
		}
	}
	coe := func(l workflowgraph.Leg) (bool, bool) {
		if j.ContinueOnErrorExpr == "" {
			return j.ContinueOnError, true
		}
		e := strings.TrimSpace(j.ContinueOnErrorExpr)
		e = strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(e, "${{"), "}}"))
		if k, ok := strings.CutPrefix(strings.ToLower(e), "matrix."); ok {
			if v, has := l.Get(k); has {
				return v == "true", true
			}
		}
		return false, false
	}
	type legState struct {
		leg     workflowgraph.Leg
		outcome Result
		why     string
	}
	states := make([]legState, len(legs))
	failed, unknown := false, false
	for i, l := range legs {
		o, why := jobOutcome, ""
		for _, n := range named {
			if l.Matches(n.Select) {
				o, why = n.Outcome, " (scenario)"
			}
		}
		if o == Failure {
			switch c, known := coe(l); {
			case !known:
				o, why = Unknown, " (fails; continue-on-error is an expression)"
			case c:
				o, why = Success, " (fails, but continue-on-error makes it count as success)"
			default:
				failed = true
			}
		}
		unknown = unknown || o == Unknown
		states[i] = legState{l, o, why}
	}
	cancelled := false
	for _, s := range states {
		r, why := s.outcome, s.why
		if failed && s.outcome != Failure {
			switch {
			case !failFastKnown:
				r, why = s.outcome+"|"+Cancelled, " (fail-fast is an expression: maybe cancelled)"
			case failFast && s.outcome != Cancelled:
				r, why = Cancelled+"|"+s.outcome, " (fail-fast cancels it if it is still running)"
			}
		}
		cancelled = cancelled || s.outcome == Cancelled
		out = append(out, LegVerdict{Leg: s.leg.String(), Result: r, Reason: strings.TrimPrefix(strings.TrimSuffix(strings.TrimPrefix(why, " ("), ")"), " ")})
	}
	switch {
	case failed:
		return Failure, "a leg failed", out
	case cancelled:
		return Cancelled, "a leg was cancelled", out
	case unknown:
		return Unknown, "a leg's result is not known", out
	}
	return Success, "every leg succeeded", out
}
