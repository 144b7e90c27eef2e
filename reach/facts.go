package reach

import (
	"maps"
	"slices"
	"strings"

	"github.com/rhysd/actionlint"

	"github.com/cicheck/cicheck/expr"
	"github.com/cicheck/cicheck/workflowgraph"
)

// marker ends a class's representative: no literal compared with a fact
// holds it (a fact whose literals do is left free), so the representative
// equals no literal and starts with no longer prefix.
const marker = "\x1f"

// cls is the class of strings that start with p, equal none of ex and
// start with none of xp (all lower-case; each xp strictly extends p).
type cls struct {
	p      string
	ex, xp []string
}

func (c *cls) has(s string) bool {
	if !strings.HasPrefix(s, c.p) {
		return false
	}
	for _, e := range c.ex {
		if e == s {
			return false
		}
	}
	for _, x := range c.xp {
		if strings.HasPrefix(s, x) {
			return false
		}
	}
	return true
}

// elem is one value of a fact in one trigger: a value, or a class.
type elem struct {
	v expr.Value
	c *cls
}

func concrete(v expr.Value) elem { return elem{v: v} }
func class(p string) elem        { return elem{c: &cls{p: strings.ToLower(p)}} }
func free() []elem               { return []elem{class("")} }
func unknownElem() elem          { return elem{v: expr.Unknown("not modelled")} }

// trigger is one event the workflow runs on, with what it fixes.
type trigger struct {
	event string // lower-case
	hook  *actionlint.WebhookEvent
	// dispatch and call hold the inputs of workflow_dispatch and
	// workflow_call.
	dispatch map[string]*actionlint.DispatchInput
	call     []*actionlint.WorkflowCallEventInput
}

// triggers lists the events w runs on, in file order.
func triggers(w *actionlint.Workflow) []trigger {
	var out []trigger
	for _, ev := range w.On {
		switch ev := ev.(type) {
		case *actionlint.WebhookEvent:
			if ev.Hook != nil {
				out = append(out, trigger{event: strings.ToLower(ev.Hook.Value), hook: ev})
			}
		case *actionlint.ScheduledEvent:
			out = append(out, trigger{event: "schedule"})
		case *actionlint.WorkflowDispatchEvent:
			out = append(out, trigger{event: "workflow_dispatch", dispatch: ev.Inputs})
		case *actionlint.RepositoryDispatchEvent:
			out = append(out, trigger{event: "repository_dispatch"})
		case *actionlint.WorkflowCallEvent:
			out = append(out, trigger{event: "workflow_call", call: ev.Inputs})
		}
	}
	return out
}

// describe names the trigger as the proofs read it.
func (t trigger) describe() string {
	var parts []string
	if t.hook != nil {
		for _, f := range []*actionlint.WebhookEventFilter{t.hook.Branches, t.hook.Tags} {
			if f != nil && f.Name != nil {
				parts = append(parts, f.Name.Value+": "+strings.Join(strs(f.Values), ", "))
			}
		}
		if len(t.hook.Types) > 0 {
			parts = append(parts, "types: "+strings.Join(strs(t.hook.Types), ", "))
		}
	}
	if len(parts) == 0 {
		return t.event
	}
	return t.event + " (" + strings.Join(parts, "; ") + ")"
}

func strs(ss []*actionlint.String) []string {
	var out []string
	for _, s := range ss {
		if s != nil {
			out = append(out, s.Value)
		}
	}
	return out
}

// filterValues are the patterns of a filter, nil when it is absent.
func filterValues(f *actionlint.WebhookEventFilter) []string {
	if f == nil {
		return nil
	}
	out := strs(f.Values)
	if out == nil {
		out = []string{}
	}
	return out
}

// patterns are the values a branch or tag filter lets through, each
// under prefix: a name without glob characters is itself, a glob is the
// class of its literal start. A negated pattern (!x) only narrows the
// filter and is left out, which widens the answer, never narrows it.
func patterns(prefix string, pats []string) []elem {
	var out []elem
	for _, p := range pats {
		if strings.HasPrefix(p, "!") {
			continue
		}
		if i := strings.IndexAny(p, "*?+[]!\\"); i >= 0 {
			out = append(out, class(prefix+p[:i]))
			continue
		}
		out = append(out, concrete(expr.String(prefix+p)))
	}
	if out == nil {
		out = []elem{class(prefix)} // only negations: anything under prefix
	}
	return out
}

// domain is the values path may take when t triggers the run, before the
// conditions' literals split its classes.
func (t trigger) domain(path string) []elem {
	isPR := t.event == "pull_request" || t.event == "pull_request_target"
	switch path {
	case "github.event_name":
		if t.event == "workflow_call" {
			return free() // the caller's event
		}
		return []elem{concrete(expr.String(t.event))}
	case "github.ref":
		switch {
		case t.event == "push" && t.hook != nil:
			br, tg := filterValues(t.hook.Branches), filterValues(t.hook.Tags)
			bi, ti := t.hook.BranchesIgnore != nil, t.hook.TagsIgnore != nil
			var out []elem
			// Defining only branch filters (or only tag filters) leaves
			// the other kind of ref out (docs: "Using filters").
			onlyTags := (tg != nil || ti) && br == nil && !bi
			onlyBranches := (br != nil || bi) && tg == nil && !ti
			if !onlyTags {
				if br != nil {
					out = append(out, patterns("refs/heads/", br)...)
				} else {
					out = append(out, class("refs/heads/"))
				}
			}
			if !onlyBranches {
				if tg != nil {
					out = append(out, patterns("refs/tags/", tg)...)
				} else {
					out = append(out, class("refs/tags/"))
				}
			}
			return out
		case t.event == "pull_request":
			return []elem{class("refs/pull/")}
		case t.event == "pull_request_target" && t.hook != nil && t.hook.Branches != nil:
			return patterns("refs/heads/", filterValues(t.hook.Branches))
		case t.event == "pull_request_target", t.event == "schedule":
			return []elem{class("refs/heads/")}
		case t.event == "workflow_dispatch":
			return []elem{class("refs/heads/"), class("refs/tags/")}
		case t.event == "release":
			return []elem{class("refs/tags/")}
		}
		return free()
	case "github.base_ref":
		switch {
		case isPR && t.hook != nil && t.hook.Branches != nil:
			return patterns("", filterValues(t.hook.Branches))
		case isPR, t.event == "workflow_call":
			return free()
		}
		return []elem{concrete(expr.String(""))}
	case "github.head_ref":
		if isPR || t.event == "workflow_call" {
			return free()
		}
		return []elem{concrete(expr.String(""))}
	case "github.event.action":
		switch {
		case t.hook != nil && len(t.hook.Types) > 0:
			var out []elem
			for _, ty := range strs(t.hook.Types) {
				out = append(out, concrete(expr.String(ty)))
			}
			return out
		case isPR:
			// The activity types GitHub triggers pull_request on by default.
			return []elem{concrete(expr.String("opened")), concrete(expr.String("synchronize")), concrete(expr.String("reopened"))}
		case t.event == "push", t.event == "schedule", t.event == "workflow_dispatch":
			return []elem{concrete(expr.Null())} // no action in these payloads
		}
		return append(free(), concrete(expr.Null()))
	}
	if name, ok := strings.CutPrefix(path, "inputs."); ok {
		return t.inputDomain(name, false)
	}
	if name, ok := strings.CutPrefix(path, "github.event.inputs."); ok {
		return t.inputDomain(name, true)
	}
	return []elem{unknownElem()}
}

// inputDomain is an input's values: inputs.x typed, github.event.inputs.x
// (payload) always a string, null on an event that has no inputs.
func (t trigger) inputDomain(name string, payload bool) []elem {
	switch t.event {
	case "workflow_dispatch":
		in := t.dispatch[name]
		if in == nil {
			return []elem{unknownElem()}
		}
		switch in.Type {
		case actionlint.WorkflowDispatchEventInputTypeBoolean:
			if payload {
				return []elem{concrete(expr.String("true")), concrete(expr.String("false"))}
			}
			return []elem{concrete(expr.Bool(true)), concrete(expr.Bool(false))}
		case actionlint.WorkflowDispatchEventInputTypeChoice:
			var out []elem
			for _, o := range strs(in.Options) {
				out = append(out, concrete(expr.String(o)))
			}
			if out != nil {
				return out
			}
		case actionlint.WorkflowDispatchEventInputTypeNumber:
			if !payload {
				return []elem{unknownElem()}
			}
		}
		return free()
	case "workflow_call":
		if payload {
			return []elem{unknownElem()} // the caller's payload
		}
		for _, in := range t.call {
			if in == nil || in.ID != name {
				continue
			}
			switch in.Type {
			case actionlint.WorkflowCallEventInputTypeBoolean:
				return []elem{concrete(expr.Bool(true)), concrete(expr.Bool(false))}
			case actionlint.WorkflowCallEventInputTypeString:
				return free()
			}
			return []elem{unknownElem()}
		}
		return []elem{unknownElem()}
	}
	// GitHub fills inputs only for workflow_dispatch and workflow_call.
	return []elem{concrete(expr.Null())}
}

// usage is what the conditions compare each fact with.
type usage struct {
	eqs, prefixes map[string]map[string]bool
}

func newUsage() *usage {
	return &usage{eqs: map[string]map[string]bool{}, prefixes: map[string]map[string]bool{}}
}

func (u *usage) add(m map[string]map[string]bool, path, lit string) {
	if m[path] == nil {
		m[path] = map[string]bool{}
	}
	m[path][strings.ToLower(lit)] = true
}

func (u *usage) paths() []string {
	set := map[string]bool{}
	for p := range u.eqs {
		set[p] = true
	}
	for p := range u.prefixes {
		set[p] = true
	}
	return sortedSet(set)
}

func sortedSet(m map[string]bool) []string { return slices.Sorted(maps.Keys(m)) }

// condInfo is what the analysis knows of one job's condition.
type condInfo struct {
	status   bool // a status function: the ancestors need not succeed
	unknown  bool // does not parse: may run anywhere
	disabled bool // false whatever the run
	// loose are the facts read where a class's representative does not
	// decide the answer; looseAll: the whole github or inputs context is.
	loose    map[string]bool
	looseAll bool
	// reads are the facts the condition reads at all: combinations that
	// agree on them agree on the condition.
	reads map[string]bool
	// needs: the condition reads the needs context (its key then holds
	// the job's needs, whose results the all-success run fixes).
	needs bool
	// requires are the needs a conjunct of the whole condition requires
	// to have succeeded (needs.x.result == 'success'), lower-cased: the
	// job runs only where they may run, status check or not.
	requires []string
}

func (c *condInfo) key(j *workflowgraph.Job) string {
	raw := ""
	if j.If != nil {
		raw = j.If.Raw
	}
	if !c.needs {
		return raw
	}
	return raw + "\x00" + strings.ToLower(strings.Join(j.Needs, "\x00"))
}

// project is cb's values of the facts the condition reads, as a key.
func (c *condInfo) project(cb combo) string {
	var b strings.Builder
	for _, v := range cb.vals {
		if !c.looseAll && !c.reads[v.path] {
			continue
		}
		b.WriteString(v.v.Kind.String())
		b.WriteByte(0)
		b.WriteString(v.v.Str)
		if v.v.Bool {
			b.WriteByte('t')
		}
		if v.class {
			b.WriteByte('c')
		}
		b.WriteByte(0)
	}
	return b.String()
}

// looseIn: in cb, a fact the condition reads loosely is a class.
func (c *condInfo) looseIn(cb combo) bool {
	for _, v := range cb.vals {
		if v.class && (c.looseAll || c.loose[v.path]) {
			return true
		}
	}
	return false
}

// inspect records the literals j's condition compares facts with, in u.
func inspect(j *workflowgraph.Job, u *usage) *condInfo {
	c := &condInfo{loose: map[string]bool{}, reads: map[string]bool{}}
	if j.If == nil {
		return c
	}
	// A status function lets the job run after a skip, unless success()
	// is a conjunct of the whole condition: that needs every ancestor to
	// have succeeded, as the implicit one does (`!success()` or
	// `success() || x` do not).
	c.status = j.If.HasStatusFunc() && !expr.SuccessConjunct(j.If.Expr)
	c.requires = requiredNeeds(j.If.Expr, nil)
	switch {
	case j.If.ParseError != "":
		c.unknown = true
		return c
	case j.If.Expr == nil:
		return c // a template: always true
	}
	c.disabled = expr.Eval(j.If.Expr, nil).Truthy() == expr.No
	w := walker{u: u, c: c}
	w.walk(j.If.Expr, true)
	return c
}

// requiredNeeds are the x of the `needs.x.result == 'success'` conjuncts
// of n's top level.
func requiredNeeds(n actionlint.ExprNode, out []string) []string {
	switch x := n.(type) {
	case *actionlint.LogicalOpNode:
		if x.Kind == actionlint.LogicalOpNodeKindAnd {
			return requiredNeeds(x.Right, requiredNeeds(x.Left, out))
		}
	case *actionlint.CompareOpNode:
		if x.Kind != actionlint.CompareOpNodeKindEq {
			return out
		}
		for _, pair := range [2][2]actionlint.ExprNode{{x.Left, x.Right}, {x.Right, x.Left}} {
			p, ok := pathOf(pair[0])
			s, isStr := pair[1].(*actionlint.StringNode)
			parts := strings.Split(p, ".")
			if ok && isStr && strings.EqualFold(s.Value, "success") && len(parts) == 3 && parts[0] == "needs" && parts[2] == "result" {
				return append(out, parts[1])
			}
		}
	}
	return out
}

type walker struct {
	u *usage
	c *condInfo
}

// modelled: the facts a trigger fixes.
func modelled(p string) bool {
	switch p {
	case "github.event_name", "github.ref", "github.base_ref", "github.head_ref", "github.event.action":
		return true
	}
	parts := strings.Split(p, ".")
	return len(parts) == 2 && parts[0] == "inputs" || len(parts) == 4 && parts[0] == "github" && parts[1] == "event" && parts[2] == "inputs"
}

// holder: an object holding modelled facts, read whole.
func holder(p string) bool {
	switch p {
	case "github", "github.event", "inputs", "github.event.inputs":
		return true
	}
	return false
}

// pathOf is the dotted path a chain of property accesses reads.
func pathOf(n actionlint.ExprNode) (string, bool) {
	var parts []string
	for {
		switch x := n.(type) {
		case *actionlint.ObjectDerefNode:
			parts = append(parts, strings.ToLower(x.Property))
			n = x.Receiver
		case *actionlint.VariableNode:
			parts = append(parts, strings.ToLower(x.Name))
			for i, k := 0, len(parts)-1; i < k; i, k = i+1, k-1 {
				parts[i], parts[k] = parts[k], parts[i]
			}
			return strings.Join(parts, "."), true
		default:
			return "", false
		}
	}
}

// walk visits n; truth says n's value is only tested for truth.
func (w walker) walk(n actionlint.ExprNode, truth bool) {
	if p, ok := pathOf(n); ok && (p == "needs" || strings.HasPrefix(p, "needs.")) {
		w.c.needs = true
	}
	switch x := n.(type) {
	case *actionlint.VariableNode, *actionlint.ObjectDerefNode:
		p, ok := pathOf(n)
		switch {
		case ok && modelled(p):
			w.u.add(w.u.eqs, p, "") // truth is the '' comparison
			w.c.reads[p] = true
			if !truth {
				w.c.loose[p] = true
			}
		case ok && holder(p):
			w.c.looseAll = true
		case !ok:
			if d, isDeref := n.(*actionlint.ObjectDerefNode); isDeref {
				w.walk(d.Receiver, false)
			}
		}
	case *actionlint.CompareOpNode:
		if x.Kind == actionlint.CompareOpNodeKindEq || x.Kind == actionlint.CompareOpNodeKindNotEq {
			if p, lit, ok := factAndLiteral(x.Left, x.Right); ok {
				w.u.add(w.u.eqs, p, lit)
				w.c.reads[p] = true
				return
			}
		}
		w.walk(x.Left, false)
		w.walk(x.Right, false)
	case *actionlint.FuncCallNode:
		if strings.EqualFold(x.Callee, "startsWith") && len(x.Args) == 2 {
			if p, ok := pathOf(x.Args[0]); ok && modelled(p) {
				if s, isStr := x.Args[1].(*actionlint.StringNode); isStr {
					w.u.add(w.u.prefixes, p, s.Value)
					w.c.reads[p] = true
					return
				}
			}
		}
		for _, a := range x.Args {
			w.walk(a, false)
		}
	case *actionlint.LogicalOpNode:
		w.walk(x.Left, truth)
		w.walk(x.Right, truth)
	case *actionlint.NotOpNode:
		w.walk(x.Operand, true)
	case *actionlint.IndexAccessNode:
		w.walk(x.Operand, false)
		w.walk(x.Index, false)
	case *actionlint.ArrayDerefNode:
		w.walk(x.Receiver, false)
	}
}

// factAndLiteral: one side reads a modelled fact, the other is a string.
func factAndLiteral(l, r actionlint.ExprNode) (string, string, bool) {
	for _, pair := range [2][2]actionlint.ExprNode{{l, r}, {r, l}} {
		if p, ok := pathOf(pair[0]); ok && modelled(p) {
			if s, isStr := pair[1].(*actionlint.StringNode); isStr {
				return p, s.Value, true
			}
		}
	}
	return "", "", false
}

// split refines dom so that every comparison with the literals is
// decided by each element alone: a prefix inside a class cuts it in
// two (strings with the prefix, strings without), an equal literal inside
// a class becomes a value of its own.
func split(dom []elem, eqs, prefixes []string) []elem {
	for _, q := range prefixes {
		var out []elem
		for _, e := range dom {
			c := e.c
			if c == nil || len(q) <= len(c.p) || !strings.HasPrefix(q, c.p) || !prefixInside(c, q) {
				out = append(out, e)
				continue
			}
			in := &cls{p: q}
			for _, x := range c.ex {
				if strings.HasPrefix(x, q) {
					in.ex = append(in.ex, x)
				}
			}
			for _, x := range c.xp {
				if strings.HasPrefix(x, q) && x != q {
					in.xp = append(in.xp, x)
				}
			}
			outc := &cls{p: c.p, ex: c.ex, xp: append(append([]string(nil), c.xp...), q)}
			out = append(out, elem{c: in}, elem{c: outc})
		}
		dom = out
	}
	for _, s := range eqs {
		var out []elem
		for _, e := range dom {
			if e.c == nil || !e.c.has(s) {
				out = append(out, e)
				continue
			}
			rest := &cls{p: e.c.p, ex: append(append([]string(nil), e.c.ex...), s), xp: e.c.xp}
			out = append(out, concrete(expr.String(s)), elem{c: rest})
		}
		dom = out
	}
	return dom
}

// prefixInside: some string of c starts with q (q extends c.p and no
// excluded prefix covers it).
func prefixInside(c *cls, q string) bool {
	for _, x := range c.xp {
		if strings.HasPrefix(q, x) {
			return false
		}
	}
	return true
}

// enumerate lists every combination of trigger and fact values, the
// classes split by the literals of u. Facts are dropped (left free) from
// the largest domain down until the count is within maxCombos.
func enumerate(trigs []trigger, u *usage) []combo {
	paths := u.paths()
	doms := make([][][]elem, len(trigs)) // trigger → fact → values
	for ti, t := range trigs {
		doms[ti] = make([][]elem, len(paths))
		for fi, p := range paths {
			eqs, prefixes := sortedSet(u.eqs[p]), sortedSet(u.prefixes[p])
			if strings.Contains(strings.Join(eqs, "")+strings.Join(prefixes, ""), marker) {
				doms[ti][fi] = []elem{unknownElem()}
				continue
			}
			doms[ti][fi] = split(t.domain(p), eqs, prefixes)
		}
	}
	for {
		total, biggest, most := 0, -1, 0
		size := make([]int, len(paths))
		for ti := range trigs {
			n := 1
			for fi := range paths {
				n *= len(doms[ti][fi])
				size[fi] += len(doms[ti][fi])
				if n > maxCombos {
					n = maxCombos + 1
				}
			}
			total += n
		}
		if total <= maxCombos {
			break
		}
		for fi, s := range size {
			if s > most {
				biggest, most = fi, s
			}
		}
		if biggest < 0 {
			return nil
		}
		for ti := range trigs {
			doms[ti][biggest] = []elem{unknownElem()}
		}
	}
	var out []combo
	for ti := range trigs {
		cur := make([]value, len(paths))
		var rec func(fi int)
		rec = func(fi int) {
			if fi == len(paths) {
				out = append(out, combo{trigger: ti, vals: append([]value(nil), cur...)})
				return
			}
			for _, e := range doms[ti][fi] {
				if e.c != nil {
					cur[fi] = value{path: paths[fi], v: expr.String(e.c.p + marker), class: true}
				} else {
					cur[fi] = value{path: paths[fi], v: e.v}
				}
				rec(fi + 1)
			}
		}
		rec(0)
	}
	return out
}
