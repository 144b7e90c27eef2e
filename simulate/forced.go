package simulate

import (
	"slices"
	"strings"

	"github.com/rhysd/actionlint"

	"github.com/cicheck/cicheck/expr"
	"github.com/cicheck/cicheck/internal/bitset"
)

// Forced answers, for every job a and result r ∈ {failure, skipped} at
// once, what Run answers for the scenario "a ends r; every other job that
// runs has an unknown outcome and no context is known" (the scenario of
// the gate rules, gha-job-status.md §11), without simulating each of the
// 2·V scenarios.
//
// A job's verdict in such a scenario depends only on its direct needs'
// results and outputs and on success()/failure() over its ancestors. When
// a is not an ancestor, that is the baseline (nothing forced). When it is,
// success() is false, and the rest follows from the needs' classes (ran
// with an unknown result, skipped, or failed evaluating its if:) in the
// same scenario. So jobs are visited once in dependency order, keeping per
// job and per r the bitset.Set of forced jobs a under which it is skipped and
// under which it fails; the ancestors a are split into groups that give
// the condition the same inputs, and the condition is evaluated once per
// group by the same evaluator Run uses. The cost is O((V+E)·V/64) word
// operations plus one evaluation per group, instead of O(V·(V+E))
// evaluations.
type Forced struct {
	s       *Sim
	invalid bool
	n       int // jobs
	anc     []bitset.Set
	// skip[r][x] and fail[r][x] hold the forced jobs a ≠ x under which x is
	// skipped (its condition is false) or fails (its if: raises).
	skip, fail [2][]bitset.Set
}

// Forcing is one forced job and the result that was forced.
type Forcing struct {
	Job    string
	Result Result
}

const (
	rFailure = 0
	rSkipped = 1
)

func forcedIndex(r Result) int {
	if r == Skipped {
		return rSkipped
	}
	return rFailure
}

// class is a job's result as its dependents see it in a forced scenario.
type class byte

const (
	classUnknown class = iota // ran (or may run) with an unknown result
	classSkipped
	classFailed
)

// Forced returns the table for s's workflow, computed on the first call.
// It is safe for concurrent use.
func (s *Sim) Forced() *Forced {
	s.forcedOnce.Do(func() { s.forced = newForced(s) })
	return s.forced
}

func newForced(s *Sim) *Forced {
	n := len(s.order)
	f := &Forced{s: s, n: n}
	if s.w == nil {
		return f
	}
	if s.invalid != "" {
		f.invalid = true
		return f
	}
	base := make([]class, n)
	for i, v := range s.Run(Scenario{DefaultOutcome: Unknown, VerdictsOnly: true}) {
		base[i] = classOf(v)
	}
	f.anc = make([]bitset.Set, n)
	for r := range f.skip {
		f.skip[r] = make([]bitset.Set, n)
		f.fail[r] = make([]bitset.Set, n)
	}
	// Only under a forced skip can failure() be false or unknown for a
	// job below a: failAnc holds the a under which some ancestor fails,
	// allKnown those under which no ancestor's result is unknown.
	failAnc, allKnown := make([]bitset.Set, n), make([]bitset.Set, n)
	ev := newForcedEval(s)
	for i := 0; i < n; i++ {
		anc := bitset.New(f.n)
		known := bitset.Full(f.n)
		var fa bitset.Set
		for _, p := range s.needs[i] {
			anc.Or(f.anc[p])
			anc.Add(p)
			fa = fa.Union(f.fail[rSkipped][p], f.n)
			fa = fa.Union(failAnc[p], f.n)
			k := bitset.New(f.n)
			k.Or(f.skip[rSkipped][p])
			k.Or(f.fail[rSkipped][p])
			k.Add(p)
			known.And(k)
			known.And(allKnown[p])
		}
		f.anc[i], failAnc[i], allKnown[i] = anc, fa, known
		for r := range f.skip {
			f.skip[r][i], f.fail[r][i] = f.classify(ev, i, r, base[i], fa, known)
		}
	}
	return f
}

// classify returns the forced jobs a ≠ i under which job i is skipped and
// under which it fails, for forced result r.
func (f *Forced) classify(ev *forcedEval, i, r int, base class, failAnc, allKnown bitset.Set) (skip, fail bitset.Set) {
	add := func(c class, b bitset.Set) {
		switch c {
		case classSkipped:
			skip = skip.Union(b, f.n)
		case classFailed:
			fail = fail.Union(b, f.n)
		}
	}
	// a neither i nor an ancestor: the baseline.
	if base != classUnknown {
		rest := bitset.Full(f.n)
		rest.AndNot(f.anc[i])
		rest.Remove(i)
		add(base, rest)
	}
	if f.anc[i].Empty() {
		return skip, fail
	}
	forcedClass := classFailed
	if r == rSkipped {
		forcedClass = classSkipped
	}
	// Split the ancestors into groups with the same inputs: each direct
	// need's class, then (under a forced skip) failure()'s value.
	reads, readsFailure := f.s.reads(i)
	groups := []group{{bits: f.anc[i].Clone()}}
	for _, p := range reads {
		var next []group
		for _, g := range groups {
			if g.bits.Has(p) {
				g.bits.Remove(p)
				one := bitset.New(f.n)
				one.Add(p)
				next = append(next, g.with(one, forcedClass))
				if g.bits.Empty() {
					continue
				}
			}
			var sk, fl bitset.Set
			sk, g.bits = g.bits.Split(f.skip[r][p])
			if g.bits != nil {
				fl, g.bits = g.bits.Split(f.fail[r][p])
			}
			for _, part := range []struct {
				b bitset.Set
				c class
			}{{sk, classSkipped}, {fl, classFailed}, {g.bits, classUnknown}} {
				if part.b != nil {
					next = append(next, g.with(part.b, part.c))
				}
			}
		}
		groups = next
	}
	for _, g := range groups {
		if r == rFailure || !readsFailure {
			add(ev.eval(i, reads, g.classes, expr.Bool(true)), g.bits)
			continue
		}
		t, rest := g.bits.Split(failAnc)
		var fl, u bitset.Set
		if rest != nil {
			fl, u = rest.Split(allKnown)
		}
		for _, part := range []struct {
			b bitset.Set
			v expr.Value
		}{{t, expr.Bool(true)}, {fl, expr.Bool(false)}, {u, expr.Unknown("an ancestor may or may not fail")}} {
			if part.b != nil {
				add(ev.eval(i, reads, g.classes, part.v), part.b)
			}
		}
	}
	return skip, fail
}

// group is a set of forced jobs under which a job's direct needs have the
// same classes.
type group struct {
	bits    bitset.Set
	classes []class
}

func (g group) with(b bitset.Set, c class) group {
	cs := make([]class, len(g.classes)+1)
	copy(cs, g.classes)
	cs[len(g.classes)] = c
	return group{bits: b, classes: cs}
}

// reads returns the direct needs (positions) job i's condition reads, all
// of them when it reads needs other than as needs.<id>, and whether it
// calls failure(). Needs it does not read cannot change its verdict, so
// the forced table does not tell their classes apart.
func (s *Sim) reads(i int) ([]int, bool) {
	root := s.conds[i].root
	if root == nil {
		return nil, false
	}
	var ids []string
	all, failure := false, false
	actionlint.VisitExprNode(root, func(n, parent actionlint.ExprNode, entering bool) {
		if !entering {
			return
		}
		switch n := n.(type) {
		case *actionlint.FuncCallNode:
			failure = failure || strings.EqualFold(n.Callee, "failure")
		case *actionlint.VariableNode:
			if !strings.EqualFold(n.Name, "needs") {
				return
			}
			if d, ok := parent.(*actionlint.ObjectDerefNode); ok && d.Receiver == actionlint.ExprNode(n) {
				ids = append(ids, strings.ToLower(d.Property))
				return
			}
			all = true
		}
	})
	if all {
		return s.needs[i], failure
	}
	var out []int
	for _, p := range s.needs[i] {
		if slices.Contains(ids, s.folded[p]) { // ids are lower-cased
			out = append(out, p)
		}
	}
	return out, failure
}

// Skipped reports whether job x is certainly skipped (its verdict is skip)
// when a ends r and everything else is unknown. On a workflow GitHub
// rejects every job is skipped.
func (f *Forced) Skipped(x, a string, r Result) bool {
	if f.invalid {
		return true
	}
	px, okx := f.s.at(x)
	pa, oka := f.s.at(a)
	if !okx || !oka {
		return false
	}
	if px == pa {
		return r == Skipped
	}
	ri := forcedIndex(r)
	return f.skip[ri][px].Has(pa) || f.fail[ri][px].Has(pa)
}

// SkippedUnder calls fn with each ancestor a of x (in dependency order)
// for which Skipped(x, a, r) holds, until fn returns false: one pass over
// x's rows of the table instead of a question per ancestor. On a workflow
// GitHub rejects it calls nothing.
func (f *Forced) SkippedUnder(x string, r Result, fn func(a string) bool) {
	px, ok := f.s.pos[x]
	if !ok || f.invalid {
		return
	}
	ri := forcedIndex(r)
	set := f.skip[ri][px].Clone().Union(f.fail[ri][px], f.n)
	if set == nil {
		return
	}
	set.And(f.anc[px]) // the rows also hold the baseline of non-ancestors
	set.All(func(p int) bool { return fn(f.s.order[p]) })
}

// Mask is the set of jobs for which keep is true, for SkippedBelow.
func (f *Forced) Mask(keep func(id string) bool) bitset.Set {
	m := bitset.New(f.n)
	for p, id := range f.s.order {
		if keep(id) {
			m.Add(p)
		}
	}
	return m
}

// SkippedBelow counts the jobs of mask that transitively need a and are
// certainly skipped when a ends r, and lists the first max of them in
// dependency order: O(V) bit tests, no map look-up per job. On a workflow
// GitHub rejects, where no job has ancestors to speak of, it is none.
func (f *Forced) SkippedBelow(a string, r Result, mask bitset.Set, max int) (first []string, total int) {
	pa, ok := f.s.at(a)
	if !ok || f.invalid {
		return nil, 0
	}
	ri := forcedIndex(r)
	for p := pa + 1; p < f.n; p++ {
		if !mask.Has(p) || !f.anc[p].Has(pa) {
			continue
		}
		if f.skip[ri][p].Has(pa) || f.fail[ri][p].Has(pa) {
			if total++; len(first) < max {
				first = append(first, f.s.order[p])
			}
		}
	}
	return first, total
}

// IsAncestor reports whether x transitively needs a.
func (f *Forced) IsAncestor(a, x string) bool {
	px, okx := f.s.at(x)
	pa, oka := f.s.at(a)
	return okx && oka && !f.invalid && f.anc[px].Has(pa)
}

// Through returns, in dependency order, the first max ancestors a of d
// (other than the jobs of others) under whose failure, or else skip,
// neither d nor any job of others is skipped, and how many there are in
// all; the Result says which of the two. (A gated job d that runs through
// a's failure while its sibling needs still run: gha-job-status.md §11.)
// The count costs O(V/64) per job of others; the list, O(max).
func (f *Forced) Through(d string, others []string, max int) (first []Forcing, total int) {
	pd, ok := f.s.at(d)
	if f.invalid || !ok {
		return nil, 0
	}
	var cand [2]bitset.Set
	for r := range cand {
		c := f.anc[pd].Clone()
		c.AndNot(f.skip[r][pd])
		c.AndNot(f.fail[r][pd])
		for _, o := range others {
			po, ok := f.s.at(o)
			if !ok || po == pd {
				continue
			}
			c.AndNot(f.skip[r][po])
			c.AndNot(f.fail[r][po])
			c.Remove(po)
		}
		cand[r] = c
	}
	both := cand[rFailure].Clone()
	both.Or(cand[rSkipped])
	both.All(func(p int) bool {
		if len(first) == max {
			return false
		}
		res := Failure
		if !cand[rFailure].Has(p) {
			res = Skipped
		}
		first = append(first, Forcing{Job: f.s.order[p], Result: res})
		return true
	})
	total = both.Len()
	return first, total
}

// classOf is a verdict's class for dependents.
func classOf(v Verdict) class {
	switch {
	case v.Verdict == VerdictSkip && v.Result == Failure:
		return classFailed
	case v.Verdict == VerdictSkip:
		return classSkipped
	}
	return classUnknown
}

// forcedEval evaluates a job's condition in a forced scenario from its
// needs' classes, with success() false (a forced ancestor did not
// succeed) and the given failure().
type forcedEval struct {
	s   *Sim
	st  *state
	ctx map[string]expr.Value
	// need[p][c] is needs.<p> when p's class is c, built on first use.
	need map[int]*[3]expr.Value
}

func newForcedEval(s *Sim) *forcedEval {
	sc := Scenario{DefaultOutcome: Unknown, VerdictsOnly: true}
	return &forcedEval{s: s, st: &state{s: s, sc: sc}, ctx: Contexts(sc), need: map[int]*[3]expr.Value{}}
}

func (e *forcedEval) needValue(p int, c class) expr.Value {
	vs := e.need[p]
	if vs == nil {
		vs = &[3]expr.Value{}
		e.need[p] = vs
	}
	if vs[c].Kind == expr.KindObject {
		return vs[c]
	}
	id, j := e.s.order[p], e.s.jobs[p]
	var v expr.Value
	switch c {
	case classUnknown:
		v = object(map[string]expr.Value{"result": expr.Unknown(id + " may or may not run"), "outputs": e.st.jobOutputs(j, Unknown)})
	case classSkipped:
		v = object(map[string]expr.Value{"result": expr.String(string(Skipped)), "outputs": e.st.jobOutputs(j, Skipped)})
	default:
		v = object(map[string]expr.Value{"result": expr.String(string(Failure)), "outputs": e.st.jobOutputs(j, Failure)})
	}
	vs[c] = v
	return v
}

// eval returns job i's class when the needs it reads have the given
// classes (the others are given as unknown; the condition does not look).
func (e *forcedEval) eval(i int, reads []int, classes []class, failure expr.Value) class {
	needs := make(map[string]expr.Value, len(e.s.needs[i]))
	for _, p := range e.s.needs[i] {
		needs[e.s.folded[p]] = e.needValue(p, classUnknown)
	}
	for k, p := range reads {
		needs[e.s.folded[p]] = e.needValue(p, classes[k])
	}
	e.ctx["needs"] = object(needs)
	env := &expr.Env{Contexts: e.ctx, Success: expr.Bool(false), Failure: failure, Cancelled: expr.Bool(false)}
	val := expr.Eval(e.s.conds[i].root, env)
	switch {
	case val.Kind == expr.KindError:
		return classFailed
	case val.Kind == expr.KindUnknown && val.MayErr != "":
		return classUnknown
	case val.Truthy() == expr.No:
		return classSkipped
	}
	return classUnknown
}
