package main

import (
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strings"

	"github.com/spf13/pflag"

	"github.com/cicheck/cicheck/lint"
	"github.com/cicheck/cicheck/simulate"
	"github.com/cicheck/cicheck/workflowgraph"
)

func init() {
	register(command{
		name:    "simulate",
		summary: "what-if: which jobs run when some jobs fail, are skipped or the run is cancelled",
		run:     runSimulate,
	})
}

const simulateUsage = `usage: cicheck simulate WORKFLOW [flags]

Evaluates every job's if: in dependency order under GitHub's semantics
(implicit success() over the transitive closure, always/cancelled/failure,
needs.X.result, outputs of skipped jobs as '') and prints, for every job,
run, skip or unknown with the reason. A fact nobody gave (an output of a job
that runs, a vars.* value) is unknown and stays unknown; it is never guessed.

flags:`

// simulateDoc is the JSON schema of `cicheck simulate --format json`.
type simulateDoc struct {
	Version int           `json:"version"`
	Jobs    []simulateJob `json:"jobs"`
	// Refused lists why GitHub refuses the file; Jobs is then empty.
	Refused []simulateRefusal `json:"refused,omitempty"`
}

type simulateJob struct {
	ID      string        `json:"id"`
	Verdict string        `json:"verdict"`
	Result  string        `json:"result"`
	Reason  string        `json:"reason"`
	Legs    []simulateLeg `json:"legs,omitempty"`
	// Called lists the called workflow's jobs when the scenario names one.
	Called []simulateJob `json:"called,omitempty"`
}

// simulateLeg is one matrix leg of a job whose legs the scenario names.
type simulateLeg struct {
	Leg    string `json:"leg"`
	Result string `json:"result"`
	Reason string `json:"reason"`
}

type simulateRefusal struct {
	Job    string `json:"job"`
	Line   int    `json:"line"`
	Column int    `json:"column"`
	Reason string `json:"reason"`
}

func runSimulate(e *env, args []string) int {
	fl := pflag.NewFlagSet("cicheck simulate", pflag.ContinueOnError)
	fl.SetOutput(e.stderr)
	fail := fl.StringArray("fail", nil, "job whose body fails (repeatable)")
	skip := fl.StringArray("skip", nil, "job that is skipped, whatever its if: says (repeatable)")
	cancel := fl.StringArray("cancel", nil, "job whose body is cancelled, e.g. by a timeout (repeatable)")
	cancelRun := fl.Bool("cancel-run", false, "the whole run is cancelled before the jobs' if: are evaluated")
	event := fl.String("event", "", "github.event_name (unknown when not given)")
	labels := fl.StringArray("label", nil, "pull request label (repeatable; labels are unknown when none is given)")
	inputs := fl.StringArray("input", nil, "workflow input K=V (repeatable; typed by its declaration, else true/false are booleans)")
	outputs := fl.StringArray("output", nil, "output of a job that runs, JOB.NAME=V (repeatable)")
	sets := fl.StringArray("set", nil, "any other context value, e.g. github.ref=refs/heads/main or vars.RUN_GPU=true (repeatable)")
	format := fl.String("format", "text", "output format: text, json (and markdown with --each-failure)")
	eachFailure := fl.Bool("each-failure", false, "fail each job alone and tabulate which GPU and heavy jobs are skipped or still run")
	cfgPath := fl.String("config", "", "configuration file, for --each-failure's GPU and heavy jobs (default: .cicheck.yaml at the repository root)")
	fl.Usage = func() {
		fmt.Fprintln(e.stderr, simulateUsage)
		fl.PrintDefaults()
	}
	if err := fl.Parse(args); err != nil {
		return flagError(e, err)
	}
	if *format != "text" && *format != "json" && !(*eachFailure && *format == "markdown") {
		valid := "text, json"
		if *eachFailure {
			valid += ", markdown"
		}
		fmt.Fprintf(e.stderr, "cicheck: invalid --format %q (valid: %s)\n", *format, valid)
		return exitUsage
	}
	for _, id := range *cancel {
		if fl.NArg() == 0 && (strings.HasSuffix(id, ".yml") || strings.HasSuffix(id, ".yaml")) {
			// --cancel used to take no value and cancel the whole run.
			fmt.Fprintln(e.stderr, "cicheck: --cancel names a job now; to cancel the whole run use --cancel-run")
			return exitUsage
		}
	}
	if fl.NArg() != 1 {
		fmt.Fprintln(e.stderr, "cicheck: simulate takes exactly one WORKFLOW file (see cicheck simulate --help)")
		return exitUsage
	}
	targets, err := lint.Discover(e.wd, fl.Args(), func(string, ...any) {})
	if err != nil {
		fmt.Fprintf(e.stderr, "cicheck: %v\n", err)
		return exitUsage
	}
	if len(targets) != 1 {
		fmt.Fprintf(e.stderr, "cicheck: %s: not a single workflow file\n", fl.Arg(0))
		return exitUsage
	}
	t := targets[0]
	w, fs, err := workflowgraph.Load(os.DirFS(t.Root), t.Rel)
	if err != nil {
		fmt.Fprintf(e.stderr, "cicheck: %v\n", lint.Relabel(err, t.Rel, t.Display))
		return exitUsage
	}
	if w == nil {
		for _, f := range fs {
			fmt.Fprintf(e.stderr, "cicheck: %s:%d:%d: %s\n", t.Display, f.Line, f.Column, f.Message)
		}
		return exitUsage
	}

	sc := simulate.Scenario{Event: *event, Cancelled: *cancelRun, Labels: *labels,
		Outcomes: map[string]string{}, Results: map[string]string{}}
	if len(*labels) == 0 {
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
		sort.Strings(ids)
		fmt.Fprintf(e.stderr, "cicheck: --%s: %s has no job %q (jobs: %s)\n", flag, t.Display, id, strings.Join(ids, ", "))
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
			fmt.Fprintf(e.stderr, "cicheck: --%s %q: job %s does not call a local reusable workflow cicheck can read\n", flag, arg, c)
			return "", false
		}
		ij := cj.Callee.Job(inner)
		if ij == nil {
			var ids []string
			for _, j := range cj.Callee.Jobs {
				ids = append(ids, j.ID)
			}
			sort.Strings(ids)
			fmt.Fprintf(e.stderr, "cicheck: --%s %q: %s has no job %q (jobs: %s)\n", flag, arg, cj.Uses, inner, strings.Join(ids, ", "))
			return "", false
		}
		return c + "/" + ij.ID, true
	}
	// JOB or JOB[k=v,...]: a job, or the matrix legs with those values.
	outcome := func(flag, arg, result string) bool {
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
		legSel, err := parseLegSelector(strings.TrimSuffix(sel, "]"))
		if err == nil && !strings.HasSuffix(sel, "]") {
			err = fmt.Errorf("missing ]")
		}
		if err != nil {
			fmt.Fprintf(e.stderr, "cicheck: --%s %q: %v (want JOB[key=value,...])\n", flag, arg, err)
			return false
		}
		legs, static := workflowgraph.Legs(w.Job(j))
		if !static || len(legs) == 0 {
			fmt.Fprintf(e.stderr, "cicheck: --%s %q: job %s has no static matrix, so its legs cannot be named\n", flag, arg, j)
			return false
		}
		matched := false
		var all []string
		for _, l := range legs {
			matched = matched || l.Matches(legSel)
			all = append(all, l.String())
		}
		if !matched {
			fmt.Fprintf(e.stderr, "cicheck: --%s %q: no leg of %s has those values (legs: %s)\n", flag, arg, j, strings.Join(all, "; "))
			return false
		}
		if sc.LegOutcomes == nil {
			sc.LegOutcomes = map[string][]simulate.LegOutcome{}
		}
		sc.LegOutcomes[j] = append(sc.LegOutcomes[j], simulate.LegOutcome{Select: legSel, Outcome: result})
		return true
	}
	for _, id := range *fail {
		if !outcome("fail", id, simulate.Failure) {
			return exitUsage
		}
	}
	for _, id := range *cancel {
		if !outcome("cancel", id, simulate.Cancelled) {
			return exitUsage
		}
	}
	for _, id := range *skip {
		if strings.Contains(id, "/") {
			inner, ok := innerID("skip", id)
			if !ok {
				return exitUsage
			}
			sc.Results[inner] = simulate.Skipped
			continue
		}
		j, ok := jobID("skip", id)
		if !ok {
			return exitUsage
		}
		sc.Results[j] = simulate.Skipped
	}
	kv := func(flag, s string) (string, string, bool) {
		k, v, ok := strings.Cut(s, "=")
		if !ok || k == "" {
			fmt.Fprintf(e.stderr, "cicheck: --%s %q: want KEY=VALUE\n", flag, s)
			return "", "", false
		}
		return k, v, true
	}
	for _, s := range *inputs {
		k, v, ok := kv("input", s)
		if !ok {
			return exitUsage
		}
		if sc.Inputs == nil {
			sc.Inputs = map[string]string{}
		}
		sc.Inputs[k] = v
	}
	for _, s := range *sets {
		k, v, ok := kv("set", s)
		if !ok {
			return exitUsage
		}
		if sc.Set == nil {
			sc.Set = map[string]string{}
		}
		sc.Set[k] = v
	}
	for _, s := range *outputs {
		k, v, ok := kv("output", s)
		if !ok {
			return exitUsage
		}
		id, name, ok := strings.Cut(k, ".")
		if !ok || name == "" {
			fmt.Fprintf(e.stderr, "cicheck: --output %q: want JOB.NAME=VALUE\n", s)
			return exitUsage
		}
		var j string
		if strings.Contains(id, "/") {
			// CALLER/INNER.NAME: an output of a job of a called workflow.
			if j, ok = innerID("output", id); !ok {
				return exitUsage
			}
		} else if j, ok = jobID("output", id); !ok {
			return exitUsage
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
				fmt.Fprintf(e.stderr, "cicheck: --output: job %s declares no output %q (%s)\n", j, name, have)
				return exitUsage
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

	sim := simulate.New(w)
	refused := sim.Refused()
	// actionlint's parse errors (unknown or misplaced keys, wrong types) are
	// problems GitHub refuses the file for too: the same findings lint
	// reports, not a second opinion.
	for _, f := range fs {
		refused = append(refused, workflowgraph.Refusal{Line: f.Line, Column: f.Column, Reason: f.Message})
	}
	sort.SliceStable(refused, func(a, b int) bool {
		if refused[a].Line != refused[b].Line {
			return refused[a].Line < refused[b].Line
		}
		return refused[a].Column < refused[b].Column
	})
	if len(refused) > 0 {
		// GitHub refuses the file: no job runs, whatever the scenario.
		if *format == "json" {
			doc := simulateDoc{Version: 1, Jobs: []simulateJob{}}
			for _, r := range refused {
				doc.Refused = append(doc.Refused, simulateRefusal{Job: r.Job, Line: r.Line, Column: r.Column, Reason: r.Reason})
			}
			enc := json.NewEncoder(e.stdout)
			enc.SetIndent("", "  ")
			_ = enc.Encode(doc)
			return exitFindings
		}
		fmt.Fprintf(e.stdout, "%s: workflow invalid: GitHub refuses the file, so no job runs\n", t.Display)
		for _, r := range refused {
			fmt.Fprintf(e.stdout, "%s:%d:%d: %s\n", t.Display, r.Line, r.Column, r.Reason)
		}
		return exitFindings
	}
	if *eachFailure {
		cfg, _, err := loadConfig(e, *cfgPath)
		if err != nil {
			fmt.Fprintf(e.stderr, "cicheck: %v\n", err)
			return exitUsage
		}
		cl := cfg.Classifier()
		watched := func(j *workflowgraph.Job) bool { return cl.IsGPU(j) || cl.IsHeavy(j) }
		simulate.WriteFaultMatrix(e.stdout, *format, sim.FaultMatrix(sc, watched))
		return exitOK
	}
	vs := sim.Run(sc)
	if *format == "json" {
		doc := simulateDoc{Version: 1, Jobs: make([]simulateJob, len(vs))}
		for i, v := range vs {
			doc.Jobs[i] = simulateJob{ID: v.ID, Verdict: v.Verdict, Result: v.Result, Reason: v.Reason}
			for _, l := range v.Legs {
				doc.Jobs[i].Legs = append(doc.Jobs[i].Legs, simulateLeg(l))
			}
			for _, c := range v.Called {
				doc.Jobs[i].Called = append(doc.Jobs[i].Called, simulateJob{ID: c.ID, Verdict: c.Verdict, Result: c.Result, Reason: c.Reason})
			}
		}
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(doc); err != nil {
			fmt.Fprintf(e.stderr, "cicheck: writing the simulation: %v\n", err)
			return exitInternal
		}
		return exitOK
	}
	width := 0
	for _, v := range vs {
		width = max(width, len(v.ID))
	}
	for _, v := range vs {
		fmt.Fprintf(e.stdout, "%-*s  %s: %s\n", width, v.ID, v.Verdict, v.Reason)
		for _, c := range v.Called {
			fmt.Fprintf(e.stdout, "%-*s    %s/%s  %s: %s\n", width, "", v.ID, c.ID, c.Verdict, c.Reason)
		}
		for _, l := range v.Legs {
			fmt.Fprintf(e.stdout, "%-*s    [%s] %s", width, "", l.Leg, l.Result)
			if l.Reason != "" {
				fmt.Fprintf(e.stdout, ": %s", l.Reason)
			}
			fmt.Fprintln(e.stdout)
		}
	}
	return exitOK
}

// parseLegSelector reads k=v,k=v (keys case-insensitive, values as
// written).
func parseLegSelector(s string) (map[string]string, error) {
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
