// Package explain answers, for one change, which workflows trigger, what
// every dorny/paths-filter filter decides (with a witness), and which jobs
// run, skip or cannot be decided, heavy and GPU jobs first with the runner
// they would wake. It is the engine behind `cicheck explain-diff`: changed
// files and parsed workflows in, a Report out; git and printing stay in the
// CLI.
package explain

import (
	"fmt"
	"io/fs"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/rhysd/actionlint"

	"github.com/cicheck/cicheck/expr"
	"github.com/cicheck/cicheck/pathsfilter"
	"github.com/cicheck/cicheck/workflowgraph"
)

// Options are the facts of the simulated pull request or push.
type Options struct {
	// Event is the triggering event (default pull_request).
	Event string
	// Labels is the pull request's complete label set (none given: none).
	Labels []string
	// Set supplies other context values (`github.repository`, `vars.X`,
	// `inputs.X`); anything not set stays unknown.
	Set map[string]string
	// Classifier marks heavy and GPU jobs (may be nil).
	Classifier *workflowgraph.Classifier
	// PathsFilter is the tag table for dorny/paths-filter refs.
	PathsFilter pathsfilter.Config
}

// Verdicts of a job.
const (
	Run     = "run"
	Skip    = "skip"
	Unknown = "unknown"
)

// Report is the whole answer; its JSON form is explain-diff's version-1
// schema.
type Report struct {
	Version   int         `json:"version"`
	Workflows []*Workflow `json:"workflows"`
}

// Workflow is one workflow's answer. Triggered is nil when unknown.
type Workflow struct {
	File      string    `json:"file"`
	Triggered *bool     `json:"triggered"`
	Filters   []*Filter `json:"filters"`
	Jobs      []*Job    `json:"jobs"`
	// TriggerReason explains Triggered (not part of the JSON schema).
	TriggerReason string `json:"-"`
}

// Filter is one filter of one paths-filter step. Match and Count are nil
// when unknown.
type Filter struct {
	Job     string               `json:"job"`
	Step    string               `json:"step"`
	Name    string               `json:"name"`
	Match   *bool                `json:"match"`
	Count   *int                 `json:"count"`
	Files   []string             `json:"files"`
	Witness *pathsfilter.Witness `json:"witness"`
	Reason  string               `json:"-"`
}

// Job is one job's verdict.
type Job struct {
	ID      string `json:"id"`
	Verdict string `json:"verdict"`
	Reason  string `json:"reason"`
	Heavy   bool   `json:"heavy"`
	GPU     bool   `json:"gpu"`
	Runner  string `json:"runner"`
	// Name is the job's display name (not part of the JSON schema).
	Name string `json:"-"`
	// Changed is set by the workflow-change advisory (not in JSON).
	Changed bool `json:"-"`
}

// Explain simulates every workflow on the changed files. fsys is the
// repository root (for filter files; may be nil).
func Explain(files []pathsfilter.ChangedFile, wfs []*workflowgraph.Workflow, fsys fs.FS, o Options) *Report {
	if o.Event == "" {
		o.Event = "pull_request"
	}
	r := &Report{Version: 1, Workflows: []*Workflow{}}
	for _, w := range wfs {
		r.Workflows = append(r.Workflows, explainOne(files, w, fsys, o))
	}
	return r
}

func boolp(b bool) *bool { return &b }

// triggered decides whether the event, with its path filters, starts w.
func triggered(files []pathsfilter.ChangedFile, w *workflowgraph.Workflow, event string) (pathsfilter.Tri, string) {
	if w.AST == nil {
		return pathsfilter.False, "the workflow does not parse"
	}
	for _, ev := range w.AST.On {
		if !strings.EqualFold(ev.EventName(), event) {
			continue
		}
		we, ok := ev.(*actionlint.WebhookEvent)
		if !ok || !pathsfilter.IsPathFilteredEvent(event) || (we.Paths.IsEmpty() && we.PathsIgnore.IsEmpty()) {
			return pathsfilter.True, "on." + event
		}
		if !we.Paths.IsEmpty() && !we.PathsIgnore.IsEmpty() {
			return pathsfilter.False, fmt.Sprintf("on.%s sets both paths and paths-ignore: GitHub rejects the workflow", event)
		}
		flt, key := we.Paths, "paths"
		if flt.IsEmpty() {
			flt, key = we.PathsIgnore, "paths-ignore"
		}
		var pats []string
		for _, v := range flt.Values {
			pats = append(pats, v.Value)
		}
		var g *pathsfilter.GitHubPaths
		var err error
		if key == "paths" {
			g, err = pathsfilter.CompileGitHubPaths(pats)
		} else {
			g, err = pathsfilter.CompileGitHubPathsIgnore(pats)
		}
		if err != nil {
			return pathsfilter.Unknown, fmt.Sprintf("on.%s.%s: %v", event, key, err)
		}
		paths := make([]string, len(files))
		for i, f := range files {
			paths[i] = f.Path
		}
		ok, d := g.Triggers(paths)
		why := ""
		switch {
		case ok && d.Pattern != "":
			why = fmt.Sprintf("on.%s.%s: %s matches %q", event, key, d.Witness, d.Pattern)
		case ok:
			why = fmt.Sprintf("on.%s.%s: %s is not ignored", event, key, d.Witness)
		case len(paths) == 0:
			why = "no changed files"
		default:
			why = fmt.Sprintf("on.%s.%s: no changed file passes", event, key)
		}
		if d.Truncated {
			why += fmt.Sprintf(" (only the first %d files are considered)", pathsfilter.GitHubMaxFiles)
		}
		if !d.Known {
			return pathsfilter.Unknown, why + "; `!` inside paths-ignore is undocumented"
		}
		if ok {
			return pathsfilter.True, why
		}
		return pathsfilter.False, why
	}
	return pathsfilter.False, "not triggered by " + event
}

// stepOutcome is a simulated paths-filter step.
type stepOutcome struct {
	step *pathsfilter.Step
	res  pathsfilter.StepResult
}

func explainOne(files []pathsfilter.ChangedFile, w *workflowgraph.Workflow, fsys fs.FS, o Options) *Workflow {
	out := &Workflow{File: w.Path, Filters: []*Filter{}, Jobs: []*Job{}}
	trig, why := triggered(files, w, o.Event)
	out.TriggerReason = why
	if trig != pathsfilter.Unknown {
		out.Triggered = boolp(trig == pathsfilter.True)
	}
	steps := pathsfilter.FindSteps(w.AST, w.Source, w.Path, fsys, o.PathsFilter)
	byJob := map[string][]stepOutcome{}
	for _, s := range steps {
		res := s.Evaluate(files)
		byJob[s.JobID] = append(byJob[s.JobID], stepOutcome{s, res})
		name := s.ID
		if name == "" {
			name = fmt.Sprintf("#%d", s.Index+1)
		}
		for _, fr := range res.Results {
			f := &Filter{Job: s.Job, Step: name, Name: fr.Name, Files: fr.Files, Witness: fr.Witness, Reason: fr.Reason}
			if f.Files == nil {
				f.Files = []string{}
			}
			if fr.Match != pathsfilter.Unknown {
				f.Match = boolp(fr.Match == pathsfilter.True)
			}
			if fr.CountKnown {
				n := fr.Count
				f.Count = &n
			}
			out.Filters = append(out.Filters, f)
		}
	}
	sim := &simulation{w: w, o: o, steps: byJob, trig: trig, trigWhy: why,
		result: map[string]string{}, outputs: map[string]expr.Value{}, facts: map[string]string{}}
	for _, id := range w.TopoOrder() {
		sim.job(id)
	}
	var heavy, rest []*Job
	for _, j := range w.Jobs {
		v := sim.verdicts[j.ID]
		if v == nil {
			continue
		}
		if v.Heavy || v.GPU {
			heavy = append(heavy, v)
		} else {
			rest = append(rest, v)
		}
	}
	out.Jobs = append(heavy, rest...)
	return out
}

// Job results in the simulation.
const (
	resSuccess = "success"
	resFailure = "failure"
	resSkipped = "skipped"
	resUnknown = "unknown"
)

type simulation struct {
	w       *workflowgraph.Workflow
	o       Options
	steps   map[string][]stepOutcome
	trig    pathsfilter.Tri
	trigWhy string

	result   map[string]string
	outputs  map[string]expr.Value // job id -> its outputs object (or unknown)
	facts    map[string]string     // "job/output" -> fact text for reasons
	verdicts map[string]*Job
}

func runnerText(r workflowgraph.Runner) string {
	parts := append(append([]string(nil), r.Labels...), r.Symbolic...)
	if r.Group != "" {
		parts = append(parts, "group:"+r.Group)
	}
	return strings.Join(parts, ", ")
}

func (s *simulation) job(id string) {
	if s.verdicts == nil {
		s.verdicts = map[string]*Job{}
	}
	j := s.w.Job(id)
	if j == nil {
		return
	}
	v := &Job{ID: j.ID, Name: j.Name, Runner: runnerText(j.Runner)}
	if s.o.Classifier != nil {
		v.Heavy, v.GPU = s.o.Classifier.IsHeavy(j), s.o.Classifier.IsGPU(j)
	}
	s.verdicts[id] = v
	if s.trig == pathsfilter.False {
		v.Verdict, v.Reason = Skip, "workflow not triggered: "+s.trigWhy
		s.result[id] = resSkipped
		return
	}
	env := s.env(j)
	raw := ""
	if j.AST != nil && j.AST.If != nil {
		raw = j.AST.If.Value
	}
	cond := expr.ParseCondition(raw)
	val := cond.Eval(env)
	truth := val.Truthy()
	if val.Kind == expr.KindError {
		v.Verdict, v.Reason = Skip, "if: raises "+val.Why+"; the job fails"
		s.result[id] = resFailure
		s.outputs[id] = expr.Object(nil)
		return
	}
	if s.trig == pathsfilter.Unknown && truth == expr.Yes {
		truth = expr.Maybe
	}
	facts := s.reason(j, raw, env, val)
	switch truth {
	case expr.Yes:
		v.Verdict = Run
		s.result[id] = resSuccess
		s.runOutputs(j)
	case expr.No:
		v.Verdict = Skip
		s.result[id] = resSkipped
		s.outputs[id] = expr.Object(nil) // a skipped job has no outputs
	default:
		v.Verdict = Unknown
		s.result[id] = resUnknown
		s.outputs[id] = expr.Unknown("job " + id + " may or may not run")
	}
	v.Reason = facts
	if s.trig == pathsfilter.Unknown {
		v.Reason = "trigger unknown (" + s.trigWhy + "); " + v.Reason
	}
}

// env builds the expression environment for j's `if:`.
func (s *simulation) env(j *workflowgraph.Job) *expr.Env {
	o := s.o
	gh := expr.OpenObject(map[string]expr.Value{"event_name": expr.String(o.Event)})
	event := expr.OpenObject(nil)
	if strings.HasPrefix(o.Event, "pull_request") {
		labels := make([]expr.Value, 0, len(o.Labels))
		for _, l := range o.Labels {
			labels = append(labels, expr.Object(map[string]expr.Value{"name": expr.String(l)}))
		}
		event = event.Set("pull_request", expr.OpenObject(map[string]expr.Value{"labels": expr.Array(labels...)}))
	} else {
		event = event.Set("pull_request", expr.Null())
	}
	gh = gh.Set("event", event)
	ctx := map[string]expr.Value{"github": gh, "vars": expr.OpenObject(nil), "inputs": expr.OpenObject(nil)}
	keys := make([]string, 0, len(o.Set))
	for k := range o.Set {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		head, rest, ok := strings.Cut(strings.ToLower(k), ".")
		val := setValue(o.Set[k])
		if !ok {
			ctx[head] = val
			continue
		}
		base, have := ctx[head]
		if !have {
			base = expr.OpenObject(nil)
		}
		ctx[head] = base.Set(rest, val)
	}
	needs := map[string]expr.Value{}
	for _, n := range j.Needs {
		res := s.result[n]
		if res == "" || res == resUnknown {
			needs[n] = expr.Unknown("the result of " + n + " is unknown")
			continue
		}
		out := s.outputs[n]
		if out.Kind == 0 {
			out = expr.Object(nil)
		}
		needs[n] = expr.Object(map[string]expr.Value{"result": expr.String(res), "outputs": out})
	}
	ctx["needs"] = expr.Object(needs)
	env := &expr.Env{Contexts: ctx, Cancelled: expr.Bool(false)}
	// Gate semantics (gha-job-status §4): success() needs every transitive
	// ancestor to have succeeded; failure() is any ancestor failed.
	succ, fail := expr.Yes, expr.No
	for _, a := range s.w.Ancestors(j.ID) {
		switch s.result[a] {
		case resSuccess:
		case resFailure:
			succ, fail = expr.No, expr.Yes
		case resSkipped:
			succ = expr.No
		default:
			if succ == expr.Yes {
				succ = expr.Maybe
			}
			if fail == expr.No {
				fail = expr.Maybe
			}
		}
	}
	env.Success, env.Failure = triValue(succ, "an ancestor's result is unknown"), triValue(fail, "an ancestor's result is unknown")
	return env
}

func triValue(t expr.Tri, why string) expr.Value {
	switch t {
	case expr.Yes:
		return expr.Bool(true)
	case expr.No:
		return expr.Bool(false)
	}
	return expr.Unknown(why)
}

// setValue reads a --set value: true/false/null as such, else a string.
func setValue(v string) expr.Value {
	switch v {
	case "true":
		return expr.Bool(true)
	case "false":
		return expr.Bool(false)
	case "null":
		return expr.Null()
	}
	return expr.String(v)
}

// runOutputs computes the outputs of a job that runs: paths-filter step
// outputs are known; anything else is unknown.
func (s *simulation) runOutputs(j *workflowgraph.Job) {
	steps := map[string]expr.Value{}
	failed := false
	for _, so := range s.steps[j.ID] {
		if so.step.ID == "" {
			continue
		}
		outs := map[string]expr.Value{}
		switch {
		case so.res.Failed:
			failed = true
		case so.res.Unknown:
			steps[strings.ToLower(so.step.ID)] = expr.Unknown(so.res.Reason)
			continue
		default:
			for k, v := range so.res.Outputs {
				if v.Known {
					outs[k] = expr.String(v.Value)
				} else {
					outs[k] = expr.Unknown("filter result unknown")
				}
			}
		}
		steps[strings.ToLower(so.step.ID)] = expr.OpenObject(map[string]expr.Value{"outputs": expr.Object(outs)})
	}
	if failed {
		s.result[j.ID] = resFailure
	}
	env := &expr.Env{Contexts: map[string]expr.Value{"steps": expr.OpenObject(steps)}}
	outs := map[string]expr.Value{}
	for name, raw := range j.Outputs {
		v := evalTemplate(raw, env)
		if v.Kind == expr.KindString && v.Str == "" {
			continue // empty outputs are not set
		}
		outs[name] = v
		if m := stepsOutRE.FindStringSubmatch(raw); m != nil {
			s.facts[j.ID+"/"+name] = s.filterFact(j.ID, m[1], m[2])
		}
	}
	s.outputs[j.ID] = expr.Object(outs)
}

var (
	stepsOutRE = regexp.MustCompile(`steps\.([A-Za-z_][A-Za-z0-9_-]*)\.outputs\.([A-Za-z_][A-Za-z0-9_-]*)`)
	needsOutRE = regexp.MustCompile(`needs\.([A-Za-z_][A-Za-z0-9_-]*)\.outputs\.([A-Za-z_][A-Za-z0-9_-]*)`)
	labelRE    = regexp.MustCompile(`labels\.\*\.name\s*,\s*'([^']*)'`)
)

// filterFact describes a filter output for reasons: the witness when true.
func (s *simulation) filterFact(job, stepID, output string) string {
	for _, so := range s.steps[job] {
		if !strings.EqualFold(so.step.ID, stepID) {
			continue
		}
		for _, r := range so.res.Results {
			if r.Name == output && r.Match == pathsfilter.True && r.Witness != nil {
				return fmt.Sprintf("%s matches %q", r.Witness.File, r.Witness.Pattern)
			}
			if r.Name == output && r.Match == pathsfilter.Unknown && r.Reason != "" {
				return r.Reason
			}
		}
		if so.res.Failed {
			return "paths-filter step fails: " + so.res.FailReason
		}
	}
	return ""
}

// evalTemplate evaluates a job output value: literal text, one `${{ x }}`,
// or text around expressions (format).
func evalTemplate(raw string, env *expr.Env) expr.Value {
	if !strings.Contains(raw, "${{") {
		return expr.String(raw)
	}
	var b strings.Builder
	rest := raw
	for {
		i := strings.Index(rest, "${{")
		if i < 0 {
			b.WriteString(rest)
			break
		}
		k := strings.Index(rest[i:], "}}")
		if k < 0 {
			return expr.Unknown("unterminated expression")
		}
		b.WriteString(rest[:i])
		n, err := expr.Parse(rest[i+3 : i+k])
		if err != nil {
			return expr.Unknown(err.Error())
		}
		v := expr.Eval(n, env)
		if !v.Known() {
			return v
		}
		b.WriteString(v.Text())
		rest = rest[i+k+2:]
	}
	return expr.String(b.String())
}

// reason explains a verdict from the facts the condition reads.
func (s *simulation) reason(j *workflowgraph.Job, raw string, env *expr.Env, val expr.Value) string {
	var parts []string
	for _, a := range s.w.Ancestors(j.ID) {
		if r := s.result[a]; r == resSkipped || r == resFailure {
			if cond := expr.ParseCondition(raw); cond.Implicit() {
				parts = append(parts, fmt.Sprintf("needs %s, which is %s (implicit success())", a, r))
				return strings.Join(parts, "; ")
			}
		}
	}
	seen := map[string]bool{}
	for _, m := range needsOutRE.FindAllStringSubmatch(raw, -1) {
		key := strings.ToLower(m[1] + "/" + m[2])
		if seen[key] {
			continue
		}
		seen[key] = true
		v := env.Contexts["needs"].Get(m[1]).Get("outputs").Get(m[2])
		txt := fmt.Sprintf("%s=%s", m[2], valueText(v))
		if f := s.facts[key]; f != "" && v.Kind != expr.KindNull {
			txt += " (" + f + ")"
		}
		parts = append(parts, txt)
	}
	for _, m := range labelRE.FindAllStringSubmatch(raw, -1) {
		state := "absent"
		if slices.Contains(s.o.Labels, m[1]) {
			state = "present"
		}
		if !strings.HasPrefix(s.o.Event, "pull_request") {
			state = "n/a for " + s.o.Event
		}
		parts = append(parts, fmt.Sprintf("label %s %s", m[1], state))
	}
	if val.Truthy() == expr.Maybe && val.Why != "" {
		why := val.Why
		if m := regexp.MustCompile(`^(github|vars|inputs)\.[A-Za-z0-9_.-]+`).FindString(why); m != "" {
			why += fmt.Sprintf(" (--set %s=...)", m)
		}
		parts = append(parts, why)
	}
	if raw == "" {
		if len(j.Needs) == 0 {
			return "no condition"
		}
		return "no condition; needs succeed"
	}
	if len(parts) == 0 {
		return "if: " + strings.TrimSpace(raw) + " is " + val.Truthy().String()
	}
	return strings.Join(parts, "; ")
}

func valueText(v expr.Value) string {
	switch v.Kind {
	case expr.KindUnknown:
		return "unknown"
	case expr.KindNull:
		return "unset"
	case expr.KindString:
		return v.Str
	}
	return v.String()
}
