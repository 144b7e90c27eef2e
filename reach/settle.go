package reach

import (
	"slices"
	"strings"

	"github.com/cicheck/cicheck/simulate"
	"github.com/cicheck/cicheck/workflowgraph"
)

// Settle decides the verdicts simulate leaves unknown for jobs that never
// run on any trigger of w: skipped, whatever the facts the scenario does
// not give. It applies to a scenario on one of w's own triggers (event ""
// means not given) that sets none of the facts the proofs range over (a
// hypothetical ref or input may lie outside the triggers' filters).
func Settle(w *workflowgraph.Workflow, sc simulate.Scenario, vs []simulate.Verdict) []simulate.Verdict {
	return SettleWith(func() Result { return Analyze(w) }, w, sc, vs)
}

// SettleWith is Settle with the analysis of w given (computed on first
// need), for a caller that settles many scenarios of one workflow.
func SettleWith(analyze func() Result, w *workflowgraph.Workflow, sc simulate.Scenario, vs []simulate.Verdict) []simulate.Verdict {
	if len(sc.Inputs) > 0 || w == nil || w.AST == nil {
		return vs
	}
	for k := range sc.Set {
		if k = strings.ToLower(k); modelled(k) || holder(k) || strings.HasPrefix(k, "inputs.") || strings.HasPrefix(k, "github.event.inputs") {
			return vs
		}
	}
	if sc.Event != "" && !slices.ContainsFunc(triggers(w.AST), func(t trigger) bool { return strings.EqualFold(t.event, sc.Event) }) {
		return vs
	}
	res := analyze()
	if len(res.Proofs) == 0 {
		return vs
	}
	why := map[string]string{}
	for _, p := range res.Proofs {
		why[strings.ToLower(p.Job)] = "never runs on any trigger of this workflow (" + strings.Join(res.Triggers, ", ") + "): see job-never-runs"
		for _, q := range p.Parked {
			why[strings.ToLower(q)] = "never runs: it needs " + p.Job + ", which never runs on any trigger of this workflow, and has no status check"
		}
	}
	out := slices.Clone(vs)
	for i, v := range out {
		if r, ok := why[strings.ToLower(v.ID)]; ok && v.Verdict == simulate.VerdictUnknown {
			out[i].Verdict, out[i].Result, out[i].Reason = simulate.VerdictSkip, simulate.Skipped, r
		}
	}
	return out
}
