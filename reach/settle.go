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
// means not given), not to a hypothetical event w does not run on.
func Settle(w *workflowgraph.Workflow, event string, vs []simulate.Verdict) []simulate.Verdict {
	res := Analyze(w)
	if len(res.Proofs) == 0 {
		return vs
	}
	if event != "" && (w.AST == nil || !slices.ContainsFunc(triggers(w.AST), func(t trigger) bool { return strings.EqualFold(t.event, event) })) {
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
