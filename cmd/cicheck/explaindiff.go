package main

import (
	"io"
	"strings"

	"github.com/cicheck/cicheck/explain"
	"github.com/cicheck/cicheck/finding"
	"github.com/cicheck/cicheck/internal/cli"
	"github.com/cicheck/cicheck/lint"
)

func init() {
	register(&cli.Command{Name: "explain-diff", Summary: "show which workflows, paths-filter filters and (heavy) jobs a change wakes", Run: runExplainDiff})
}

type explainOptions struct {
	base, head, files, event, format, config, pfVersion string
	nameStatus                                          bool
	labels, set                                         []string
}

func runExplainDiff(e *env, args []string) error {
	var o explainOptions
	fl := e.Flags("cicheck explain-diff", usage("explain-diff"))
	fl.StringVar(&o.base, "base", "", "base ref: diff the merge base of BASE and HEAD against HEAD")
	fl.StringVar(&o.head, "head", "", "head ref (default: HEAD, workflows read from the working tree)")
	fl.StringVar(&o.files, "files", "", "read the changed files from FILE (- for stdin) instead of git")
	fl.BoolVar(&o.nameStatus, "name-status", false, "--files lines are STATUS<TAB>PATH as git diff --name-status prints them")
	fl.StringVar(&o.event, "event", "pull_request", "triggering event")
	fl.StringArrayVar(&o.labels, "label", nil, "a pull request label (repeatable; none given means none)")
	fl.StringArrayVar(&o.set, "set", nil, "context value KEY=VALUE, e.g. github.repository=org/repo or vars.RUN_GPU=true (repeatable)")
	fl.Enum(&o.format, "format", "text", "output format: "+strings.Join(explain.Formats(), ", "), explain.Formats()...)
	fl.StringVar(&o.config, "config", "", "configuration file (default: .cicheck.yaml at the repository root)")
	fl.StringVar(&o.pfVersion, "paths-filter-version", "", "simulate this dorny/paths-filter release for every step (e.g. v4.0.2)")
	if err := cli.Parse(fl, args); err != nil {
		return err
	}
	switch {
	case (o.base == "") == (o.files == ""):
		return cli.Usagef("explain-diff needs exactly one of --base REF or --files FILE|-")
	case o.head != "" && o.base == "":
		return cli.Usagef("--head needs --base")
	case o.nameStatus && o.files == "":
		return cli.Usagef("--name-status applies to --files (git diffs always carry statuses)")
	}
	if err := checkEventFlags(o.event, o.set); err != nil {
		return err
	}
	set, err := cli.KeyValues("set", o.set)
	if err != nil {
		return err
	}
	cfg, err := lint.LoadConfigFilterVersion(e.WD, o.config, o.pfVersion)
	if err != nil {
		return err
	}
	root := lint.RepoRoot(e.WD)
	in, err := explain.Read(explain.Source{WD: e.WD, Root: root, Base: o.base, Head: o.head,
		Files: o.files, NameStatus: o.nameStatus, Stdin: e.Stdin, Workflows: fl.Args()})
	if err != nil {
		return err
	}
	for _, s := range in.Skipped {
		say(e.Stderr, "cicheck: %s\n", s)
	}
	// A workflow with syntax errors is explained from what parsed; say so
	// in lint's format (exit status unchanged).
	srcs := map[string][]byte{}
	for _, w := range in.Workflows {
		srcs[w.Path] = w.Source
	}
	var parse []finding.Finding
	for _, f := range in.Parse {
		parse = append(parse, drawnFromErrors(f, "explanation"))
	}
	if err := writeStderrFindings(e, parse, srcs); err != nil {
		return err
	}
	rep := explain.Explain(in.Changed, in.Workflows, in.FS, explain.Options{
		Event: o.event, Labels: o.labels, Set: set,
		Classifier: cfg.Classifier(), PathsFilter: cfg.PathsFilter,
	})
	adv := in.Advisories(root, rep, o.labels, cfg.Heavy.OptInLabel)
	return cli.Buffered(e.Stdout, func(w io.Writer) error { return explain.Write(w, o.format, rep, len(in.Changed), adv) })
}
