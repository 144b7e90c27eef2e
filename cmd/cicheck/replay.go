package main

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"strings"

	"github.com/spf13/pflag"

	"github.com/cicheck/cicheck/internal/gitdiff"
	"github.com/cicheck/cicheck/lint"
	"github.com/cicheck/cicheck/pathsfilter"
	"github.com/cicheck/cicheck/replay"
)

func init() {
	register(command{
		name:    "replay",
		summary: "count how often each heavy/GPU job would have woken over recent commits, before and after a workflow change",
		run:     runReplay,
	})
}

const replayUsage = `usage: cicheck replay [--old REF] [--new REF|--worktree] [--range REVS | --commits N]
                      [--first-parent] [--event E] [--label L]... [--no-labels] [--set K=V]...
                      [--format text|markdown|json]

Replays recent history through explain-diff's engine. Every commit
(default: the last 200 first-parent commits of HEAD, each diffed against
its first parent, as its pull request or push changed; a commit without a
parent is left out) is explained twice: under the workflows as they are
at --old (default: the merge base of HEAD with the default branch,
origin/HEAD, main or master) and at --new (default: the working tree).
For each heavy or GPU job it prints the commits that would wake it under
old and under new, the difference, the commits undecided, up to three
commits whose verdict changed with both sides' reasons, and runner-hours
for jobs given heavy.minutes in .cicheck.yaml.

Git does not record pull-request labels: without --label or --no-labels a
condition that reads one is unknown, and counted as unknown, never guessed.
The same holds for vars.*, inputs.* and github.* facts not given with --set.

flags:`

type replayOptions struct {
	old, new, revRange, event, format, config, pfVersion string
	worktree, firstParent, noLabels                      bool
	commits                                              int
	labels, set                                          []string
}

func runReplay(e *env, args []string) int {
	var o replayOptions
	fl := pflag.NewFlagSet("cicheck replay", pflag.ContinueOnError)
	fl.SetOutput(e.stderr)
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
	fl.StringVar(&o.format, "format", "text", "output format: "+strings.Join(replay.Formats(), ", "))
	fl.StringVar(&o.config, "config", "", "configuration file (default: .cicheck.yaml at the repository root)")
	fl.StringVar(&o.pfVersion, "paths-filter-version", "", "simulate this dorny/paths-filter release for every step (e.g. v4.0.2)")
	fl.Usage = func() {
		fmt.Fprintln(e.stderr, replayUsage)
		fl.PrintDefaults()
	}
	if err := fl.Parse(args); err != nil {
		return flagError(e, fl, err)
	}
	usage := func(format string, a ...any) int {
		fmt.Fprintf(e.stderr, "cicheck: "+format+"\n", a...)
		return exitUsage
	}
	switch {
	case fl.NArg() > 0:
		return usage("replay takes no arguments (got %q)", fl.Arg(0))
	case !slices.Contains(replay.Formats(), o.format):
		return usage("invalid --format %q (valid: %s)", o.format, strings.Join(replay.Formats(), ", "))
	case o.new != "" && o.worktree:
		return usage("--new and --worktree are exclusive")
	case o.revRange != "" && fl.Changed("commits"):
		return usage("--range and --commits are exclusive")
	case fl.Changed("commits") && o.commits <= 0:
		return usage("invalid --commits %d (want a positive number)", o.commits)
	case o.noLabels && len(o.labels) > 0:
		return usage("--no-labels and --label are exclusive")
	}
	for _, l := range o.labels {
		if strings.TrimSpace(l) == "" {
			return usage("invalid --label %q (say --no-labels for none)", l)
		}
	}
	set := map[string]string{}
	for _, kv := range o.set {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			return usage("invalid --set %q (want KEY=VALUE)", kv)
		}
		set[k] = v
	}
	if o.pfVersion != "" {
		if _, full, ok := pathsfilter.ParseVersion(o.pfVersion); !ok || !full {
			return usage("invalid --paths-filter-version %q (want vMAJOR.MINOR.PATCH)", o.pfVersion)
		}
	}
	cfg, _, err := loadConfig(e, o.config)
	if err != nil {
		return usage("%v", err)
	}
	if o.pfVersion != "" {
		cfg.PathsFilter.Version = o.pfVersion
	}
	labels := o.labels
	if o.noLabels {
		labels = []string{}
	}
	root := lint.RepoRoot(e.wd)

	// One cat-file process serves every revision, tree and file below.
	store, err := gitdiff.OpenStore(root)
	if err != nil {
		return usage("%v", err)
	}
	defer func() { _ = store.Close() }() // read-only: nothing to report
	// HEAD first: in a directory outside any repository, or one without
	// a commit, this is the error to give.
	head, err := store.Commit("HEAD")
	if err != nil {
		return usage("%v", err)
	}
	newSide, newID, err := replaySide(store, root, o.new, "--new")
	if err != nil {
		return usage("%v", err)
	}
	oldRef := o.old
	if oldRef == "" {
		// The merge base with the default branch: the workflows as the
		// change under review found them.
		if newID != "" {
			head = newID
		}
		_, id, err := store.DefaultBranch()
		if err != nil {
			return usage("%v (give --old REF)", err)
		}
		if oldRef, err = gitdiff.MergeBase(root, id, head); err != nil {
			return usage("%v (give --old REF)", err)
		}
	}
	oldSide, _, err := replaySide(store, root, oldRef, "--old")
	if err != nil {
		return usage("%v", err)
	}

	revs, limit := []string{"HEAD"}, 200
	if o.revRange != "" {
		revs, limit = strings.Fields(o.revRange), 0
	}
	if fl.Changed("commits") {
		limit = o.commits
	}
	log, err := gitdiff.Log(root, revs, limit, o.firstParent)
	if err != nil {
		return usage("%v", err)
	}
	// A commit without a parent (the root, or the boundary of a shallow
	// clone, whose parents git hides) has no diff a pull request made: as
	// "every file added" it would wake every job, so it is left out.
	var commits []replay.Commit
	orphans := 0
	for _, c := range log {
		if len(c.Parents) == 0 {
			orphans++
			continue
		}
		commits = append(commits, replay.Commit{SHA: c.SHA, Subject: c.Subject, Files: c.Files})
	}
	if orphans > 0 {
		fmt.Fprintf(e.stderr, "cicheck: left out %d commit(s) without a parent to diff against (the root, or a shallow clone's boundary: fetch more history)\n", orphans)
	}

	for _, s := range []*replay.Side{oldSide, newSide} {
		wfs, notes, err := replay.LoadWorkflows(s.FS)
		if err != nil {
			return usage("at %s: %v", s.Ref, err)
		}
		for _, n := range notes {
			fmt.Fprintf(e.stderr, "cicheck: at %s: %s\n", s.Ref, n)
		}
		s.Workflows = wfs
	}
	res := replay.Replay(commits, oldSide, newSide, replay.Options{
		Event: o.event, Labels: labels, Set: set, Classifier: cfg.Classifier(),
		PathsFilter: cfg.PathsFilter, Minutes: cfg.Heavy.Minutes,
	})
	var buf bytes.Buffer
	if err := replay.Write(&buf, o.format, res); err != nil {
		fmt.Fprintf(e.stderr, "cicheck: %v\n", err)
		return exitInternal
	}
	if _, err := e.stdout.Write(buf.Bytes()); err != nil {
		return exitInternal
	}
	return exitOK
}

// replaySide is the repository at ref through store, or the working tree
// when ref is "" (its workflows are loaded later). id is the commit ref
// names ("" for the working tree).
func replaySide(store *gitdiff.Store, root, ref, flag string) (s *replay.Side, id string, err error) {
	if ref == "" {
		return &replay.Side{Ref: "worktree", FS: os.DirFS(root)}, "", nil
	}
	if id, err = store.Commit(ref); err != nil {
		return nil, "", fmt.Errorf("%s %w", flag, err)
	}
	var fsys fs.FS
	if fsys, err = store.FS(id); err != nil {
		return nil, "", fmt.Errorf("%s %s: %w", flag, ref, err)
	}
	return &replay.Side{Ref: ref, FS: fsys}, id, nil
}
