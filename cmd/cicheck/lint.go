package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"sort"
	"strings"
	"sync"

	"github.com/bmatcuk/doublestar/v4"
	"github.com/spf13/pflag"

	"github.com/cicheck/cicheck/baseline"
	"github.com/cicheck/cicheck/checks"
	"github.com/cicheck/cicheck/config"
	"github.com/cicheck/cicheck/finding"
	"github.com/cicheck/cicheck/report"
	"github.com/cicheck/cicheck/testregistry"
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
directly in it).

Exit codes: 0 nothing at or above --fail-on, 1 findings, 2 bad usage,
unreadable input or invalid config, 3 internal error.

flags:`

// lintOptions are lint's flags.
type lintOptions struct {
	report                       reportFlags
	config, shellcheck, baseline string
	verbose                      bool
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
	fl.StringVar(&o.baseline, "baseline", "", "accept the findings recorded in this file (see 'cicheck baseline write'); report only new ones")
	addLintFlags(fl, &o)
	fl.Usage = func() {
		fmt.Fprintln(e.stderr, lintUsage)
		fl.PrintDefaults()
	}
	if err := fl.Parse(args); err != nil {
		return flagError(e, err)
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
	res, code := collectFindings(e, o, fl.Args())
	if res == nil {
		return code
	}
	if base != nil {
		r := base.Apply(res.findings)
		res.findings = r.New
		if len(fl.Args()) > 0 {
			// Only some files were linted (a pre-commit hook passes the
			// staged ones): the other files' entries are not stale.
			kept := r.Stale[:0]
			for _, en := range r.Stale {
				if _, linted := res.sources[path.Clean(en.File)]; linted {
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
	code = o.report.write(e, res.findings, res.sources, ruleInfos)
	if code == exitInternal || len(res.inputErrors) == 0 {
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
	fl.StringVar(&r.format, "format", "text", "output format: "+strings.Join(report.Formats, ", "))
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
		fmt.Fprintf(e.stderr, "cicheck: invalid --format %q (valid: %s)\n", r.format, strings.Join(report.Formats, ", "))
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
// when the repository has one) and prints unusable-input errors. A nil
// result means stop with the returned exit code.
func collectFindings(e *env, o lintOptions, paths []string) (*lintResult, int) {
	cfg, cfgFile, err := loadConfig(e, o.config)
	if err != nil {
		fmt.Fprintf(e.stderr, "cicheck: %v\n", err)
		return nil, exitUsage
	}
	if o.verbose && cfgFile != "" {
		fmt.Fprintf(e.stderr, "cicheck: using configuration %s\n", cfgFile)
	}
	logf := func(format string, a ...any) {
		if o.verbose {
			fmt.Fprintf(e.stderr, "cicheck: "+format+"\n", a...)
		}
	}
	targets, err := discover(e.wd, paths, logf)
	if err != nil {
		fmt.Fprintf(e.stderr, "cicheck: %v\n", err)
		return nil, exitUsage
	}
	res, err := lintTargets(e.wd, targets, cfg, o.shellcheck, logf)
	if err != nil {
		fmt.Fprintf(e.stderr, "cicheck: %v\n", err)
		var ie *internalError
		if errors.As(err, &ie) {
			return nil, exitInternal
		}
		return nil, exitUsage
	}
	if len(paths) == 0 {
		// Linting the repository (not named files): its test registry too.
		if err := lintRegistry(e, cfg, res, logf); err != nil {
			fmt.Fprintf(e.stderr, "cicheck: %v\n", err)
			return nil, exitUsage
		}
	}
	res.findings = applyRuleConfig(cfg, res.findings)
	seen := map[string]bool{}
	for _, msg := range res.inputErrors {
		// Files sharing one broken .github/actionlint.yaml fail alike:
		// say it once.
		if !seen[msg] {
			seen[msg] = true
			fmt.Fprintf(e.stderr, "cicheck: %s\n", msg)
		}
	}
	return res, exitOK
}

// applyRuleConfig applies rules.<id>.enabled and .severity to every
// finding: cicheck's rules read them already, but actionlint's kinds,
// shellcheck, the suppression meta-rules and the registry rules did not,
// although the config accepts their ids.
func applyRuleConfig(cfg *config.Config, fs []finding.Finding) []finding.Finding {
	if cfg == nil || len(cfg.Rules) == 0 {
		return fs
	}
	out := fs[:0]
	for _, f := range fs {
		if !cfg.RuleEnabled(f.Rule) {
			continue
		}
		f.Severity = cfg.RuleSeverity(f.Rule, f.Severity)
		out = append(out, f)
	}
	return out
}

// lintRegistry adds the test-registry findings when the repository has a
// registry (configured, or the default labels file exists).
func lintRegistry(e *env, cfg *config.Config, res *lintResult, logf func(string, ...any)) error {
	root := repoRoot(e.wd)
	fsys := os.DirFS(root)
	if !testregistry.Present(fsys, cfg.Registry) {
		logf("no test registry (%s absent): registry checks skipped", cfg.Registry.Labels.File)
		return nil
	}
	fs, err := testregistry.Check(fsys, cfg.Registry)
	if err != nil {
		return err
	}
	for i := range fs {
		src, _ := os.ReadFile(filepath.Join(root, filepath.FromSlash(fs[i].File)))
		fs[i].File = display(e.wd, filepath.Join(root, filepath.FromSlash(fs[i].File)))
		if _, ok := res.sources[fs[i].File]; !ok && src != nil {
			res.sources[fs[i].File] = src
		}
	}
	logf("test registry checked: %d finding(s)", len(fs))
	res.findings = finding.Sort(append(res.findings, fs...))
	return nil
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

// version is the cicheck version reported in SARIF: the module version
// when built by `go install ...@version`, else "dev".
// (Read on first use: parsing the build info costs every start-up.)
var version = sync.OnceValue(func() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "dev"
})

func failThreshold(s string) (finding.Severity, bool) {
	if s == "never" {
		return 0, true
	}
	sev, err := finding.ParseSeverity(s)
	return sev, err == nil
}

func validFormat(f string) bool {
	for _, x := range report.Formats {
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

// target is one workflow file to lint.
type target struct {
	abs     string // absolute path on disk
	display string // as findings show it
	root    string // project root: the directory holding .github
	rel     string // slash path relative to root
}

// discover turns the PATH arguments into workflow files.
func discover(wd string, args []string, logf func(string, ...any)) ([]target, error) {
	var out []target
	if len(args) == 0 {
		root := repoRoot(wd)
		dir := filepath.Join(root, ".github", "workflows")
		if st, err := os.Stat(dir); err != nil || !st.IsDir() {
			return nil, fmt.Errorf("%s: no .github/workflows directory (pass a workflow file or directory)", display(wd, root))
		}
		ts, err := workflowDir(wd, dir, logf)
		if err != nil {
			return nil, err
		}
		return ts, nil
	}
	for _, a := range args {
		p := a
		if !filepath.IsAbs(p) {
			p = filepath.Join(wd, p)
		}
		st, err := os.Stat(p)
		if err != nil {
			var pe *fs.PathError
			if errors.As(err, &pe) {
				err = pe.Err
			}
			return nil, fmt.Errorf("%s: %w", a, err)
		}
		if !st.IsDir() {
			out = append(out, makeTarget(wd, p))
			continue
		}
		dir := p
		if st, err := os.Stat(filepath.Join(p, ".github", "workflows")); err == nil && st.IsDir() {
			dir = filepath.Join(p, ".github", "workflows")
		} else if st, err := os.Stat(filepath.Join(p, "workflows")); err == nil && st.IsDir() && filepath.Base(filepath.Clean(p)) == ".github" {
			// `cicheck lint .github` means its workflows, not
			// actionlint.yaml or dependabot.yml beside them.
			dir = filepath.Join(p, "workflows")
		}
		ts, err := workflowDir(wd, dir, logf)
		if err != nil {
			return nil, err
		}
		out = append(out, ts...)
	}
	// The same file named twice is linted once.
	seen := map[string]bool{}
	uniq := out[:0]
	for _, t := range out {
		if !seen[t.abs] {
			seen[t.abs] = true
			uniq = append(uniq, t)
		}
	}
	return uniq, nil
}

// workflowDir lists the .yml/.yaml files directly in dir. GitHub ignores
// sub-folders of .github/workflows, so their files are not workflows.
func workflowDir(wd, dir string, logf func(string, ...any)) ([]target, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", display(wd, dir), unwrap(err))
	}
	var out []target
	for _, en := range entries {
		name := en.Name()
		if en.IsDir() {
			if n := countYAML(filepath.Join(dir, name)); n > 0 {
				logf("skipping %s/: %d YAML file(s) in a sub-folder; GitHub only runs workflows directly in .github/workflows", showPath(wd, filepath.Join(dir, name)), n)
			}
			continue
		}
		if !isYAML(name) {
			continue
		}
		out = append(out, makeTarget(wd, filepath.Join(dir, name)))
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no workflow files (*.yml, *.yaml) found", display(wd, dir))
	}
	sort.Slice(out, func(i, j int) bool { return out[i].display < out[j].display })
	for _, t := range out {
		logf("linting %s", t.display)
	}
	return out, nil
}

func isYAML(name string) bool {
	ext := strings.ToLower(filepath.Ext(name))
	return ext == ".yml" || ext == ".yaml"
}

func countYAML(dir string) int {
	n := 0
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && isYAML(d.Name()) {
			n++
		}
		return nil
	})
	return n
}

func unwrap(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// showPath is how findings name a file: relative to the repository root
// (what GitHub annotations and SARIF expect), else to the working
// directory, else absolute.
func showPath(wd, abs string) string {
	if r, err := filepath.Rel(repoRoot(wd), abs); err == nil && r != ".." && !startsWithDotDot(r) {
		return filepath.ToSlash(r)
	}
	return display(wd, abs)
}

// makeTarget finds the project root of a workflow file: the directory
// holding the .github/workflows it sits in, else its own directory.
func makeTarget(wd, abs string) target {
	dir := filepath.Dir(abs)
	root := dir
	if filepath.Base(dir) == "workflows" && filepath.Base(filepath.Dir(dir)) == ".github" {
		root = filepath.Dir(filepath.Dir(dir))
	}
	rel, err := filepath.Rel(root, abs)
	if err != nil {
		rel = filepath.Base(abs)
	}
	return target{abs: abs, display: showPath(wd, abs), root: root, rel: filepath.ToSlash(rel)}
}

// lintResult is everything a lint run produced.
type lintResult struct {
	findings    []finding.Finding
	sources     map[string][]byte
	inputErrors []string // unusable files: reported, and the exit code is 2
}

// lintTargets lints each file with actionlint and cicheck's rules, applies
// suppressions and returns sorted findings. Unusable files are collected
// in inputErrors; the other files are still linted. Files are linted in
// parallel (one actionlint linter per worker) and merged in input order, so
// the output does not depend on scheduling.
func lintTargets(wd string, targets []target, cfg *config.Config, shellcheck string, logf func(string, ...any)) (*lintResult, error) {
	res := &lintResult{sources: map[string][]byte{}}
	var sc *checks.Shellcheck
	if shellcheck != "" {
		var err error
		if sc, err = checks.NewShellcheck(shellcheck); err != nil {
			return nil, err
		}
	}
	var todo []target
	for _, t := range targets {
		if ignored(cfg, t) {
			logf("ignoring %s (config ignore)", t.display)
			continue
		}
		todo = append(todo, t)
	}
	type slot struct {
		src      []byte
		findings []finding.Finding
		inputErr string
		fatal    error
	}
	slots := make([]slot, len(todo))
	callees := workflowgraph.NewCallees()
	projects := checks.NewProjects()
	workers := min(runtime.GOMAXPROCS(0), len(todo))
	// The queue is filled before the workers start and the calling
	// goroutine is one of them: no hand-off per file wakes an idle thread
	// (measured: a third of a small run's CPU went to such wake-ups).
	next := make(chan int, len(todo))
	for i := range todo {
		next <- i
	}
	close(next)
	work := func() {
		var l *checks.Linter
		for i := range next {
			s := &slots[i]
			if l == nil {
				var err error
				if l, err = checks.NewLinter(checks.LinterOptions{WorkingDir: wd, Projects: projects}); err != nil {
					s.fatal = err
					continue
				}
			}
			s.fatal = recovered(todo[i].display, func() {
				s.src, s.findings, s.inputErr = lintOne(l, todo[i], cfg, sc, callees)
			})
		}
	}
	var wg sync.WaitGroup
	for range workers - 1 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			work()
		}()
	}
	work()
	wg.Wait()
	for i, s := range slots {
		if s.fatal != nil {
			return nil, s.fatal
		}
		if s.inputErr != "" {
			res.inputErrors = append(res.inputErrors, s.inputErr)
			continue
		}
		res.sources[todo[i].display] = s.src
		res.findings = append(res.findings, s.findings...)
	}
	res.findings = finding.Sort(res.findings)
	return res, nil
}

// internalError is a cicheck bug (a panic in a worker): exit code 3.
type internalError struct{ msg string }

func (e *internalError) Error() string { return e.msg }

// recovered runs f and turns a panic into an internalError naming the file:
// a panic in a worker goroutine would otherwise escape dispatch's recover
// and print a stack trace.
func recovered(file string, f func()) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = &internalError{fmt.Sprintf("internal error while linting %s: %v (please report this)", file, r)}
		}
	}()
	f()
	return nil
}

// lintOne lints one file: actionlint, then cicheck's rules on the graph
// built from the tree actionlint parsed, then job ids and suppressions.
// The graph is dropped when the file is done: only findings and sources
// outlive it, so a large run does not keep every parsed workflow alive.
//
// callees is the run's cache of local reusable workflows: a linted file that
// declares workflow_call is added with its parse, so its callers do not
// parse it again.
func lintOne(l *checks.Linter, t target, cfg *config.Config, sc *checks.Shellcheck, callees *workflowgraph.Callees) ([]byte, []finding.Finding, string) {
	src, err := workflowgraph.ReadFile(os.DirFS(t.root), t.rel)
	if err != nil {
		return nil, nil, relabel(err, t.rel, t.display).Error()
	}
	fs, ast, err := l.Lint(t.abs, t.root, t.display, src)
	if err != nil {
		return nil, nil, err.Error()
	}
	if err := workflowgraph.CheckParsed(t.display, src, ast); err != nil {
		return nil, nil, err.Error()
	}
	var w *workflowgraph.Workflow
	if ast != nil {
		if _, reusable := ast.FindWorkflowCallEvent(); reusable {
			callees.Add(t.root, t.rel, src, ast)
		}
		w = workflowgraph.BuildShared(callees, t.root, os.DirFS(t.root), t.rel, src, ast)
		fs = checks.RefineRunnerLabels(fs, w, cfg.Classifier())
		fs = append(fs, checks.Run(w, t.display, cfg, nil)...)
		if sc != nil {
			fs = append(fs, sc.Check(t.display, src, ast)...)
		}
	}
	fs = checks.AssignJobs(src, w, fs)
	fs = checks.ApplySuppressions(t.display, src, w, fs)
	return src, fs, ""
}

// writeReportDiscard renders the text report and drops it (benchmarks).
func writeReportDiscard(res *lintResult) error {
	return report.Write(io.Discard, "text", res.findings, report.Options{Sources: res.sources, Rules: ruleInfos()})
}

// ignored applies the config's ignore globs to the path relative to the
// project root and relative to the working directory.
func ignored(cfg *config.Config, t target) bool {
	for _, pat := range cfg.Ignore {
		for _, p := range []string{t.rel, t.display} {
			if ok, _ := doublestar.Match(pat, p); ok {
				return true
			}
		}
	}
	return false
}

// ruleInfos is the rule metadata for SARIF: every documented rule (with a
// helpUri to docs/rules/<id>.md) and actionlint's kinds.
func ruleInfos() []report.RuleInfo {
	var out []report.RuleInfo
	for _, d := range ruleDocs() {
		out = append(out, d.info())
	}
	kinds := make([]string, 0, len(checks.ActionlintKinds))
	for k := range checks.ActionlintKinds {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	for _, k := range kinds {
		out = append(out, report.RuleInfo{ID: k, Short: "actionlint: " + checks.ActionlintKinds[k],
			Help:     "Reported by the embedded actionlint. See https://github.com/rhysd/actionlint/blob/main/docs/checks.md",
			HelpURI:  "https://github.com/rhysd/actionlint/blob/main/docs/checks.md",
			Severity: finding.Error})
	}
	return out
}
