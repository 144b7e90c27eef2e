// Package reach proves, from a workflow's triggers and its jobs'
// conditions alone, that a job can never run: on no event the workflow
// runs on, for no value of its typed inputs, do the job's condition and the
// conditions of the ancestors its implicit success() requires hold
// together.
//
// The facts a trigger fixes are modelled: github.event_name, github.ref,
// github.base_ref, github.head_ref, github.event.action, inputs.* and
// github.event.inputs.*, each with the values the trigger allows (the
// branch and tag filters, the activity types, an input's type and
// options). Everything else (vars, secrets, labels, job outputs, the
// repository) is free. A string fact with infinitely many values is
// split into classes by the literals the conditions compare it with, so
// that one representative decides every comparison for its whole class;
// where a condition reads a fact in a way the classes do not decide, the
// answer is unknown. Conditions are evaluated by the one expression
// evaluator (package expr) in every combination of the facts' values.
// Only a proof is reported: a job whose condition is unknown in some
// combination may run.
package reach

import (
	"slices"
	"strings"

	"github.com/cicheck/cicheck/expr"
	"github.com/cicheck/cicheck/internal/bitset"
	"github.com/cicheck/cicheck/simulate"
	"github.com/cicheck/cicheck/workflowgraph"
)

// maxCombos bounds the combinations evaluated per workflow. Past it the
// fact with the most values is left free (unknown), which can only make
// more jobs possible: the bound costs findings, never soundness.
const maxCombos = 2048

// Kind says what makes a job impossible.
type Kind int

// Kinds of proof, from the narrowest explanation to the widest.
const (
	// Own: the job's own condition holds on no trigger.
	Own Kind = iota + 1
	// Conflict: the job's condition and an ancestor's never hold together,
	// and the job, with no status check, needs the ancestor to succeed.
	Conflict
	// AncestorNeverSucceeds: an ancestor's condition never holds when its
	// own ancestors succeed (failure(), say), and the job needs it to.
	AncestorNeverSucceeds
	// Pair: two ancestors the job needs never run in the same run.
	Pair
	// Closure: no trigger lets the job and all its ancestors run.
	Closure
)

// Proof is why one job can never run.
type Proof struct {
	Job  string
	Kind Kind
	// Other and Third are the ancestors the proof names (Conflict,
	// AncestorNeverSucceeds: Other; Pair: Other and Third).
	Other, Third string
	// Parked are the jobs below Job, without a status check, that never
	// run because Job does not (in file order).
	Parked []string
}

// Result is the analysis of one workflow.
type Result struct {
	// Proofs lists the jobs that never run for a reason of their own, in
	// file order. A job that never runs only because an ancestor does not
	// is in that ancestor's Parked.
	Proofs []Proof
	// Triggers describes each trigger the workflow runs on, as the proofs
	// read it ("push (branches: main)").
	Triggers []string
}

// value is a fact's value in one combination: the fact's dotted path,
// and a value, or the representative of a class of strings.
type value struct {
	path  string
	v     expr.Value
	class bool
}

// combo is one assignment: a trigger and a value index per fact.
type combo struct {
	trigger int
	vals    []value // by fact index
}

// Analyze proves which jobs of w can never run. A workflow without jobs,
// with a needs cycle among the jobs, or without triggers gives no proofs
// for the jobs concerned.
func Analyze(w *workflowgraph.Workflow) Result {
	var res Result
	if w == nil || w.AST == nil || len(w.Jobs) == 0 {
		return res
	}
	trigs := triggers(w.AST)
	if len(trigs) == 0 {
		return res
	}
	for _, t := range trigs {
		res.Triggers = append(res.Triggers, t.describe())
	}
	conds := make([]*condInfo, len(w.Jobs))
	uses := newUsage()
	status := false
	for i, j := range w.Jobs {
		conds[i] = inspect(j, uses)
		status = status || j.If != nil && j.If.HasStatusFunc()
	}
	if len(uses.paths()) == 0 && !status {
		// No condition reads a fact a trigger fixes, and none calls a
		// status function: each is constant (job-disabled's), reads a
		// need's result (dead-needs-result's) or is free.
		return res
	}
	combos := enumerate(trigs, uses)
	if len(combos) == 0 {
		return res
	}
	a := &analysis{w: w, combos: combos, conds: conds, byID: map[string]int{}}
	for i, j := range w.Jobs {
		a.byID[strings.ToLower(j.ID)] = i
	}
	a.run()
	res.Proofs = a.proofs()
	return res
}

// analysis holds, per job, the combinations in which it may run.
type analysis struct {
	w      *workflowgraph.Workflow
	combos []combo
	conds  []*condInfo
	byID   map[string]int
	// ownS: the job's condition may hold when every ancestor succeeded;
	// ownAny: it may hold whatever the ancestors did (for jobs with a
	// status check); chain: the job and its whole closure may run and
	// succeed together; may: the job may run.
	ownS, ownAny, chain, may []bitset.Set
	// disabled: the condition is false whatever the run (job-disabled's
	// territory, not this analysis'); byNeeds: it is false when every
	// need succeeded but not when their results are free, so what makes
	// it false is a need's result (dead-needs-result's territory).
	disabled, byNeeds []bool
	order             []int
	ctxs              []map[string]expr.Value // by combination, built once
}

func (a *analysis) run() {
	n := len(a.w.Jobs)
	a.ownS, a.ownAny = make([]bitset.Set, n), make([]bitset.Set, n)
	a.chain, a.may = make([]bitset.Set, n), make([]bitset.Set, n)
	a.disabled, a.byNeeds = make([]bool, n), make([]bool, n)
	cache := map[string][2]bitset.Set{}
	for i, j := range a.w.Jobs {
		c := a.conds[i]
		a.disabled[i] = c.disabled
		key := c.key(j)
		got, ok := cache[key]
		if !ok {
			got[0], got[1] = a.evalJob(j, c)
			cache[key] = got
		}
		a.ownS[i], a.ownAny[i] = got[0], got[1]
		a.byNeeds[i] = !c.status && a.ownS[i].Empty() && !got[1].Empty()
	}
	for _, id := range a.w.TopoOrder() {
		i, ok := a.byID[strings.ToLower(id)]
		if !ok {
			continue
		}
		a.order = append(a.order, i)
		ch := a.ownS[i].Clone()
		for _, p := range a.needs(i) {
			if p < 0 || a.chain[p] == nil {
				ch = nil // a need in a cycle or unknown: no claim
				break
			}
			ch.And(a.chain[p])
		}
		a.chain[i] = ch
		switch {
		case ch == nil:
			a.may[i] = bitset.Full(len(a.combos))
		case a.conds[i].status:
			a.may[i] = a.ownAny[i].Clone()
			for _, r := range a.conds[i].requires {
				if p, ok := a.byID[r]; ok && a.may[p] != nil {
					a.may[i].And(a.may[p])
				}
			}
		default:
			a.may[i] = ch
		}
	}
}

// needs are the indexes of i's direct needs that name jobs; an unknown
// need makes the job's chain unknown (nil).
func (a *analysis) needs(i int) []int {
	var out []int
	for _, n := range a.w.Jobs[i].Needs {
		p, ok := a.byID[strings.ToLower(n)]
		if !ok {
			return []int{-1}
		}
		out = append(out, p)
	}
	return out
}

// evalJob evaluates j's condition in every combination: once as GitHub
// does when every ancestor succeeded, once with the ancestors' results
// free (what a job with a status check may see).
func (a *analysis) evalJob(j *workflowgraph.Job, c *condInfo) (bitset.Set, bitset.Set) {
	n := len(a.combos)
	s, any := bitset.New(n), bitset.New(n)
	if c.unknown || j.If == nil {
		return bitset.Full(n), bitset.Full(n)
	}
	if a.ctxs == nil {
		a.ctxs = make([]map[string]expr.Value, n)
		for k, cb := range a.combos {
			a.ctxs[k] = contexts(cb)
		}
	}
	cond := simulate.Condition(j)
	// Combinations that agree on the facts the condition reads agree on
	// its value: evaluated once per distinct projection.
	seen := map[string][2]bool{}
	var needs expr.Value
	if c.needs {
		needs = needsOf(j)
	}
	for k, cb := range a.combos {
		key := c.project(cb)
		if got, ok := seen[key]; ok {
			if got[0] {
				s.Add(k)
			}
			if got[1] {
				any.Add(k)
			}
			continue
		}
		ctx := a.ctxs[k]
		loose := c.looseIn(cb)
		succCtx := ctx
		if c.needs {
			succCtx = withNeeds(ctx, needs)
		}
		var got [2]bool
		succ := &expr.Env{Contexts: succCtx, Success: expr.Bool(true), Failure: expr.Bool(false), Cancelled: expr.Bool(false)}
		if loose || cond.Eval(succ).Truthy() != expr.No {
			s.Add(k)
			got[0] = true
		}
		free := &expr.Env{Contexts: ctx}
		if !c.status {
			// The needs' results free, success() true: whether a need's
			// result, not a trigger, is what makes the condition false.
			free = &expr.Env{Contexts: ctx, Success: expr.Bool(true), Failure: expr.Bool(false), Cancelled: expr.Bool(false)}
		}
		if loose || cond.Eval(free).Truthy() != expr.No {
			any.Add(k)
			got[1] = true
		}
		seen[key] = got
	}
	return s, any
}

// needsOf is the needs context of the all-success run: each direct need
// of j succeeded; its outputs are free.
func needsOf(j *workflowgraph.Job) expr.Value {
	needs := expr.Object(nil)
	for _, n := range j.Needs {
		needs = needs.Set(n, expr.Object(map[string]expr.Value{"result": expr.String("success"), "outputs": expr.OpenObject(nil)}))
	}
	return needs
}

// withNeeds is ctx with the needs context.
func withNeeds(ctx map[string]expr.Value, needs expr.Value) map[string]expr.Value {
	out := make(map[string]expr.Value, len(ctx)+1)
	for k, v := range ctx {
		out[k] = v
	}
	out["needs"] = needs
	return out
}

// contexts builds the github and inputs contexts of one combination.
func contexts(cb combo) map[string]expr.Value {
	gh := expr.OpenObject(nil)
	inputs := expr.OpenObject(nil)
	for _, v := range cb.vals {
		if v.path == "" {
			continue
		}
		head, rest, _ := strings.Cut(v.path, ".")
		switch head {
		case "github":
			gh = gh.Set(rest, v.v)
		case "inputs":
			inputs = inputs.Set(rest, v.v)
		}
	}
	return map[string]expr.Value{"github": gh, "inputs": inputs}
}

// proofs explains every job that never runs for a reason of its own.
func (a *analysis) proofs() []Proof {
	var out []Proof
	root := make([]int, len(a.w.Jobs)) // the job a parked job is parked by, +1
	for _, i := range a.order {
		if !a.may[i].Empty() || a.disabled[i] || a.byNeeds[i] || a.parkedByDisabled(i) {
			continue
		}
		if a.conds[i].status {
			if r := a.requiredNeverRuns(i, root); r >= 0 {
				root[i] = r + 1
				continue
			}
			out = append(out, Proof{Job: a.w.Jobs[i].ID, Kind: Own})
			continue
		}
		if r := a.parkedBy(i, root); r >= 0 {
			root[i] = r + 1
			continue
		}
		out = append(out, a.explain(i))
	}
	for k := range out {
		r := a.byID[strings.ToLower(out[k].Job)]
		for _, i := range a.order {
			if root[i] == r+1 {
				out[k].Parked = append(out[k].Parked, a.w.Jobs[i].ID)
			}
		}
	}
	slices.SortFunc(out, func(x, y Proof) int { return a.byID[strings.ToLower(x.Job)] - a.byID[strings.ToLower(y.Job)] })
	return out
}

// parkedBy is the never-running ancestor (a root already explained) that
// a job without a status check is skipped with, or -1: the nearest, even
// behind a job that runs through the skip (the implicit success() spans
// the whole closure).
func (a *analysis) parkedBy(i int, root []int) int {
	for _, p := range a.ancestors(i) {
		if !a.may[p].Empty() {
			continue
		}
		if root[p] > 0 {
			return root[p] - 1
		}
		return p
	}
	return -1
}

// requiredNeverRuns is the root of a never-running need whose success a
// job with a status check requires, or -1.
func (a *analysis) requiredNeverRuns(i int, root []int) int {
	for _, r := range a.conds[i].requires {
		p, ok := a.byID[r]
		if !ok || a.may[p] == nil || !a.may[p].Empty() {
			continue
		}
		if root[p] > 0 {
			return root[p] - 1
		}
		return p
	}
	return -1
}

// parkedByDisabled: a job without a status check below a disabled job
// is job-disabled's to report.
func (a *analysis) parkedByDisabled(i int) bool {
	if a.conds[i].status {
		return false
	}
	for _, id := range a.w.Ancestors(a.w.Jobs[i].ID) {
		if p, ok := a.byID[strings.ToLower(id)]; ok && a.disabled[p] {
			return true
		}
	}
	return false
}

// explain finds the narrowest reason a job without a status check whose
// needs may all run never runs.
func (a *analysis) explain(i int) Proof {
	id := a.w.Jobs[i].ID
	if a.ownS[i].Empty() {
		return Proof{Job: id, Kind: Own}
	}
	anc := a.ancestors(i)
	for _, p := range anc {
		if a.ownS[p].Empty() {
			return Proof{Job: id, Kind: AncestorNeverSucceeds, Other: a.w.Jobs[p].ID}
		}
	}
	for _, p := range anc {
		x := a.ownS[i].Clone()
		x.And(a.ownS[p])
		if x.Empty() {
			return Proof{Job: id, Kind: Conflict, Other: a.w.Jobs[p].ID}
		}
	}
	for x, p := range anc {
		for _, q := range anc[x+1:] {
			s := a.ownS[p].Clone()
			s.And(a.ownS[q])
			if s.Empty() {
				return Proof{Job: id, Kind: Pair, Other: a.w.Jobs[p].ID, Third: a.w.Jobs[q].ID}
			}
		}
	}
	return Proof{Job: id, Kind: Closure}
}

// ancestors of i, nearest first (breadth first over needs).
func (a *analysis) ancestors(i int) []int {
	seen := map[int]bool{i: true}
	var out []int
	queue := []int{i}
	for len(queue) > 0 {
		c := queue[0]
		queue = queue[1:]
		for _, p := range a.needs(c) {
			if p >= 0 && !seen[p] {
				seen[p] = true
				out = append(out, p)
				queue = append(queue, p)
			}
		}
	}
	return out
}
