package lint

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/cicheck/cicheck/config"
	"github.com/cicheck/cicheck/internal/repofs"
	"github.com/cicheck/cicheck/workflowgraph"
)

// Target is one workflow file to lint.
type Target struct {
	Abs     string // absolute path on disk
	Display string // as findings show it
	Root    string // project root: the directory holding .github
	Rel     string // slash path relative to root
	// Src is the file's content when it does not come from disk (stdin);
	// nil means read Abs.
	Src []byte
	// fsys is Root as a repofs.FS shared by the run's targets (nil: one
	// of its own), so each directory's links are resolved once.
	fsys *repofs.FS
}

// FS is the target's repository as the files are read from it.
func (t Target) FS() *repofs.FS {
	if t.fsys != nil {
		return t.fsys
	}
	return repofs.DirFS(t.Root)
}

// shareFS gives the targets of one root one repofs.FS.
func shareFS(ts []Target) {
	m := map[string]*repofs.FS{}
	for i := range ts {
		if m[ts[i].Root] == nil {
			m[ts[i].Root] = repofs.DirFS(ts[i].Root)
		}
		ts[i].fsys = m[ts[i].Root]
	}
}

// Discover turns the PATH arguments into workflow files.
func Discover(wd string, args []string, logf func(string, ...any)) ([]Target, error) {
	var out []Target
	if len(args) == 0 {
		root := RepoRoot(wd)
		dir := filepath.Join(root, ".github", "workflows")
		if st, err := os.Stat(dir); err != nil || !st.IsDir() {
			return nil, fmt.Errorf("%s: no .github/workflows directory (pass a workflow file or directory)", Display(wd, root))
		}
		ts, err := workflowDir(wd, dir, logf)
		if err != nil {
			return nil, err
		}
		return ts, nil
	}
	for _, a := range args {
		p := a
		if !filepath.IsAbs(p) {
			p = filepath.Join(wd, p)
		}
		st, err := os.Stat(p)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", a, Unwrap(err))
		}
		if !st.IsDir() {
			out = append(out, NewTarget(wd, p))
			continue
		}
		dir := p
		if st, err := os.Stat(filepath.Join(p, ".github", "workflows")); err == nil && st.IsDir() {
			dir = filepath.Join(p, ".github", "workflows")
		} else if st, err := os.Stat(filepath.Join(p, "workflows")); err == nil && st.IsDir() && filepath.Base(filepath.Clean(p)) == ".github" {
			// `cicheck lint .github` means its workflows, not
			// actionlint.yaml or dependabot.yml beside them.
			dir = filepath.Join(p, "workflows")
		}
		ts, err := workflowDir(wd, dir, logf)
		if err != nil {
			return nil, err
		}
		out = append(out, ts...)
	}
	// The same file named twice is linted once.
	seen := map[string]bool{}
	uniq := out[:0]
	for _, t := range out {
		if !seen[t.Abs] {
			seen[t.Abs] = true
			uniq = append(uniq, t)
		}
	}
	return uniq, nil
}

// workflowDir lists the .yml/.yaml files directly in dir. GitHub ignores
// sub-folders of .github/workflows, so their files are not workflows.
func workflowDir(wd, dir string, logf func(string, ...any)) ([]Target, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", Display(wd, dir), Unwrap(err))
	}
	var out []Target
	for _, en := range entries {
		name := en.Name()
		if en.IsDir() {
			if n := countYAML(filepath.Join(dir, name)); n > 0 {
				logf("skipping %s/: %d YAML file(s) in a sub-folder; GitHub only runs workflows directly in .github/workflows", showPath(wd, filepath.Join(dir, name)), n)
			}
			continue
		}
		if !IsYAML(name) {
			continue
		}
		if name == config.FileName && !isWorkflowsDir(dir) {
			// `cicheck lint DIR` on a folder of workflows that also holds
			// cicheck's configuration: that file is not a workflow.
			logf("skipping %s: cicheck's configuration, not a workflow", showPath(wd, filepath.Join(dir, name)))
			continue
		}
		out = append(out, NewTarget(wd, filepath.Join(dir, name)))
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no workflow files (*.yml, *.yaml) found", Display(wd, dir))
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Display < out[j].Display })
	for _, t := range out {
		logf("linting %s", t.Display)
	}
	return out, nil
}

// IsYAML reports whether name ends in .yml or .yaml (any case).
func IsYAML(name string) bool {
	ext := strings.ToLower(filepath.Ext(name))
	return ext == ".yml" || ext == ".yaml"
}

func countYAML(dir string) int {
	n := 0
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && IsYAML(d.Name()) {
			n++
		}
		return nil
	})
	return n
}

// Unwrap drops a PathError's operation and path (the message names the
// file once, as the user wrote it).
func Unwrap(err error) error { return workflowgraph.UnwrapPathError(err) }

// showPath is how findings name a file: relative to the repository root
// (what GitHub annotations and SARIF expect), else to the working
// directory, else absolute.
func showPath(wd, abs string) string {
	if r, err := filepath.Rel(RepoRoot(wd), abs); err == nil && r != ".." && !startsWithDotDot(r) {
		return filepath.ToSlash(r)
	}
	return Display(wd, abs)
}

// NewTarget finds the project root of a workflow file: the directory
// holding the .github/workflows it sits in, else its own directory.
func NewTarget(wd, abs string) Target {
	dir := filepath.Dir(abs)
	root := dir
	if filepath.Base(dir) == "workflows" && filepath.Base(filepath.Dir(dir)) == ".github" {
		root = filepath.Dir(filepath.Dir(dir))
	}
	rel, err := filepath.Rel(root, abs)
	if err != nil {
		rel = filepath.Base(abs)
	}
	return Target{Abs: abs, Display: showPath(wd, abs), Root: root, Rel: filepath.ToSlash(rel)}
}

// isWorkflowsDir reports whether dir is a .github/workflows directory, where
// GitHub reads every YAML file as a workflow.
func isWorkflowsDir(dir string) bool {
	return filepath.Base(dir) == "workflows" && filepath.Base(filepath.Dir(dir)) == ".github"
}
