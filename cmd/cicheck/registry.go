package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/pflag"
	"gopkg.in/yaml.v3"

	"github.com/cicheck/cicheck/config"
	"github.com/cicheck/cicheck/finding"
	"github.com/cicheck/cicheck/report"
	"github.com/cicheck/cicheck/testregistry"
)

func init() {
	register(command{
		name:    "registry",
		summary: "check CI test registrations and resolve which tests a CI run selects",
		run:     runRegistry,
	})
}

const registryUsage = `usage: cicheck registry <subcommand> [flags]

subcommands:
  check            validate every register_*_ci() call, the labels file and the access policy
  select           print the resolved label policy and the tests a run selects
  resolve-file     resolve one test file to its /rerun-test plan
  explain-labels   list which tests each run-ci-<label> adds
  policy           resolve the CI policy from workflow inputs (EVENT_NAME, SCHEDULE,
                   PR_LABELS_JSON, CADENCE_OVERRIDE, CHANGED_FILES_PATH) like ci_policy.py

The repository is the git top level above the working directory, or --root.
Exit codes: 0 clean, 1 findings or rejected, 2 bad usage or config, 3 internal error.`

func runRegistry(e *env, args []string) int {
	// A scan allocates many short-lived tokens and nodes and keeps little
	// (about 9 KB per test file): collect only if the heap nears 512 MiB.
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(512 << 20))
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	return dispatchSub(e, "registry", registryUsage, []subcommand{
		{"check", registryCheck}, {"select", registrySelect}, {"resolve-file", registryResolveFile},
		{"explain-labels", registryExplainLabels}, {"policy", registryPolicy},
	}, args)
}

// registryFlags are the flags every registry subcommand shares.
type registryFlags struct {
	root, config string
	full         *config.Config // set by open: the whole configuration
}

func (rf *registryFlags) add(fl *pflag.FlagSet) {
	fl.StringVar(&rf.root, "root", "", "repository root (default: the git top level above the working directory)")
	fl.StringVar(&rf.config, "config", "", "configuration file (default: .cicheck.yaml at the repository root)")
}

// open resolves the repository and its registry configuration.
func (rf *registryFlags) open(e *env) (string, fs.FS, testregistry.Config, bool) {
	root := rf.root
	if root == "" {
		root = repoRoot(e.wd)
	} else if !filepath.IsAbs(root) {
		root = filepath.Join(e.wd, root)
	}
	if st, err := os.Stat(root); err != nil || !st.IsDir() {
		fmt.Fprintf(e.stderr, "cicheck: %s: not a directory\n", rf.root)
		return "", nil, testregistry.Config{}, false
	}
	cfgPath := rf.config
	if cfgPath == "" && rf.root != "" {
		// --root names another repository: its own .cicheck.yaml applies.
		if _, err := os.Stat(filepath.Join(root, ".cicheck.yaml")); err == nil {
			cfgPath = filepath.Join(rf.root, ".cicheck.yaml")
		}
	}
	cfg, cfgFile, err := loadConfig(e, cfgPath)
	if err != nil {
		fmt.Fprintf(e.stderr, "cicheck: %v\n", err)
		return "", nil, testregistry.Config{}, false
	}
	if err := testregistry.ValidateConfig(cfg.Registry); err != nil {
		if cfgFile == "" {
			cfgFile = "configuration"
		} else {
			cfgFile = configKeyPos(e, cfgFile, err.Error())
		}
		fmt.Fprintf(e.stderr, "cicheck: %s: %v\n", cfgFile, err)
		return "", nil, testregistry.Config{}, false
	}
	rf.full = cfg
	return root, testregistry.DirFS(root), cfg.Registry, true
}

// scan runs the scanner, turning a configuration or I/O error into exit 2.
func scanRegistry(e *env, fsys fs.FS, cfg testregistry.Config) (*testregistry.Registry, bool) {
	r, err := testregistry.Scan(fsys, cfg)
	if err != nil {
		fmt.Fprintf(e.stderr, "cicheck: %v\n", err)
		return nil, false
	}
	return r, true
}

// refuseOnErrors prints the registry's errors and reports whether there
// were any: like the reference collector, selection refuses a broken
// registry.
func regRefuseOnErrors(e *env, r *testregistry.Registry) bool {
	n := 0
	for _, f := range r.Findings {
		if f.Severity == finding.Error {
			fmt.Fprintf(e.stderr, "cicheck: %s:%d:%d: %s [%s]\n", f.File, f.Line, f.Column, f.Message, f.Rule)
			n++
		}
	}
	if n > 0 {
		fmt.Fprintf(e.stderr, "cicheck: the test registry has %d error(s); CI collection would fail (see 'cicheck registry check')\n", n)
	}
	return n > 0
}

func regNewFlags(e *env, name, usage string) *pflag.FlagSet {
	fl := pflag.NewFlagSet(name, pflag.ContinueOnError)
	fl.SetOutput(e.stderr)
	fl.Usage = func() {
		fmt.Fprintln(e.stderr, usage)
		fl.PrintDefaults()
	}
	return fl
}

func regParseFlags(fl *pflag.FlagSet, args []string) (int, bool) {
	if err := fl.Parse(args); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			return exitOK, false
		}
		fmt.Fprintf(fl.Output(), "cicheck: %v\n", err)
		return exitUsage, false
	}
	if fl.NArg() > 0 {
		fmt.Fprintf(fl.Output(), "cicheck: unexpected argument %q\n", fl.Arg(0))
		return exitUsage, false
	}
	return 0, true
}

// registryRuleInfos is the rule metadata for SARIF.
func registryRuleInfos() []report.RuleInfo {
	var out []report.RuleInfo
	for _, d := range ruleDocs() {
		if d.Area == "registry" {
			out = append(out, d.info())
		}
	}
	return out
}

func registryCheck(e *env, args []string) int {
	var rf registryFlags
	var out reportFlags
	var staged bool
	fl := regNewFlags(e, "cicheck registry check", "usage: cicheck registry check [flags]\n\nValidates every test registration under the scan roots without running Python.\n\nflags:")
	rf.add(fl)
	out.add(fl)
	fl.BoolVar(&staged, "staged", false, "pre-commit mode: nothing to do unless a test, labels, suites, access-policy or config file is staged; then report the staged files' findings (all findings when a registry-wide file is staged)")
	if code, ok := regParseFlags(fl, args); !ok {
		return code
	}
	if !out.validate(e) {
		return exitUsage
	}
	root, fsys, cfg, ok := rf.open(e)
	if !ok {
		return exitUsage
	}
	var keep func(string) bool
	if staged {
		files, err := stagedFiles(root)
		if err != nil {
			fmt.Fprintf(e.stderr, "cicheck: --staged: %v\n", err)
			return exitUsage
		}
		var relevant bool
		if keep, relevant = stagedFilter(cfg, files); !relevant {
			return exitOK
		}
	}
	r, ok := scanRegistry(e, fsys, cfg)
	if !ok {
		return exitUsage
	}
	// rules.<id>.enabled/severity apply here as they do in lint.
	r.Findings = applyRuleConfig(rf.full, r.Findings)
	if keep != nil {
		var kept []finding.Finding
		for _, f := range r.Findings {
			if keep(f.File) {
				kept = append(kept, f)
			}
		}
		r.Findings = kept
	}
	sources := map[string][]byte{}
	for _, f := range r.Findings {
		if _, seen := sources[f.File]; !seen {
			b, _ := fs.ReadFile(fsys, f.File)
			sources[f.File] = b
		}
	}
	return out.write(e, r.Findings, sources, registryRuleInfos)
}

// stagedFiles lists the paths staged in the git repository at root.
func stagedFiles(root string) ([]string, error) {
	check := exec.Command("git", "rev-parse", "--git-dir")
	check.Dir = root
	if err := check.Run(); err != nil {
		return nil, fmt.Errorf("%s is not in a git repository", root)
	}
	cmd := exec.Command("git", "diff", "--cached", "--name-only", "-z", "--diff-filter=ACMRD")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) && len(ee.Stderr) > 0 {
			first, _, _ := strings.Cut(strings.TrimSpace(string(ee.Stderr)), "\n")
			return nil, fmt.Errorf("git diff --cached: %s", first)
		}
		return nil, fmt.Errorf("git diff --cached: %w", err)
	}
	return strings.FieldsFunc(string(out), func(r rune) bool { return r == 0 }), nil
}

// stagedFilter decides what a pre-commit run reports: relevant is false
// when no staged file can change the registry; keep is nil when a
// registry-wide file (labels, suites, access policy, configuration) is staged
// and every finding counts.
func stagedFilter(cfg testregistry.Config, files []string) (keep func(string) bool, relevant bool) {
	wide := map[string]bool{cfg.Labels.File: true, cfg.Suites.File: true, cfg.AccessPolicy: true, ".cicheck.yaml": true}
	set := map[string]bool{}
	for _, f := range files {
		if wide[f] {
			return nil, true
		}
		if ok, _ := path.Match(cfg.FileGlob, path.Base(f)); ok {
			set[f] = true
			relevant = true
		}
	}
	return func(f string) bool { return set[f] }, relevant
}

// splitLabels rewrites "--labels a b c" (argparse nargs='*') into repeated
// --labels flags, since pflag takes one value per flag.
func regSplitLabels(args []string) []string {
	var out []string
	for i := 0; i < len(args); i++ {
		out = append(out, args[i])
		if args[i] != "--labels" {
			continue
		}
		out = out[:len(out)-1]
		n := 0
		for i+1 < len(args) && !strings.HasPrefix(args[i+1], "-") {
			i++
			out = append(out, "--labels="+args[i])
			n++
		}
		if n == 0 {
			out = append(out, "--labels=")
		}
	}
	return out
}

type regSelectedJSON struct {
	File    string `json:"file"`
	Suite   string `json:"suite"`
	Backend string `json:"backend"`
}

type regSkippedJSON struct {
	File    string `json:"file"`
	Suite   string `json:"suite"`
	Backend string `json:"backend"`
	Reason  string `json:"reason"`
}

func registrySelect(e *env, args []string) int {
	var rf registryFlags
	var cadence, hw, suite, partition, format string
	var labels []string
	var matchAll, nightly bool
	fl := regNewFlags(e, "cicheck registry select", `usage: cicheck registry select [--cadence C | --nightly] [--labels L...] [--match-all-labels] [--hw H --suite S] [--partition I/N] [--format text|json]

Prints the resolved label policy, then the selected tests and the selected
but disabled ones. Without --hw/--suite it covers every configured suite.

flags:`)
	rf.add(fl)
	fl.StringVar(&cadence, "cadence", "", "CI cadence: regular, nightly, weekly or release (default regular)")
	fl.BoolVar(&nightly, "nightly", false, "shorthand for --cadence nightly")
	fl.StringArrayVar(&labels, "labels", nil, "raw workflow labels, e.g. run-ci-megatron bypass-fastfail")
	fl.BoolVar(&matchAll, "match-all-labels", false, "include every known label (cadence and admission unchanged)")
	fl.StringVar(&hw, "hw", "", "backend: cpu, cuda or rocm (with --suite)")
	fl.StringVar(&suite, "suite", "", "suite name (with --hw)")
	fl.StringVar(&partition, "partition", "", "I/N: print only partition I of N (LPT over est_time; needs --hw and --suite)")
	fl.StringVar(&format, "format", "text", "output format: text or json")
	if code, ok := regParseFlags(fl, regSplitLabels(args)); !ok {
		return code
	}
	if nightly && cadence != "" {
		fmt.Fprintln(e.stderr, "cicheck: --nightly and --cadence are mutually exclusive")
		return exitUsage
	}
	if nightly {
		cadence = "nightly"
	}
	if cadence == "" {
		cadence = "regular"
	}
	if format != "text" && format != "json" {
		fmt.Fprintf(e.stderr, "cicheck: invalid --format %q (valid: text, json)\n", format)
		return exitUsage
	}
	if (hw == "") != (suite == "") {
		fmt.Fprintln(e.stderr, "cicheck: --hw and --suite must be given together")
		return exitUsage
	}
	var partID, partSize *int
	if partition != "" {
		i, n, ok := strings.Cut(partition, "/")
		a, err1 := strconv.Atoi(i)
		b, err2 := strconv.Atoi(n)
		if !ok || err1 != nil || err2 != nil {
			fmt.Fprintf(e.stderr, "cicheck: invalid --partition %q (want I/N, e.g. 0/4)\n", partition)
			return exitUsage
		}
		partID, partSize = &a, &b
		if hw == "" {
			fmt.Fprintln(e.stderr, "cicheck: --partition needs --hw and --suite")
			return exitUsage
		}
	}
	if err := testregistry.PartitionArgs(partID, partSize); err != nil {
		fmt.Fprintf(e.stderr, "cicheck: %v\n", err)
		return exitUsage
	}
	_, fsys, cfg, ok := rf.open(e)
	if !ok {
		return exitUsage
	}
	r, ok := scanRegistry(e, fsys, cfg)
	if !ok {
		return exitUsage
	}
	if regRefuseOnErrors(e, r) {
		return exitFindings
	}
	p, warns, err := testregistry.ResolvePolicy(cadence, labels, r.Known, cfg.Policy)
	if err != nil {
		fmt.Fprintf(e.stderr, "cicheck: %v\n", err)
		return exitUsage
	}
	for _, w := range warns {
		fmt.Fprintf(e.stderr, "cicheck: warning: %s\n", w.Message)
	}
	if hw != "" && !regKnownBackend(cfg, r, hw) {
		// Otherwise "Unknown suite S for backend CUDA" blames the suite
		// when the backend is what is wrong (backends are lower-case).
		fmt.Fprintf(e.stderr, "cicheck: unknown backend %q for --hw (valid: %s)\n", hw, strings.Join(regBackends(cfg, r), ", "))
		return exitUsage
	}
	sel, err := r.Select(p, hw, suite, matchAll)
	if err != nil {
		fmt.Fprintf(e.stderr, "cicheck: %v\n", err)
		return exitUsage
	}
	if partID != nil {
		sel.Enabled = testregistry.Shard(sel.Enabled, *partID, *partSize)
	}
	if format == "json" {
		out := struct {
			Version         int                    `json:"version"`
			Policy          testregistry.RunPolicy `json:"policy"`
			Selected        []regSelectedJSON      `json:"selected"`
			SkippedDisabled []regSkippedJSON       `json:"skipped_disabled"`
		}{Version: 1, Policy: p, Selected: []regSelectedJSON{}, SkippedDisabled: []regSkippedJSON{}}
		if out.Policy.IncludeLabels == nil {
			out.Policy.IncludeLabels = []string{}
		}
		for _, s := range sel.Enabled {
			out.Selected = append(out.Selected, regSelectedJSON{s.File, s.Suite, s.Backend})
		}
		for _, s := range sel.Skipped {
			out.SkippedDisabled = append(out.SkippedDisabled, regSkippedJSON{s.File, s.Suite, s.Backend, s.Reason})
		}
		return registryJSON(e, out)
	}
	w := e.stdout
	fmt.Fprintf(w, "policy: cadence=%s include_labels=[%s] admit_nightly_tests=%t bypass_fastfail=%t write_baseline=%t\n",
		p.Cadence, strings.Join(p.IncludeLabels, ", "), p.AdmitNightlyTests, p.BypassFastfail, p.WriteBaseline)
	if hw != "" && len(sel.Enabled) == 0 && len(sel.Skipped) == 0 {
		fmt.Fprintln(w, "No tests to run. Exiting with success.")
		return exitOK
	}
	regWriteSelected(w, fmt.Sprintf("selected (%d):", len(sel.Enabled)), sel.Enabled, false)
	regWriteSelected(w, fmt.Sprintf("skipped, disabled (%d):", len(sel.Skipped)), sel.Skipped, true)
	return exitOK
}

func regWriteSelected(w io.Writer, title string, list []testregistry.Selected, reason bool) {
	fmt.Fprintln(w, title)
	width := 0
	for _, s := range list {
		width = max(width, len(s.Suite))
	}
	for _, s := range list {
		line := fmt.Sprintf("  %-4s  %-*s  %s", s.Backend, width, s.Suite, s.File)
		if reason {
			line += ": " + s.Reason
		}
		fmt.Fprintln(w, line)
	}
}

func registryJSON(e *env, v any) int {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		fmt.Fprintf(e.stderr, "cicheck: %v\n", err)
		return exitInternal
	}
	b = append(b, '\n')
	if _, err := e.stdout.Write(b); err != nil {
		return exitInternal
	}
	return exitOK
}

func registryResolveFile(e *env, args []string) int {
	var rf registryFlags
	var tag, format string
	fl := regNewFlags(e, "cicheck registry resolve-file", "usage: cicheck registry resolve-file [--tag T] [--format text|json] PATH\n\nResolves one test file to its /rerun-test plan, or rejects it.\n\nflags:")
	rf.add(fl)
	fl.StringVar(&tag, "tag", "dev", "CI image tag")
	fl.StringVar(&format, "format", "text", "output format: text or json")
	if err := fl.Parse(args); err != nil {
		return flagError(e, err)
	}
	if fl.NArg() != 1 {
		fmt.Fprintln(e.stderr, "cicheck: registry resolve-file takes exactly one PATH")
		return exitUsage
	}
	if format != "text" && format != "json" {
		fmt.Fprintf(e.stderr, "cicheck: invalid --format %q (valid: text, json)\n", format)
		return exitUsage
	}
	_, fsys, cfg, ok := rf.open(e)
	if !ok {
		return exitUsage
	}
	if err := testregistry.CheckFileRunDiscovery(fsys, cfg); err != nil {
		fmt.Fprintf(e.stderr, "cicheck: %v\n", err)
		return exitFindings
	}
	r, ok := scanRegistry(e, fsys, cfg)
	if !ok {
		return exitUsage
	}
	if regRefuseOnErrors(e, r) {
		return exitFindings
	}
	// Compared literally, as the reference does: tests/fast/./x.py or
	// tests//x.py name no registration there either.
	file := fl.Arg(0)
	plan, err := r.ResolveFile(file, tag)
	if err != nil {
		fmt.Fprintf(e.stderr, "cicheck: %v\n", err)
		return exitFindings
	}
	if plan.RunsOn == nil {
		plan.RunsOn = []string{}
	}
	if format == "json" {
		return registryJSON(e, struct {
			Version int `json:"version"`
			testregistry.FilePlan
		}{1, plan})
	}
	runsOn, _ := json.Marshal(plan.RunsOn)
	fmt.Fprintf(e.stdout, "file: %s\nbackend: %s\nsuite: %s\nruns-on: %s\nimage: %s\ntimeout-seconds: %d\n",
		plan.File, plan.Backend, plan.Suite, runsOn, plan.Image, plan.TimeoutSeconds)
	return exitOK
}

func registryExplainLabels(e *env, args []string) int {
	var rf registryFlags
	var format string
	fl := regNewFlags(e, "cicheck registry explain-labels", "usage: cicheck registry explain-labels [--format text|json]\n\nLists, for each known label, the tests its run-ci-<label> adds.\n\nflags:")
	rf.add(fl)
	fl.StringVar(&format, "format", "text", "output format: text or json")
	if code, ok := regParseFlags(fl, args); !ok {
		return code
	}
	if format != "text" && format != "json" {
		fmt.Fprintf(e.stderr, "cicheck: invalid --format %q (valid: text, json)\n", format)
		return exitUsage
	}
	_, fsys, cfg, ok := rf.open(e)
	if !ok {
		return exitUsage
	}
	r, ok := scanRegistry(e, fsys, cfg)
	if !ok {
		return exitUsage
	}
	if !r.KnownOK {
		fmt.Fprintf(e.stderr, "cicheck: cannot load %s statically from %s\n", cfg.Labels.Symbol, cfg.Labels.File)
		return exitUsage
	}
	// A registration with an error is missing from the lists, which would
	// then understate what a label adds; select refuses for the same reason.
	if regRefuseOnErrors(e, r) {
		return exitFindings
	}
	uses := r.ExplainLabels()
	if format == "json" {
		type testJSON struct {
			regSkippedJSON
			Nightly      bool `json:"nightly"`       // added only on cadences admitting nightly tests
			UnknownSuite bool `json:"unknown_suite"` // never selected
		}
		type labelJSON struct {
			Label string     `json:"label"`
			Tests []testJSON `json:"tests"`
		}
		out := struct {
			Version int         `json:"version"`
			Labels  []labelJSON `json:"labels"`
		}{Version: 1, Labels: []labelJSON{}}
		for _, u := range uses {
			l := labelJSON{Label: cfg.Policy.LabelPrefix + u.Label, Tests: []testJSON{}}
			for _, s := range u.Tests {
				l.Tests = append(l.Tests, testJSON{regSkippedJSON{s.File, s.Suite, s.Backend, s.Reason}, s.Nightly, s.UnknownSuite})
			}
			out.Labels = append(out.Labels, l)
		}
		return registryJSON(e, out)
	}
	for _, u := range uses {
		fmt.Fprintf(e.stdout, "%s%s (%d):\n", cfg.Policy.LabelPrefix, u.Label, len(u.Tests))
		width := 0
		for _, s := range u.Tests {
			width = max(width, len(s.Suite))
		}
		for _, s := range u.Tests {
			line := fmt.Sprintf("  %-4s  %-*s  %s", s.Backend, width, s.Suite, s.File)
			if s.Disabled {
				line += " (disabled: " + s.Reason + ")"
			}
			if s.Nightly {
				line += " (nightly=True: only on cadences that admit nightly tests)"
			}
			if s.UnknownSuite {
				line += " (suite not in " + cfg.Suites.Symbol + ": never selected)"
			}
			fmt.Fprintln(e.stdout, line)
		}
	}
	return exitOK
}

// registryPolicy is ci_policy.py's entry point: workflow inputs from the
// environment, GITHUB_OUTPUT lines on stdout, ::error:: on failure.
func registryPolicy(e *env, args []string) int {
	var rf registryFlags
	fl := regNewFlags(e, "cicheck registry policy", "usage: cicheck registry policy\n\nReads EVENT_NAME, SCHEDULE, PR_LABELS_JSON, CADENCE_OVERRIDE and CHANGED_FILES_PATH\n(a `git diff --name-status -z -M HEAD^1 HEAD` output file) and prints the\nGITHUB_OUTPUT lines cadence, raw_labels, bypass_fastfail and skipped_stages.\n\nflags:")
	rf.add(fl)
	if code, ok := regParseFlags(fl, args); !ok {
		return code
	}
	_, fsys, cfg, ok := rf.open(e)
	if !ok {
		return exitUsage
	}
	in := testregistry.WorkflowInputs{EventName: e.getenv("EVENT_NAME"), Schedule: e.getenv("SCHEDULE"),
		PRLabelsJSON: e.getenv("PR_LABELS_JSON"), CadenceOverride: e.getenv("CADENCE_OVERRIDE")}
	fail := func(err error) int {
		fmt.Fprintf(e.stderr, "::error::%v\n", err)
		return exitFindings
	}
	cadence, raw, err := testregistry.ResolveWorkflowInputs(in, cfg.Policy)
	if err != nil {
		return fail(err)
	}
	known, _ := testregistry.KnownLabels(fsys, cfg)
	p, warns, err := testregistry.ResolvePolicy(cadence, raw, known, cfg.Policy)
	if err != nil {
		return fail(err)
	}
	for _, w := range warns {
		fmt.Fprintf(e.stderr, "warning: %s\n", w.Message)
	}
	skipped := []string{}
	// The reference prunes on every pull_request event, a cadence override
	// included: a workflow_call inherits its caller's event.
	if in.EventName == "pull_request" {
		var changes []testregistry.Change
		usable := false
		if diffPath := e.getenv("CHANGED_FILES_PATH"); diffPath != "" {
			if !filepath.IsAbs(diffPath) {
				diffPath = filepath.Join(e.wd, diffPath)
			}
			if b, err := os.ReadFile(diffPath); err == nil {
				changes, usable = testregistry.ParseNameStatusZ(b)
			}
		}
		if !usable {
			fmt.Fprintln(e.stderr, "Changed-file diff is unavailable or empty; GPU stage pruning is disabled.")
		} else {
			r, err := testregistry.Scan(fsys, cfg)
			if err != nil {
				return fail(err)
			}
			for _, f := range r.Findings {
				if f.Severity == finding.Error {
					return fail(fmt.Errorf("%s:%d:%d: %s", f.File, f.Line, f.Column, f.Message))
				}
			}
			skipped = r.SkippedStages(p, raw, changes, true)
		}
	}
	sj, _ := json.Marshal(skipped)
	fmt.Fprintf(e.stderr, "Resolved CI policy: cadence=%s labels=[%s] bypass_fastfail=%t skipped_stages=%s\n",
		p.Cadence, strings.Join(raw, " "), p.BypassFastfail, sj)
	fmt.Fprintf(e.stdout, "cadence=%s\nraw_labels=%s\nbypass_fastfail=%t\nskipped_stages=%s\n", p.Cadence, strings.Join(raw, " "), p.BypassFastfail, sj)
	return exitOK
}

// regBackends lists the backends the markers and the suite table name,
// sorted.
func regBackends(cfg testregistry.Config, r *testregistry.Registry) []string {
	var out []string
	for _, m := range cfg.Markers {
		out = append(out, m.Backend)
	}
	for b := range r.Suites {
		out = append(out, b)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

func regKnownBackend(cfg testregistry.Config, r *testregistry.Registry, hw string) bool {
	return slices.Contains(regBackends(cfg, r), hw)
}

// configKeyPos appends the line and column of the deepest key of msg's
// leading dotted path ("registry.roots: ...") found in the configuration
// file, so that a registry configuration error reads file:line:col like
// every other error. It returns file alone when the key cannot be found.
func configKeyPos(e *env, file, msg string) string {
	p := file
	if !filepath.IsAbs(p) {
		p = filepath.Join(e.wd, p)
	}
	data, err := os.ReadFile(p)
	if err != nil {
		return file
	}
	var doc yaml.Node
	if yaml.Unmarshal(data, &doc) != nil || len(doc.Content) == 0 {
		return file
	}
	keyPath, _, _ := strings.Cut(msg, ":")
	n, line, col := doc.Content[0], 0, 0
	for _, k := range strings.Split(keyPath, ".") {
		if n.Kind != yaml.MappingNode {
			break
		}
		var next *yaml.Node
		for i := 0; i+1 < len(n.Content); i += 2 {
			if n.Content[i].Value == k {
				line, col, next = n.Content[i].Line, n.Content[i].Column, n.Content[i+1]
				break
			}
		}
		if next == nil {
			break
		}
		n = next
	}
	if line == 0 {
		return file
	}
	return fmt.Sprintf("%s:%d:%d", file, line, col)
}
