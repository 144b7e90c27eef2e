package explain

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/cicheck/cicheck/internal/repofs"

	"github.com/cicheck/cicheck/finding"
	"github.com/cicheck/cicheck/internal/gitdiff"
	"github.com/cicheck/cicheck/pathsfilter"
	"github.com/cicheck/cicheck/workflowgraph"
)

// Source says where a change and the workflows it meets come from: git
// (Base, and Head or the working tree) or a list of changed files.
type Source struct {
	WD, Root   string // working directory; repository root
	Base, Head string // merge-base diff of Base...Head ("" Head: HEAD, workflows from the working tree)
	// Files is a list of changed files ("-": Stdin), one path per line, or
	// STATUS<TAB>path lines with NameStatus.
	Files      string
	NameStatus bool
	Stdin      io.Reader
	// Workflows are the files to explain, relative to WD; none means every
	// .yml/.yaml in .github/workflows.
	Workflows []string
}

// Input is a Source read: the change and the workflows as the head sees them.
type Input struct {
	Changed   []pathsfilter.ChangedFile
	MergeBase string // with Base: where the diff starts
	FS        fs.FS  // the repository as the head sees it
	Workflows []*workflowgraph.Workflow
	// Skipped says which files in .github/workflows GitHub would ignore
	// (empty, comments only) and were left out.
	Skipped []string
	// Parse holds the syntax findings of the workflows explained (File is
	// the workflow's path): the verdicts are drawn from files with errors.
	Parse []finding.Finding
}

// Read reads s. It is explain's one place of I/O: git through gitdiff and
// files; the explanation itself (Explain) reads only the Input.
func Read(s Source) (*Input, error) {
	in := &Input{FS: repofs.DirFS(s.Root)}
	var err error
	if s.Files != "" {
		r, name := s.Stdin, "stdin"
		if s.Files != "-" {
			p := s.Files
			if !filepath.IsAbs(p) {
				p = filepath.Join(s.WD, p)
			}
			b, err := repofs.ReadPath(p, repofs.DiffLimit, "list of changed files")
			var tl *repofs.TooLargeError
			if errors.As(err, &tl) {
				tl.Name = s.Files
				return nil, tl
			}
			if err != nil {
				return nil, fmt.Errorf("%s: %w", s.Files, workflowgraph.UnwrapPathError(err))
			}
			r, name = bytes.NewReader(b), s.Files
		}
		if in.Changed, err = gitdiff.ParseList(r, name, s.NameStatus); err != nil {
			return nil, err
		}
	} else {
		head := s.Head
		if head == "" {
			head = "HEAD"
		}
		if in.Changed, in.MergeBase, err = gitdiff.Changes(s.Root, s.Base, head); err != nil {
			return nil, err
		}
	}
	if s.Head != "" {
		if in.FS, err = gitdiff.Tree(s.Root, s.Head, ".github"); err != nil {
			return nil, err
		}
	}
	paths, err := workflowPaths(in.FS, s.Workflows, s.WD, s.Root)
	if err != nil {
		return nil, err
	}
	callees := workflowgraph.NewCallees()
	for _, p := range paths {
		if len(s.Workflows) == 0 {
			// GitHub ignores an empty or commented-out file in
			// .github/workflows: skip it rather than refuse the whole run.
			if src, rerr := fs.ReadFile(in.FS, p); rerr == nil {
				if cerr := workflowgraph.CheckWorkflowBytes(p, src); cerr != nil {
					in.Skipped = append(in.Skipped, cerr.Error()+"; skipped")
					continue
				}
			}
		}
		w, parse, err := workflowgraph.LoadShared(callees, "", in.FS, p)
		if err != nil {
			return nil, err
		}
		in.Parse = append(in.Parse, parse...)
		if w == nil {
			return nil, fmt.Errorf("%s: the workflow does not parse (run cicheck lint %s)", p, p)
		}
		in.Workflows = append(in.Workflows, w)
	}
	return in, nil
}

// Advisories are the workflow-change warnings of r (see Advise): for each
// workflow the git diff touches, its text at the merge base against the
// head's. A list of files has no base to compare with: none.
func (in *Input) Advisories(root string, r *Report, labels []string, optIn string) []Advisory {
	if in.MergeBase == "" {
		return nil
	}
	touched := map[string]bool{}
	for _, c := range in.Changed {
		if strings.HasPrefix(c.Path, ".github/workflows/") {
			touched[c.Path] = true
		}
	}
	var out []Advisory
	for i, w := range r.Workflows {
		if touched[w.File] {
			base, _ := gitdiff.Show(root, in.MergeBase, w.File) // absent at base: a new workflow
			out = append(out, Advise(w, base, in.Workflows[i].AST, labels, optIn)...)
		}
	}
	return out
}

// workflowPaths lists the workflows to explain: the arguments (relative to
// the working directory), else every .yml/.yaml in .github/workflows.
func workflowPaths(fsys fs.FS, args []string, wd, root string) ([]string, error) {
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
		return nil, fmt.Errorf(".github/workflows: %w (run explain-diff at the repository root, or name the workflows)", workflowgraph.UnwrapPathError(err))
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
