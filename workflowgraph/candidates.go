package workflowgraph

import (
	"encoding/json"
	"strings"

	"github.com/rhysd/actionlint"
)

// Candidate is a label a symbolic runs-on may take, and why cicheck
// thinks so: always a value the expression can evaluate to.
type Candidate struct {
	Label string
	Why   string
}

// runnerCandidates finds, for each job whose runs-on stays symbolic, the
// labels it may take: the string literals in value position of its
// expressions (the arms of `||` and `&&`, rows of fromJSON over a
// literal), the same in the job output it reads through needs.<id>.outputs.
func runnerCandidates(w *Workflow, cache exprCache) {
	for _, j := range w.Jobs {
		if j.Callee != nil {
			continue // the union of its called jobs' candidates, found in their workflow
		}
		for _, sym := range j.Runner.Symbolic {
			for _, n := range parseEmbedded(strings.TrimPrefix(sym, "group: "), cache) {
				j.Runner.Candidates = append(j.Runner.Candidates, valueCandidates(w, n, cache, 0)...)
			}
		}
	}
}

// valueCandidates walks the positions of n whose value can become the
// expression's value.
func valueCandidates(w *Workflow, n actionlint.ExprNode, cache exprCache, depth int) []Candidate {
	if depth > 4 {
		return nil
	}
	switch n := n.(type) {
	case *actionlint.StringNode:
		var out []Candidate
		v := strings.TrimSpace(n.Value)
		if strings.HasPrefix(v, "[") { // a JSON list of labels, as fromJSON would read it
			var ls []string
			if json.Unmarshal([]byte(v), &ls) == nil {
				for _, l := range ls {
					out = append(out, Candidate{Label: l, Why: "listed in " + n.Value})
				}
				return out
			}
		}
		return []Candidate{{Label: n.Value, Why: "a literal the expression can evaluate to"}}
	case *actionlint.LogicalOpNode:
		return append(valueCandidates(w, n.Left, cache, depth+1), valueCandidates(w, n.Right, cache, depth+1)...)
	case *actionlint.FuncCallNode:
		if strings.EqualFold(n.Callee, "fromjson") && len(n.Args) == 1 {
			return valueCandidates(w, n.Args[0], cache, depth+1)
		}
	case *actionlint.ObjectDerefNode:
		name := n.Property
		var out []Candidate
		if o, ok := n.Receiver.(*actionlint.ObjectDerefNode); ok && strings.EqualFold(o.Property, "outputs") {
			if need, ok := o.Receiver.(*actionlint.ObjectDerefNode); ok {
				if v, ok := need.Receiver.(*actionlint.VariableNode); ok && strings.EqualFold(v.Name, "needs") {
					if x := w.Job(strings.ToLower(need.Property)); x != nil {
						for _, e := range parseEmbedded(x.Outputs[strings.ToLower(name)], cache) {
							for _, c := range valueCandidates(w, e, cache, depth+1) {
								c.Why = "set by job " + x.ID + "'s output " + name + ": " + c.Why
								out = append(out, c)
							}
						}
					}
				}
			}
		}
		// The name of what is read (vars.GB200_RUNNER,
		// inputs.non_nvidia_runner_prefix) is no evidence: only values are.
		return out
	}
	return nil
}

// derefPath renders a.b.c for a chain of property accesses.
func derefPath(n actionlint.ExprNode) string {
	switch n := n.(type) {
	case *actionlint.VariableNode:
		return n.Name
	case *actionlint.ObjectDerefNode:
		return derefPath(n.Receiver) + "." + n.Property
	}
	return "…"
}
