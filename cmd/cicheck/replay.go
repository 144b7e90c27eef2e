package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/cicheck/cicheck/finding"
	"github.com/cicheck/cicheck/internal/cli"
	"github.com/cicheck/cicheck/lint"
	"github.com/cicheck/cicheck/replay"
)

func init() {
	register(&cli.Command{Name: "replay", Summary: "count how often each heavy/GPU job would have woken over recent commits, before and after a workflow change", Run: runReplay})
}

type replayOptions struct {
	old, new, revRange, event, format, config, pfVersion string
	worktree, firstParent, noLabels                      bool
	commits                                              int
	labels, set                                          []string
}

func runReplay(e *env, args []string) error {
	var o replayOptions
	fl := e.Flags("cicheck replay", usage("replay"))
	fl.StringVar(&o.old, "old", "", "workflows as at REF (default: the merge base of HEAD with the default branch)")
	fl.StringVar(&o.new, "new", "", "workflows as at REF (default: the working tree)")
	fl.BoolVar(&o.worktree, "worktree", false, "workflows as in the working tree (the default)")
	fl.StringVar(&o.revRange, "range", "", "the commits to replay, as git log takes them (e.g. v1.2..main)")
	fl.IntVar(&o.commits, "commits", 0, "replay the last N commits of HEAD (default 200)")
	fl.BoolVar(&o.firstParent, "first-parent", true, "follow only first parents (--first-parent=false: every commit of the range)")
	fl.StringVar(&o.event, "event", "pull_request", "triggering event")
	fl.StringArrayVar(&o.labels, "label", nil, "a label every replayed pull request carries (repeatable: the complete set)")
	fl.BoolVar(&o.noLabels, "no-labels", false, "the pull requests carried no label (default: labels unknown)")
	fl.StringArrayVar(&o.set, "set", nil, "context value KEY=VALUE, e.g. github.repository=org/repo (repeatable)")
	fl.Enum(&o.format, "format", "text", "output format: "+strings.Join(replay.Formats(), ", "), replay.Formats()...)
	fl.StringVar(&o.config, "config", "", "configuration file (default: .cicheck.yaml at the repository root)")
	fl.StringVar(&o.pfVersion, "paths-filter-version", "", "simulate this dorny/paths-filter release for every step (e.g. v4.0.2)")
	if err := cli.Parse(fl, args); err != nil {
		return err
	}
	switch {
	case fl.NArg() > 0:
		return cli.Usagef("replay takes no arguments (got %q)", fl.Arg(0))
	case o.new != "" && o.worktree:
		return cli.Usagef("--new and --worktree are exclusive")
	case o.revRange != "" && fl.Changed("commits"):
		return cli.Usagef("--range and --commits are exclusive")
	case fl.Changed("commits") && o.commits <= 0:
		return cli.Usagef("invalid --commits %d (want a positive number)", o.commits)
	case o.noLabels && len(o.labels) > 0:
		return cli.Usagef("--no-labels and --label are exclusive")
	}
	for _, l := range o.labels {
		if strings.TrimSpace(l) == "" {
			return cli.Usagef("invalid --label %q (say --no-labels for none)", l)
		}
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
	labels := o.labels
	if o.noLabels {
		labels = []string{}
	}
	in, err := replay.Read(replay.Source{Root: lint.RepoRoot(e.WD), Old: o.old, New: o.new, Range: o.revRange, Commits: o.commits, FirstParent: o.firstParent})
	if err != nil {
		return err
	}
	defer func() { _ = in.Close() }() // read-only: nothing to report
	if in.Orphans > 0 {
		fmt.Fprintf(e.Stderr, "cicheck: left out %d commit(s) without a parent to diff against (the root, or a shallow clone's boundary: fetch more history)\n", in.Orphans)
	}
	for _, n := range in.Notes {
		say(e.Stderr, "cicheck: %s\n", n)
	}
	// Syntax errors of either side's workflows, in lint's format, the file
	// named REF:PATH as git names a file at a revision.
	var parse []finding.Finding
	srcs := map[string][]byte{}
	for _, sd := range []*replay.Side{in.Old, in.New} {
		for _, w := range sd.Workflows {
			srcs[sd.Ref+":"+w.Path] = w.Source
		}
		for _, f := range sd.Parse {
			f.File = sd.Ref + ":" + f.File
			parse = append(parse, drawnFromErrors(f, "replay"))
		}
	}
	if err := writeStderrFindings(e, parse, srcs); err != nil {
		return err
	}
	res := replay.Replay(in.Commits, in.Old, in.New, replay.Options{
		Event: o.event, Labels: labels, Set: set, Classifier: cfg.Classifier(),
		PathsFilter: cfg.PathsFilter, Minutes: cfg.Heavy.Minutes,
	})
	return cli.Buffered(e.Stdout, func(w io.Writer) error { return replay.Write(w, o.format, res) })
}
