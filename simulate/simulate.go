// Package simulate decides, for a scenario of job outcomes, which jobs of a
// workflow run: the decision procedure of specs/gha-job-status.md §10.
//
// Jobs are visited in dependency order. Each job's effective `if:` (the
// implicit success() when it has no status function) is evaluated
// three-valued by package expr, with success()/failure() over the job's
// transitive ancestors, the run-cancel flag, direct needs' results and
// outputs, and the contexts the scenario supplies. A fact nobody gave stays
// unknown, and so does every job that depends on it: the verdict is then
// "unknown" (may run), never a guess.
//
// Reusable-workflow callers and matrix jobs are black boxes whose result is
// the scenario's outcome for the job.
package simulate

import (
	"fmt"
	"sort"
	"strings"

	"github.com/rhysd/actionlint"

	"github.com/cicheck/cicheck/expr"
	"github.com/cicheck/cicheck/workflowgraph"
)

// Job results (spec §6) plus Unknown for a job that may or may not run.
const (
	Success   = "success"
	Failure   = "failure"
	Cancelled = "cancelled"
	Skipped   = "skipped"
	Unknown   = "unknown"
)

// Verdicts.
const (
	VerdictRun     = "run"
	VerdictSkip    = "skip"
	VerdictUnknown = "unknown"
)

// Scenario is what the simulation assumes. The zero Scenario is "every job
// that runs succeeds, nothing else is known".
type Scenario struct {
	// Outcomes is the result of each job body that runs (job id →
	// success|failure|cancelled|unknown). Jobs not listed get
	// DefaultOutcome.
	Outcomes map[string]string
	// DefaultOutcome is the outcome of unlisted jobs that run; "" means
	// success. Static checks use Unknown.
	DefaultOutcome string
	// Results forces a job's result without evaluating its `if:`
	// (job id → success|failure|cancelled|skipped), e.g. --skip.
	Results map[string]string
	// Cancelled is RC: the run was cancelled before the `if:`s are
	// evaluated.
	Cancelled bool
	// Event is github.event_name ("" unknown).
	Event string
	// Labels are the pull request's labels; nil means unknown.
	Labels []string
	// Inputs are `inputs.*` values. An input declared `type: boolean` or
	// `number` becomes a boolean or number, any other declared type stays
	// a string; for an undeclared one "true"/"false" become booleans.
	Inputs map[string]string
	// InputTypes maps lower-cased input names to their declared type
	// (boolean, number, string, choice, environment); Sim.Run fills it from
	// the workflow's workflow_dispatch and workflow_call inputs when nil.
	InputTypes map[string]string
	// Outputs are the outputs of jobs that run (job id → name → value).
	// Outputs not given are unknown. An empty value means the job ran and
	// left the output empty, which GitHub does not set at all (spec §6):
	// it reads as null (== '' is true, == 'true' is false).
	Outputs map[string]map[string]string
	// Set holds any other context fact by dotted path, e.g.
	// "github.ref" or "vars.RUN_GPU".
	Set map[string]string
	// VerdictsOnly skips finding the conjunct that made a condition false
	// (a skip's Reason is then just "condition is false"): static checks
	// that simulate many scenarios read only verdicts and results.
	VerdictsOnly bool
}

// Verdict is the simulation's answer for one job.
type Verdict struct {
	ID string
	// Verdict is run, skip or unknown.
	Verdict string
	// Result is the job's result: success, failure, cancelled, skipped or
	// unknown.
	Result string
	// Reason explains the verdict, e.g. "implicit success() is false:
	// stage-a-cpu failed (ancestor via docker-build)".
	Reason string
}

// Run simulates w under sc and returns one verdict per job, in dependency
// order (file order among independent jobs).
func Run(w *workflowgraph.Workflow, sc Scenario) []Verdict { return New(w).Run(sc) }

// Sim holds what every simulation of one workflow shares (ancestor sets,
// effective conditions), so callers that run many scenarios pay it once.
type Sim struct {
	w       *workflowgraph.Workflow
	order   []string
	anc     map[string]map[string]bool
	ancList map[string][]string // ancestors in dependency order
	conds   map[string]*cond
	invalid string
}

// cond is a job's effective condition; implicit is the synthetic success()
// node GitHub adds, so reasons can name it.
type cond struct {
	c        *expr.Condition
	root     actionlint.ExprNode
	implicit *actionlint.FuncCallNode
}

// New prepares w for simulation.
func New(w *workflowgraph.Workflow) *Sim {
	s := &Sim{w: w, anc: map[string]map[string]bool{}, ancList: map[string][]string{}, conds: map[string]*cond{}}
	if w == nil {
		return s
	}
	s.order = w.TopoOrder()
	pos := map[string]int{}
	for i, id := range s.order {
		pos[id] = i
	}
	for _, j := range w.Jobs {
		set := map[string]bool{}
		list := w.Ancestors(j.ID)
		for _, a := range list {
			set[a] = true
		}
		sort.SliceStable(list, func(a, b int) bool { return pos[list[a]] < pos[list[b]] })
		s.anc[j.ID], s.ancList[j.ID] = set, list
		c := Condition(j)
		if c.Err != nil && s.invalid == "" {
			s.invalid = fmt.Sprintf("the if: of job %s does not parse (%v)", j.ID, c.Err)
		}
		s.conds[j.ID] = effective(c)
		if u := w.UnknownNeeds(j); len(u) > 0 && s.invalid == "" {
			s.invalid = fmt.Sprintf("job %s needs %s, which does not exist", j.ID, u[0])
		}
	}
	if len(w.Cycles) > 0 && s.invalid == "" {
		s.invalid = "its needs form a cycle (" + strings.Join(w.Cycles[0], " → ") + ")"
	}
	return s
}

// Condition converts a job's parsed `if:` into an expr.Condition without
// parsing it again.
func Condition(j *workflowgraph.Job) *expr.Condition {
	if j == nil || j.If == nil {
		return &expr.Condition{}
	}
	c := &expr.Condition{Raw: j.If.Raw, Expr: j.If.Expr, Templated: j.If.AlwaysTrue, Status: j.If.StatusFuncs()}
	if j.If.ParseError != "" {
		c.Err = fmt.Errorf("%s", j.If.ParseError)
	}
	return c
}

func effective(c *expr.Condition) *cond {
	out := &cond{c: c}
	if c.Err != nil {
		return out
	}
	if c.Implicit() {
		out.implicit = &actionlint.FuncCallNode{Callee: "success"}
		if c.Expr == nil { // absent, blank or templated
			out.root = out.implicit
		} else {
			out.root = &actionlint.LogicalOpNode{Kind: actionlint.LogicalOpNodeKindAnd, Left: out.implicit, Right: c.Expr}
		}
		return out
	}
	out.root = c.Effective()
	return out
}

// state is one simulation in progress.
type state struct {
	s       *Sim
	sc      Scenario
	results map[string]string
	outputs map[string]expr.Value
	ctx     map[string]expr.Value
	// need caches needs.<id> ({result, outputs}) once the job is decided:
	// every dependent reads the same value.
	need map[string]expr.Value
	// cancelSkip marks jobs skipped after a run cancel: they end cancelled
	// or skipped, and which one is unknown (spec §5).
	cancelSkip map[string]bool
}

// Run simulates one scenario.
func (s *Sim) Run(sc Scenario) []Verdict {
	if s.w == nil {
		return nil
	}
	if sc.InputTypes == nil && (len(sc.Inputs) > 0 || len(sc.Set) > 0) {
		sc.InputTypes = InputTypes(s.w)
	}
	st := &state{s: s, sc: sc, results: map[string]string{}, outputs: map[string]expr.Value{}, ctx: Contexts(sc), need: map[string]expr.Value{}, cancelSkip: map[string]bool{}}
	out := make([]Verdict, 0, len(s.order))
	for _, id := range s.order {
		var v Verdict
		if s.invalid != "" {
			v = Verdict{ID: id, Verdict: VerdictSkip, Result: Skipped, Reason: "the workflow is invalid: " + s.invalid}
		} else {
			v = st.job(s.w.Job(id))
		}
		st.results[id] = v.Result
		st.outputs[id] = st.jobOutputs(s.w.Job(id), v.Result)
		out = append(out, v)
	}
	return out
}

// InputTypes returns the declared type of every workflow_dispatch and
// workflow_call input of w (lower-cased name → boolean, number, string,
// choice or environment; "" when workflow_dispatch gives no type).
func InputTypes(w *workflowgraph.Workflow) map[string]string {
	out := map[string]string{}
	if w == nil || w.AST == nil {
		return out
	}
	for _, ev := range w.AST.On {
		switch ev := ev.(type) {
		case *actionlint.WorkflowDispatchEvent:
			for name, in := range ev.Inputs {
				if in == nil {
					continue
				}
				out[strings.ToLower(name)] = map[actionlint.WorkflowDispatchEventInputType]string{
					actionlint.WorkflowDispatchEventInputTypeString:      "string",
					actionlint.WorkflowDispatchEventInputTypeNumber:      "number",
					actionlint.WorkflowDispatchEventInputTypeBoolean:     "boolean",
					actionlint.WorkflowDispatchEventInputTypeChoice:      "choice",
					actionlint.WorkflowDispatchEventInputTypeEnvironment: "environment",
				}[in.Type]
			}
		case *actionlint.WorkflowCallEvent:
			for _, in := range ev.Inputs {
				if in == nil {
					continue
				}
				out[strings.ToLower(in.ID)] = map[actionlint.WorkflowCallEventInputType]string{
					actionlint.WorkflowCallEventInputTypeBoolean: "boolean",
					actionlint.WorkflowCallEventInputTypeNumber:  "number",
					actionlint.WorkflowCallEventInputTypeString:  "string",
				}[in.Type]
			}
		}
	}
	return out
}

// Contexts builds the github, inputs and vars contexts a scenario
// describes. Everything not given is unknown.
func Contexts(sc Scenario) map[string]expr.Value {
	gh := expr.OpenObject(nil)
	if sc.Event != "" {
		ev := strings.ToLower(sc.Event)
		gh = gh.Set("event_name", expr.String(sc.Event))
		switch ev {
		case "push", "schedule", "workflow_dispatch", "workflow_call", "workflow_run":
			// These payloads carry no action and no pull request.
			gh = gh.Set("event.action", expr.Null()).Set("event.pull_request", expr.Null())
			if ev == "workflow_run" {
				gh = gh.Set("event.action", expr.Unknown("github.event.action is not given"))
			}
		}
	}
	if sc.Labels != nil {
		labels := make([]expr.Value, len(sc.Labels))
		for i, l := range sc.Labels {
			labels[i] = expr.Object(map[string]expr.Value{"name": expr.String(l)})
		}
		gh = gh.Set("event.pull_request.labels", expr.Array(labels...))
	}
	inputs := expr.OpenObject(nil)
	for _, k := range sortedKeys(sc.Inputs) {
		v := sc.Inputs[k]
		typ, declared := sc.InputTypes[strings.ToLower(k)]
		switch {
		case typ == "boolean" || (!declared && (v == "true" || v == "false")):
			inputs = inputs.Set(k, expr.Bool(v == "true"))
		case typ == "number":
			inputs = inputs.Set(k, expr.Number(expr.ParseNumber(v)))
		default:
			inputs = inputs.Set(k, expr.String(v))
		}
		if strings.EqualFold(sc.Event, "workflow_dispatch") {
			gh = gh.Set("event.inputs."+k, expr.String(v))
		}
	}
	ctx := map[string]expr.Value{"github": gh, "inputs": inputs, "vars": expr.OpenObject(nil)}
	for _, k := range sortedKeys(sc.Set) {
		head, rest, ok := strings.Cut(strings.ToLower(k), ".")
		if !ok || head == "needs" {
			continue // needs come from the simulation itself
		}
		base, have := ctx[head]
		if !have {
			base = expr.OpenObject(nil)
		}
		ctx[head] = base.Set(rest, setValue(head, rest, sc.Set[k], sc.InputTypes))
	}
	return ctx
}

// setValue types a --set value by where it lands: the event payload is
// JSON (true, false and null are not strings there, except in
// workflow_dispatch's github.event.inputs), a declared boolean or
// number input is converted; everything else (vars, github.ref, ...) is a
// string, as GitHub gives it.
func setValue(head, rest, v string, inputTypes map[string]string) expr.Value {
	switch {
	case head == "github" && strings.HasPrefix(rest, "event.") && !strings.HasPrefix(rest, "event.inputs."):
		// (workflow_dispatch's github.event.inputs are strings, even booleans)
		switch v {
		case "true", "false":
			return expr.Bool(v == "true")
		case "null":
			return expr.Null()
		}
	case head == "inputs" && !strings.Contains(rest, "."):
		switch inputTypes[rest] {
		case "boolean":
			return expr.Bool(v == "true")
		case "number":
			return expr.Number(expr.ParseNumber(v))
		}
	}
	return expr.String(v)
}

func sortedKeys[V any](m map[string]V) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

func (st *state) outcome(id string) string {
	if o, ok := lookup(st.sc.Outcomes, id); ok {
		return o
	}
	if st.sc.DefaultOutcome != "" {
		return st.sc.DefaultOutcome
	}
	return Success
}

func lookup(m map[string]string, id string) (string, bool) {
	if v, ok := m[id]; ok {
		return v, true
	}
	for k, v := range m {
		if strings.EqualFold(k, id) {
			return v, true
		}
	}
	return "", false
}

// jobOutputs is OUT[x] as its dependents see it.
func (st *state) jobOutputs(j *workflowgraph.Job, result string) expr.Value {
	switch result {
	case Skipped, Cancelled:
		return expr.Object(nil) // a skipped job has no outputs (spec §6)
	case Unknown:
		return expr.Unknown(j.ID + " may or may not run")
	}
	given := map[string]string{}
	if g, ok := st.sc.Outputs[j.ID]; ok {
		given = g
	} else {
		for k, g := range st.sc.Outputs {
			if strings.EqualFold(k, j.ID) {
				given = g
			}
		}
	}
	// Declared outputs not given are unknown; a caller's outputs come from
	// the called workflow, so any name may exist. (One map built in place:
	// Value.Set copies the object on every call.)
	fields := make(map[string]expr.Value, len(j.Outputs)+len(given))
	for name := range j.Outputs {
		fields[strings.ToLower(name)] = expr.Unknown("needs." + j.ID + ".outputs." + name + " is not given")
	}
	for name, v := range given {
		name = strings.ToLower(name)
		if v == "" {
			// GitHub does not set an output whose value is empty (spec §6):
			// it reads as null, which is loose-equal to '' and renders as ''.
			// It is known, not unknown: `needs.x.outputs.y == 'true'` is false.
			if j.Uses != "" {
				fields[name] = expr.Null() // the open object would say unknown
			} else {
				delete(fields, name)
			}
			continue
		}
		fields[name] = expr.String(v)
	}
	obj := object(fields)
	obj.Open = j.Uses != ""
	return obj
}

func (st *state) env(j *workflowgraph.Job) *expr.Env {
	needs := make(map[string]expr.Value, len(j.Needs))
	for _, n := range j.Needs {
		nv, ok := st.need[n]
		if !ok {
			r := st.results[n]
			rv := expr.String(r)
			switch {
			case r == Unknown:
				rv = expr.Unknown(n + " may or may not run")
			case st.cancelSkip[n]:
				rv = expr.OneOf(n+" ends cancelled|skipped after the run cancel (which one is unknown)", expr.String(Cancelled), expr.String(Skipped))
			}
			nv = object(map[string]expr.Value{"result": rv, "outputs": st.outputs[n]})
			if _, decided := st.results[n]; decided {
				st.need[n] = nv
			}
		}
		needs[strings.ToLower(n)] = nv // no allocation: ids are lower-case
	}
	// One contexts map per run: only needs changes from job to job, and an
	// Env is used only while its job is decided.
	st.ctx["needs"] = object(needs)
	env := &expr.Env{Contexts: st.ctx, Cancelled: expr.Bool(st.sc.Cancelled)}
	env.Success, _, _ = st.successOf(j)
	env.Failure = st.failure(j)
	return env
}

// object wraps fields, whose keys are already lower-case (job ids and
// fixed names), as an object value without expr.Object's defensive copy:
// the map is built for this value alone.
func object(fields map[string]expr.Value) expr.Value {
	return expr.Value{Kind: expr.KindObject, Fields: fields}
}

// success is success() for j and, when false, the ancestor responsible.
func (st *state) success(j *workflowgraph.Job) (expr.Value, string) {
	v, a, r := st.successOf(j)
	switch {
	case st.sc.Cancelled:
		return v, "the run was cancelled"
	case a != "":
		return v, st.describe(j, a, r)
	}
	return v, ""
}

// successOf is success() for j and, when an ancestor makes it false, that
// ancestor and its result. env uses it directly: the description is a
// formatted string wanted only for a skip's reason.
func (st *state) successOf(j *workflowgraph.Job) (v expr.Value, bad, result string) {
	if st.sc.Cancelled {
		return expr.Bool(false), "", ""
	}
	var unknown string
	for _, a := range st.s.ancList[j.ID] {
		switch r := st.results[a]; r {
		case Success:
		case Unknown:
			if unknown == "" {
				unknown = a
			}
		default:
			return expr.Bool(false), a, r
		}
	}
	if unknown != "" {
		return expr.Unknown(unknown + " may or may not succeed"), "", ""
	}
	return expr.Bool(true), "", ""
}

func (st *state) failure(j *workflowgraph.Job) expr.Value {
	var unknown string
	for _, a := range st.s.ancList[j.ID] {
		switch st.results[a] {
		case Failure:
			return expr.Bool(true)
		case Unknown:
			if unknown == "" {
				unknown = a
			}
		}
	}
	if unknown != "" {
		return expr.Unknown(unknown + " may or may not fail")
	}
	return expr.Bool(false)
}

// describe names a non-successful ancestor a of j and how j reaches it.
func (st *state) describe(j *workflowgraph.Job, a, result string) string {
	verb := map[string]string{Failure: "failed", Skipped: "was skipped", Cancelled: "was cancelled"}[result]
	if verb == "" {
		verb = "ended " + result
	}
	for _, n := range j.Needs {
		if n == a {
			return fmt.Sprintf("%s %s (direct need)", a, verb)
		}
	}
	for _, n := range j.Needs {
		if st.s.anc[n][a] {
			return fmt.Sprintf("%s %s (ancestor via %s)", a, verb, n)
		}
	}
	return fmt.Sprintf("%s %s", a, verb)
}

func (st *state) job(j *workflowgraph.Job) Verdict {
	v := Verdict{ID: j.ID}
	if r, ok := lookup(st.sc.Results, j.ID); ok {
		v.Result, v.Verdict = r, VerdictRun
		v.Reason = "given by the scenario: " + r
		if r == Skipped {
			v.Verdict = VerdictSkip
		}
		return v
	}
	c := st.s.conds[j.ID]
	env := st.env(j)
	val := expr.Eval(c.root, env)
	switch {
	case val.Kind == expr.KindError:
		v.Verdict, v.Result = VerdictSkip, Failure
		v.Reason = "evaluating if: raises (" + val.Why + "), so GitHub fails the job without running it"
		return v
	case val.Kind == expr.KindUnknown && val.MayErr != "":
		v.Verdict, v.Result = VerdictUnknown, Unknown
		v.Reason = "condition may raise (" + val.MayErr + ")"
		return v
	}
	switch val.Truthy() {
	case expr.No:
		v.Verdict, v.Result = VerdictSkip, Skipped
		if st.sc.VerdictsOnly {
			v.Reason = "condition is false"
			break
		}
		v.Reason = st.explainFalse(j, c, c.root, env)
		if st.sc.Cancelled {
			// Whether such a job ends cancelled or skipped is unknown
			// (spec §5); both are non-success, so success() and failure()
			// see skipped, and needs.<id>.result is one of the two.
			st.cancelSkip[j.ID] = true
			if strings.HasSuffix(v.Reason, "the run was cancelled") {
				v.Reason += ", so it ends cancelled|skipped"
			} else {
				v.Reason += "; the run was cancelled, so it ends cancelled|skipped"
			}
		}
	case expr.Maybe:
		v.Verdict, v.Result = VerdictUnknown, Unknown
		why := val.Why
		if why == "" {
			why = "it depends on facts not given"
		}
		v.Reason = "condition is unknown: " + why
	default:
		v.Verdict = VerdictRun
		v.Reason = st.explainTrue(c)
		v.Result = st.outcome(j.ID)
		if v.Result == Failure && (j.ContinueOnError || j.ContinueOnErrorExpr != "") {
			if j.ContinueOnError {
				v.Result = Success
				v.Reason += "; fails, but continue-on-error makes it count as success"
			} else {
				v.Result = Unknown
				v.Reason += "; fails, and continue-on-error is an expression"
			}
		} else if v.Result != Success && v.Result != Unknown {
			v.Reason += "; ends " + v.Result + " (scenario)"
		}
	}
	return v
}

func (st *state) explainTrue(c *cond) string {
	switch {
	case c.root == c.implicit:
		return "implicit success() is true"
	case c.implicit != nil:
		return "implicit success() and the condition are true"
	case c.c.Templated:
		return "the if: is a string template with a status function, always true"
	}
	return "condition is true"
}

// explainFalse finds the conjunct that made a condition false.
func (st *state) explainFalse(j *workflowgraph.Job, c *cond, n actionlint.ExprNode, env *expr.Env) string {
	switch n := n.(type) {
	case *actionlint.LogicalOpNode:
		if n.Kind == actionlint.LogicalOpNodeKindAnd {
			if expr.Eval(n.Left, env).Truthy() == expr.No {
				return st.explainFalse(j, c, n.Left, env)
			}
			return st.explainFalse(j, c, n.Right, env)
		}
	case *actionlint.FuncCallNode:
		name := strings.ToLower(n.Callee)
		if name == "success" && len(n.Args) == 0 {
			_, why := st.success(j)
			if n == c.implicit {
				return "implicit success() is false: " + why
			}
			return "condition is false: success() is false: " + why
		}
		if name == "failure" && len(n.Args) == 0 {
			return "condition is false: failure() is false: no ancestor failed"
		}
	case *actionlint.NotOpNode:
		if f, ok := n.Operand.(*actionlint.FuncCallNode); ok && strings.EqualFold(f.Callee, "cancelled") {
			return "condition is false: the run was cancelled"
		}
	}
	return "condition is false: " + expr.Render(n) + " is false" + st.needsNote(n)
}

// needsNote lists the results of the direct needs an expression reads.
func (st *state) needsNote(n actionlint.ExprNode) string {
	var ids []string
	seen := map[string]bool{}
	actionlint.VisitExprNode(n, func(node, _ actionlint.ExprNode, entering bool) {
		if id := NeedsRef(node); entering && id != "" && !seen[id] {
			seen[id] = true
			ids = append(ids, id)
		}
	})
	var parts []string
	for _, id := range ids {
		if r, ok := st.results[id]; ok {
			if st.cancelSkip[id] {
				r = "cancelled|skipped"
			}
			parts = append(parts, id+": "+r)
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return " (" + strings.Join(parts, ", ") + ")"
}

// NeedsRef returns X when n is `needs.X`, "" otherwise.
func NeedsRef(n actionlint.ExprNode) string {
	d, ok := n.(*actionlint.ObjectDerefNode)
	if !ok {
		return ""
	}
	if v, ok := d.Receiver.(*actionlint.VariableNode); ok && v.Name == "needs" {
		return strings.ToLower(d.Property)
	}
	return ""
}
