// Package lint is cicheck's linter as a library, in the manner of
// actionlint's Linter: it finds the workflow files a command names, lints
// each with actionlint and cicheck's rules, adds the test registry's
// findings when a whole repository is linted, and applies the
// configuration (ignore globs, rule settings) and suppressions. Commands
// print what it returns; it prints nothing.
package lint

import (
	"errors"
	"fmt"
	"io"
	"maps"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/bmatcuk/doublestar/v4"
	"github.com/cicheck/cicheck/checks"
	"github.com/cicheck/cicheck/config"
	"github.com/cicheck/cicheck/finding"
	"github.com/cicheck/cicheck/fix"
	"github.com/cicheck/cicheck/internal/safewrite"
	"github.com/cicheck/cicheck/testregistry"
	"github.com/cicheck/cicheck/workflowgraph"
	"github.com/rhysd/actionlint"
)

// Options configure a Linter.
type Options struct {
	// WorkingDir resolves relative paths and is what findings are shown
	// relative to (after the repository root).
	WorkingDir string
	// Config is the loaded configuration (config.Default() when nil).
	Config *config.Config
	// Shellcheck is the shellcheck executable for run: scripts; "" for none.
	Shellcheck string
	// Log receives what --verbose prints (which files are linted and
	// skipped, and why); nil discards it.
	Log func(format string, a ...any)
	// Fix computes, for each file, its text with the certain fixes of the
	// hazards (errors) applied (Result.Fixes); nothing is written. FixAll
	// also applies the fixes of advisories (warnings and notices).
	Fix, FixAll bool
	// Stdin is read, once, for the path "-" of LintArgs.
	Stdin *Stdin
}

// Stdin is a workflow read from a stream once: a run that lints it twice
// (--fix, then the report) sees the same text.
type Stdin struct {
	r    io.Reader
	text []byte
	err  error
	read bool
}

// NewStdin reads r on first use.
func NewStdin(r io.Reader) *Stdin { return &Stdin{r: r} }

// Text is the stream's text. One byte past workflowgraph.MaxFileSize is
// read, so an endless pipe cannot exhaust memory and a file too large is
// still reported as such.
func (s *Stdin) Text() ([]byte, error) {
	if !s.read {
		s.read = true
		s.text, s.err = io.ReadAll(io.LimitReader(s.r, workflowgraph.MaxFileSize+1))
		if s.text == nil {
			s.text = []byte{}
		}
	}
	return s.text, s.err
}

// Linter lints workflows and test registries.
type Linter struct{ o Options }

// New returns a Linter for o.
func New(o Options) *Linter {
	if o.Config == nil {
		o.Config = config.Default()
	}
	if o.Log == nil {
		o.Log = func(string, ...any) {}
	}
	return &Linter{o: o}
}

// LintRepo lints every workflow directly in .github/workflows of the
// repository holding the working directory, and its test registry when it
// has one.
func (l *Linter) LintRepo() (*Result, error) {
	res, err := l.LintFiles(nil)
	if err != nil {
		return nil, err
	}
	if err := lintRegistry(l.o.WorkingDir, l.o.Config, res, l.o.Log); err != nil {
		return nil, err
	}
	return res, nil
}

// LintFiles lints the workflow files and directories named by paths (a
// directory means its .github/workflows, else the YAML files directly in
// it); no paths means the repository's workflows, without its registry.
// An unusable file is an input error in the result; the others are still
// linted. The error is an *InternalError for a cicheck bug.
func (l *Linter) LintFiles(paths []string) (*Result, error) {
	targets, err := Discover(l.o.WorkingDir, paths, l.o.Log)
	if err != nil {
		return nil, err
	}
	return l.LintTargets(targets)
}

// LintSource lints a workflow that is not on disk (an editor's buffer, a
// pipe): name is the path it would have, relative to the working directory,
// which places it in its repository for local actions and reusable
// workflows and names it in findings.
func (l *Linter) LintSource(name string, src []byte) (*Result, error) {
	abs := name
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(l.o.WorkingDir, name)
	}
	t := NewTarget(l.o.WorkingDir, abs)
	t.Src = src
	if src == nil {
		t.Src = []byte{}
	}
	return l.LintTargets([]Target{t})
}

// LintTargets lints files already discovered, with the configuration's
// rule settings applied.
func (l *Linter) LintTargets(targets []Target) (*Result, error) {
	mode := fixNone
	switch {
	case l.o.Fix && l.o.FixAll:
		mode = fixAll
	case l.o.Fix:
		mode = fixHazards
	}
	res, err := lintTargets(l.o.WorkingDir, targets, l.o.Config, l.o.Shellcheck, mode, l.o.Log)
	if err != nil {
		return nil, err
	}
	res.Findings = ApplyRuleConfig(l.o.Config, res.Findings)
	return res, nil
}

// Result is everything a lint run produced.
type Result struct {
	Findings    []finding.Finding
	Sources     map[string][]byte
	InputErrors []string // unusable files: reported, and the exit code is 2
	// Fixes holds, with Options.Fix, each file that has fixable findings.
	Fixes []FileFix
	// parsed are the linted workflows as the registry's workflow checks
	// read them; parsedComplete says every target is among them.
	parsed         []testregistry.WorkflowFile
	parsedComplete bool
}

// FileFix is one file's fixed text.
type FileFix struct {
	Target Target
	fix.Result
}

// lintTargets lints each file with actionlint and cicheck's rules, applies
// suppressions and returns sorted findings. Unusable files are collected
// in inputErrors; the other files are still linted. Files are linted in
// parallel (one actionlint linter per worker) and merged in input order, so
// the output does not depend on scheduling.
// fixMode is which certain fixes a run computes.
type fixMode int

const (
	fixNone    fixMode = iota
	fixHazards         // errors only
	fixAll             // advisories too
)

func lintTargets(wd string, targets []Target, cfg *config.Config, shellcheck string, fixing fixMode, logf func(string, ...any)) (*Result, error) {
	res := &Result{Sources: map[string][]byte{}}
	var sc *checks.Shellcheck
	if shellcheck != "" {
		var err error
		if sc, err = checks.NewShellcheck(shellcheck); err != nil {
			return nil, err
		}
	}
	var todo []Target
	for _, t := range targets {
		if ignored(cfg, t) {
			logf("ignoring %s (config ignore)", t.Display)
			continue
		}
		todo = append(todo, t)
	}
	type slot struct {
		src      []byte
		findings []finding.Finding
		inputErr string
		fix      *fix.Result
		fatal    error
		ast      *actionlint.Workflow
		unread   bool
	}
	shareFS(todo)
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
			s.fatal = recovered(todo[i].Display, func() {
				var w *workflowgraph.Workflow
				s.src, s.findings, w, s.inputErr = lintOne(l, todo[i], cfg, sc, callees)
				switch {
				case w != nil:
					s.ast = w.AST
				case s.src == nil || workflowgraph.CheckSource(todo[i].Rel, s.src) != nil:
					s.unread = true // the registry does not read it either
				default:
					// A file GitHub refuses still has whatever tree
					// actionlint makes of it, as the registry reads it.
					s.ast, _ = actionlint.Parse(s.src)
				}
				if fixing != fixNone && w != nil {
					s.fix = fixFile(l, todo[i], cfg, sc, s.src, w, s.findings, fixing)
				}
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
	res.parsedComplete = len(todo) == len(targets)
	for i, s := range slots {
		if s.fatal != nil {
			return nil, s.fatal
		}
		if s.inputErr != "" {
			res.InputErrors = append(res.InputErrors, s.inputErr)
			res.parsedComplete = false
			continue
		}
		if !s.unread {
			res.parsed = append(res.parsed, testregistry.WorkflowFile{Path: filepath.ToSlash(todo[i].Rel), Source: s.src, AST: s.ast})
		}
		res.Sources[todo[i].Display] = s.src
		res.Findings = append(res.Findings, s.findings...)
		if s.fix != nil {
			res.Fixes = append(res.Fixes, FileFix{todo[i], *s.fix})
		}
	}
	res.Findings = finding.Sort(res.Findings)
	return res, nil
}

// InternalError is a cicheck bug (a panic in a worker): exit code 3.
type InternalError struct{ msg string }

func (e *InternalError) Error() string { return e.msg }

// ExitCode is 3, a bug in cicheck, for a command line reporting the error.
func (e *InternalError) ExitCode() int { return 3 }

// recovered runs f and turns a panic into an InternalError naming the file:
// a panic in a worker goroutine would otherwise escape dispatch's recover
// and print a stack trace.
func recovered(file string, f func()) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = &InternalError{fmt.Sprintf("internal error while linting %s: %v (please report this)", file, r)}
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
func lintOne(l *checks.Linter, t Target, cfg *config.Config, sc *checks.Shellcheck, callees *workflowgraph.Callees) ([]byte, []finding.Finding, *workflowgraph.Workflow, string) {
	src, err := t.Src, error(nil)
	if src == nil {
		src, err = workflowgraph.ReadFile(t.FS(), t.Rel)
	} else {
		err = workflowgraph.CheckSource(t.Rel, src)
	}
	var inv *workflowgraph.InvalidFile
	if errors.As(err, &inv) {
		// GitHub refuses the file: a finding (exit 1), not bad input.
		return src, []finding.Finding{checks.InvalidFile(t.Display, inv)}, nil, ""
	}
	if err != nil {
		return nil, nil, nil, Relabel(err, t.Rel, t.Display).Error()
	}
	fs, ast, err := l.Lint(t.Abs, t.Root, t.Display, src)
	if err != nil {
		return nil, nil, nil, err.Error()
	}
	if err := workflowgraph.CheckParsed(t.Display, src, ast); errors.As(err, &inv) {
		return src, []finding.Finding{checks.InvalidFile(t.Display, inv)}, nil, ""
	}
	var w *workflowgraph.Workflow
	if ast != nil {
		if _, reusable := ast.FindWorkflowCallEvent(); reusable {
			callees.Add(t.Root, t.Rel, src, ast)
		}
		w = workflowgraph.BuildShared(callees, t.Root, t.FS(), t.Rel, src, ast)
		fs = checks.RefineRunnerLabels(fs, w, cfg.Classifier())
		fs = append(fs, l.DropIgnored(checks.Run(w, t.Display, cfg, nil))...)
		if sc != nil {
			fs = append(fs, sc.Check(t.Display, src, ast)...)
		}
	}
	fs = checks.AssignJobs(src, w, fs)
	fs = checks.ApplySuppressions(t.Display, src, w, fs)
	fs = checks.MarkIDs(t.Display, w, fs)
	return src, fs, w, ""
}

// fixFile computes a file's fixed text. A fix can expose the next: a job
// that now runs after a skip bridges the job below it (closure-bridge). So
// the fixed text is linted again in memory, and each job keeps the if: the
// latest round asks for, until a round asks nothing new (at most four);
// the fixes are then applied once to the original text, so the diff is
// against what is on disk.
func fixFile(l *checks.Linter, t Target, cfg *config.Config, sc *checks.Shellcheck, src []byte, w *workflowgraph.Workflow, fs []finding.Finding, mode fixMode) *fix.Result {
	fixable := func(fs []finding.Finding) map[string][]finding.Finding {
		out := map[string][]finding.Finding{}
		for _, f := range fs {
			if !fix.Fixable(f) || !cfg.RuleEnabled(f.Rule) {
				continue
			}
			if mode == fixAll || cfg.RuleSeverity(f.Rule, f.Severity) == finding.Error {
				out[f.Job] = append(out[f.Job], f)
			}
		}
		return out
	}
	want := fixable(fs)
	if len(want) == 0 {
		return nil
	}
	flat := func() []finding.Finding {
		var out []finding.Finding
		for _, job := range slices.Sorted(maps.Keys(want)) {
			out = append(out, want[job]...)
		}
		return finding.Sort(out)
	}
	for round := 0; round < 4; round++ {
		r := fix.Apply(src, w, flat())
		if len(r.Applied) == 0 {
			break
		}
		// The fixed text, linted on its own: a fresh cache of called
		// workflows, so the other files never see it.
		t2 := t
		t2.Src = r.Source
		_, next, w2, bad := lintOne(l, t2, cfg, sc, workflowgraph.NewCallees())
		if bad != "" || w2 == nil {
			break
		}
		changed := false
		for job, fs := range fixable(next) {
			if old, ok := want[job]; !ok || old[0].Edit != fs[0].Edit {
				want[job], changed = fs, true
			}
		}
		if !changed {
			break
		}
	}
	r := fix.Apply(src, w, flat())
	return &r
}

// ignored applies the config's ignore globs to the path relative to the
// project root and relative to the working directory.
func ignored(cfg *config.Config, t Target) bool {
	for _, pat := range cfg.Ignore {
		for _, p := range []string{t.Rel, t.Display} {
			if ok, _ := doublestar.Match(pat, p); ok {
				return true
			}
		}
	}
	return false
}

// ApplyRuleConfig applies rules.<id>.enabled and .severity to every
// finding: cicheck's rules read them already, but actionlint's kinds,
// shellcheck, the suppression meta-rules and the registry rules did not,
// although the config accepts their ids.
func ApplyRuleConfig(cfg *config.Config, fs []finding.Finding) []finding.Finding {
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

// absentWhat says what a profile looked for and did not find.
func absentWhat(c testregistry.Config) string {
	var files []string
	for _, f := range []string{c.Labels.File, c.Suites.File} {
		if f != "" {
			files = append(files, f)
		}
	}
	if len(files) == 0 {
		return "no registry configured, no miles or sglang layout found"
	}
	return strings.Join(files, " and ") + " absent"
}

// lintRegistry adds the test-registry findings when the repository has a
// registry (configured, or the default labels file exists).
func lintRegistry(wd string, cfg *config.Config, res *Result, logf func(string, ...any)) error {
	root := RepoRoot(wd)
	fsys := testregistry.DirFS(root)       // confined to the repository, as 'registry check' reads it
	reg, err := cfg.Registry.Resolve(fsys) // the profile the repository's layout calls for
	if err != nil {
		return err
	}
	if !testregistry.Present(fsys, reg) {
		logf("no test registry (profile %s: %s): registry checks skipped", reg.Profile, absentWhat(reg))
		return nil
	}
	// The registry reads the workflows lint has just parsed, when they are
	// the whole directory it reads: one parse per file and run.
	var wfs []testregistry.WorkflowFile
	if res.parsedComplete && reg.Workflows == ".github/workflows" {
		wfs = slices.SortedFunc(slices.Values(res.parsed), func(a, b testregistry.WorkflowFile) int { return strings.Compare(a.Path, b.Path) })
	}
	r, err := testregistry.ScanWith(fsys, reg, wfs)
	if err != nil {
		return err
	}
	fs := r.Findings
	fs = ApplyRuleConfig(cfg, fs)
	for i := range fs {
		src := testregistry.ReadSource(fsys, fs[i].File)
		fs[i].File = Display(wd, filepath.Join(root, filepath.FromSlash(fs[i].File)))
		if _, ok := res.Sources[fs[i].File]; !ok && src != nil {
			res.Sources[fs[i].File] = src
		}
	}
	logf("test registry checked: %d finding(s)", len(fs))
	res.Findings = finding.Sort(append(res.Findings, fs...))
	return nil
}

// LintArgs lints what a command line names: the repository (LintRepo) for
// no path, the workflow Options.Stdin holds, named stdinName, for "-" alone,
// else the files and directories (LintFiles).
func (l *Linter) LintArgs(paths []string, stdinName string) (*Result, error) {
	switch {
	case len(paths) == 0:
		return l.LintRepo()
	case len(paths) == 1 && paths[0] == "-":
		if l.o.Stdin == nil {
			return nil, errors.New("<stdin>: no input stream")
		}
		src, err := l.o.Stdin.Text()
		if err != nil {
			return nil, fmt.Errorf("<stdin>: %w", err)
		}
		return l.LintSource(stdinName, src)
	case slices.Contains(paths, "-"):
		return nil, errors.New("- (stdin) cannot be combined with other paths")
	}
	return l.LintFiles(paths)
}

// UniqueInputErrors are the input errors, each once: files sharing one
// broken .github/actionlint.yaml fail alike.
func (r *Result) UniqueInputErrors() []string {
	var out []string
	seen := map[string]bool{}
	for _, msg := range r.InputErrors {
		if !seen[msg] {
			seen[msg] = true
			out = append(out, msg)
		}
	}
	return out
}

// Write replaces the file the fix was computed from with the fixed text,
// atomically and keeping its mode, unless the file changed since it was
// read, is read-only, or is a symlink leaving the repository: then the
// error is a safewrite.Refusal and the file is as it was.
func (f FileFix) Write() error {
	root := RepoRoot(f.Target.Root)
	if err := safewrite.Replace(root, f.Target.Abs, f.Original, f.Source, workflowgraph.MaxFileSize); err != nil {
		if safewrite.IsRefusal(err) {
			return err
		}
		return fmt.Errorf("%s: %w", f.Target.Display, Unwrap(err))
	}
	return nil
}

// FixOutcome is what ApplyFixes did.
type FixOutcome struct {
	Findings, Files int      // fixed
	Skipped         []string // findings left for a person, described
	Stdin           bool     // the fixed text of stdin was written to out
}

// ApplyFixes applies r.Fixes: with diff, prints them to out as unified
// diffs; otherwise writes each fixed file in place, except a workflow read
// from stdin, whose fixed text goes to out.
func (r *Result) ApplyFixes(out io.Writer, diff bool) (FixOutcome, error) {
	var o FixOutcome
	for _, f := range r.Fixes {
		for _, s := range f.Skipped {
			o.Skipped = append(o.Skipped, s.Describe())
		}
		if len(f.Applied) == 0 {
			continue
		}
		var err error
		switch {
		case diff:
			_, err = io.WriteString(out, f.Unified(f.Target.Display))
		case f.Target.Src != nil:
			o.Stdin = true
			_, err = out.Write(f.Source)
		default:
			err = f.Write()
		}
		if safewrite.IsRefusal(err) {
			o.Skipped = append(o.Skipped, fmt.Sprintf("%s: not written: %v", f.Target.Display, err))
			continue
		}
		if err != nil {
			return o, err
		}
		o.Findings, o.Files = o.Findings+len(f.Applied), o.Files+1
	}
	return o, nil
}
