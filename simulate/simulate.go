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
// A matrix job or a caller of a local reusable workflow has the scenario's
// outcome for the job, unless the scenario names one of its legs
// (JOB[k=v]) or called jobs (CALLER/INNER): then its result is aggregated
// from them as GitHub does.
package simulate

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/rhysd/actionlint"

	"github.com/cicheck/cicheck/expr"
	"github.com/cicheck/cicheck/workflowgraph"
)

// Result is a job's result (spec §6), Unknown for a job that may or may
// not run, or two results joined by "|" when timing decides between them.
type Result string

// Job results.
const (
	Success   Result = "success"
	Failure   Result = "failure"
	Cancelled Result = "cancelled"
	Skipped   Result = "skipped"
	Unknown   Result = "unknown"
)

// Decision is a job's verdict: whether it runs.
type Decision string

// Verdicts.
const (
	VerdictRun     Decision = "run"
	VerdictSkip    Decision = "skip"
	VerdictUnknown Decision = "unknown"
)

// Scenario is what the simulation assumes. The zero Scenario is "every job
// that runs succeeds, nothing else is known".
type Scenario struct {
	// Outcomes is the result of each job body that runs (job id →
	// success|failure|cancelled|unknown). Jobs not listed get
	// DefaultOutcome.
	Outcomes map[string]Result
	// DefaultOutcome is the outcome of unlisted jobs that run; "" means
	// success. Static checks use Unknown.
	DefaultOutcome Result
	// Results forces a job's result without evaluating its `if:`
	// (job id → success|failure|cancelled|skipped), e.g. --skip.
	Results map[string]Result
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
	// Outputs not given are evaluated as the runner evaluates them when the
	// job ends, where that needs no step (a literal; needs, matrix legs,
	// github, inputs, vars), else unknown. An empty value means the job ran and
	// left the output empty, which GitHub does not set at all (spec §6):
	// it reads as null (== '' is true, == 'true' is false).
	Outputs map[string]map[string]string
	// Set holds any other context fact by dotted path, e.g.
	// "github.ref" or "vars.RUN_GPU".
	Set map[string]string
	// LegOutcomes gives matrix legs of a job their own outcome (job id →
	// selections); the job's result is then aggregated from its legs.
	LegOutcomes map[string][]LegOutcome
	// calledFrom marks the scenario of a called workflow: its inputs are
	// the caller's with: (given or unknown), whatever the event.
	calledFrom bool
	// VerdictsOnly skips finding the conjunct that made a condition false
	// (a skip's Reason is then just "condition is false"): static checks
	// that simulate many scenarios read only verdicts and results.
	VerdictsOnly bool
}

// Verdict is the simulation's answer for one job.
type Verdict struct {
	ID string
	// Verdict is run, skip or unknown.
	Verdict Decision
	// Result is the job's result: success, failure, cancelled, skipped or
	// unknown.
	Result Result
	// Reason explains the verdict, e.g. "implicit success() is false:
	// stage-a-cpu failed (ancestor via docker-build)".
	Reason string
	// Legs holds the matrix legs of a job that runs when the scenario
	// names some of them (Scenario.LegOutcomes).
	Legs []LegVerdict
	// Called holds the verdicts of the jobs of the local reusable workflow
	// a caller job runs, when the scenario names one of them (CALLER/INNER).
	Called []Verdict
}

// Run simulates w under sc and returns one verdict per job, in dependency
// order (file order among independent jobs).
func Run(w *workflowgraph.Workflow, sc Scenario) []Verdict { return New(w).Run(sc) }

// Sim holds what every simulation of one workflow shares (dependency
// order, direct needs by position, effective conditions), so callers that
// run many scenarios pay it once. Nothing in it grows with the square of
// the workflow: a job's ancestors are never listed, success() and
// failure() follow from per-job summaries of its closure (state.anc).
type Sim struct {
	w     *workflowgraph.Workflow
	order []string
	// folded holds the ids of order lower-cased: the keys of the needs
	// context, which expressions read case-insensitively (needs.BUILD).
	folded []string
	jobs   []*workflowgraph.Job // in dependency order
	pos    map[string]int       // job id (as in Job.ID) → index in order; see at
	// needs holds each job's distinct known direct needs as positions, in
	// written order.
	needs [][]int
	conds []*cond
	// matrixFail is, per job, GitHub's error for a matrix of more than
	// workflowgraph.MaxLegs legs ("" for none): the job fails, no leg runs.
	matrixFail []string
	invalid    string
	// refused lists why GitHub refuses the file, in file order: no job runs.
	refused []workflowgraph.Refusal

	forcedOnce sync.Once
	forced     *Forced
	outsOnce   sync.Once
	outs       []jobOutputTemplates
}

// cond is a job's effective condition; implicit is the synthetic success()
// node GitHub adds, so reasons can name it.
type cond struct {
	c        *expr.Condition
	root     actionlint.ExprNode
	implicit *actionlint.FuncCallNode
}

// at returns the position of job id, compared case-insensitively as GitHub
// does: ids read from expressions (needs.BUILD) or scenarios need not be
// spelled as the job's key.
func (s *Sim) at(id string) (int, bool) {
	if p, ok := s.pos[id]; ok {
		return p, true
	}
	if j := s.w.Job(id); j != nil {
		p, ok := s.pos[j.ID]
		return p, ok
	}
	return 0, false
}

// New prepares w for simulation.
func New(w *workflowgraph.Workflow) *Sim {
	s := &Sim{w: w, pos: map[string]int{}}
	if w == nil {
		return s
	}
	s.order = w.TopoOrder()
	s.jobs = make([]*workflowgraph.Job, len(s.order))
	s.folded = make([]string, len(s.order))
	s.needs = make([][]int, len(s.order))
	s.conds = make([]*cond, len(s.order))
	s.matrixFail = make([]string, len(s.order))
	for i, id := range s.order {
		s.pos[id] = i
		s.folded[i] = strings.ToLower(id)
		s.jobs[i] = w.Job(id)
		if n, ok := workflowgraph.MatrixSize(s.jobs[i]); ok && n > workflowgraph.MaxLegs {
			produced := strconv.Itoa(n)
			if n >= 1<<20 {
				produced = "at least " + produced
			}
			s.matrixFail[i] = "Strategy for job '" + id + "' produced " + produced + " configurations which exceeds the maximum of " +
				strconv.Itoa(workflowgraph.MaxLegs) + " configurations (GitHub's error: no leg runs)"
		}
	}
	mark := make([]int, len(s.order)) // mark[p] == i+1: job i already lists need p
	for i, j := range s.jobs {
		for _, n := range j.Needs {
			if p, ok := s.pos[n]; ok && mark[p] != i+1 {
				mark[p] = i + 1
				s.needs[i] = append(s.needs[i], p)
			}
		}
	}
	for _, j := range w.Jobs {
		c := Condition(j)
		if c.Err != nil {
			s.refused = append(s.refused, workflowgraph.Refusal{Job: j.ID, Line: j.If.Line, Column: j.If.Column,
				Reason: fmt.Sprintf("the if: of job %s does not parse (%v)", j.ID, c.Err)})
		}
		s.conds[s.pos[j.ID]] = effective(c)
		for k, n := range j.Needs {
			if w.Job(n) == nil {
				r := workflowgraph.Refusal{Job: j.ID, Line: j.Line, Column: j.Column, Reason: fmt.Sprintf("job %s needs %s, which does not exist", j.ID, n)}
				if k < len(j.NeedsPos) {
					r.Line, r.Column = j.NeedsPos[k].Line, j.NeedsPos[k].Column
				}
				s.refused = append(s.refused, r)
				break
			}
		}
	}
	if len(w.Cycles) > 0 {
		first := w.Job(w.Cycles[0][0])
		s.refused = append(s.refused, workflowgraph.Refusal{Job: first.ID, Line: first.Line, Column: first.Column,
			Reason: "its needs form a cycle (" + strings.Join(w.Cycles[0], " → ") + ")"})
	}
	s.refused = append(s.refused, workflowgraph.Refusals(w)...)
	sort.SliceStable(s.refused, func(a, b int) bool {
		if s.refused[a].Line != s.refused[b].Line {
			return s.refused[a].Line < s.refused[b].Line
		}
		return s.refused[a].Column < s.refused[b].Column
	})
	if len(s.refused) > 0 {
		s.invalid = s.refused[0].Reason
	}
	return s
}

// Refused lists why GitHub refuses the workflow file as a whole (an if:
// that does not parse, a need that does not exist, a needs cycle, and
// workflowgraph.Refusals), in file order; when there is any, no job runs.
func (s *Sim) Refused() []workflowgraph.Refusal { return slices.Clone(s.refused) }

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

// state is one simulation in progress. Everything is indexed by position
// in dependency order.
type state struct {
	s        *Sim
	sc       Scenario
	outcomes map[string]Result // sc.Outcomes by lower-cased id
	forced   map[string]Result // sc.Results by lower-cased id
	// legOutcomes is sc.LegOutcomes by lower-cased id.
	legOutcomes map[string][]LegOutcome
	// calledOut holds a caller's outputs mapped from its called jobs, by
	// position, when the scenario simulated them.
	calledOut map[int]map[string]expr.Value
	given     map[string]map[string]string // sc.Outputs by lower-cased id
	results   []Result
	decided   []bool
	outputs   []expr.Value
	// need caches needs.<id> ({result, outputs}) once the job is decided:
	// every dependent reads the same value.
	need     []expr.Value
	haveNeed []bool
	// cancelSkip marks jobs skipped after a run cancel: they end cancelled
	// or skipped, and which one is unknown (spec §5).
	cancelSkip []bool
	// anc summarises each job's ancestor closure, built from its direct
	// needs' summaries: success() and failure() read it in O(1).
	anc []closure
	ctx map[string]expr.Value
}

// closure is what success() and failure() need to know about a job's
// transitive ancestors: the first (in dependency order) that ended neither
// success nor unknown, the first whose result is unknown, and whether any
// failed. Positions are -1 when there is none.
type closure struct {
	bad, unknown int
	failed       bool
}

// join adds need p (with result r and closure c) to the closure x.
func (x closure) join(p int, r Result, c closure) closure {
	switch r {
	case Success:
	case Unknown:
		x.unknown = minPos(x.unknown, p)
	default:
		x.bad = minPos(x.bad, p)
	}
	x.bad, x.unknown = minPos(x.bad, c.bad), minPos(x.unknown, c.unknown)
	x.failed = x.failed || r == Failure || c.failed
	return x
}

func minPos(a, b int) int {
	if a < 0 || (b >= 0 && b < a) {
		return b
	}
	return a
}

// Run simulates one scenario.
func (s *Sim) Run(sc Scenario) []Verdict {
	if s.w == nil {
		return nil
	}
	st := s.newState(sc)
	out := make([]Verdict, 0, len(s.order))
	for i := range s.order {
		out = append(out, st.decide(i))
	}
	return out
}

func (s *Sim) newState(sc Scenario) *state {
	if sc.InputTypes == nil && (len(sc.Inputs) > 0 || len(sc.Set) > 0) {
		sc.InputTypes = InputTypes(s.w)
	}
	n := len(s.order)
	return &state{s: s, sc: sc, outcomes: foldKeys(sc.Outcomes), forced: foldKeys(sc.Results), given: foldKeys(sc.Outputs), legOutcomes: foldKeys(sc.LegOutcomes),
		results: make([]Result, n), decided: make([]bool, n), outputs: make([]expr.Value, n),
		need: make([]expr.Value, n), haveNeed: make([]bool, n), cancelSkip: make([]bool, n), anc: make([]closure, n), ctx: Contexts(sc)}
}

// below re-runs base, a finished run, under sc, a scenario that differs
// from base's only in what it says about the jobs marked in changed and
// the jobs below them: every other job has the same inputs, so it keeps
// base's verdict, and only the marked jobs are decided again. It is Run
// for the fault matrix's rows in the time of the jobs each row changes.
func (s *Sim) below(base *state, baseOut []Verdict, sc Scenario, changed []bool) []Verdict {
	st := s.newState(sc)
	copy(st.results, base.results)
	copy(st.decided, base.decided)
	copy(st.outputs, base.outputs)
	copy(st.need, base.need)
	copy(st.haveNeed, base.haveNeed)
	copy(st.cancelSkip, base.cancelSkip)
	copy(st.anc, base.anc)
	for p, m := range base.calledOut {
		if !changed[p] {
			if st.calledOut == nil {
				st.calledOut = map[int]map[string]expr.Value{}
			}
			st.calledOut[p] = m
		}
	}
	out := slices.Clone(baseOut)
	for i := range s.order {
		if changed[i] {
			st.haveNeed[i], st.cancelSkip[i], st.decided[i] = false, false, false
			out[i] = st.decide(i)
		}
	}
	return out
}

// decide decides job i, whose needs are decided, and records its result
// and outputs for the jobs below it.
func (st *state) decide(i int) Verdict {
	s := st.s
	var v Verdict
	if s.invalid != "" {
		v = Verdict{ID: s.order[i], Verdict: VerdictSkip, Result: Skipped, Reason: "the workflow is invalid: " + s.invalid}
	} else {
		c := closure{bad: -1, unknown: -1}
		for _, p := range s.needs[i] {
			c = c.join(p, st.results[p], st.anc[p])
		}
		st.anc[i] = c
		v = st.job(i)
	}
	st.results[i], st.decided[i] = v.Result, true
	st.outputs[i] = st.jobOutputs(s.jobs[i], v.Result)
	if v.Result == Success || v.Result == Failure {
		// The runner evaluates a job's outputs when it ends, failed or not.
		st.outputs[i] = st.staticOutputs(i, st.outputs[i])
	}
	if m, ok := st.calledOut[i]; ok && st.outputs[i].Kind == expr.KindObject && v.Result != Skipped && v.Result != Cancelled {
		// The called workflow's outputs, unless the scenario gives one.
		fields := make(map[string]expr.Value, len(m))
		for k, x := range m {
			fields[k] = x
		}
		for k, x := range st.outputs[i].Fields {
			if _, given := st.given[s.folded[i]][k]; given {
				fields[k] = x
			}
		}
		st.outputs[i] = object(fields)
	}
	return v
}

// foldKeys re-keys m by lower-cased job id (GitHub compares job ids
// case-insensitively). A key already in lower case wins over one that only
// folds to it; among those, the first in sorted order.
func foldKeys[V any](m map[string]V) map[string]V {
	if len(m) == 0 {
		return nil
	}
	out := make(map[string]V, len(m))
	for _, k := range sortedKeys(m) {
		lk := strings.ToLower(k)
		if _, have := out[lk]; !have || k == lk {
			out[lk] = m[k]
		}
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
	switch strings.ToLower(sc.Event) {
	case "", "workflow_dispatch", "workflow_call":
	default:
		if sc.calledFrom {
			break
		}
		// GitHub fills the inputs context only for workflow_dispatch and
		// workflow_call: on any other event it is empty, so inputs.x is
		// null (docs: "Contexts", inputs context), not unknown.
		inputs = expr.Object(nil)
	}
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

// outcome is the scenario's outcome for the job whose lower-cased id is key.
func (st *state) outcome(key string) Result {
	if o, ok := st.outcomes[key]; ok {
		return o
	}
	if st.sc.DefaultOutcome != "" {
		return st.sc.DefaultOutcome
	}
	return Success
}

// jobOutputs is OUT[x] as its dependents see it.
func (st *state) jobOutputs(j *workflowgraph.Job, result Result) expr.Value {
	switch result {
	case Skipped, Cancelled:
		return expr.Object(nil) // a skipped job has no outputs (spec §6)
	case Unknown:
		return expr.Unknown(j.ID + " may or may not run")
	}
	given := st.given[strings.ToLower(j.ID)]
	// Declared outputs not given are unknown; a caller's outputs come from
	// the called workflow, so any name may exist. (One map built in place:
	// Value.Set copies the object on every call.)
	fields := make(map[string]expr.Value, len(j.Outputs)+len(given))
	for name := range j.Outputs {
		v := expr.Unknown("needs." + j.ID + ".outputs." + name + " is not given")
		if result == Failure {
			// It may have failed before setting it: the empty string.
			v = expr.Unknown(j.ID + " failed, perhaps before setting needs." + j.ID + ".outputs." + name)
			v.MayBeEmpty = true
		}
		fields[strings.ToLower(name)] = v
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

// needValue is needs.<id> of the job at position p, as every dependent
// reads it.
func (st *state) needValue(p int) expr.Value {
	if st.haveNeed[p] {
		return st.need[p]
	}
	n, r := st.s.order[p], st.results[p]
	rv := expr.String(string(r))
	switch {
	case r == Unknown:
		rv = expr.Unknown(n + " may or may not run")
	case st.cancelSkip[p]:
		rv = expr.OneOf(n+" ends cancelled|skipped after the run cancel (which one is unknown)", expr.String(string(Cancelled)), expr.String(string(Skipped)))
	}
	nv := object(map[string]expr.Value{"result": rv, "outputs": st.outputs[p]})
	st.need[p], st.haveNeed[p] = nv, true
	return nv
}

func (st *state) env(i int) *expr.Env {
	ps := st.s.needs[i]
	needs := make(map[string]expr.Value, len(ps))
	for _, p := range ps {
		needs[st.s.folded[p]] = st.needValue(p)
	}
	// One contexts map per run: only needs changes from job to job, and an
	// Env is used only while its job is decided.
	st.ctx["needs"] = object(needs)
	env := &expr.Env{Contexts: st.ctx, Cancelled: expr.Bool(st.sc.Cancelled)}
	env.Success, _, _ = st.successOf(i)
	env.Failure = st.failure(i)
	return env
}

// object wraps fields, whose keys are already lower-case (job ids and
// fixed names), as an object value without expr.Object's defensive copy:
// the map is built for this value alone.
func object(fields map[string]expr.Value) expr.Value {
	return expr.Value{Kind: expr.KindObject, Fields: fields}
}

// success is success() for job i and, when false, the ancestor responsible.
func (st *state) success(i int) (expr.Value, string) {
	v, a, r := st.successOf(i)
	switch {
	case st.sc.Cancelled:
		return v, "the run was cancelled"
	case a >= 0:
		return v, st.describe(i, a, r)
	}
	return v, ""
}

// successOf is success() for job i and, when an ancestor makes it false,
// the first such ancestor (in dependency order) and its result.
func (st *state) successOf(i int) (v expr.Value, bad int, result Result) {
	if st.sc.Cancelled {
		return expr.Bool(false), -1, ""
	}
	c := st.anc[i]
	switch {
	case c.bad >= 0:
		return expr.Bool(false), c.bad, st.results[c.bad]
	case c.unknown >= 0:
		return expr.Unknown(st.s.order[c.unknown] + " may or may not succeed"), -1, ""
	}
	return expr.Bool(true), -1, ""
}

func (st *state) failure(i int) expr.Value {
	c := st.anc[i]
	switch {
	case c.failed:
		return expr.Bool(true)
	case c.unknown >= 0:
		return expr.Unknown(st.s.order[c.unknown] + " may or may not fail")
	}
	return expr.Bool(false)
}

// describe names the non-successful ancestor a of job i and how i reaches
// it. a is the first bad ancestor of i, so it is an ancestor of a direct
// need n exactly when it is n's own first bad ancestor.
func (st *state) describe(i, a int, result Result) string {
	verb := map[Result]string{Failure: "failed", Skipped: "was skipped", Cancelled: "was cancelled"}[result]
	if verb == "" {
		verb = "ended " + string(result)
	}
	name := st.s.order[a]
	for _, p := range st.s.needs[i] {
		if p == a {
			return fmt.Sprintf("%s %s (direct need)", name, verb)
		}
	}
	for _, p := range st.s.needs[i] {
		if st.anc[p].bad == a {
			return fmt.Sprintf("%s %s (ancestor via %s)", name, verb, st.s.order[p])
		}
	}
	return fmt.Sprintf("%s %s", name, verb)
}

func (st *state) job(i int) Verdict {
	j := st.s.jobs[i]
	v := Verdict{ID: j.ID}
	if r, ok := st.forced[st.s.folded[i]]; ok {
		v.Result, v.Verdict = r, VerdictRun
		v.Reason = "given by the scenario: " + string(r)
		if r == Skipped {
			v.Verdict = VerdictSkip
		}
		return v
	}
	c := st.s.conds[i]
	env := st.env(i)
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
		v.Reason = st.explainFalse(i, c, c.root, env)
		if st.sc.Cancelled {
			// Whether such a job ends cancelled or skipped is unknown
			// (spec §5); both are non-success, so success() and failure()
			// see skipped, and needs.<id>.result is one of the two.
			st.cancelSkip[i] = true
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
		v.Result = st.outcome(st.s.folded[i])
		if r := st.s.matrixFail[i]; r != "" {
			v.Result = Failure
			v.Reason += "; ends failure: " + r
			return v
		}
		if j.Callee != nil {
			if inner, ok := innerScenario(st.sc, j); ok {
				var why string
				v.Result, why, v.Called = called(j, inner)
				if out := callerOutputs(j, inner, v.Called); out != nil {
					if st.calledOut == nil {
						st.calledOut = map[int]map[string]expr.Value{}
					}
					st.calledOut[i] = out
				}
				v.Reason += "; ends " + string(v.Result) + ": " + why
				return v
			}
		}
		if named := st.legOutcomes[st.s.folded[i]]; len(named) > 0 {
			var why string
			v.Result, why, v.Legs = st.legs(j, named, v.Result)
			v.Reason += "; ends " + string(v.Result) + ": " + why
			return v
		}
		if v.Result == Failure && (j.ContinueOnError || j.ContinueOnErrorExpr != "") {
			if j.ContinueOnError {
				v.Result = Success
				v.Reason += "; fails, but continue-on-error makes it count as success"
			} else {
				v.Result = Unknown
				v.Reason += "; fails, and continue-on-error is an expression"
			}
		} else if v.Result != Success && v.Result != Unknown {
			v.Reason += "; ends " + string(v.Result) + " (scenario)"
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
func (st *state) explainFalse(i int, c *cond, n actionlint.ExprNode, env *expr.Env) string {
	switch n := n.(type) {
	case *actionlint.LogicalOpNode:
		if n.Kind == actionlint.LogicalOpNodeKindAnd {
			if expr.Eval(n.Left, env).Truthy() == expr.No {
				return st.explainFalse(i, c, n.Left, env)
			}
			return st.explainFalse(i, c, n.Right, env)
		}
	case *actionlint.FuncCallNode:
		name := strings.ToLower(n.Callee)
		if name == "success" && len(n.Args) == 0 {
			_, why := st.success(i)
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
	return "condition is false: " + st.s.render(n) + " is false" + st.needsNote(n)
}

// render is expr.Render with each needs.<id> spelled as the key of the job
// it names: actionlint lower-cases property names, and outputs show ids as
// written.
func (s *Sim) render(n actionlint.ExprNode) string {
	return expr.RenderReplace(n, func(x actionlint.ExprNode) (string, bool) {
		if id := NeedsRef(x); id != "" {
			if j := s.w.Job(id); j != nil {
				return "needs." + j.ID, true
			}
		}
		return "", false
	})
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
		if p, ok := st.s.at(id); ok && st.decided[p] {
			r := st.results[p]
			if st.cancelSkip[p] {
				r = "cancelled|skipped"
			}
			parts = append(parts, st.s.order[p]+": "+string(r)) // the job's id as written, however read
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
