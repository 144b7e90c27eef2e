package simulate

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/rhysd/actionlint"

	"github.com/cicheck/cicheck/expr"
)

// Decider is a fact the scenario does not give that undecided jobs wait
// on, and the command-line flag of `cicheck simulate` that gives it.
type Decider struct {
	// Fact is the reference as the condition reads it, e.g.
	// "github.event.action" or "needs.plan.outputs.run_gpu".
	Fact string `json:"fact"`
	// Flag gives it, e.g. "--set github.event.action=…".
	Flag string `json:"flag"`
}

// Undecided is a job the scenario leaves undecided, with what would
// decide it. Deciders is empty when no flag can: what is unknown is then
// the outcome of the failure itself (a failed job's outputs may or may
// not have been set), said in Reason.
type Undecided struct {
	Job      string    `json:"job"`
	Deciders []Decider `json:"deciders"`
	Reason   string    `json:"reason,omitempty"`
}

// Undecided names, for each job of ids that sc leaves undecided (and for
// each of ids, since a row's failure can leave a job undecided that sc
// decides), the facts its condition and its undecided ancestors' wait on
// and the flag that gives each. Jobs come in dependency order.
func (sim *Sim) Undecided(sc Scenario, ids []string) []Undecided {
	if sim.w == nil || len(ids) == 0 {
		return nil
	}
	sc.VerdictsOnly = true
	st := sim.newState(sc)
	verdicts := make([]Verdict, len(sim.order))
	for i := range sim.order {
		verdicts[i] = st.decide(i)
	}
	// Each job's own missing facts, from its condition under its env. A
	// job the scenario decides may still wait on a fact in a row (a
	// failure() branch that reads vars), so every job's are computed; an
	// ancestor's count only when the scenario leaves it undecided.
	own := make([][]Decider, len(sim.order))
	for i := range sim.order {
		if sim.conds[i] != nil {
			own[i] = missingFacts(sim.conds[i].root, st.env(i), sc)
		}
	}
	want := map[string]bool{}
	for _, id := range ids {
		want[id] = true
	}
	var out []Undecided
	for i, id := range sim.order {
		if !want[id] {
			continue
		}
		seen := map[string]bool{}
		var ds []Decider
		add := func(p int) {
			for _, d := range own[p] {
				if !seen[d.Flag] {
					seen[d.Flag] = true
					ds = append(ds, d)
				}
			}
		}
		// The job and its ancestors, nearest first.
		visited := map[int]bool{i: true}
		queue := []int{i}
		for len(queue) > 0 {
			p := queue[0]
			queue = queue[1:]
			if p == i || verdicts[p].Verdict == VerdictUnknown {
				add(p)
			}
			for _, q := range sim.needs[p] {
				if !visited[q] {
					visited[q] = true
					queue = append(queue, q)
				}
			}
		}
		sort.SliceStable(ds, func(a, b int) bool { return flagRank(ds[a].Flag) < flagRank(ds[b].Flag) })
		u := Undecided{Job: id, Deciders: ds}
		if len(ds) == 0 {
			u.Reason = "no flag decides it: it waits on the failure itself (a failed job may or may not have set its outputs before failing)"
			if verdicts[i].Verdict == VerdictUnknown {
				u.Reason = "no flag decides it: " + verdicts[i].Reason
			}
		}
		out = append(out, u)
	}
	return out
}

// flagRank orders deciders as a user gives them: the event first, then
// its facts, then inputs, then job outputs.
func flagRank(flag string) int {
	switch {
	case strings.HasPrefix(flag, "--event"):
		return 0
	case strings.HasPrefix(flag, "--set github.event"), strings.HasPrefix(flag, "--label"):
		return 1
	case strings.HasPrefix(flag, "--set"):
		return 2
	case strings.HasPrefix(flag, "--input"):
		return 3
	}
	return 4
}

// missingFacts lists the context references of n that are unknown under
// env and that a flag can give, with that flag.
func missingFacts(n actionlint.ExprNode, env *expr.Env, sc Scenario) []Decider {
	var refs []actionlint.ExprNode
	actionlint.VisitExprNode(n, func(node, parent actionlint.ExprNode, entering bool) {
		if !entering || !isRef(node) || isReceiver(node, parent) {
			return
		}
		refs = append(refs, node)
	})
	var out []Decider
	for _, r := range refs {
		v := expr.Eval(r, env)
		if v.Kind != expr.KindUnknown || strings.Contains(v.Why, "perhaps before setting") {
			continue
		}
		fact := expr.Render(r)
		if d, ok := deciderFor(fact, sc); ok && !slices.Contains(out, d) {
			out = append(out, d)
		}
	}
	return out
}

func isRef(n actionlint.ExprNode) bool {
	switch n.(type) {
	case *actionlint.VariableNode, *actionlint.ObjectDerefNode, *actionlint.ArrayDerefNode, *actionlint.IndexAccessNode:
		return true
	}
	return false
}

// isReceiver reports whether n is the object parent dereferences, so
// only whole references (github.event.action, not github.event) count.
func isReceiver(n, parent actionlint.ExprNode) bool {
	switch p := parent.(type) {
	case *actionlint.ObjectDerefNode:
		return p.Receiver == n
	case *actionlint.ArrayDerefNode:
		return p.Receiver == n
	case *actionlint.IndexAccessNode:
		return p.Operand == n
	}
	return false
}

// deciderFor maps a reference the scenario leaves unknown to its flag.
func deciderFor(fact string, sc Scenario) (Decider, bool) {
	lower := strings.ToLower(fact)
	parts := strings.Split(lower, ".")
	switch {
	case lower == "github.event_name" || (lower == "github.event" || strings.HasPrefix(lower, "github.event.")) && sc.Event == "":
		return Decider{Fact: "github.event_name", Flag: "--event EVENT"}, true
	case strings.HasPrefix(lower, "github.event.pull_request.labels"):
		return Decider{Fact: fact, Flag: "--label LABEL (the pull request's labels)"}, true
	case len(parts) >= 4 && parts[0] == "needs" && parts[2] == "outputs":
		job := strings.Split(fact, ".")[1]
		name := strings.Join(strings.Split(fact, ".")[3:], ".")
		return Decider{Fact: fact, Flag: fmt.Sprintf("--output %s.%s=…", job, name)}, true
	case len(parts) >= 2 && parts[0] == "inputs":
		return Decider{Fact: fact, Flag: fmt.Sprintf("--input %s=…", strings.SplitN(fact, ".", 2)[1])}, true
	case parts[0] == "github" || parts[0] == "vars":
		if len(parts) < 2 {
			return Decider{}, false
		}
		return Decider{Fact: fact, Flag: fmt.Sprintf("--set %s=…", fact)}, true
	}
	return Decider{}, false
}

// Describe says what sc assumes, for a reader of --each-failure: what is
// given and what is left unknown, with the flag that gives it.
func (sc Scenario) Describe() string {
	var parts []string
	if sc.Event == "" {
		parts = append(parts, "event unknown (--event)")
	} else {
		parts = append(parts, "event "+sc.Event)
	}
	if sc.Labels == nil {
		parts = append(parts, "labels unknown (--label)")
	} else {
		parts = append(parts, "labels "+strings.Join(sc.Labels, ", "))
	}
	kvs := func(m map[string]string) string {
		var xs []string
		for _, k := range sortedKeys(m) {
			xs = append(xs, k+"="+m[k])
		}
		return strings.Join(xs, ", ")
	}
	if len(sc.Inputs) > 0 {
		parts = append(parts, "inputs "+kvs(sc.Inputs))
	}
	if len(sc.Set) > 0 {
		parts = append(parts, "set "+kvs(sc.Set))
	}
	var outs []string
	for _, j := range sortedKeys(sc.Outputs) {
		for _, n := range sortedKeys(sc.Outputs[j]) {
			outs = append(outs, j+"."+n+"="+sc.Outputs[j][n])
		}
	}
	if len(outs) > 0 {
		parts = append(parts, "outputs "+strings.Join(outs, ", "))
	} else {
		parts = append(parts, "no job outputs given (--output)")
	}
	var forced []string
	for _, j := range sortedKeys(sc.Outcomes) {
		forced = append(forced, j+" "+string(sc.Outcomes[j]))
	}
	for _, j := range sortedKeys(sc.Results) {
		forced = append(forced, j+" "+string(sc.Results[j]))
	}
	if len(forced) > 0 {
		parts = append(parts, "also "+strings.Join(forced, ", "))
	}
	if sc.Cancelled {
		parts = append(parts, "the run cancelled")
	}
	return strings.Join(parts, "; ")
}
