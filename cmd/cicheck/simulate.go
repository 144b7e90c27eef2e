package main

import (
	"fmt"
	"os"
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
		return flagError(e, fl, err)
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

	sc, err := simulate.BuildScenario(w, t.Display, simulate.Spec{Fail: *fail, Skip: *skip, Cancel: *cancel, CancelRun: *cancelRun,
		Event: *event, Labels: *labels, Inputs: *inputs, Outputs: *outputs, Set: *sets})
	if err != nil {
		fmt.Fprintf(e.stderr, "cicheck: %v\n", err)
		return exitUsage
	}
	sim := simulate.New(w)
	// actionlint's parse errors (unknown or misplaced keys, wrong types) are
	// problems GitHub refuses the file for too: the same findings lint
	// reports, not a second opinion.
	var parseErrs []workflowgraph.Refusal
	for _, f := range fs {
		parseErrs = append(parseErrs, workflowgraph.Refusal{Line: f.Line, Column: f.Column, Reason: f.Message})
	}
	refused := sim.RefusedWith(parseErrs)
	if len(refused) > 0 {
		// GitHub refuses the file: no job runs, whatever the scenario.
		if err := simulate.WriteRefused(e.stdout, *format, t.Display, refused); err != nil {
			fmt.Fprintf(e.stderr, "cicheck: writing the simulation: %v\n", err)
			return exitInternal
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
	if err := simulate.WriteVerdicts(e.stdout, *format, sim.Run(sc)); err != nil {
		fmt.Fprintf(e.stderr, "cicheck: writing the simulation: %v\n", err)
		return exitInternal
	}
	return exitOK
}
