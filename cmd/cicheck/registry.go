package main

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/cicheck/cicheck/internal/repofs"

	"github.com/cicheck/cicheck/internal/cli"
	"github.com/cicheck/cicheck/internal/textdist"
	"github.com/cicheck/cicheck/lint"
	"github.com/cicheck/cicheck/report"
	"github.com/cicheck/cicheck/testregistry"
)

func init() {
	register(&cli.Command{Name: "registry", Summary: "check CI test registrations and resolve which tests a CI run selects", Usage: usage("registry"), Run: runRegistry,
		Subs: []*cli.Command{{Name: "check", Run: registryCheck}, {Name: "select", Run: registrySelect}, {Name: "resolve-file", Run: registryResolveFile},
			{Name: "explain-labels", Run: registryExplainLabels}, {Name: "policy", Run: registryPolicy}}})
}

func runRegistry(e *env, args []string) error {
	return scanFailure(app.RunSubs(e, app.Command("registry"), args))
}

// scanFailure is err with exit 3 when the registry scan failed by a fault
// of cicheck's (a panic in a scan worker), which a plain error would
// report as bad input (exit 2).
func scanFailure(err error) error {
	var ie *testregistry.InternalError
	if errors.As(err, &ie) {
		return cli.Internal(err)
	}
	return err
}

// registryFlags are the flags every registry subcommand shares.
type registryFlags struct {
	e            *env
	root, config string
}

// registryCommand is the flag set of 'cicheck registry NAME', with the
// shared flags declared.
func registryCommand(e *env, name string) (*registryFlags, *cli.FlagSet) {
	rf := &registryFlags{e: e}
	fl := e.Flags("cicheck registry "+name, usage("registry "+name))
	fl.StringVar(&rf.root, "root", "", "repository root (default: the git top level above the working directory)")
	fl.StringVar(&rf.config, "config", "", "configuration file (default: .cicheck.yaml at the repository root)")
	return rf, fl
}

func (rf *registryFlags) open() (*lint.Registry, error) {
	return lint.OpenRegistry(rf.e.WD, rf.root, rf.config)
}

// clean is a scan the commands that select from the registry accept: like
// the reference collector, they refuse (exit 1) a registry with errors,
// which are printed.
func (rf *registryFlags) clean(r *testregistry.Registry, err error) (*testregistry.Registry, error) {
	if err != nil {
		return nil, err
	}
	errs := r.ErrorFindings()
	for _, msg := range errs {
		say(rf.e.Stderr, "cicheck: %s\n", msg) // messages quote the repository
	}
	if len(errs) > 0 {
		return nil, cli.Failf("the test registry has %d error(s); CI collection would fail (see 'cicheck registry check')", len(errs))
	}
	return r, nil
}

func registryCheck(e *env, args []string) error {
	var out report.Settings
	var staged bool
	rf, fl := registryCommand(e, "check")
	addReportFlags(fl, &out)
	fl.BoolVar(&staged, "staged", false, "pre-commit mode: nothing to do unless a test, labels, suites, access-policy or config file is staged; then report the staged files' findings (all findings when a registry-wide file is staged)")
	if err := cli.ParseNoArgs(fl, args); err != nil {
		return err
	}
	rep, err := report.NewReporter(out, e.Stdout, e.Getenv)
	if err != nil {
		return err
	}
	fail := func(err error) error {
		// As lint's: a failed run's SARIF log says it failed.
		_ = rep.WriteFailed(e.Stdout, err, version(), lint.RegistryRuleInfos)
		return err
	}
	reg, err := rf.open()
	if err != nil {
		return fail(err)
	}
	found, sources, run, err := reg.Check(staged)
	if err != nil {
		return fail(err)
	}
	if !run {
		return nil
	}
	failed, err := rep.Write(e.Stdout, found, sources, version(), lint.RegistryRuleInfos)
	return cli.Wrote(err, failed)
}

func registrySelect(e *env, args []string) error {
	var q testregistry.SelectRequest
	var format string
	rf, fl := registryCommand(e, "select")
	fl.StringVar(&q.Cadence, "cadence", "", "CI cadence: regular, nightly, weekly or release (default regular)")
	fl.BoolVar(&q.Nightly, "nightly", false, "shorthand for --cadence nightly")
	fl.StringArrayVar(&q.Labels, "labels", nil, "raw workflow labels, e.g. run-ci-megatron bypass-fastfail")
	fl.BoolVar(&q.MatchAll, "match-all-labels", false, "include every known label (cadence and admission unchanged)")
	fl.StringVar(&q.HW, "hw", "", "backend: cpu, cuda or rocm (with --suite)")
	fl.StringVar(&q.Suite, "suite", "", "suite name (with --hw)")
	fl.StringVar(&q.Partition, "partition", "", "I/N: print only partition I of N (LPT over est_time; needs --hw and --suite)")
	var partID, partSize int
	var modelFile string
	fl.IntVar(&partID, "auto-partition-id", 0, "run_suite.py's --auto-partition-id: the partition to print (with --auto-partition-size)")
	fl.IntVar(&partSize, "auto-partition-size", 0, "run_suite.py's --auto-partition-size: the number of partitions")
	fl.StringVar(&modelFile, "partition-model-file", "", "sglang profile: the partition model JSON whose est[suite] replaces est_time (a path inside the repository)")
	fl.Enum(&format, "format", "text", "output format: text or json", "text", "json")
	if err := cli.ParseNoArgs(fl, cli.SplitNargs(args, "--labels")); err != nil {
		return err
	}
	var pid, psize *int
	if fl.Changed("auto-partition-id") {
		pid = &partID
	}
	if fl.Changed("auto-partition-size") {
		psize = &partSize
	}
	if pid != nil || psize != nil {
		if q.Partition != "" {
			return cli.Usagef("--partition and --auto-partition-id/--auto-partition-size are two spellings of one request; give one")
		}
		if err := testregistry.PartitionArgs(pid, psize); err != nil {
			return cli.Usagef("%v", err)
		}
	}
	reg, err := rf.open()
	if err != nil {
		return err
	}
	if reg.Config.Suites.Tables != nil {
		return registrySelectRun(e, rf, reg, fl, testregistry.RunRequest{HW: q.HW, Suite: q.Suite, Nightly: q.Nightly,
			PartID: pid, PartSize: psize, ModelFile: modelFile}, format)
	}
	if modelFile != "" {
		return cli.Usagef("--partition-model-file is read by the sglang profile's run_suite.py only")
	}
	if pid != nil {
		q.Partition = fmt.Sprintf("%d/%d", *pid, *psize)
	}
	if _, _, err := q.Check(); err != nil {
		return err
	}
	if q.Cadence != "" && !slices.Contains(testregistry.Cadences(), q.Cadence) {
		// The reference's wording, and the cadence most likely meant.
		_, _, err := testregistry.ResolvePolicy(q.Cadence, nil, nil, testregistry.Policy{})
		return cli.Usagef("%v%s", err, didYouMean(q.Cadence, testregistry.Cadences()))
	}
	r, err := rf.clean(reg.Scan())
	if err != nil {
		return err
	}
	p, warns, sel, err := r.SelectFor(q, reg.Config)
	for _, w := range warns {
		say(e.Stderr, "cicheck: warning: %s%s\n", w.Message, labelHint(w.Message, q.Labels, r.Known))
	}
	if err != nil && q.Suite != "" && r.Suites != nil && slices.Contains(r.Backends(reg.Config), q.HW) && !slices.Contains(r.Suites[q.HW], q.Suite) {
		return unknownSuite(err, q.HW, q.Suite, r.Suites)
	}
	if err != nil {
		return err
	}
	return cli.Wrote(testregistry.WriteSelection(e.Stdout, format, p, sel, q.HW != ""), false)
}

// registrySelectRun is 'registry select' for a repository in sglang's
// layout: what test/run_suite.py --hw --suite [--nightly]
// [--auto-partition-*] [--partition-model-file] runs, in its order.
func registrySelectRun(e *env, rf *registryFlags, reg *lint.Registry, fl *cli.FlagSet, q testregistry.RunRequest, format string) error {
	for _, name := range []string{"cadence", "labels", "match-all-labels", "partition"} {
		if fl.Changed(name) {
			return cli.Usagef("--%s is not a run_suite.py flag of the %s profile (it takes --hw, --suite, --nightly, --auto-partition-id, --auto-partition-size, --partition-model-file)", name, reg.Config.Profile)
		}
	}
	if q.HW == "" || q.Suite == "" {
		return cli.Usagef("the %s profile's run_suite.py requires --hw and --suite", reg.Config.Profile)
	}
	r, err := rf.clean(reg.Scan())
	if err != nil {
		return err
	}
	run, err := r.SelectRun(reg.FS, q)
	if err != nil {
		var ue *testregistry.UsageError
		if errors.As(err, &ue) {
			if r.Tables != nil && !slices.Contains(r.Tables.HW, q.HW) {
				return cli.Usagef("%v%s", err, didYouMean(q.HW, r.Tables.HW))
			}
			return cli.Usagef("%v", err)
		}
		return err
	}
	if run.UnknownSuite {
		table := "PER_COMMIT_SUITES"
		if q.Nightly {
			table = "NIGHTLY_SUITES"
		}
		say(e.Stderr, "cicheck: warning: Unknown suite %s for backend %s, nightly=%t (not in %s)%s\n", q.Suite, strings.ToUpper(q.HW),
			q.Nightly, table, didYouMean(q.Suite, r.Suites[q.HW]))
	}
	return cli.Wrote(testregistry.WriteRun(e.Stdout, format, run), false)
}

// labelHint is "; did you mean run-ci-KEY?" for a warning about a
// run-ci- label whose key is not known but near a known one.
func labelHint(msg string, labels, known []string) string {
	for _, l := range labels {
		key, ok := strings.CutPrefix(l, "run-ci-")
		if !ok || slices.Contains(known, key) || !strings.HasPrefix(msg, "'"+l+"' ") {
			continue
		}
		if m := textdist.Closest(key, known); m != "" {
			return "; did you mean run-ci-" + m + "?"
		}
	}
	return ""
}

// unknownSuite is err (the reference's "Unknown suite S for backend B")
// with the suite most likely meant and the backend's suites, or the
// backend the suite belongs to when --hw named another.
func unknownSuite(err error, hw, suite string, suites map[string][]string) error {
	for _, b := range slices.Sorted(maps.Keys(suites)) {
		if b != hw && slices.Contains(suites[b], suite) {
			return cli.Usagef("%v: it is a suite of --hw %s", err, b)
		}
	}
	mine := slices.Sorted(slices.Values(suites[hw]))
	if len(mine) == 0 {
		return cli.Usagef("%v (backend %s has no suites)", err, hw)
	}
	return cli.Usagef("%v%s (%s suites: %s)", err, didYouMean(suite, mine), hw, strings.Join(mine, ", "))
}

func registryResolveFile(e *env, args []string) error {
	var tag, format string
	rf, fl := registryCommand(e, "resolve-file")
	fl.StringVar(&tag, "tag", "dev", "CI image tag")
	fl.Enum(&format, "format", "text", "output format: text or json", "text", "json")
	if err := cli.Parse(fl, args); err != nil {
		return err
	}
	if fl.NArg() != 1 {
		return cli.Usagef("registry resolve-file takes exactly one PATH")
	}
	reg, err := rf.open()
	if err != nil {
		return err
	}
	if p := reg.Config.Policy; len(p.CUDARunsOn) == 0 && len(p.FileRunCPUSuite) == 0 {
		return unconfigured(reg, "resolve-file", "the file-run tables (registry.policy.cuda-runs-on, file-run-cpu-suites)")
	}
	if err := testregistry.CheckFileRunDiscovery(reg.FS, reg.Config); err != nil {
		return cli.Failf("%v", err)
	}
	r, err := rf.clean(reg.Scan())
	if err != nil {
		return err
	}
	// Compared literally, as the reference does: tests/fast/./x.py or
	// tests//x.py name no registration there either.
	file := fl.Arg(0)
	plan, err := r.ResolveFile(file, tag)
	if err != nil {
		return cli.Failf("%v", err)
	}
	return cli.Wrote(testregistry.WriteFilePlan(e.Stdout, format, plan), false)
}

func registryExplainLabels(e *env, args []string) error {
	var format string
	rf, fl := registryCommand(e, "explain-labels")
	fl.Enum(&format, "format", "text", "output format: text or json", "text", "json")
	if err := cli.ParseNoArgs(fl, args); err != nil {
		return err
	}
	reg, err := rf.open()
	if err != nil {
		return err
	}
	if reg.Config.Labels.File == "" {
		return unconfigured(reg, "explain-labels", "a labels module (registry.labels)")
	}
	r, err := reg.Scan()
	if err != nil {
		return err
	}
	if cfg := reg.Config; !r.KnownOK {
		return cli.Usagef("cannot load %s statically from %s", cfg.Labels.Symbol, cfg.Labels.File)
	}
	// A registration with an error is missing from the lists, which would
	// then understate what a label adds; select refuses for the same reason.
	if _, err := rf.clean(r, nil); err != nil {
		return err
	}
	return cli.Wrote(testregistry.WriteLabelUses(e.Stdout, format, r.ExplainLabels(), reg.Config), false)
}

// unconfigured is the usage error of a registry command whose input the
// repository's profile does not configure (miles' label policy and file
// runs under the sglang profile, say), which would otherwise answer about
// empty tables.
func unconfigured(reg *lint.Registry, cmd, what string) error {
	return cli.Usagef("registry %s reads %s, which the %s profile does not configure; set it in .cicheck.yaml", cmd, what, reg.Config.Profile)
}

// registryPolicy is ci_policy.py's entry point: workflow inputs from the
// environment, GITHUB_OUTPUT lines on stdout, ::error:: on failure.
func registryPolicy(e *env, args []string) error {
	rf, fl := registryCommand(e, "policy")
	if err := cli.ParseNoArgs(fl, args); err != nil {
		return err
	}
	reg, err := rf.open()
	if err != nil {
		return err
	}
	if reg.Config.Policy.LabelPrefix == "" {
		return unconfigured(reg, "policy", "a label policy (registry.policy)")
	}
	in := testregistry.WorkflowInputs{EventName: e.Getenv("EVENT_NAME"), Schedule: e.Getenv("SCHEDULE"),
		PRLabelsJSON: e.Getenv("PR_LABELS_JSON"), CadenceOverride: e.Getenv("CADENCE_OVERRIDE")}
	var diff []byte // unreadable: no diff, as the reference reads it
	if diffPath := e.Getenv("CHANGED_FILES_PATH"); diffPath != "" {
		diff, _ = lint.ReadFile(e.WD, diffPath, repofs.DiffLimit, "diff")
	}
	wp, err := testregistry.ResolveWorkflowPolicy(reg.FS, reg.Config, in, diff)
	if err != nil {
		return cli.Raw(cli.ExitFindings, "::error::"+err.Error())
	}
	return testregistry.WriteWorkflowPolicy(e.Stdout, e.Stderr, wp)
}
