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
	"maps"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/rhysd/actionlint"

	"github.com/cicheck/cicheck/expr"
	"github.com/cicheck/cicheck/pathsfilter"
	"github.com/cicheck/cicheck/reach"
	"github.com/cicheck/cicheck/simulate"
	"github.com/cicheck/cicheck/workflowgraph"
)

// Options are the facts of the simulated pull request or push.
type Options struct {
	// Event is the triggering event (default pull_request).
	Event string
	// Labels is the pull request's complete label set (none given: none,
	// unless LabelsUnknown).
	Labels []string
	// LabelsUnknown: with no Labels, the label set is unknown rather than
	// empty, so a condition that reads a label stays undecided (replay:
	// the labels old pull requests carried are not in git).
	LabelsUnknown bool
	// Set supplies other context values (`github.repository`, `vars.X`,
	// `inputs.X`); anything not set stays unknown.
	Set map[string]string
	// Classifier marks heavy and GPU jobs (may be nil).
	Classifier *workflowgraph.Classifier
	// PathsFilter is the tag table for dorny/paths-filter refs.
	PathsFilter pathsfilter.Config
}

// Verdicts of a job: the simulator's (one vocabulary, one type).
const (
	Run     = simulate.VerdictRun
	Skip    = simulate.VerdictSkip
	Unknown = simulate.VerdictUnknown
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
	ID      string            `json:"id"`
	Verdict simulate.Decision `json:"verdict"`
	Reason  string            `json:"reason"`
	Heavy   bool              `json:"heavy"`
	GPU     bool              `json:"gpu"`
	Runner  string            `json:"runner"`
	// Name is the job's display name (not part of the JSON schema).
	Name string `json:"-"`
	// Changed is set by the workflow-change advisory (not in JSON).
	Changed bool `json:"-"`
	// Needs are the job's direct needs, for the graph (not in JSON).
	Needs []string `json:"-"`
	// Explicit: the job's if: calls a status function (the graph's
	// hexagon; not in JSON).
	Explicit bool `json:"-"`
}

// Explain simulates every workflow on the changed files. fsys is the
// repository root (for filter files; may be nil).
func Explain(files []pathsfilter.ChangedFile, wfs []*workflowgraph.Workflow, fsys fs.FS, o Options) *Report {
	return Prepare(wfs, fsys, o).Explain(files)
}

// Prepared holds what explaining many changes against the same workflows
// shares, so `cicheck replay` pays it once per side rather than once per
// commit: each workflow's paths-filter steps (filters parsed), its
// on.<event> trigger (branch filter decided, path filter compiled) and its
// job simulator.
type Prepared struct {
	o   Options
	wfs []*prepared
}

type prepared struct {
	w     *workflowgraph.Workflow
	trig  trigger
	steps []*pathsfilter.Step
	sim   *simulate.Sim
	// outputs holds each job's output templates, parsed (job id → name).
	outputs map[string]map[string]*expr.Template
	// runs memoises the simulator by scenario: changes that set the same
	// filter outputs (most of a history) share one simulation.
	mu   sync.Mutex
	runs map[string][]simulate.Verdict
	// reach is the workflow's never-runs analysis, done once.
	reach func() reach.Result
}

// Prepare parses and compiles wfs for o. fsys is the repository root (for
// filter files; may be nil).
func Prepare(wfs []*workflowgraph.Workflow, fsys fs.FS, o Options) *Prepared {
	if o.Event == "" {
		o.Event = "pull_request"
	}
	p := &Prepared{o: o}
	for _, w := range wfs {
		pw := &prepared{w: w, trig: compileTrigger(w, o.Event, o.Set),
			steps: pathsfilter.FindSteps(w.AST, w.Source, w.Path, fsys, o.PathsFilter), sim: simulate.New(w),
			outputs: map[string]map[string]*expr.Template{}, runs: map[string][]simulate.Verdict{}}
		pw.reach = sync.OnceValue(func() reach.Result { return reach.Analyze(w) })
		for _, j := range w.Jobs {
			if len(j.Outputs) == 0 {
				continue
			}
			pw.outputs[j.ID] = map[string]*expr.Template{}
			for name, raw := range j.Outputs {
				pw.outputs[j.ID][name] = expr.ParseTemplate(raw)
			}
		}
		p.wfs = append(p.wfs, pw)
	}
	return p
}

// Explain simulates every prepared workflow on the changed files.
func (p *Prepared) Explain(files []pathsfilter.ChangedFile) *Report {
	return p.report(files, false)
}

// Verdicts is Explain without the explanations: each job's verdict and
// class, no filters, no reasons. Replay counts thousands of changes with
// it and explains only the few it shows.
func (p *Prepared) Verdicts(files []pathsfilter.ChangedFile) *Report {
	return p.report(files, true)
}

func (p *Prepared) report(files []pathsfilter.ChangedFile, brief bool) *Report {
	r := &Report{Version: 1, Workflows: []*Workflow{}}
	for _, pw := range p.wfs {
		r.Workflows = append(r.Workflows, explainOne(files, pw, p.o, brief))
	}
	return r
}

func boolp(b bool) *bool { return &b }

// trigger is a workflow's on.<event> with everything that does not depend
// on the changed files decided: fixed triggers (no such event, an event
// without path filters, a branch filter that excludes) carry their answer.
type trigger struct {
	fixed bool
	t     pathsfilter.Tri
	why   string
	// brWhy explains a branch filter that passed ("" when none).
	brWhy string
	// The path filter: key is paths or paths-ignore; err a pattern that
	// does not compile.
	g     *pathsfilter.GitHubPaths
	key   string
	err   error
	event string
}

func compileTrigger(w *workflowgraph.Workflow, event string, set map[string]string) trigger {
	if w.AST == nil {
		return trigger{fixed: true, t: pathsfilter.False, why: "the workflow does not parse"}
	}
	for _, ev := range w.AST.On {
		if !strings.EqualFold(ev.EventName(), event) {
			continue
		}
		we, ok := ev.(*actionlint.WebhookEvent)
		if !ok {
			return trigger{fixed: true, t: pathsfilter.True, why: "on." + event}
		}
		br, brWhy := branchFilter(we, event, set)
		if br == pathsfilter.False {
			return trigger{fixed: true, t: br, why: brWhy}
		}
		tr := compilePathFilter(we, event)
		if tr.fixed && tr.t != pathsfilter.False && brWhy != "" {
			tr.why += "; " + brWhy
		}
		tr.brWhy = brWhy
		return tr
	}
	return trigger{fixed: true, t: pathsfilter.False, why: "not triggered by " + event}
}

// decide says whether the event, with its path filters, starts the
// workflow for files.
func (tr *trigger) decide(files []pathsfilter.ChangedFile) (pathsfilter.Tri, string) {
	if tr.fixed {
		return tr.t, tr.why
	}
	t, why := tr.pathFilter(files)
	if t == pathsfilter.False || tr.brWhy == "" {
		return t, why
	}
	return t, why + "; " + tr.brWhy
}

// branchFilter decides on.<event>.branches / branches-ignore against the
// branch given with --set: github.base_ref for a pull request (GitHub
// matches its base branch), github.ref for a push. With no branch given
// the filter is not checked, and the reason says so rather than passing it
// silently. "" means the event has no branch filter.
func branchFilter(we *actionlint.WebhookEvent, event string, set map[string]string) (pathsfilter.Tri, string) {
	flt, key := we.Branches, "branches"
	if flt.IsEmpty() {
		flt, key = we.BranchesIgnore, "branches-ignore"
	}
	if flt.IsEmpty() {
		return pathsfilter.True, ""
	}
	ctxKey, what, hint := "github.base_ref", "base branch", "BRANCH"
	if !strings.HasPrefix(strings.ToLower(event), "pull_request") {
		ctxKey, what, hint = "github.ref", "branch", "refs/heads/BRANCH"
	}
	branch, given := "", false
	for k, v := range set {
		if strings.EqualFold(k, ctxKey) {
			branch, given = strings.TrimPrefix(v, "refs/heads/"), true
		}
	}
	if !given || branch == "" {
		return pathsfilter.True, fmt.Sprintf("its %s filter is not checked (--set %s=%s)", key, ctxKey, hint)
	}
	var pats []string
	for _, v := range flt.Values {
		pats = append(pats, v.Value)
	}
	var g *pathsfilter.GitHubPaths
	var err error
	if key == "branches" {
		g, err = pathsfilter.CompileGitHubPaths(pats)
	} else {
		g, err = pathsfilter.CompileGitHubPathsIgnore(pats)
	}
	if err != nil {
		return pathsfilter.True, fmt.Sprintf("its %s filter is not checked: %v", key, err)
	}
	ok, d := g.Triggers([]string{branch})
	switch {
	case !d.Known:
		return pathsfilter.True, fmt.Sprintf("its %s filter is not checked: `!` inside %s is undocumented", key, key)
	case ok && key == "branches":
		return pathsfilter.True, fmt.Sprintf("on.%s.%s: %s matches %q", event, key, branch, d.Pattern)
	case ok:
		return pathsfilter.True, fmt.Sprintf("on.%s.%s: %s is not ignored", event, key, branch)
	case key == "branches":
		return pathsfilter.False, fmt.Sprintf("on.%s.%s: %s %s is not included", event, key, what, branch)
	}
	return pathsfilter.False, fmt.Sprintf("on.%s.%s: %s %s is ignored", event, key, what, branch)
}

// compilePathFilter compiles on.<event>.paths / paths-ignore.
func compilePathFilter(we *actionlint.WebhookEvent, event string) trigger {
	if !pathsfilter.IsPathFilteredEvent(event) || (we.Paths.IsEmpty() && we.PathsIgnore.IsEmpty()) {
		return trigger{fixed: true, t: pathsfilter.True, why: "on." + event}
	}
	if !we.Paths.IsEmpty() && !we.PathsIgnore.IsEmpty() {
		return trigger{fixed: true, t: pathsfilter.False, why: fmt.Sprintf("on.%s sets both paths and paths-ignore: GitHub rejects the workflow", event)}
	}
	flt, key := we.Paths, "paths"
	if flt.IsEmpty() {
		flt, key = we.PathsIgnore, "paths-ignore"
	}
	var pats []string
	for _, v := range flt.Values {
		pats = append(pats, v.Value)
	}
	tr := trigger{key: key, event: event}
	if key == "paths" {
		tr.g, tr.err = pathsfilter.CompileGitHubPaths(pats)
	} else {
		tr.g, tr.err = pathsfilter.CompileGitHubPathsIgnore(pats)
	}
	return tr
}

// pathFilter decides the compiled on.<event>.paths / paths-ignore for the
// changed files.
func (tr *trigger) pathFilter(files []pathsfilter.ChangedFile) (pathsfilter.Tri, string) {
	event, key, g := tr.event, tr.key, tr.g
	if tr.err != nil {
		return pathsfilter.Unknown, fmt.Sprintf("on.%s.%s: %v", event, key, tr.err)
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

// stepOutcome is a simulated paths-filter step.
type stepOutcome struct {
	step *pathsfilter.Step
	res  pathsfilter.StepResult
}

func explainOne(files []pathsfilter.ChangedFile, pw *prepared, o Options, brief bool) *Workflow {
	w := pw.w
	out := &Workflow{File: w.Path, Filters: []*Filter{}, Jobs: []*Job{}}
	trig, why := pw.trig.decide(files)
	out.TriggerReason = why
	if trig != pathsfilter.Unknown {
		out.Triggered = boolp(trig == pathsfilter.True)
	}
	steps := pw.steps
	byJob := map[string][]stepOutcome{}
	for _, s := range steps {
		stepFiles := files
		if s.UsesAPI(o.Event) && len(files) > pathsfilter.APIMaxFiles {
			stepFiles = files[:pathsfilter.APIMaxFiles] // the API's cap
		}
		res := s.Evaluate(stepFiles)
		byJob[s.JobID] = append(byJob[s.JobID], stepOutcome{s, res})
		if brief {
			continue
		}
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
	out.Jobs = verdicts(pw, o, byJob, trig, why, brief)
	return out
}

// verdicts runs the job-status simulator (package simulate: implicit
// success() over transitive ancestors, three-valued if: evaluation) with
// the paths-filter outputs as the jobs' outputs, and explains each verdict
// with the facts its condition reads. Heavy and GPU jobs come first.
func verdicts(pw *prepared, o Options, steps map[string][]stepOutcome, trig pathsfilter.Tri, trigWhy string, brief bool) []*Job {
	w := pw.w
	labels := o.Labels
	if labels == nil && !o.LabelsUnknown {
		labels = []string{} // the complete label set: none given means none
	}
	sc := simulate.Scenario{Event: o.Event, Labels: labels, Set: o.Set,
		Outputs: map[string]map[string]string{}, Outcomes: map[string]simulate.Result{}, VerdictsOnly: brief}
	var facts map[string]string // "job/output" -> witness text
	if !brief {
		facts = map[string]string{}
	}
	// Steps, scenario entries and verdicts are keyed by lower-cased job id:
	// the condition's needs.<id> reads (see reason) match them as GitHub
	// does, case-insensitively.
	for _, j := range w.Jobs {
		key := strings.ToLower(j.ID)
		outs, failed := jobOutputs(j, pw.outputs[j.ID], steps[key], facts, sc)
		if len(outs) > 0 {
			sc.Outputs[key] = outs
		}
		if failed {
			sc.Outcomes[key] = simulate.Failure
		}
	}
	sim := map[string]simulate.Verdict{}
	for _, v := range reach.SettleWith(pw.reach, w, sc, pw.simulate(sc)) {
		sim[strings.ToLower(v.ID)] = v
	}
	var heavy, rest []*Job
	for _, j := range w.Jobs {
		v := &Job{ID: j.ID, Name: j.Name, Runner: runnerText(j.Runner), Needs: j.Needs, Explicit: len(j.If.StatusFuncs()) > 0}
		if o.Classifier != nil {
			v.Heavy, v.GPU = o.Classifier.IsHeavy(j), o.Classifier.IsGPU(j)
		}
		sv := sim[strings.ToLower(j.ID)]
		if trig == pathsfilter.False {
			v.Verdict, v.Reason = Skip, "workflow not triggered: "+trigWhy
		} else {
			v.Verdict = sv.Verdict
			if !brief {
				v.Reason = reason(j, sv, sim, sc, facts, o)
			}
			if trig == pathsfilter.Unknown {
				if v.Verdict == Run {
					v.Verdict = Unknown
				}
				v.Reason = "trigger unknown (" + trigWhy + "); " + v.Reason
			}
		}
		if brief {
			v.Reason = ""
		}
		if v.Heavy || v.GPU {
			heavy = append(heavy, v)
		} else {
			rest = append(rest, v)
		}
	}
	return append(heavy, rest...)
}

// simulate runs the simulator on sc, once per distinct scenario. Only the
// outputs, outcomes and VerdictsOnly vary between the scenarios of one
// Prepared; the key lists them in job order, names sorted.
func (pw *prepared) simulate(sc simulate.Scenario) []simulate.Verdict {
	var b strings.Builder
	if sc.VerdictsOnly {
		b.WriteByte('v')
	}
	for _, j := range pw.w.Jobs {
		outs, oc := sc.Outputs[strings.ToLower(j.ID)], sc.Outcomes[strings.ToLower(j.ID)]
		if len(outs) == 0 && oc == "" {
			continue
		}
		b.WriteString(j.ID)
		b.WriteByte(0)
		b.WriteString(string(oc))
		for _, k := range slices.Sorted(maps.Keys(outs)) {
			b.WriteByte(1)
			b.WriteString(k)
			b.WriteByte(2)
			b.WriteString(outs[k])
		}
		b.WriteByte(0)
	}
	key := b.String()
	pw.mu.Lock()
	v, ok := pw.runs[key]
	pw.mu.Unlock()
	if ok {
		return v
	}
	v = pw.sim.Run(sc)
	pw.mu.Lock()
	pw.runs[key] = v
	pw.mu.Unlock()
	return v
}

func runnerText(r workflowgraph.Runner) string {
	parts := append(append([]string(nil), r.Labels...), r.Symbolic...)
	if r.Group != "" {
		parts = append(parts, "group:"+r.Group)
	}
	return strings.Join(parts, ", ")
}

// jobOutputs computes the outputs a job sets when it runs, as far as they
// come from its paths-filter steps (others stay unknown: not listed), and
// whether a paths-filter step fails (then the job fails). tmpl holds the
// job's parsed output templates; facts (nil: not wanted) receives the
// witness of each output for reasons.
func jobOutputs(j *workflowgraph.Job, tmpl map[string]*expr.Template, steps []stepOutcome, facts map[string]string, sc simulate.Scenario) (map[string]string, bool) {
	if len(steps) == 0 {
		return nil, false
	}
	ctx := map[string]expr.Value{}
	failed := false
	for _, so := range steps {
		if so.step.ID == "" {
			continue
		}
		outs := map[string]expr.Value{}
		run := stepRuns(so.step, sc)
		switch {
		case run == expr.No:
			// A skipped step sets no output.
		case run == expr.Maybe:
			ctx[strings.ToLower(so.step.ID)] = expr.Unknown("whether the paths-filter step runs is unknown")
			continue
		case so.res.Failed:
			failed = true // the step fails: no output, the job fails
		case so.res.Unknown:
			ctx[strings.ToLower(so.step.ID)] = expr.Unknown(so.res.Reason)
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
		ctx[strings.ToLower(so.step.ID)] = expr.OpenObject(map[string]expr.Value{"outputs": expr.Object(outs)})
	}
	env := &expr.Env{Contexts: map[string]expr.Value{"steps": expr.OpenObject(ctx)}}
	out := map[string]string{}
	for name, raw := range j.Outputs {
		t := tmpl[name]
		if t == nil {
			t = expr.ParseTemplate(raw)
		}
		v := t.Eval(env)
		if v.Kind != expr.KindString {
			continue // unknown: not given to the simulator
		}
		out[name] = v.Str
		if facts == nil {
			continue
		}
		if m := stepsOutRE().FindStringSubmatch(raw); m != nil {
			if f := filterFact(steps, m[1], m[2], sc); f != "" {
				facts[strings.ToLower(j.ID)+"/"+strings.ToLower(name)] = f
			}
		}
	}
	return out, failed
}

var (
	stepsOutRE = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`steps\.([A-Za-z_][A-Za-z0-9_-]*)\.outputs\.([A-Za-z_][A-Za-z0-9_-]*)`)
	})
	needsOutRE = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`needs\.([A-Za-z_][A-Za-z0-9_-]*)\.outputs\.([A-Za-z_][A-Za-z0-9_-]*)`)
	})
	labelRE  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`labels\.\*\.name\s*,\s*'([^']*)'`) })
	ctxRefRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(github|vars|inputs)\.[A-Za-z0-9_.-]+`) })
)

// stepRuns evaluates a paths-filter step's own `if:` (implicit success():
// the earlier steps are assumed to succeed) with the scenario's contexts.
func stepRuns(s *pathsfilter.Step, sc simulate.Scenario) expr.Tri {
	if strings.TrimSpace(s.If) == "" {
		return expr.Yes
	}
	c := expr.ParseCondition(s.If)
	env := &expr.Env{Contexts: simulate.Contexts(sc), Success: expr.Bool(true), Failure: expr.Bool(false), Cancelled: expr.Bool(false)}
	ctx := env.Contexts
	ctx["steps"] = expr.OpenObject(nil)
	ctx["env"] = expr.OpenObject(nil)
	ctx["matrix"] = expr.OpenObject(nil)
	return c.Eval(env).Truthy()
}

// filterFact describes a filter output for reasons: the witness when true.
func filterFact(steps []stepOutcome, stepID, output string, sc simulate.Scenario) string {
	for _, so := range steps {
		if !strings.EqualFold(so.step.ID, stepID) {
			continue
		}
		if stepRuns(so.step, sc) == expr.No {
			// Its filters were never evaluated: no match to cite.
			return "paths-filter step " + so.step.ID + " is skipped by its if:"
		}
		if so.res.Failed {
			return "paths-filter step fails: " + so.res.FailReason
		}
		for _, r := range so.res.Results {
			if r.Name == output && r.Match == pathsfilter.True && r.Witness != nil {
				return fmt.Sprintf("%s matches %q", r.Witness.File, r.Witness.Pattern)
			}
			if r.Name == output && r.Match == pathsfilter.Unknown && r.Reason != "" {
				return r.Reason
			}
		}
	}
	return ""
}

// reason explains a verdict: the filter outputs and labels the condition
// reads, then the simulator's own explanation when it adds something (an
// ancestor that did not succeed, a fact that is not given).
func reason(j *workflowgraph.Job, sv simulate.Verdict, sim map[string]simulate.Verdict, sc simulate.Scenario, facts map[string]string, o Options) string {
	raw := ""
	if j.AST != nil && j.AST.If != nil {
		raw = j.AST.If.Value
	}
	var parts []string
	seen := map[string]bool{}
	for _, m := range needsOutRE().FindAllStringSubmatch(raw, -1) {
		job, name := strings.ToLower(m[1]), strings.ToLower(m[2])
		key := job + "/" + name
		if seen[key] {
			continue
		}
		seen[key] = true
		val := "unknown"
		switch r := sim[job].Result; r {
		case simulate.Skipped, simulate.Cancelled:
			val = "unset (" + sim[job].ID + " " + string(r) + ")"
		case simulate.Unknown:
		default:
			if v, ok := sc.Outputs[job][name]; ok {
				val = v
				if v == "" {
					val = "unset"
				}
				if f := facts[key]; f != "" {
					val += " (" + f + ")"
				}
			}
		}
		parts = append(parts, fmt.Sprintf("%s=%s", m[2], val))
	}
	for _, m := range labelRE().FindAllStringSubmatch(raw, -1) {
		state := "absent"
		switch {
		case slices.Contains(o.Labels, m[1]):
			state = "present"
		case o.Labels == nil && o.LabelsUnknown:
			state = "unknown"
		}
		if !strings.HasPrefix(o.Event, "pull_request") {
			state = "n/a for " + o.Event
		}
		parts = append(parts, fmt.Sprintf("label %s %s", m[1], state))
	}
	// The only failure outcome explain-diff sets is a failing paths-filter
	// step: name it rather than the simulator's "(scenario)".
	simWhy := strings.Replace(sv.Reason, "ends failure (scenario)", "ends failure (its paths-filter step fails)", 1)
	if sv.Verdict == Unknown {
		if m := regexp.MustCompile(`(github|vars|inputs)\.[A-Za-z0-9_.-]+ is not given`).FindString(simWhy); m != "" {
			ref := ctxRefRE().FindString(m)
			hint := fmt.Sprintf(" (--set %s=...)", ref)
			if ref == "github.event" && o.Labels == nil && o.LabelsUnknown {
				// The event is unknown only in its labels: say how to give them.
				hint = " (its labels: --label L or --no-labels)"
			}
			simWhy = strings.Replace(simWhy, m, m+hint, 1)
		}
	}
	switch {
	case len(parts) == 0:
		return simWhy
	case sv.Verdict == Unknown || strings.Contains(simWhy, "success() is false"):
		return strings.Join(parts, "; ") + "; " + simWhy
	}
	return strings.Join(parts, "; ")
}
