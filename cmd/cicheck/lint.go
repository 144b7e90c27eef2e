package main

import (
	"fmt"
	"strings"

	"github.com/cicheck/cicheck/baseline"
	"github.com/cicheck/cicheck/internal/cli"
	"github.com/cicheck/cicheck/internal/plural"
	"github.com/cicheck/cicheck/lint"
	"github.com/cicheck/cicheck/report"
)

func init() {
	register(&cli.Command{Name: "lint", Summary: "lint workflows with actionlint and cicheck's rules (the default command)", Run: func(e *env, args []string) error { return scanFailure(runLint(e, args)) }})
}

// lintOptions are lint's flags.
type lintOptions struct {
	report                       report.Settings
	config, shellcheck, baseline string
	stdinName, fixMode           string
	verbose, fix, diff           bool
	stdin                        *lint.Stdin // read once, for --fix's second pass
}

// addLintFlags declares the flags lint and baseline write share.
func addLintFlags(fl *cli.FlagSet, o *lintOptions) {
	fl.StringVar(&o.config, "config", "", "configuration file (default: .cicheck.yaml at the repository root)")
	fl.StringVar(&o.shellcheck, "shellcheck", "", "run shellcheck on run: scripts (optionally the executable's path)")
	fl.Lookup("shellcheck").NoOptDefVal = "shellcheck"
	fl.BoolVarP(&o.verbose, "verbose", "v", false, "explain which files are linted and skipped")
}

// addReportFlags declares the output flags of the commands that report
// findings.
func addReportFlags(fl *cli.FlagSet, s *report.Settings) {
	fl.StringVar(&s.Format, "format", "text", "output format: "+strings.Join(report.Formats(), ", "))
	fl.StringVar(&s.FailOn, "fail-on", "error", "lowest severity that fails the run: error, warning, notice or never")
	fl.StringVar(&s.Color, "color", "auto", "colour the text format: auto, always or never (NO_COLOR is honoured)")
}

func runLint(e *env, args []string) error {
	var rep *report.Reporter
	err := lint1(e, args, &rep)
	if err != nil && rep != nil && cli.ExitCode(err) >= cli.ExitUsage {
		// An upload-sarif step after a failed run gets a valid log that
		// says the run failed (never a clean, empty run that would close
		// the last good run's alerts, never a 0-byte file).
		_ = rep.WriteFailed(e.Stdout, err, version(), lint.RuleInfos)
	}
	return err
}

// lint1 is lint's run; *rep is set once the output flags are read.
func lint1(e *env, args []string, repOut **report.Reporter) error {
	var o lintOptions
	fl := e.Flags("cicheck lint", usage("lint"))
	addReportFlags(fl, &o.report)
	fl.StringVar(&o.fixMode, "fix", "", "apply the certain fixes of the errors (--fix=all: of the warnings and notices too) to the files, then report what remains")
	fl.Lookup("fix").NoOptDefVal = "errors"
	fl.BoolVar(&o.diff, "diff", false, "with --fix: print the fixes as a unified diff instead of writing them (exit 1 when there is one)")
	fl.StringVar(&o.stdinName, "stdin-filename", "<stdin>", "with PATH -, the path the workflow read from stdin has (names it in findings, places it in its repository)")
	fl.StringVar(&o.baseline, "baseline", "", "accept the findings recorded in this file (see 'cicheck baseline write'); report only new ones")
	addLintFlags(fl, &o)
	// A run asked for SARIF that fails on another flag still writes a log
	// that says it failed.
	sarifOnly := func() {
		*repOut, _ = report.NewReporter(report.Settings{Format: "sarif", FailOn: "never", Color: "never"}, e.Stdout, e.Getenv)
	}
	if err := cli.Parse(fl, args); err != nil {
		if o.report.Format == "sarif" {
			sarifOnly()
		}
		return err
	}
	rep, err := report.NewReporter(o.report, e.Stdout, e.Getenv)
	if err != nil {
		if o.report.Format == "sarif" {
			sarifOnly()
		}
		return err
	}
	*repOut = rep
	var base *baseline.Baseline
	if o.baseline != "" {
		if base, err = lint.ReadBaseline(e.WD, o.baseline); err != nil {
			return err
		}
	}
	switch o.fixMode {
	case "", "errors", "all":
	default:
		return cli.Usagef("--fix=%s: want --fix (the errors' fixes) or --fix=all", o.fixMode)
	}
	o.fix = o.fixMode != ""
	if o.diff && !o.fix {
		return cli.Usagef("--diff shows what --fix would change; use it with --fix")
	}
	if o.fix {
		if done, err := applyFixes(e, &o, fl.Args()); done || err != nil {
			return err
		}
	}
	res, err := lintRun(e, &o, fl.Args(), false)
	if err != nil {
		return err
	}
	if base != nil {
		r := base.Apply(res.Findings)
		res.Findings = r.New
		if len(fl.Args()) > 0 {
			r.KeepStaleOf(func(file string) bool { _, ok := res.Sources[file]; return ok })
		}
		fmt.Fprintf(e.Stderr, "cicheck: %s\n", r.Summary(o.baseline))
	}
	// A path that does not exist fails the run (exit 2) although the
	// others' findings are reported: SARIF says so too.
	rep.Failed(res.UniqueInputErrors()...)
	failed, err := rep.Write(e.Stdout, res.Findings, res.Sources, version(), lint.RuleInfos)
	if err == nil && len(res.InputErrors) > 0 {
		*repOut = nil // written already
		return cli.Exit(cli.ExitUsage)
	}
	return cli.Wrote(err, failed)
}

// lintRun runs the whole lint (workflows, and the test registry when the
// repository is linted rather than named files), computing fixes when
// fixing, and prints unusable-input errors.
func lintRun(e *env, o *lintOptions, paths []string, fixing bool) (*lint.Result, error) {
	logf := func(format string, a ...any) {
		if o.verbose {
			say(e.Stderr, "cicheck: "+format+"\n", a...) // file names come from the repository
		}
	}
	cfg, cfgFile, err := lint.LoadConfig(e.WD, o.config)
	if err != nil {
		return nil, err
	} else if cfgFile != "" {
		logf("using configuration %s", cfgFile)
	}
	if o.stdin == nil {
		o.stdin = lint.NewStdin(e.Stdin)
	}
	l := lint.New(lint.Options{WorkingDir: e.WD, Config: cfg, Shellcheck: o.shellcheck, Fix: o.fix && fixing, FixAll: o.fixMode == "all", Stdin: o.stdin, Log: logf})
	res, err := l.LintArgs(paths, o.stdinName)
	if err != nil {
		return nil, err
	}
	for _, msg := range res.UniqueInputErrors() {
		say(e.Stderr, "cicheck: %s\n", msg)
	}
	return res, nil
}

// applyFixes runs --fix: with --diff it prints the fixes and is done;
// otherwise it writes each fixed file (stdin's fixed text goes to stdout)
// and lets the caller lint again to report what remains. Findings it
// cannot fix with certainty are named on stderr.
func applyFixes(e *env, o *lintOptions, paths []string) (done bool, err error) {
	res, err := lintRun(e, o, paths, true)
	if err != nil {
		return true, err
	}
	fixed, err := res.ApplyFixes(e.Stdout, o.diff)
	for _, s := range fixed.Skipped {
		say(e.Stderr, "cicheck: %s\n", s)
	}
	switch {
	case err != nil || fixed.Stdin:
		return true, err
	case o.diff && (fixed.Findings > 0 || len(fixed.Skipped) > 0):
		// A fix left for a person fails the run as a diff does.
		return true, cli.Exit(cli.ExitFindings)
	case o.diff:
		return true, nil
	case fixed.Findings > 0:
		fmt.Fprintf(e.Stderr, "cicheck: fixed %s in %s\n", plural.Count(fixed.Findings, "finding"), plural.Count(fixed.Files, "file"))
	}
	if len(paths) == 1 && paths[0] == "-" {
		// Nothing to fix on stdin: echo it, as a formatter does.
		text, _ := o.stdin.Text()
		_, err := e.Stdout.Write(text)
		return true, err
	}
	return false, nil
}
