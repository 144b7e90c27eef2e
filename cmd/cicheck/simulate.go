package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/cicheck/cicheck/internal/cli"
	"github.com/cicheck/cicheck/lint"
	"github.com/cicheck/cicheck/reach"
	"github.com/cicheck/cicheck/simulate"
	"github.com/cicheck/cicheck/workflowgraph"
)

func init() {
	register(&cli.Command{Name: "simulate", Summary: "what-if: which jobs run when some jobs fail, are skipped or the run is cancelled", Run: runSimulate})
}

func runSimulate(e *env, args []string) error {
	fl := e.Flags("cicheck simulate", usage("simulate"))
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
	eachFailure := fl.Bool("each-failure", false, "fail each job alone and tabulate which GPU and heavy jobs are skipped or still run; states the scenario assumed and the flags that would decide each undecided job")
	cfgPath := fl.String("config", "", "configuration file, for --each-failure's GPU and heavy jobs (default: .cicheck.yaml at the repository root)")
	if err := cli.Parse(fl, args); err != nil {
		return err
	}
	formats := []string{"text", "json"}
	if *eachFailure {
		formats = append(formats, "markdown")
	}
	if err := cli.OneOf("format", *format, formats...); err != nil {
		return err
	}
	for _, id := range *cancel {
		if fl.NArg() == 0 && (strings.HasSuffix(id, ".yml") || strings.HasSuffix(id, ".yaml")) {
			// --cancel used to take no value and cancel the whole run.
			return cli.Usagef("--cancel names a job now; to cancel the whole run use --cancel-run")
		}
	}
	if err := checkEventFlags(*event, *sets); err != nil {
		return err
	}
	if fl.NArg() != 1 {
		return cli.Usagef("simulate takes exactly one WORKFLOW file (see cicheck simulate --help)")
	}
	l, err := lint.LoadOne(e.WD, fl.Arg(0))
	if err != nil {
		return err
	}
	if l.Workflow == nil {
		// Not even YAML GitHub can read: refused like any file with
		// syntax errors (no job runs, exit 1), not bad usage.
		var refused []workflowgraph.Refusal
		for _, f := range l.Parse {
			refused = append(refused, workflowgraph.Refusal{Line: f.Line, Column: f.Column, Reason: f.Message})
		}
		if err := simulate.WriteRefused(e.Stdout, *format, l.Target.Display, refused); err != nil {
			return cli.Internal(fmt.Errorf("writing the simulation: %w", err))
		}
		return cli.Exit(cli.ExitFindings)
	}
	w, parse, display := l.Workflow, l.Parse, l.Target.Display
	sc, err := simulate.BuildScenario(w, display, simulate.Spec{Fail: *fail, Skip: *skip, Cancel: *cancel, CancelRun: *cancelRun,
		Event: *event, Labels: *labels, Inputs: *inputs, Outputs: *outputs, Set: *sets})
	if err != nil {
		return err
	}
	sim := simulate.New(w)
	if refused := sim.RefusedWith(parse); len(refused) > 0 {
		// GitHub refuses the file: no job runs, whatever the scenario.
		if err := simulate.WriteRefused(e.Stdout, *format, display, refused); err != nil {
			return cli.Internal(fmt.Errorf("writing the simulation: %w", err))
		}
		return cli.Exit(cli.ExitFindings)
	}
	if *eachFailure {
		cfg, _, err := lint.LoadConfig(e.WD, *cfgPath)
		if err != nil {
			return err
		}
		cl := cfg.Classifier()
		watched := func(j *workflowgraph.Job) bool { return cl.IsGPU(j) || cl.IsHeavy(j) }
		rows := sim.FaultMatrix(sc, watched)
		var undecided []string
		for _, r := range rows {
			for _, id := range r.Unknown {
				if !slices.Contains(undecided, id) {
					undecided = append(undecided, id)
				}
			}
		}
		simulate.WriteFaultReport(e.Stdout, *format, simulate.FaultReport{Scenario: sc.Describe(), Rows: rows, Undecided: sim.Undecided(sc, undecided)})
		return nil
	}
	verdicts := reach.Settle(w, sc, sim.Run(sc))
	if err := simulate.WriteVerdicts(e.Stdout, *format, verdicts); err != nil {
		return cli.Internal(fmt.Errorf("writing the simulation: %w", err))
	}
	return nil
}
