package simulate

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/cicheck/cicheck/internal/textdist"
	"github.com/cicheck/cicheck/workflowgraph"
)

// Spec is a scenario as a user writes it on the command line: job names
// (JOB, JOB[k=v,...] for matrix legs, CALLER/INNER for a job of a called
// local workflow) and KEY=VALUE facts.
type Spec struct {
	Fail, Skip, Cancel []string
	CancelRun          bool
	Event              string
	Labels             []string // none given: unknown
	Inputs             []string // K=V
	Outputs            []string // JOB.NAME=V
	Set                []string // dotted.path=V
}

// BuildScenario resolves spec against w (file names it in errors): every
// job, leg and output must exist, so a typo is an error naming what
// exists, never a scenario about nothing.
func BuildScenario(w *workflowgraph.Workflow, file string, spec Spec) (Scenario, error) {
	var err error
	sc := Scenario{Event: spec.Event, Cancelled: spec.CancelRun, Labels: spec.Labels,
		Outcomes: map[string]Result{}, Results: map[string]Result{}}
	if len(spec.Labels) == 0 {
		sc.Labels = nil
	}
	jobID := func(flag, id string) (string, bool) {
		if j := w.Job(id); j != nil {
			return j.ID, true
		}
		ids := make([]string, len(w.Jobs))
		for i, j := range w.Jobs {
			ids[i] = j.ID
		}
		slices.SortFunc(ids, workflowgraph.CompareIDs) // as GitHub matches them, whatever their case
		err = fmt.Errorf("--%s: %s has no job %q%s (jobs: %s)", flag, file, id, didYouMean(id, ids), strings.Join(ids, ", "))
		return "", false
	}
	// CALLER/INNER: a job of the local reusable workflow CALLER calls.
	innerID := func(flag, arg string) (string, bool) {
		caller, inner, _ := strings.Cut(arg, "/")
		c, ok := jobID(flag, caller)
		if !ok {
			return "", false
		}
		cj := w.Job(c)
		if cj.Callee == nil {
			err = fmt.Errorf("--%s %q: job %s does not call a local reusable workflow cicheck can read", flag, arg, c)
			return "", false
		}
		ij := cj.Callee.Job(inner)
		if ij == nil {
			var ids []string
			for _, j := range cj.Callee.Jobs {
				ids = append(ids, j.ID)
			}
			slices.SortFunc(ids, workflowgraph.CompareIDs)
			err = fmt.Errorf("--%s %q: %s has no job %q%s (jobs: %s)", flag, arg, cj.Uses, inner, didYouMean(inner, ids), strings.Join(ids, ", "))
			return "", false
		}
		return c + "/" + ij.ID, true
	}
	// JOB or JOB[k=v,...]: a job, or the matrix legs with those values.
	outcome := func(flag, arg string, result Result) bool {
		if strings.Contains(arg, "/") && !strings.Contains(arg, "[") {
			id, ok := innerID(flag, arg)
			if ok {
				sc.Outcomes[id] = result
			}
			return ok
		}
		id, sel, isLeg := strings.Cut(arg, "[")
		j, ok := jobID(flag, id)
		if !ok {
			return false
		}
		if !isLeg {
			sc.Outcomes[j] = result
			return true
		}
		legSel, perr := ParseLegSelector(strings.TrimSuffix(sel, "]"))
		if perr == nil && !strings.HasSuffix(sel, "]") {
			perr = fmt.Errorf("missing ]")
		}
		if perr != nil {
			err = fmt.Errorf("--%s %q: %w (want JOB[key=value,...])", flag, arg, perr)
			return false
		}
		legs, static := workflowgraph.Legs(w.Job(j))
		if !static || len(legs) == 0 {
			err = fmt.Errorf("--%s %q: job %s has no static matrix, so its legs cannot be named", flag, arg, j)
			return false
		}
		matched := false
		var all []string
		for _, l := range legs {
			matched = matched || l.Matches(legSel)
			all = append(all, l.String())
		}
		if !matched {
			err = fmt.Errorf("--%s %q: no leg of %s has those values%s (legs: %s)", flag, arg, j, legHint(legs, legSel), strings.Join(all, "; "))
			return false
		}
		if sc.LegOutcomes == nil {
			sc.LegOutcomes = map[string][]LegOutcome{}
		}
		sc.LegOutcomes[j] = append(sc.LegOutcomes[j], LegOutcome{Select: legSel, Outcome: result})
		return true
	}
	for _, id := range spec.Fail {
		if !outcome("fail", id, Failure) {
			return sc, err
		}
	}
	for _, id := range spec.Cancel {
		if !outcome("cancel", id, Cancelled) {
			return sc, err
		}
	}
	for _, id := range spec.Skip {
		if strings.Contains(id, "/") {
			inner, ok := innerID("skip", id)
			if !ok {
				return sc, err
			}
			sc.Results[inner] = Skipped
			continue
		}
		j, ok := jobID("skip", id)
		if !ok {
			return sc, err
		}
		sc.Results[j] = Skipped
	}
	kv := func(flag, s string) (string, string, bool) {
		k, v, ok := strings.Cut(s, "=")
		if !ok || k == "" {
			err = fmt.Errorf("--%s %q: want KEY=VALUE", flag, s)
			return "", "", false
		}
		return k, v, true
	}
	for _, s := range spec.Inputs {
		k, v, ok := kv("input", s)
		if !ok {
			return sc, err
		}
		if sc.Inputs == nil {
			sc.Inputs = map[string]string{}
		}
		sc.Inputs[k] = v
	}
	for _, s := range spec.Set {
		k, v, ok := kv("set", s)
		if !ok {
			return sc, err
		}
		if sc.Set == nil {
			sc.Set = map[string]string{}
		}
		sc.Set[k] = v
	}
	for _, s := range spec.Outputs {
		k, v, ok := kv("output", s)
		if !ok {
			return sc, err
		}
		id, name, ok := strings.Cut(k, ".")
		if !ok || name == "" {
			return sc, fmt.Errorf("--output %q: want JOB.NAME=VALUE", s)
		}
		var j string
		if strings.Contains(id, "/") {
			// CALLER/INNER.NAME: an output of a job of a called workflow.
			if j, ok = innerID("output", id); !ok {
				return sc, err
			}
		} else if j, ok = jobID("output", id); !ok {
			return sc, err
		}
		// An undeclared output is never set (dependents read null); a
		// caller's outputs come from the called workflow, so any name goes.
		if job := w.Job(j); job != nil && job.Uses == "" {
			declared := make([]string, 0, len(job.Outputs))
			found := false
			for o := range job.Outputs {
				declared = append(declared, strings.ToLower(o))
				found = found || strings.EqualFold(o, name)
			}
			if !found {
				sort.Strings(declared)
				have := "it declares none"
				if len(declared) > 0 {
					have = "outputs: " + strings.Join(declared, ", ")
				}
				return sc, fmt.Errorf("--output: job %s declares no output %q (%s)", j, name, have)
			}
		}
		if sc.Outputs == nil {
			sc.Outputs = map[string]map[string]string{}
		}
		if sc.Outputs[j] == nil {
			sc.Outputs[j] = map[string]string{}
		}
		sc.Outputs[j][strings.ToLower(name)] = v
	}

	return sc, nil
}

// didYouMean is "; did you mean "NAME"?" for the name nearest s, if one
// is near enough to be a typo.
func didYouMean(s string, names []string) string {
	if m := textdist.Closest(s, names); m != "" {
		return fmt.Sprintf("; did you mean %q?", m)
	}
	return ""
}

// legHint names what in a leg selector no leg has: a matrix key it lacks
// or a value no leg gives that key, with the nearest one.
func legHint(legs []workflowgraph.Leg, sel map[string]string) string {
	values := map[string][]string{}
	for _, l := range legs {
		for i, k := range l.Keys {
			if !slices.Contains(values[k], l.Values[i]) {
				values[k] = append(values[k], l.Values[i])
			}
		}
	}
	for _, k := range slices.Sorted(maps.Keys(sel)) {
		vs, ok := values[k]
		if !ok {
			return fmt.Sprintf(": the matrix has no key %q%s", k, didYouMean(k, slices.Sorted(maps.Keys(values))))
		}
		if !slices.Contains(vs, sel[k]) {
			slices.Sort(vs)
			return fmt.Sprintf(": no leg has %s=%s%s", k, sel[k], didYouMean(sel[k], vs))
		}
	}
	return ""
}

// ParseLegSelector reads k=v,k=v (keys case-insensitive, values as
// written).
func ParseLegSelector(s string) (map[string]string, error) {
	out := map[string]string{}
	for _, part := range strings.Split(s, ",") {
		k, v, ok := strings.Cut(strings.TrimSpace(part), "=")
		if !ok || strings.TrimSpace(k) == "" {
			return nil, fmt.Errorf("%q is not key=value", part)
		}
		out[strings.ToLower(strings.TrimSpace(k))] = strings.TrimSpace(v)
	}
	return out, nil
}
