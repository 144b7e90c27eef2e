package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/pflag"

	"github.com/cicheck/cicheck/config"
	"github.com/cicheck/cicheck/internal/cli"
	"github.com/cicheck/cicheck/lint"
	"github.com/cicheck/cicheck/scope"
)

func init() {
	register(&cli.Command{Name: "scope", Summary: "validate, chunk and reassemble a scoped-run target list (check|chunk|join)", Usage: scopeUsage,
		Subs: []*cli.Command{{Name: "check", Run: runScopeCheck}, {Name: "chunk", Run: runScopeChunk}, {Name: "join", Run: runScopeJoin}}})
}

const scopeUsage = "usage: cicheck scope check|chunk|join [flags] [TARGET...]"

// scopeFlags are the settings shared by the scope and command
// sub-commands. The effective scope configuration is the scope: section of
// .cicheck.yaml (or --config), then every flag the user set, then the
// profile for whatever is still at its generic default.
type scopeFlags struct {
	fs       *pflag.FlagSet
	flagged  *cli.Overlay[scope.Config]
	cfg      scope.Config   // effective, resolved
	full     *config.Config // the whole configuration
	config   string
	format   string
	exists   bool
	registry bool
	repo     string
	targets  bool // takes targets as arguments
}

func newScopeFlags(e *env, name string) *scopeFlags {
	// -h prints the sub-command's own help and the flags it declares.
	f := &scopeFlags{fs: e.Flags("cicheck "+name, usage(name)).FlagSet, format: "text"}
	f.flagged = cli.NewOverlay(f.fs, scope.DefaultConfig())
	f.fs.StringVar(&f.config, "config", "", "configuration file (default: .cicheck.yaml at the repository root)")
	f.flagged.String("profile", func(c *scope.Config) *string { return &c.Profile }, "repository profile: "+strings.Join(scope.Profiles(), ", "))
	return f
}

// targetFlags adds the flags of the commands that validate targets and
// print a verdict.
func (f *scopeFlags) targetFlags() {
	f.flagged.String("root", func(c *scope.Config) *string { return &c.Root }, "every target must start with this root")
	f.flagged.Int("max", func(c *scope.Config) *int { return &c.MaxTargets }, "maximum number of distinct targets")
	f.flagged.Int("limit", func(c *scope.Config) *int { return &c.ChunkLimit }, "commit-status description limit")
	f.fs.StringVar(&f.format, "format", "text", "output format: text or json")
}

// treeFlags adds the checks that need the requester's working tree.
func (f *scopeFlags) treeFlags() {
	f.fs.BoolVar(&f.exists, "exists", false, "require every target to exist in the repository")
	f.fs.StringVar(&f.repo, "repo", "", "repository root the targets are relative to (default: the git top level above the working directory)")
	f.fs.BoolVar(&f.registry, "registry", false, "require every target to hold a registered, enabled test (scans the registry: configuration; also scope.require-registered-test)")
}

// parse parses args, loads the configuration and resolves the profile; ok
// is false after an error has been reported.
func (f *scopeFlags) parse(e *env, args []string) ([]string, error) {
	if err := f.fs.Parse(args); err != nil {
		if f.targets && strings.HasPrefix(err.Error(), "unknown") {
			// A target such as --collect-only is validated only after --.
			err = fmt.Errorf("%w (put targets that start with - after --)", err)
		}
		return nil, cli.FlagError(f.fs, err)
	}
	if f.format != "text" && f.format != "json" {
		return nil, cli.Usagef("unknown format %q (valid: text, json)", f.format)
	}
	full, _, err := lint.LoadRepoConfig(e.WD, f.config, f.repo)
	if err != nil {
		return nil, err
	}
	f.full = full
	c := full.Scope
	f.flagged.Apply(&c)
	if c, err = c.Resolve(); err != nil {
		return nil, err
	}
	f.cfg = c
	f.registry = f.registry || c.RequireRegisteredTest
	return f.fs.Args(), nil
}

// tree prepares the checks that need the requester's working tree.
func (f *scopeFlags) tree(e *env) (*lint.ScopeTree, error) {
	t, err := lint.OpenScopeTree(lint.RepoDir(e.WD, f.repo), f.cfg, f.full.Registry, f.exists, f.registry)
	if err == nil && t.RegistryErrors > 0 {
		// A registration with an error is no registration, so its target
		// would "hold no registered test"; say why.
		fmt.Fprintf(e.Stderr, "cicheck: warning: the test registry has %d error(s); a registration with an error counts as no registration (see 'cicheck registry check')\n", t.RegistryErrors)
	}
	return t, err
}

func runScopeCheck(e *env, args []string) error {
	f := newScopeFlags(e, "scope check")
	f.targets = true
	f.targetFlags()
	f.treeFlags()
	prBody := f.fs.Bool("pr-body", false, "read a PR body on stdin and check the scope its declared block holds (scope.pr-body-block)")
	targets, err := f.parse(e, args)
	if err != nil {
		return err
	}
	targets = scope.SplitArgs(targets...)
	var body *string
	if *prBody {
		if len(targets) > 0 || f.cfg.BodyBlock == "" {
			return cli.Usagef("--pr-body reads the PR body on stdin, takes no targets and needs scope.pr-body-block (e.g. --profile flashinfer)")
		}
		b, err := e.ReadStdin("PR body")
		if err != nil {
			return err
		}
		if !f.fs.Changed("root") {
			f.cfg.Root = f.cfg.BodyRoot
		}
		body = new(string(b))
	}
	tree, err := f.tree(e)
	if err != nil {
		return err
	}
	res, drift, err := tree.CheckScope(lint.RepoDir(e.WD, f.repo), f.cfg, targets, body)
	if err != nil {
		return err
	}
	for _, d := range drift {
		say(e.Stderr, "cicheck: %s: %s:%d:%d: %s [%s]\n", d.Severity, d.File, d.Line, d.Column, d.Message, d.Rule)
	}
	return cli.Wrote(scope.WriteResult(e.Stdout, f.format, res), !res.Accepted())
}

func runScopeChunk(e *env, args []string) error {
	f := newScopeFlags(e, "scope chunk")
	f.targets = true
	f.targetFlags()
	f.treeFlags()
	previous := f.fs.Int("previous", 0, "largest scope chunk index already published on the commit")
	f.flagged.String("context", func(c *scope.Config) *string { return &c.StatusContext }, "status context prefix")
	f.flagged.String("snapshot-context", func(c *scope.Config) *string { return &c.SnapshotContext }, "snapshot marker context")
	snapshot := f.fs.String("snapshot", "", "BASE,MERGE,TREE: publish the snapshot marker of an automatic full-suite run (no targets)")
	args, err := f.parse(e, args)
	if err != nil {
		return err
	}
	tree, err := f.tree(e)
	if err != nil {
		return err
	}
	plan, fp, err := scope.PlanChunks(scope.SplitArgs(args...), f.cfg, tree.Options, *previous, *snapshot)
	if rj := (*scope.Rejection)(nil); errors.As(err, &rj) {
		for _, r := range rj.Reasons {
			say(e.Stderr, "cicheck: rejected: %s\n", r)
		}
		return cli.Exit(cli.ExitFindings)
	} else if err != nil {
		return err
	}
	return cli.Wrote(scope.WritePlan(e.Stdout, f.format, plan, fp), false)
}

func runScopeJoin(e *env, args []string) error {
	f := newScopeFlags(e, "scope join")
	f.targetFlags()
	f.flagged.String("context", func(c *scope.Config) *string { return &c.StatusContext }, "status context prefix")
	f.flagged.String("snapshot-context", func(c *scope.Config) *string { return &c.SnapshotContext }, "snapshot marker context")
	rest, err := f.parse(e, args)
	if err != nil {
		return err
	}
	if len(rest) > 0 {
		return cli.Usagef("scope join reads the combined-status JSON on stdin and takes no arguments")
	}
	statuses, err := scope.ParseStatuses(e.Stdin, "<stdin>")
	if err != nil {
		return err
	}
	r := scope.Reassemble(statuses, f.cfg.StatusContext, f.cfg.SnapshotContext, scope.OptionsFrom(f.cfg), "<stdin>")
	return cli.Wrote(scope.WriteReassembly(e.Stdout, f.format, r), !r.Accepted())
}
