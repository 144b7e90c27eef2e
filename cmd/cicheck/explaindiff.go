package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing/fstest"

	"github.com/spf13/pflag"

	"github.com/cicheck/cicheck/explain"
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
	fl.StringVar(&o.format, "format", "text", "output format: "+strings.Join(explain.Formats, ", "))
	fl.StringVar(&o.config, "config", "", "configuration file (default: .cicheck.yaml at the repository root)")
	fl.StringVar(&o.pfVersion, "paths-filter-version", "", "simulate this dorny/paths-filter release for every step (e.g. v4.0.2)")
	fl.Usage = func() {
		fmt.Fprintln(e.stderr, explainUsage)
		fl.PrintDefaults()
	}
	if err := fl.Parse(args); err != nil {
		return flagError(e, err)
	}
	if !edContains(explain.Formats, o.format) {
		fmt.Fprintf(e.stderr, "cicheck: invalid --format %q (valid: %s)\n", o.format, strings.Join(explain.Formats, ", "))
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
	root := repoRoot(e.wd)

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
				fmt.Fprintf(e.stderr, "cicheck: %s: %v\n", o.files, unwrap(err))
				return exitUsage
			}
			r, name = bytes.NewReader(b), o.files
		}
		changed, err = edParseChangedFiles(r, name, o.nameStatus)
		if err != nil {
			fmt.Fprintf(e.stderr, "cicheck: %v\n", err)
			return exitUsage
		}
	} else {
		head := o.head
		if head == "" {
			head = "HEAD"
		}
		// -z: without it git quotes unusual paths ("docs/\303\251t\303\251.md").
		out, err := edGit(root, "diff", "--no-renames", "--name-status", "-z", o.base+"..."+head, "--")
		if err != nil {
			fmt.Fprintf(e.stderr, "cicheck: %v\n", err)
			return exitUsage
		}
		changed, err = edParseNameStatusZ(out)
		if err != nil {
			fmt.Fprintf(e.stderr, "cicheck: %v\n", err)
			return exitUsage
		}
		mb, err := edGit(root, "merge-base", o.base, head)
		if err != nil {
			fmt.Fprintf(e.stderr, "cicheck: %v\n", err)
			return exitUsage
		}
		mergeBase = strings.TrimSpace(string(mb))
	}

	// The repository as the head sees it.
	fsys := os.DirFS(root)
	if o.head != "" {
		fsys, err = edGitTree(root, o.head)
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
			base, _ := edGit(root, "show", mergeBase+":"+w.File) // absent at base: a new workflow
			advisories = append(advisories, explain.Advise(w, base, wfs[i].Source, o.labels, cfg.Heavy.OptInLabel)...)
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

// edParseChangedFiles reads one path per line, or git's --name-status lines.
// A rename or copy line (only when renames were not disabled) becomes the
// deletion of the old path and the addition of the new one, as the action
// sees it.
func edParseChangedFiles(r io.Reader, name string, nameStatus bool) ([]pathsfilter.ChangedFile, error) {
	var out []pathsfilter.ChangedFile
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	line := 0
	for sc.Scan() {
		line++
		t := strings.TrimRight(sc.Text(), "\r")
		if strings.TrimSpace(t) == "" {
			continue
		}
		if !nameStatus {
			if p := strings.TrimPrefix(edUnquote(t), "./"); strings.TrimSpace(p) != "" {
				out = append(out, pathsfilter.ChangedFile{Path: p})
			}
			continue
		}
		fields := strings.Split(t, "\t")
		if len(fields) == 1 {
			fields = strings.Fields(t)
		}
		for i := 1; i < len(fields); i++ {
			fields[i] = edUnquote(fields[i])
		}
		if len(fields) < 2 {
			return nil, fmt.Errorf("%s:%d:1: expected STATUS<TAB>PATH, got %q", name, line, t)
		}
		st, ok := pathsfilter.StatusFromGit(fields[0])
		if !ok {
			return nil, fmt.Errorf("%s:%d:1: unknown status %q (valid: A C D M R T U)", name, line, fields[0])
		}
		switch {
		case (fields[0][0] == 'R' || fields[0][0] == 'C') && len(fields) >= 3:
			if fields[0][0] == 'R' {
				out = append(out, pathsfilter.ChangedFile{Path: fields[1], Status: pathsfilter.StatusDeleted})
			}
			out = append(out, pathsfilter.ChangedFile{Path: fields[2], Status: pathsfilter.StatusAdded})
		default:
			out = append(out, pathsfilter.ChangedFile{Path: fields[1], Status: st})
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return out, nil
}

// edUnquote undoes git's C-style quoting of an unusual path
// ("docs/\303\251t\303\251.md"), as git diff prints it without -z; other
// text is returned as is.
func edUnquote(p string) string {
	if len(p) >= 2 && p[0] == '"' && p[len(p)-1] == '"' {
		if u, err := strconv.Unquote(p); err == nil {
			return u
		}
	}
	return p
}

// edParseNameStatusZ reads `git diff --name-status -z`: a status, then
// its path (two paths for a rename or copy), each NUL-terminated, with no
// quoting.
func edParseNameStatusZ(b []byte) ([]pathsfilter.ChangedFile, error) {
	fields := strings.Split(strings.TrimSuffix(string(b), "\x00"), "\x00")
	if len(fields) == 1 && fields[0] == "" {
		return nil, nil
	}
	var out []pathsfilter.ChangedFile
	for i := 0; i < len(fields); {
		code := fields[i]
		st, ok := pathsfilter.StatusFromGit(code)
		if !ok || code == "" {
			return nil, fmt.Errorf("git diff: unknown status %q", code)
		}
		n := 1
		if code[0] == 'R' || code[0] == 'C' {
			n = 2
		}
		if i+n >= len(fields) {
			return nil, fmt.Errorf("git diff: status %q without its path", code)
		}
		if n == 2 {
			if code[0] == 'R' {
				out = append(out, pathsfilter.ChangedFile{Path: fields[i+1], Status: pathsfilter.StatusDeleted})
			}
			out = append(out, pathsfilter.ChangedFile{Path: fields[i+2], Status: pathsfilter.StatusAdded})
		} else {
			out = append(out, pathsfilter.ChangedFile{Path: fields[i+1], Status: st})
		}
		i += n + 1
	}
	return out, nil
}

// edGit runs git in dir; its error names the command and git's message.
func edGit(dir string, args ...string) ([]byte, error) {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		msg := strings.TrimSpace(stderr.String())
		if i := strings.IndexByte(msg, '\n'); i >= 0 {
			msg = msg[:i]
		}
		if msg == "" {
			msg = err.Error()
		}
		return nil, fmt.Errorf("git %s: %s", strings.Join(args, " "), msg)
	}
	return out, nil
}

// edGitTree reads the workflow directory and other .github files at ref, for
// --head: workflows and filter files as the head commit has them.
func edGitTree(root, ref string) (fs.FS, error) {
	out, err := edGit(root, "ls-tree", "-r", "--name-only", ref, "--", ".github")
	if err != nil {
		return nil, err
	}
	m := fstest.MapFS{}
	for _, p := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if p == "" {
			continue
		}
		b, err := edGit(root, "show", ref+":"+p)
		if err != nil {
			return nil, err
		}
		m[p] = &fstest.MapFile{Data: b}
	}
	return m, nil
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
		return nil, fmt.Errorf(".github/workflows: %w (run explain-diff at the repository root, or name the workflows)", unwrap(err))
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
