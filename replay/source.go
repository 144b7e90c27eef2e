package replay

import (
	"fmt"
	"io/fs"
	"strings"

	"github.com/cicheck/cicheck/internal/repofs"

	"github.com/cicheck/cicheck/internal/gitdiff"
)

// Source says what to replay: the commits of Range (git log revisions;
// "": the last Commits of HEAD, default 200), and the workflows at Old
// (default: the merge base of HEAD, or of New, with the default branch)
// and at New (default: the working tree).
type Source struct {
	Root        string
	Old, New    string
	Range       string
	Commits     int // 0: 200 without Range, all of it with Range
	FirstParent bool
}

// Input is a Source read from git. Close it after Replay: the sides read
// their files through one git process.
type Input struct {
	Commits  []Commit
	Old, New *Side
	// Orphans counts the commits left out for having no parent.
	Orphans int
	// Notes are files GitHub would ignore, left out, per side.
	Notes []string
	store *gitdiff.Store
}

// Close ends the git process the sides read through.
func (in *Input) Close() error { return in.store.Close() }

// Read reads s from the repository at s.Root: replay's one place of I/O.
func Read(s Source) (in *Input, err error) {
	// One cat-file process serves every revision, tree and file below.
	store, err := gitdiff.OpenStore(s.Root)
	if err != nil {
		return nil, err
	}
	in = &Input{store: store}
	defer func() {
		if err != nil {
			_ = store.Close() // read-only: nothing to report
		}
	}()
	// HEAD first: in a directory outside any repository, or one without a
	// commit, this is the error to give.
	head, err := store.Commit("HEAD")
	if err != nil {
		return nil, err
	}
	var newID string
	if in.New, newID, err = openSide(store, s.Root, s.New, "--new"); err != nil {
		return nil, err
	}
	oldRef := s.Old
	if oldRef == "" {
		// The merge base with the default branch: the workflows as the
		// change under review found them.
		if newID != "" {
			head = newID
		}
		_, id, err := store.DefaultBranch()
		if err != nil {
			return nil, fmt.Errorf("%w (give --old REF)", err)
		}
		if oldRef, err = gitdiff.MergeBase(s.Root, id, head); err != nil {
			return nil, fmt.Errorf("%w (give --old REF)", err)
		}
	}
	if in.Old, _, err = openSide(store, s.Root, oldRef, "--old"); err != nil {
		return nil, err
	}
	revs, limit := []string{"HEAD"}, 200
	if s.Range != "" {
		revs, limit = strings.Fields(s.Range), 0
	}
	if s.Commits > 0 {
		limit = s.Commits
	}
	log, err := gitdiff.Log(s.Root, revs, limit, s.FirstParent)
	if err != nil {
		return nil, err
	}
	// A commit without a parent (the root, or the boundary of a shallow
	// clone, whose parents git hides) has no diff a pull request made: as
	// "every file added" it would wake every job, so it is left out.
	for _, c := range log {
		if len(c.Parents) == 0 {
			in.Orphans++
			continue
		}
		in.Commits = append(in.Commits, Commit{SHA: c.SHA, Subject: c.Subject, Files: c.Files})
	}
	for _, sd := range []*Side{in.Old, in.New} {
		wfs, notes, parse, err := loadWorkflows(sd.FS)
		if err != nil {
			return nil, fmt.Errorf("at %s: %w", sd.Ref, err)
		}
		sd.Parse = parse
		for _, n := range notes {
			in.Notes = append(in.Notes, "at "+sd.Ref+": "+n)
		}
		sd.Workflows = wfs
	}
	return in, nil
}

// openSide is the repository at ref through store, or the working tree when
// ref is "". id is the commit ref names ("" for the working tree).
func openSide(store *gitdiff.Store, root, ref, flag string) (s *Side, id string, err error) {
	if ref == "" {
		return &Side{Ref: "worktree", FS: repofs.DirFS(root)}, "", nil
	}
	if id, err = store.Commit(ref); err != nil {
		return nil, "", fmt.Errorf("%s %w", flag, err)
	}
	var fsys fs.FS
	if fsys, err = store.FS(id); err != nil {
		return nil, "", fmt.Errorf("%s %s: %w", flag, ref, err)
	}
	return &Side{Ref: ref, FS: fsys}, id, nil
}
