package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/pflag"

	"github.com/cicheck/cicheck/baseline"
	"github.com/cicheck/cicheck/finding"
	"github.com/cicheck/cicheck/lint"
	"github.com/cicheck/cicheck/report"
	"github.com/cicheck/cicheck/workflowgraph"
)

func init() {
	register(command{
		name:    "lint",
		summary: "lint workflows with actionlint and cicheck's rules (the default command)",
		run:     runLint,
	})
}

const lintUsage = `usage: cicheck lint [flags] [PATH...]

With no PATH, lints every .yml/.yaml file directly in .github/workflows of
the repository (git top level, else the working directory). A PATH may be a
workflow file or a directory (its .github/workflows, else the YAML files
directly in it); - reads one workflow from stdin (name it with
--stdin-filename).

Exit codes: 0 nothing at or above --fail-on, 1 findings, 2 bad usage,
unreadable input or invalid config, 3 internal error.

flags:`

// lintOptions are lint's flags.
type lintOptions struct {
	report                       reportFlags
	config, shellcheck, baseline string
	stdinName                    string
	verbose, fix, diff           bool
	stdin                        []byte // read once, for --fix's second pass
}

// addLintFlags declares the flags lint and baseline write share.
func addLintFlags(fl *pflag.FlagSet, o *lintOptions) {
	fl.StringVar(&o.config, "config", "", "configuration file (default: .cicheck.yaml at the repository root)")
	fl.StringVar(&o.shellcheck, "shellcheck", "", "run shellcheck on run: scripts (optionally the executable's path)")
	fl.Lookup("shellcheck").NoOptDefVal = "shellcheck"
	fl.BoolVarP(&o.verbose, "verbose", "v", false, "explain which files are linted and skipped")
}

func runLint(e *env, args []string) int {
	var o lintOptions
	fl := pflag.NewFlagSet("cicheck lint", pflag.ContinueOnError)
	fl.SetOutput(e.stderr)
	o.report.add(fl)
	fl.BoolVar(&o.fix, "fix", false, "apply the certain fixes of gpu-gate, closure-bridge and always-without-cancelled to the files, then report what remains")
	fl.BoolVar(&o.diff, "diff", false, "with --fix: print the fixes as a unified diff instead of writing them (exit 1 when there is one)")
	fl.StringVar(&o.stdinName, "stdin-filename", "<stdin>", "with PATH -, the path the workflow read from stdin has (names it in findings, places it in its repository)")
	fl.StringVar(&o.baseline, "baseline", "", "accept the findings recorded in this file (see 'cicheck baseline write'); report only new ones")
	addLintFlags(fl, &o)
	fl.Usage = func() {
		fmt.Fprintln(e.stderr, lintUsage)
		fl.PrintDefaults()
	}
	if err := fl.Parse(args); err != nil {
		return flagError(e, fl, err)
	}
	if !o.report.validate(e) {
		return exitUsage
	}
	var base *baseline.Baseline
	if o.baseline != "" {
		b, err := readBaseline(e, o.baseline)
		if err != nil {
			fmt.Fprintf(e.stderr, "cicheck: %v\n", err)
			return exitUsage
		}
		base = b
	}
	if o.diff && !o.fix {
		fmt.Fprintln(e.stderr, "cicheck: --diff shows what --fix would change; use it with --fix")
		return exitUsage
	}
	if o.fix {
		if code, done := applyFixes(e, o, fl.Args()); done {
			return code
		}
	}
	res, code := collectFindings(e, o, fl.Args())
	if res == nil {
		if o.report.format == "sarif" {
			// An upload-sarif step after a failed run still gets a valid
			// (empty) log, never a 0-byte file.
			_ = report.Write(e.stdout, "sarif", nil, report.Options{ToolName: "cicheck", ToolVersion: version()})
		}
		return code
	}
	if base != nil {
		r := base.Apply(res.Findings)
		res.Findings = r.New
		if len(fl.Args()) > 0 {
			// Only some files were linted (a pre-commit hook passes the
			// staged ones): the other files' entries are not stale.
			kept := r.Stale[:0]
			for _, en := range r.Stale {
				if _, linted := res.Sources[path.Clean(en.File)]; linted {
					kept = append(kept, en)
				}
			}
			r.Stale = kept
		}
		stale := fmt.Sprintf("%d baseline entries no longer occur", len(r.Stale))
		if len(r.Stale) == 1 {
			stale = "1 baseline entry no longer occurs"
		}
		fmt.Fprintf(e.stderr, "cicheck: baseline %s: %d finding%s accepted, %s%s\n",
			o.baseline, r.Baselined, plural(r.Baselined), stale, pruneHint(len(r.Stale)))
	}
	code = o.report.write(e, res.Findings, res.Sources, lint.RuleInfos)
	if code == exitInternal || len(res.InputErrors) == 0 {
		return code
	}
	return exitUsage
}

// reportFlags are the output flags every findings-producing command shares.
type reportFlags struct {
	format, failOn, color string

	threshold finding.Severity // from failOn, set by validate
	useColor  bool             // from color, set by validate
}

func (r *reportFlags) add(fl *pflag.FlagSet) {
	fl.StringVar(&r.format, "format", "text", "output format: "+strings.Join(report.Formats(), ", "))
	fl.StringVar(&r.failOn, "fail-on", "error", "lowest severity that fails the run: error, warning, notice or never")
	fl.StringVar(&r.color, "color", "auto", "colour the text format: auto, always or never (NO_COLOR is honoured)")
}

// validate checks the flags' values, reporting a bad one on stderr.
func (r *reportFlags) validate(e *env) bool {
	var ok bool
	if r.threshold, ok = failThreshold(r.failOn); !ok {
		fmt.Fprintf(e.stderr, "cicheck: invalid --fail-on %q (valid: error, warning, notice, never)\n", r.failOn)
		return false
	}
	if !validFormat(r.format) {
		fmt.Fprintf(e.stderr, "cicheck: invalid --format %q (valid: %s)\n", r.format, strings.Join(report.Formats(), ", "))
		return false
	}
	if r.useColor, ok = colorWanted(e, r.color); !ok {
		fmt.Fprintf(e.stderr, "cicheck: invalid --color %q (valid: auto, always, never)\n", r.color)
		return false
	}
	return true
}

// write reports fs and returns the exit code --fail-on gives them.
//
// rules is called only for SARIF, the one format that carries rule
// metadata: building it reads every rule's documentation.
func (r *reportFlags) write(e *env, fs []finding.Finding, sources map[string][]byte, rules func() []report.RuleInfo) int {
	opts := report.Options{Color: r.useColor, Sources: sources, ToolName: "cicheck"}
	if r.format == "sarif" {
		opts.Rules, opts.ToolVersion = rules(), version()
	}
	if err := report.Write(e.stdout, r.format, fs, opts); err != nil {
		fmt.Fprintf(e.stderr, "cicheck: writing the report: %v\n", err)
		return exitInternal
	}
	for _, f := range fs {
		if r.threshold > 0 && f.Severity >= r.threshold {
			return exitFindings
		}
	}
	return exitOK
}

func pruneHint(stale int) string {
	if stale == 0 {
		return ""
	}
	return " (prune with 'cicheck baseline write')"
}

// collectFindings runs the whole lint (workflows, and the test registry
// when the repository is linted rather than named files) and prints
// unusable-input errors. A nil result means stop with the returned exit
// code.
func collectFindings(e *env, o lintOptions, paths []string) (*lint.Result, int) {
	return lintRun(e, &o, paths, false)
}

// lintRun is collectFindings, computing fixes when fixing.
func lintRun(e *env, o *lintOptions, paths []string, fixing bool) (*lint.Result, int) {
	cfg, cfgFile, err := loadConfig(e, o.config)
	if err != nil {
		fmt.Fprintf(e.stderr, "cicheck: %v\n", err)
		return nil, exitUsage
	}
	if o.verbose && cfgFile != "" {
		fmt.Fprintf(e.stderr, "cicheck: using configuration %s\n", cfgFile)
	}
	l := lint.New(lint.Options{WorkingDir: e.wd, Config: cfg, Shellcheck: o.shellcheck, Fix: o.fix && fixing, Log: func(format string, a ...any) {
		if o.verbose {
			fmt.Fprintf(e.stderr, "cicheck: "+format+"\n", a...)
		}
	}})
	var res *lint.Result
	switch {
	case len(paths) == 0:
		res, err = l.LintRepo()
	case len(paths) == 1 && paths[0] == "-":
		if o.stdin == nil {
			// One read past the limit, so an endless pipe cannot exhaust memory.
			src, rerr := io.ReadAll(io.LimitReader(e.stdin, workflowgraph.MaxFileSize+1))
			if rerr != nil {
				fmt.Fprintf(e.stderr, "cicheck: <stdin>: %v\n", rerr)
				return nil, exitUsage
			}
			o.stdin = append(src, []byte{}...)
		}
		res, err = l.LintSource(o.stdinName, o.stdin)
	case slices.Contains(paths, "-"):
		fmt.Fprintln(e.stderr, "cicheck: - (stdin) cannot be combined with other paths")
		return nil, exitUsage
	default:
		res, err = l.LintFiles(paths)
	}
	if err != nil {
		fmt.Fprintf(e.stderr, "cicheck: %v\n", err)
		var ie *lint.InternalError
		if errors.As(err, &ie) {
			return nil, exitInternal
		}
		return nil, exitUsage
	}
	seen := map[string]bool{}
	for _, msg := range res.InputErrors {
		// Files sharing one broken .github/actionlint.yaml fail alike:
		// say it once.
		if !seen[msg] {
			seen[msg] = true
			fmt.Fprintf(e.stderr, "cicheck: %s\n", msg)
		}
	}
	return res, exitOK
}

// readBaseline reads --baseline FILE (relative to the working directory).
func readBaseline(e *env, name string) (*baseline.Baseline, error) {
	p := name
	if !filepath.IsAbs(p) {
		p = filepath.Join(e.wd, p)
	}
	data, err := os.ReadFile(p)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return baseline.Parse(name, data)
}

func failThreshold(s string) (finding.Severity, bool) {
	if s == "never" {
		return 0, true
	}
	sev, err := finding.ParseSeverity(s)
	return sev, err == nil
}

func validFormat(f string) bool {
	for _, x := range report.Formats() {
		if f == x {
			return true
		}
	}
	return false
}

// colorWanted decides the text colour: --color=always/never win; auto
// colours only a terminal, and NO_COLOR (any non-empty value) turns it off.
func colorWanted(e *env, mode string) (bool, bool) {
	switch mode {
	case "always":
		return true, true
	case "never":
		return false, true
	case "auto":
		if e.getenv("NO_COLOR") != "" {
			return false, true
		}
		f, ok := e.stdout.(*os.File)
		if !ok {
			return false, true
		}
		st, err := f.Stat()
		return err == nil && st.Mode()&os.ModeCharDevice != 0, true
	}
	return false, false
}

// writeReportDiscard renders the text report and drops it (benchmarks).
func writeReportDiscard(res *lint.Result) error {
	return report.Write(io.Discard, "text", res.Findings, report.Options{Sources: res.Sources, Rules: lint.RuleInfos()})
}

// applyFixes runs --fix: with --diff it prints the fixes and is done;
// otherwise it writes each fixed file (stdin's fixed text goes to stdout)
// and lets the caller lint again to report what remains. Findings it
// cannot fix with certainty are named on stderr.
func applyFixes(e *env, o lintOptions, paths []string) (code int, done bool) {
	res, code := lintRun(e, &o, paths, true)
	if res == nil {
		return code, true
	}
	fixed, files := 0, 0
	for _, f := range res.Fixes {
		for _, s := range f.Skipped {
			fmt.Fprintf(e.stderr, "cicheck: %s\n", s.Describe())
		}
		if len(f.Applied) == 0 {
			continue
		}
		fixed, files = fixed+len(f.Applied), files+1
		switch {
		case o.diff:
			fmt.Fprint(e.stdout, f.Unified(f.Target.Display))
		case f.Target.Src != nil:
			// stdin: the fixed workflow is the output.
			_, _ = e.stdout.Write(f.Source)
			return exitOK, true
		default:
			mode := os.FileMode(0o644)
			if st, err := os.Stat(f.Target.Abs); err == nil {
				mode = st.Mode().Perm()
			}
			if err := os.WriteFile(f.Target.Abs, f.Source, mode); err != nil {
				fmt.Fprintf(e.stderr, "cicheck: %s: %v\n", f.Target.Display, lint.Unwrap(err))
				return exitUsage, true
			}
		}
	}
	if o.diff {
		if fixed > 0 {
			return exitFindings, true
		}
		return exitOK, true
	}
	if fixed > 0 {
		fmt.Fprintf(e.stderr, "cicheck: fixed %d finding%s in %d file%s\n", fixed, plural(fixed), files, plural(files))
	}
	if len(paths) == 1 && paths[0] == "-" {
		// Nothing to fix on stdin: echo it, as a formatter does.
		_, _ = e.stdout.Write(o.stdin)
		return exitOK, true
	}
	return 0, false
}
