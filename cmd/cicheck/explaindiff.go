package main

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/spf13/pflag"

	"github.com/cicheck/cicheck/explain"
	"github.com/cicheck/cicheck/internal/gitdiff"
	"github.com/cicheck/cicheck/lint"
	"github.com/cicheck/cicheck/pathsfilter"
	"github.com/cicheck/cicheck/workflowgraph"
)

func init() {
	register(command{
		name:    "explain-diff",
		summary: "show which workflows, paths-filter filters and (heavy) jobs a change wakes",
		run:     runExplainDiff,
	})
}

const explainUsage = `usage: cicheck explain-diff [flags] [WORKFLOW...]

Simulates a change on the repository's workflows (default: every
.github/workflows/*.yml and *.yaml): whether each workflow triggers
(on.<event>.paths), every dorny/paths-filter filter's result with the first
matching file and pattern, and every job's verdict run, skip or unknown,
heavy and GPU jobs first with the runner they would wake.

Changed files come from git (--base: the merge-base diff a pull request
sees, git diff --no-renames --name-status BASE...HEAD) or from a list
(--files FILE, or - for stdin; one path per line, or "STATUS<TAB>path" lines
with --name-status). The labels given are the pull request's complete label
set. Other context (github.repository, vars.*, inputs.*) is unknown unless
given with --set, and an unknown stays unknown in the verdict. An
on.<event>.branches or branches-ignore filter is checked against
--set github.base_ref=BRANCH (pull requests) or github.ref=refs/heads/BRANCH
(pushes); without it the trigger line says the filter was not checked.

With --base, when the diff touches .github/workflows/**, a heavy job whose
definition changed but that will not run and lacks the opt-in label
(heavy.opt-in-label) gets a warning. It is advisory: the exit code is 0.

flags:`

type explainOptions struct {
	base, head, files, event, format, config, pfVersion string
	nameStatus                                          bool
	labels, set                                         []string
}

func runExplainDiff(e *env, args []string) int {
	var o explainOptions
	fl := pflag.NewFlagSet("cicheck explain-diff", pflag.ContinueOnError)
	fl.SetOutput(e.stderr)
	fl.StringVar(&o.base, "base", "", "base ref: diff the merge base of BASE and HEAD against HEAD")
	fl.StringVar(&o.head, "head", "", "head ref (default: HEAD, workflows read from the working tree)")
	fl.StringVar(&o.files, "files", "", "read the changed files from FILE (- for stdin) instead of git")
	fl.BoolVar(&o.nameStatus, "name-status", false, "--files lines are STATUS<TAB>PATH as git diff --name-status prints them")
	fl.StringVar(&o.event, "event", "pull_request", "triggering event")
	fl.StringArrayVar(&o.labels, "label", nil, "a pull request label (repeatable; none given means none)")
	fl.StringArrayVar(&o.set, "set", nil, "context value KEY=VALUE, e.g. github.repository=org/repo or vars.RUN_GPU=true (repeatable)")
	fl.StringVar(&o.format, "format", "text", "output format: "+strings.Join(explain.Formats(), ", "))
	fl.StringVar(&o.config, "config", "", "configuration file (default: .cicheck.yaml at the repository root)")
	fl.StringVar(&o.pfVersion, "paths-filter-version", "", "simulate this dorny/paths-filter release for every step (e.g. v4.0.2)")
	fl.Usage = func() {
		fmt.Fprintln(e.stderr, explainUsage)
		fl.PrintDefaults()
	}
	if err := fl.Parse(args); err != nil {
		return flagError(e, fl, err)
	}
	if !edContains(explain.Formats(), o.format) {
		fmt.Fprintf(e.stderr, "cicheck: invalid --format %q (valid: %s)\n", o.format, strings.Join(explain.Formats(), ", "))
		return exitUsage
	}
	if (o.base == "") == (o.files == "") {
		fmt.Fprintln(e.stderr, "cicheck: explain-diff needs exactly one of --base REF or --files FILE|-")
		return exitUsage
	}
	if o.head != "" && o.base == "" {
		fmt.Fprintln(e.stderr, "cicheck: --head needs --base")
		return exitUsage
	}
	if o.nameStatus && o.files == "" {
		fmt.Fprintln(e.stderr, "cicheck: --name-status applies to --files (git diffs always carry statuses)")
		return exitUsage
	}
	set := map[string]string{}
	for _, kv := range o.set {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			fmt.Fprintf(e.stderr, "cicheck: invalid --set %q (want KEY=VALUE)\n", kv)
			return exitUsage
		}
		set[k] = v
	}
	if o.pfVersion != "" {
		if _, full, ok := pathsfilter.ParseVersion(o.pfVersion); !ok || !full {
			fmt.Fprintf(e.stderr, "cicheck: invalid --paths-filter-version %q (want vMAJOR.MINOR.PATCH)\n", o.pfVersion)
			return exitUsage
		}
	}
	cfg, _, err := loadConfig(e, o.config)
	if err != nil {
		fmt.Fprintf(e.stderr, "cicheck: %v\n", err)
		return exitUsage
	}
	if o.pfVersion != "" {
		cfg.PathsFilter.Version = o.pfVersion
	}
	root := lint.RepoRoot(e.wd)

	// Changed files.
	var changed []pathsfilter.ChangedFile
	var mergeBase string
	if o.files != "" {
		r := e.stdin
		name := "stdin"
		if o.files != "-" {
			p := o.files
			if !filepath.IsAbs(p) {
				p = filepath.Join(e.wd, p)
			}
			b, err := os.ReadFile(p)
			if err != nil {
				fmt.Fprintf(e.stderr, "cicheck: %s: %v\n", o.files, lint.Unwrap(err))
				return exitUsage
			}
			r, name = bytes.NewReader(b), o.files
		}
		changed, err = gitdiff.ParseList(r, name, o.nameStatus)
		if err != nil {
			fmt.Fprintf(e.stderr, "cicheck: %v\n", err)
			return exitUsage
		}
	} else {
		head := o.head
		if head == "" {
			head = "HEAD"
		}
		changed, mergeBase, err = gitdiff.Changes(root, o.base, head)
		if err != nil {
			fmt.Fprintf(e.stderr, "cicheck: %v\n", err)
			return exitUsage
		}
	}

	// The repository as the head sees it.
	fsys := os.DirFS(root)
	if o.head != "" {
		fsys, err = gitdiff.Tree(root, o.head, ".github")
		if err != nil {
			fmt.Fprintf(e.stderr, "cicheck: %v\n", err)
			return exitUsage
		}
	}
	paths, err := edWorkflowPaths(fsys, fl.Args(), e.wd, root)
	if err != nil {
		fmt.Fprintf(e.stderr, "cicheck: %v\n", err)
		return exitUsage
	}
	var wfs []*workflowgraph.Workflow
	callees := workflowgraph.NewCallees()
	for _, p := range paths {
		if len(fl.Args()) == 0 {
			// GitHub ignores an empty or commented-out file in
			// .github/workflows: skip it rather than refuse the whole run.
			if src, rerr := fs.ReadFile(fsys, p); rerr == nil {
				if cerr := workflowgraph.CheckWorkflowBytes(p, src); cerr != nil {
					fmt.Fprintf(e.stderr, "cicheck: %v; skipped\n", cerr)
					continue
				}
			}
		}
		w, _, err := workflowgraph.LoadShared(callees, "", fsys, p)
		if err != nil {
			fmt.Fprintf(e.stderr, "cicheck: %v\n", err)
			return exitUsage
		}
		if w == nil {
			fmt.Fprintf(e.stderr, "cicheck: %s: the workflow does not parse (run cicheck lint %s)\n", p, p)
			return exitUsage
		}
		wfs = append(wfs, w)
	}
	rep := explain.Explain(changed, wfs, fsys, explain.Options{
		Event: o.event, Labels: o.labels, Set: set,
		Classifier: cfg.Classifier(), PathsFilter: cfg.PathsFilter,
	})

	// Workflow-change advisory (seed 002, step 4).
	var advisories []explain.Advisory
	if mergeBase != "" {
		touched := map[string]bool{}
		for _, c := range changed {
			if strings.HasPrefix(c.Path, ".github/workflows/") {
				touched[c.Path] = true
			}
		}
		for i, w := range rep.Workflows {
			if !touched[w.File] {
				continue
			}
			base, _ := gitdiff.Show(root, mergeBase, w.File) // absent at base: a new workflow
			advisories = append(advisories, explain.Advise(w, base, wfs[i].AST, o.labels, cfg.Heavy.OptInLabel)...)
		}
	}
	var buf bytes.Buffer
	if err := explain.Write(&buf, o.format, rep, len(changed), advisories); err != nil {
		fmt.Fprintf(e.stderr, "cicheck: %v\n", err)
		return exitInternal
	}
	if _, err := e.stdout.Write(buf.Bytes()); err != nil {
		return exitInternal
	}
	return exitOK
}

func edContains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// edWorkflowPaths lists the workflows to explain: the arguments (relative to
// the working directory), else every .yml/.yaml in .github/workflows.
func edWorkflowPaths(fsys fs.FS, args []string, wd, root string) ([]string, error) {
	if len(args) > 0 {
		var out []string
		for _, a := range args {
			p := a
			if !filepath.IsAbs(p) {
				p = filepath.Join(wd, p)
			}
			rel, err := filepath.Rel(root, p)
			if err != nil || strings.HasPrefix(rel, "..") {
				return nil, fmt.Errorf("%s: not inside the repository %s", a, root)
			}
			out = append(out, filepath.ToSlash(rel))
		}
		return out, nil
	}
	entries, err := fs.ReadDir(fsys, ".github/workflows")
	if err != nil {
		return nil, fmt.Errorf(".github/workflows: %w (run explain-diff at the repository root, or name the workflows)", lint.Unwrap(err))
	}
	var out []string
	for _, en := range entries {
		if !en.IsDir() && (strings.HasSuffix(en.Name(), ".yml") || strings.HasSuffix(en.Name(), ".yaml")) {
			out = append(out, path.Join(".github/workflows", en.Name()))
		}
	}
	sort.Strings(out)
	return out, nil
}
