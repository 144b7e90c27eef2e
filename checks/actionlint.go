package checks

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/rhysd/actionlint"

	"github.com/cicheck/cicheck/expr"
	"github.com/cicheck/cicheck/finding"
	"github.com/cicheck/cicheck/internal/ghschema"
	"github.com/cicheck/cicheck/internal/repofs"
	"github.com/cicheck/cicheck/workflowgraph"
)

// Linter runs the embedded actionlint (all its rules, honouring the
// project's .github/actionlint.yaml) and converts its errors into findings.
// Its shellcheck and pyflakes integrations stay off: actionlint v1.7.12
// deadlocks on `run:` scripts larger than about 64 KiB (see Shellcheck for
// cicheck's own bounded runner).
//
// It also hands back the syntax tree actionlint parsed, so that a workflow
// is parsed once for both actionlint and cicheck's rules.
type Linter struct {
	mu       sync.Mutex
	al       *actionlint.Linter
	captured *actionlint.Workflow
	projects *Projects
	wd       string
	// ignoredNeeds holds, for the last file linted, the job-needs errors
	// cicheck reports itself that the project's actionlint.yaml ignores:
	// `job "a" needs job "b"` for an unknown need, "cycle" for a cycle.
	ignoredNeeds []string
	// selfHosted are the self-hosted runner labels (globs) the project's
	// actionlint.yaml declares, for the last file linted.
	selfHosted []string
}

// Projects holds actionlint's projects by root, with their caches of
// parsed local actions and reusable workflows. Linters of one run (one per
// worker goroutine) share it, so each local action or called workflow is
// parsed once per run, not once per worker; actionlint's caches are safe
// for concurrent use.
type Projects struct {
	mu sync.Mutex
	m  map[string]*actionlint.Project
}

// NewProjects returns an empty registry.
func NewProjects() *Projects { return &Projects{m: map[string]*actionlint.Project{}} }

func (ps *Projects) get(root string) (*actionlint.Project, error) {
	ps.mu.Lock()
	defer ps.mu.Unlock()
	if p := ps.m[root]; p != nil {
		return p, nil
	}
	if err := checkConfigFile(root); err != nil {
		return nil, err
	}
	p, err := actionlint.NewProject(root)
	if err != nil {
		return nil, err
	}
	ps.m[root] = p
	return p, nil
}

// configFileError is a .github/actionlint.yaml cicheck will not let
// actionlint read.
type configFileError struct {
	path string
	err  error
}

func (e *configFileError) Error() string { return e.path + ": " + e.err.Error() }

// checkConfigFile reads the project's actionlint.yaml as repofs does
// before actionlint reads it with no bound: a named pipe there would hang
// the run, a link to /dev/zero exhaust memory, a link out of the
// repository be read.
func checkConfigFile(root string) error {
	fsys := repofs.DirFS(root)
	for _, base := range []string{"actionlint.yaml", "actionlint.yml"} {
		name := ".github/" + base
		if _, err := os.Lstat(filepath.Join(root, filepath.FromSlash(name))); err != nil {
			continue
		}
		if _, err := repofs.ReadFile(fsys, name, repofs.ConfigLimit, "configuration file"); err != nil {
			var tl *repofs.TooLargeError
			if errors.As(err, &tl) {
				err = fmt.Errorf("larger than the %d MiB limit for a configuration file", repofs.ConfigLimit>>20)
			} else {
				err = workflowgraph.UnwrapPathError(err)
			}
			return &configFileError{path: filepath.Join(root, filepath.FromSlash(name)), err: err}
		}
	}
	return nil
}

// LinterOptions configures NewLinter.
type LinterOptions struct {
	// WorkingDir is the directory actionlint reports paths against.
	WorkingDir string
	// ConfigFile is an explicit actionlint.yaml; empty means the project's
	// .github/actionlint.yaml when there is one.
	ConfigFile string
	// Projects is shared with the run's other Linters; nil gives this
	// Linter its own.
	Projects *Projects
}

// NewLinter builds a Linter.
func NewLinter(opts LinterOptions) (*Linter, error) {
	l := &Linter{projects: opts.Projects, wd: opts.WorkingDir}
	if l.projects == nil {
		l.projects = NewProjects()
	}
	al, err := actionlint.NewLinter(io.Discard, &actionlint.LinterOptions{
		WorkingDir: opts.WorkingDir,
		ConfigFile: opts.ConfigFile,
		LogWriter:  io.Discard,
		// Errors go to io.Discard; without Oneline actionlint still finds
		// each error's source line for the snippet, a scan of the file per
		// error (quadratic on a large generated workflow).
		Oneline: true,
		OnRulesCreated: func(rs []actionlint.Rule) []actionlint.Rule {
			return append(rs, &captureRule{RuleBase: actionlint.NewRuleBase("cicheck-capture", ""), l: l})
		},
	})
	if err != nil {
		return nil, err
	}
	l.al = al
	return l, nil
}

// captureRule records the workflow actionlint parsed.
type captureRule struct {
	actionlint.RuleBase
	l *Linter
}

func (r *captureRule) VisitWorkflowPre(w *actionlint.Workflow) error {
	r.l.captured = w
	return nil
}

// Lint lints one workflow. path names the file on disk; root is its
// project root, the directory holding .github (actionlint reads
// .github/actionlint.yaml, local actions and local reusable workflows from
// there; unlike actionlint's own discovery it needs no .git, so example
// repositories work). display is the name findings carry. The returned
// workflow is nil when the YAML could not be parsed at all.
func (l *Linter) Lint(path, root, display string, src []byte) (fs []finding.Finding, w *actionlint.Workflow, err error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.captured, l.ignoredNeeds, l.selfHosted = nil, nil, nil
	defer func() {
		// actionlint is a library we do not control: one bad file must not
		// take the whole run down with a stack trace.
		if r := recover(); r != nil {
			err = fmt.Errorf("%s: actionlint failed: %v", display, r)
		}
	}()
	var proj *actionlint.Project
	if root != "" {
		if proj, err = l.projects.get(root); err != nil {
			return nil, nil, projectError(err, root, l.wd)
		}
	}
	errs, err := l.al.Lint(path, src, proj)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %s", display, oneLine(err.Error()))
	}
	pathCfgs := projectPathConfigs(proj, root, path)
	if proj != nil && proj.Config() != nil {
		l.selfHosted = proj.Config().SelfHostedRunner.Labels
	}
	gs := ghschema.NewSource(src)
	fs = make([]finding.Finding, 0, len(errs))
	for _, e := range errs {
		replaced, ignored := replacedByCicheck(e, gs), ignoredByPathConfig(e, pathCfgs)
		if replaced && ignored {
			l.ignoredNeeds = append(l.ignoredNeeds, needsKey(e.Message))
		}
		if replaced || ignored {
			continue
		}
		sev, msg := finding.Error, relativeMessage(e.Message, root)
		if c, ok := constantFalse(e); ok {
			if jobIfAt(l.captured, e.Line, e.Column) {
				continue // job-disabled reports the parked job
			}
			// A step parked the same way: deliberate, not an error.
			sev, msg = finding.Notice, fmt.Sprintf("constant expression %q in condition: the step is disabled and never runs", c)
		}
		fs = append(fs, finding.Finding{
			Rule:     stableKind(e),
			Severity: sev,
			File:     display,
			Line:     e.Line,
			Column:   e.Column,
			Message:  msg,
		})
		firstUse(&fs[len(fs)-1], src)
	}
	return finding.Sort(fs), l.captured, nil
}

// replacedByCicheck drops the actionlint errors cicheck's own rules report
// with a job id and a fix (unknown-needs, needs-cycle), and those for
// constructs GitHub has accepted since actionlint 1.7.12 (ghschema.Items),
// which cicheck validates itself.
func replacedByCicheck(e *actionlint.Error, gs *ghschema.Source) bool {
	return alUnknownNeed.is(e) || alNeedsCycle.is(e) || ghschema.Accepted(ghschema.Err{Kind: e.Kind, Message: e.Message, Line: e.Line, Column: e.Column}, gs)
}

// constantFalse: e is actionlint's constant-condition error for a
// condition that is always false; the expression is returned.
func constantFalse(e *actionlint.Error) (string, bool) {
	if !alConstantCond.is(e) {
		return "", false
	}
	src := alConstantCond.re().FindStringSubmatch(e.Message)[1]
	n, err := expr.Parse(src)
	if err != nil {
		return "", false
	}
	return src, expr.Eval(n, nil).Truthy() == expr.No
}

// jobIfAt: some job's if: of w is at line:col.
func jobIfAt(w *actionlint.Workflow, line, col int) bool {
	if w == nil {
		return false
	}
	for _, j := range w.Jobs {
		if j != nil && j.If != nil && j.If.Pos != nil && j.If.Pos.Line == line && j.If.Pos.Col == col {
			return true
		}
	}
	return false
}

var needsJobRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^job "[^"]+" needs job "[^"]+"`) })

// needsKey names a job-needs error the same way for actionlint's message
// and cicheck's: the unknown need's `job "a" needs job "b"`, or "cycle".
// It is lower-cased: ids match case-insensitively, and the two spell them
// differently (cicheck as the job's key, actionlint lower-cased).
func needsKey(msg string) string {
	if k := needsJobRE().FindString(msg); k != "" {
		return strings.ToLower(k)
	}
	return "cycle"
}

// DropIgnored removes the unknown-needs and needs-cycle findings of the
// last file linted whose actionlint job-needs error the project's
// actionlint.yaml ignores: cicheck reports those instead of actionlint,
// so the user's ignore patterns must keep applying to them. It also
// removes a runner-image-retired finding for a label that actionlint.yaml
// declares as a self-hosted runner's (a machine of one's own may keep an
// old image's name).
func (l *Linter) DropIgnored(fs []finding.Finding) []finding.Finding {
	if len(l.ignoredNeeds) == 0 && len(l.selfHosted) == 0 {
		return fs
	}
	out := fs[:0]
	for _, f := range fs {
		if (f.Rule == UnknownNeeds.ID || f.Rule == NeedsCycle.ID) && slices.Contains(l.ignoredNeeds, needsKey(f.Message)) {
			continue
		}
		if f.Rule == RunnerImageRetired.ID && declaredSelfHosted(l.selfHosted, retiredLabel(f.Message)) {
			continue
		}
		out = append(out, f)
	}
	return out
}

// declaredSelfHosted: label matches one of actionlint.yaml's
// self-hosted-runner.labels, globs as actionlint matches them.
func declaredSelfHosted(globs []string, label string) bool {
	for _, g := range globs {
		if ok, err := path.Match(g, label); err == nil && ok {
			return true
		}
	}
	return false
}

// stableKind is e.Kind, except for errors raised while reading a local
// reusable workflow or action: actionlint reports those from whichever rule
// asks its shared cache first, which varies between runs, so the same
// problem would carry "workflow-call" in one run and "expression" in the next.
func stableKind(e *actionlint.Error) string {
	switch {
	case alReusableWorkflow.is(e):
		return "workflow-call"
	case alLocalAction.is(e):
		return "action"
	}
	return e.Kind
}

// firstUse moves a "could not read/parse <local file>" finding to the first
// line that names that file. actionlint reports such an error once per
// file, at whichever job reaches its cache first, and it visits jobs in map
// order: without this the same problem wanders between jobs from run to run.
func firstUse(f *finding.Finding, src []byte) {
	if !alReusableWorkflow.re().MatchString(f.Message) && !alLocalAction.re().MatchString(f.Message) {
		return
	}
	start := strings.Index(f.Message, "\"")
	end := -1
	if start >= 0 {
		end = strings.Index(f.Message[start+1:], "\"")
	}
	if end <= 0 {
		return
	}
	ref := []byte(f.Message[start+1 : start+1+end])
	// Walk the lines in place: a copy of the source per finding showed in
	// profiles (every corpus file calling a missing local workflow has one).
	for i, rest := 1, src; len(rest) > 0; i++ {
		line := rest
		if k := bytes.IndexByte(rest, '\n'); k >= 0 {
			line, rest = rest[:k], rest[k+1:]
		} else {
			rest = nil
		}
		if c := bytes.Index(line, ref); c >= 0 && bytes.Contains(line, []byte("uses:")) {
			f.Line, f.Column = i, c+1
			return
		}
	}
}

// relativeMessage removes the absolute project root from messages that
// quote file-system errors, so output (and baselines) do not depend on where
// the repository is checked out.
func relativeMessage(msg, root string) string {
	if root == "" || !filepath.IsAbs(root) {
		return msg
	}
	return strings.ReplaceAll(msg, filepath.Clean(root)+string(filepath.Separator), "")
}

// projectPathConfigs returns the `paths:` entries of the project's
// actionlint.yaml that match the workflow. actionlint matches them against
// the path it was given, which must then be relative to the project root;
// cicheck gives it an absolute path (so that reusable-workflow lookups work
// from any directory), so the matching is done here on the relative path.
func projectPathConfigs(proj *actionlint.Project, root, path string) []actionlint.PathConfig {
	if proj == nil || proj.Config() == nil || root == "" || !filepath.IsAbs(path) {
		return nil
	}
	rel, err := filepath.Rel(root, path)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return nil
	}
	return proj.Config().PathConfigs(rel)
}

func ignoredByPathConfig(e *actionlint.Error, cfgs []actionlint.PathConfig) bool {
	for _, c := range cfgs {
		if c.Ignore.Match(e) {
			return true
		}
	}
	return false
}

// projectError reports a project that actionlint cannot load (an invalid
// .github/actionlint.yaml) against that file, named relative to wd, rather
// than against the workflow being linted; actionlint's message repeats its
// "could not parse config file" prefix with an absolute path, dropped here.
func projectError(err error, root, wd string) error {
	var cf *configFileError
	if errors.As(err, &cf) {
		return fmt.Errorf("%s: %w", filepath.ToSlash(relTo(wd, cf.path)), cf.err)
	}
	msg := oneLine(err.Error())
	name := ""
	for _, base := range []string{"actionlint.yaml", "actionlint.yml"} {
		p := filepath.Join(root, ".github", base)
		if prefix := fmt.Sprintf("could not parse config file %q: ", p); strings.Contains(msg, prefix) {
			msg = strings.ReplaceAll(msg, prefix, "")
			name = p
			break
		}
	}
	if name == "" {
		return fmt.Errorf("%s: %s", filepath.ToSlash(relTo(wd, root)), relativeMessage(msg, root))
	}
	return fmt.Errorf("%s: %s", filepath.ToSlash(relTo(wd, name)), msg)
}

// relTo is p relative to wd when it lies below it, else p.
func relTo(wd, p string) string {
	if wd == "" {
		return p
	}
	if r, err := filepath.Rel(wd, p); err == nil && r != ".." && !strings.HasPrefix(r, ".."+string(filepath.Separator)) {
		return r
	}
	return p
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// ActionlintKinds lists the rule ids actionlint findings can carry, with a
// one-line description each (for SARIF rule metadata and `cicheck rules`).
func ActionlintKinds() map[string]string {
	return map[string]string{
		"action":              "checks for popular actions and local actions: inputs, outputs and versions",
		"credentials":         "checks for credentials hard-coded in container and service configuration",
		"deprecated-commands": "checks for deprecated workflow commands such as set-output",
		"env-var":             "checks for environment variable names",
		"events":              "checks for workflow trigger events and their filters",
		"expression":          "checks for ${{ }} expression syntax, types and contexts",
		"glob":                "checks for glob patterns in branch, tag and path filters",
		"id":                  "checks for job and step ids",
		"if-cond":             "checks for if: conditions that are always true",
		"job-needs":           "checks for needs: (duplicates)",
		"matrix":              "checks for matrix combinations",
		"permissions":         "checks for permission scopes and values",
		"runner-label":        "checks for runs-on labels",
		"shell-name":          "checks for shell names",
		"syntax-check":        "checks for the workflow syntax",
		"workflow-call":       "checks for reusable workflow calls and their inputs",
		"shellcheck":          "runs shellcheck on run: scripts (opt-in with --shellcheck)",
	}
}

// AbsPath joins a relative path onto dir.
func AbsPath(dir, p string) string {
	if filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(dir, p)
}

// sourceLine returns line n (1-based) of src without its newline.
func sourceLine(src []byte, n int) string {
	if n < 1 {
		return ""
	}
	for i := 1; i < n; i++ {
		k := bytes.IndexByte(src, '\n')
		if k < 0 {
			return ""
		}
		src = src[k+1:]
	}
	if k := bytes.IndexByte(src, '\n'); k >= 0 {
		src = src[:k]
	}
	return strings.TrimRight(string(src), "\r")
}
