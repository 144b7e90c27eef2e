package main

import (
	"encoding/json"
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
	"github.com/cicheck/cicheck/internal/cli"
	"github.com/cicheck/cicheck/internal/gitdiff"
	"github.com/cicheck/cicheck/lint"
	"github.com/cicheck/cicheck/report"
	"github.com/cicheck/cicheck/testregistry"
)

func init() {
	register(&cli.Command{Name: "registry", Summary: "check CI test registrations and resolve which tests a CI run selects", Usage: registryUsage, Run: runRegistry,
		Subs: []*cli.Command{{Name: "check", Run: registryCheck}, {Name: "select", Run: registrySelect}, {Name: "resolve-file", Run: registryResolveFile},
			{Name: "explain-labels", Run: registryExplainLabels}, {Name: "policy", Run: registryPolicy}}})
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

func runRegistry(e *env, args []string) error {
	// A scan allocates many short-lived tokens and nodes and keeps little
	// (about 9 KB per test file): collect only if the heap nears 512 MiB.
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(512 << 20))
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	return app.RunSubs(e, app.Command("registry"), args)
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
func (rf *registryFlags) open(e *env) (string, fs.FS, testregistry.Config, error) {
	root := rf.root
	if root == "" {
		root = lint.RepoRoot(e.WD)
	} else if !filepath.IsAbs(root) {
		root = filepath.Join(e.WD, root)
	}
	if st, err := os.Stat(root); err != nil || !st.IsDir() {
		return "", nil, testregistry.Config{}, cli.Usagef("%s: not a directory", rf.root)
	}
	cfgPath := rf.config
	if cfgPath == "" && rf.root != "" {
		// --root names another repository: its own .cicheck.yaml applies.
		if _, err := os.Stat(filepath.Join(root, ".cicheck.yaml")); err == nil {
			cfgPath = filepath.Join(rf.root, ".cicheck.yaml")
		}
	}
	cfg, cfgFile, err := lint.LoadConfig(e.WD, cfgPath)
	if err != nil {
		return "", nil, testregistry.Config{}, err
	}
	if err := testregistry.ValidateConfig(cfg.Registry); err != nil {
		if cfgFile == "" {
			cfgFile = "configuration"
		} else {
			cfgFile = lint.ConfigKeyPos(e.WD, cfgFile, err.Error())
		}
		return "", nil, testregistry.Config{}, cli.Usagef("%s: %v", cfgFile, err)
	}
	rf.full = cfg
	return root, testregistry.DirFS(root), cfg.Registry, nil
}

// regRefuseOnErrors prints the registry's errors and refuses (exit 1) when
// there are any: like the reference collector, selection refuses a broken
// registry.
func regRefuseOnErrors(e *env, r *testregistry.Registry) error {
	n := 0
	for _, f := range r.Findings {
		if f.Severity == finding.Error {
			fmt.Fprintf(e.Stderr, "cicheck: %s:%d:%d: %s [%s]\n", f.File, f.Line, f.Column, f.Message, f.Rule)
			n++
		}
	}
	if n > 0 {
		return cli.Failf("the test registry has %d error(s); CI collection would fail (see 'cicheck registry check')", n)
	}
	return nil
}

func registryCheck(e *env, args []string) error {
	var rf registryFlags
	var out report.Settings
	var staged bool
	fl := e.Flags("cicheck registry check", "usage: cicheck registry check [flags]\n\nValidates every test registration under the scan roots without running Python.\n\nflags:")
	rf.add(fl)
	addReportFlags(fl, &out)
	fl.BoolVar(&staged, "staged", false, "pre-commit mode: nothing to do unless a test, labels, suites, access-policy or config file is staged; then report the staged files' findings (all findings when a registry-wide file is staged)")
	if err := cli.ParseNoArgs(fl, args); err != nil {
		return err
	}
	rep, err := report.NewReporter(out, e.Stdout, e.Getenv)
	if err != nil {
		return err
	}
	root, fsys, cfg, err := rf.open(e)
	if err != nil {
		return err
	}
	var keep func(string) bool
	if staged {
		files, err := gitdiff.Staged(root)
		if err != nil {
			return cli.Usagef("--staged: %v", err)
		}
		var relevant bool
		if keep, relevant = testregistry.StagedFilter(cfg, files); !relevant {
			return nil
		}
	}
	r, err := testregistry.Scan(fsys, cfg)
	if err != nil {
		return err
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
	failed, err := rep.Write(e.Stdout, r.Findings, sources, version(), lint.RegistryRuleInfos)
	if err != nil {
		return cli.Internal(err)
	} else if failed {
		return cli.Exit(exitFindings)
	}
	return nil
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

func registrySelect(e *env, args []string) error {
	var rf registryFlags
	var cadence, hw, suite, partition, format string
	var labels []string
	var matchAll, nightly bool
	fl := e.Flags("cicheck registry select", `usage: cicheck registry select [--cadence C | --nightly] [--labels L...] [--match-all-labels] [--hw H --suite S] [--partition I/N] [--format text|json]

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
	if err := cli.ParseNoArgs(fl, regSplitLabels(args)); err != nil {
		return err
	}
	if nightly && cadence != "" {
		return cli.Usagef("--nightly and --cadence are mutually exclusive")
	}
	if nightly {
		cadence = "nightly"
	}
	if cadence == "" {
		cadence = "regular"
	}
	if format != "text" && format != "json" {
		return cli.Usagef("invalid --format %q (valid: text, json)", format)
	}
	if (hw == "") != (suite == "") {
		return cli.Usagef("--hw and --suite must be given together")
	}
	var partID, partSize *int
	if partition != "" {
		i, n, ok := strings.Cut(partition, "/")
		a, err1 := strconv.Atoi(i)
		b, err2 := strconv.Atoi(n)
		if !ok || err1 != nil || err2 != nil {
			return cli.Usagef("invalid --partition %q (want I/N, e.g. 0/4)", partition)
		}
		partID, partSize = &a, &b
		if hw == "" {
			return cli.Usagef("--partition needs --hw and --suite")
		}
	}
	if err := testregistry.PartitionArgs(partID, partSize); err != nil {
		return err
	}
	_, fsys, cfg, err := rf.open(e)
	if err != nil {
		return err
	}
	r, err := testregistry.Scan(fsys, cfg)
	if err != nil {
		return err
	}
	if err := regRefuseOnErrors(e, r); err != nil {
		return err
	}
	p, warns, err := testregistry.ResolvePolicy(cadence, labels, r.Known, cfg.Policy)
	if err != nil {
		return err
	}
	for _, w := range warns {
		fmt.Fprintf(e.Stderr, "cicheck: warning: %s\n", w.Message)
	}
	if hw != "" && !slices.Contains(r.Backends(cfg), hw) {
		// Otherwise "Unknown suite S for backend CUDA" blames the suite
		// when the backend is what is wrong (backends are lower-case).
		return cli.Usagef("unknown backend %q for --hw (valid: %s)", hw, strings.Join(r.Backends(cfg), ", "))
	}
	sel, err := r.Select(p, hw, suite, matchAll)
	if err != nil {
		return err
	}
	if partID != nil {
		sel.Enabled = testregistry.Shard(sel.Enabled, *partID, *partSize)
	}
	if err := testregistry.WriteSelection(e.Stdout, format, p, sel, hw != ""); err != nil {
		return cli.Internal(err)
	}
	return nil
}

func registryResolveFile(e *env, args []string) error {
	var rf registryFlags
	var tag, format string
	fl := e.Flags("cicheck registry resolve-file", "usage: cicheck registry resolve-file [--tag T] [--format text|json] PATH\n\nResolves one test file to its /rerun-test plan, or rejects it.\n\nflags:")
	rf.add(fl)
	fl.StringVar(&tag, "tag", "dev", "CI image tag")
	fl.StringVar(&format, "format", "text", "output format: text or json")
	if err := cli.Parse(fl, args); err != nil {
		return err
	}
	if fl.NArg() != 1 {
		return cli.Usagef("registry resolve-file takes exactly one PATH")
	}
	if format != "text" && format != "json" {
		return cli.Usagef("invalid --format %q (valid: text, json)", format)
	}
	_, fsys, cfg, err := rf.open(e)
	if err != nil {
		return err
	}
	if err := testregistry.CheckFileRunDiscovery(fsys, cfg); err != nil {
		return cli.Failf("%v", err)
	}
	r, err := testregistry.Scan(fsys, cfg)
	if err != nil {
		return err
	}
	if err := regRefuseOnErrors(e, r); err != nil {
		return err
	}
	// Compared literally, as the reference does: tests/fast/./x.py or
	// tests//x.py name no registration there either.
	file := fl.Arg(0)
	plan, err := r.ResolveFile(file, tag)
	if err != nil {
		return cli.Failf("%v", err)
	}
	if err := testregistry.WriteFilePlan(e.Stdout, format, plan); err != nil {
		return cli.Internal(err)
	}
	return nil
}

func registryExplainLabels(e *env, args []string) error {
	var rf registryFlags
	var format string
	fl := e.Flags("cicheck registry explain-labels", "usage: cicheck registry explain-labels [--format text|json]\n\nLists, for each known label, the tests its run-ci-<label> adds.\n\nflags:")
	rf.add(fl)
	fl.StringVar(&format, "format", "text", "output format: text or json")
	if err := cli.ParseNoArgs(fl, args); err != nil {
		return err
	}
	if format != "text" && format != "json" {
		return cli.Usagef("invalid --format %q (valid: text, json)", format)
	}
	_, fsys, cfg, err := rf.open(e)
	if err != nil {
		return err
	}
	r, err := testregistry.Scan(fsys, cfg)
	if err != nil {
		return err
	}
	if !r.KnownOK {
		return cli.Usagef("cannot load %s statically from %s", cfg.Labels.Symbol, cfg.Labels.File)
	}
	// A registration with an error is missing from the lists, which would
	// then understate what a label adds; select refuses for the same reason.
	if err := regRefuseOnErrors(e, r); err != nil {
		return err
	}
	if err := testregistry.WriteLabelUses(e.Stdout, format, r.ExplainLabels(), cfg); err != nil {
		return cli.Internal(err)
	}
	return nil
}

// registryPolicy is ci_policy.py's entry point: workflow inputs from the
// environment, GITHUB_OUTPUT lines on stdout, ::error:: on failure.
func registryPolicy(e *env, args []string) error {
	var rf registryFlags
	fl := e.Flags("cicheck registry policy", "usage: cicheck registry policy\n\nReads EVENT_NAME, SCHEDULE, PR_LABELS_JSON, CADENCE_OVERRIDE and CHANGED_FILES_PATH\n(a `git diff --name-status -z -M HEAD^1 HEAD` output file) and prints the\nGITHUB_OUTPUT lines cadence, raw_labels, bypass_fastfail and skipped_stages.\n\nflags:")
	rf.add(fl)
	if err := cli.ParseNoArgs(fl, args); err != nil {
		return err
	}
	_, fsys, cfg, err := rf.open(e)
	if err != nil {
		return err
	}
	in := testregistry.WorkflowInputs{EventName: e.Getenv("EVENT_NAME"), Schedule: e.Getenv("SCHEDULE"),
		PRLabelsJSON: e.Getenv("PR_LABELS_JSON"), CadenceOverride: e.Getenv("CADENCE_OVERRIDE")}
	var diff []byte
	if diffPath := e.Getenv("CHANGED_FILES_PATH"); diffPath != "" {
		if !filepath.IsAbs(diffPath) {
			diffPath = filepath.Join(e.WD, diffPath)
		}
		diff, _ = os.ReadFile(diffPath)
	}
	wp, err := testregistry.ResolveWorkflowPolicy(fsys, cfg, in, diff)
	if err != nil {
		return cli.Raw(exitFindings, "::error::"+err.Error())
	}
	for _, w := range wp.PolicyWarnings {
		fmt.Fprintf(e.Stderr, "warning: %s\n", w.Message)
	}
	if wp.DiffUnusable {
		fmt.Fprintln(e.Stderr, "Changed-file diff is unavailable or empty; GPU stage pruning is disabled.")
	}
	p, raw := wp.Policy, strings.Join(wp.RawLabels, " ")
	sj, _ := json.Marshal(wp.SkippedStages)
	fmt.Fprintf(e.Stderr, "Resolved CI policy: cadence=%s labels=[%s] bypass_fastfail=%t skipped_stages=%s\n", p.Cadence, raw, p.BypassFastfail, sj)
	fmt.Fprintf(e.Stdout, "cadence=%s\nraw_labels=%s\nbypass_fastfail=%t\nskipped_stages=%s\n", p.Cadence, raw, p.BypassFastfail, sj)
	return nil
}
