package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/pflag"

	"github.com/cicheck/cicheck/config"
	"github.com/cicheck/cicheck/finding"
	"github.com/cicheck/cicheck/internal/gitdiff"
	"github.com/cicheck/cicheck/lint"
	"github.com/cicheck/cicheck/testregistry"
)

func init() {
	register(command{
		name:    "registry",
		summary: "check CI test registrations and resolve which tests a CI run selects",
		usage:   registryUsage,
		run:     runRegistry,
		subs: []subcommand{
			{"check", registryCheck}, {"select", registrySelect}, {"resolve-file", registryResolveFile},
			{"explain-labels", registryExplainLabels}, {"policy", registryPolicy},
		},
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
	c := commands["registry"]
	return dispatchSub(e, c.name, c.usage, c.subs, args)
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
		root = lint.RepoRoot(e.wd)
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
	fsys := testregistry.DirFS(root)
	reg, err := cfg.Registry.Resolve(fsys) // the profile the repository's layout calls for
	if err == nil {
		err = testregistry.ValidateConfig(reg)
	}
	if err != nil {
		if cfgFile == "" {
			cfgFile = "configuration"
		} else {
			cfgFile = configKeyPos(e, cfgFile, err.Error())
		}
		fmt.Fprintf(e.stderr, "cicheck: %s: %v\n", cfgFile, err)
		return "", nil, testregistry.Config{}, false
	}
	rf.full = cfg
	return root, fsys, reg, true
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
		fmt.Fprintf(fl.Output(), "cicheck: %v%s\n", err, flagHint(fl, err))
		return exitUsage, false
	}
	if fl.NArg() > 0 {
		fmt.Fprintf(fl.Output(), "cicheck: unexpected argument %q\n", fl.Arg(0))
		return exitUsage, false
	}
	return 0, true
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
		files, err := gitdiff.Staged(root)
		if err != nil {
			fmt.Fprintf(e.stderr, "cicheck: --staged: %v\n", err)
			return exitUsage
		}
		var relevant bool
		if keep, relevant = testregistry.StagedFilter(cfg, files); !relevant {
			return exitOK
		}
	}
	r, ok := scanRegistry(e, fsys, cfg)
	if !ok {
		return exitUsage
	}
	// rules.<id>.enabled/severity apply here as they do in lint.
	r.Findings = lint.ApplyRuleConfig(rf.full, r.Findings)
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
	return out.write(e, r.Findings, sources, lint.RegistryRuleInfos)
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
	if hw != "" && !slices.Contains(r.Backends(cfg), hw) {
		// Otherwise "Unknown suite S for backend CUDA" blames the suite
		// when the backend is what is wrong (backends are lower-case).
		fmt.Fprintf(e.stderr, "cicheck: unknown backend %q for --hw (valid: %s)\n", hw, strings.Join(r.Backends(cfg), ", "))
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
	if err := testregistry.WriteSelection(e.stdout, format, p, sel, hw != ""); err != nil {
		fmt.Fprintf(e.stderr, "cicheck: %v\n", err)
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
		return flagError(e, fl, err)
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
	if err := testregistry.WriteFilePlan(e.stdout, format, plan); err != nil {
		fmt.Fprintf(e.stderr, "cicheck: %v\n", err)
		return exitInternal
	}
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
	if err := testregistry.WriteLabelUses(e.stdout, format, r.ExplainLabels(), cfg); err != nil {
		fmt.Fprintf(e.stderr, "cicheck: %v\n", err)
		return exitInternal
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
	var diff []byte
	if diffPath := e.getenv("CHANGED_FILES_PATH"); diffPath != "" {
		if !filepath.IsAbs(diffPath) {
			diffPath = filepath.Join(e.wd, diffPath)
		}
		diff, _ = os.ReadFile(diffPath)
	}
	wp, err := testregistry.ResolveWorkflowPolicy(fsys, cfg, in, diff)
	if err != nil {
		fmt.Fprintf(e.stderr, "::error::%v\n", err)
		return exitFindings
	}
	for _, w := range wp.PolicyWarnings {
		fmt.Fprintf(e.stderr, "warning: %s\n", w.Message)
	}
	if wp.DiffUnusable {
		fmt.Fprintln(e.stderr, "Changed-file diff is unavailable or empty; GPU stage pruning is disabled.")
	}
	p, raw := wp.Policy, strings.Join(wp.RawLabels, " ")
	sj, _ := json.Marshal(wp.SkippedStages)
	fmt.Fprintf(e.stderr, "Resolved CI policy: cadence=%s labels=[%s] bypass_fastfail=%t skipped_stages=%s\n", p.Cadence, raw, p.BypassFastfail, sj)
	fmt.Fprintf(e.stdout, "cadence=%s\nraw_labels=%s\nbypass_fastfail=%t\nskipped_stages=%s\n", p.Cadence, raw, p.BypassFastfail, sj)
	return exitOK
}
