// Package replay answers, for a change to a repository's workflows, what it
// would have done to recent history: every commit's changed files are run
// through explain-diff's engine (package explain) twice, under the
// workflows before the change (old) and after it (new), and each heavy or
// GPU job's wakes are counted on both sides, with examples of commits whose
// verdict changed and why. Commits and workflows come in, a Result goes
// out; git and printing stay with the caller.
package replay

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"
	"sync"

	"github.com/cicheck/cicheck/explain"
	"github.com/cicheck/cicheck/finding"
	"github.com/cicheck/cicheck/pathsfilter"
	"github.com/cicheck/cicheck/simulate"
	"github.com/cicheck/cicheck/workflowgraph"
)

// Commit is one replayed commit: what it changed against its first parent.
type Commit struct {
	SHA, Subject string
	Files        []pathsfilter.ChangedFile
}

// Side is the workflows as they are at one ref.
type Side struct {
	// Ref names the side in reports (a revision as given, a commit id, or
	// "worktree").
	Ref       string
	Workflows []*workflowgraph.Workflow
	// FS is the repository at that ref, for filter files (may be nil).
	FS fs.FS
	// Parse holds the syntax findings of the workflows at that ref: the
	// replay of that side is drawn from files with errors.
	Parse []finding.Finding
}

// Options are the facts every replayed commit shares.
type Options struct {
	// Event is the triggering event (default pull_request).
	Event string
	// Labels is each pull request's complete label set; nil means the
	// labels are unknown (git does not record them), so a condition that
	// reads one stays undecided.
	Labels []string
	// Set supplies other context values; anything not set is unknown.
	Set        map[string]string
	Classifier *workflowgraph.Classifier
	// PathsFilter is the tag table for dorny/paths-filter refs.
	PathsFilter pathsfilter.Config
	// Minutes is a job's typical minutes per run by job id
	// (heavy.minutes), for runner-hours.
	Minutes map[string]float64
	// Examples is how many changed commits each job lists (default 3).
	Examples int
}

// Result is the whole answer; its JSON form is replay's version-1 schema.
type Result struct {
	Version int    `json:"version"`
	Commits int    `json:"commits"`
	Old     string `json:"old"`
	New     string `json:"new"`
	Jobs    []*Job `json:"jobs"`
	// Event is the simulated event (not part of the JSON schema).
	Event string `json:"-"`
}

// Job is one heavy or GPU job's wakes over the replayed commits. Old and
// New count the commits that certainly run it; Unknown those whose verdict
// is unknown under old or new, so the true change lies within it.
type Job struct {
	Workflow string    `json:"workflow"`
	Job      string    `json:"job"`
	Class    string    `json:"class"`
	Old      int       `json:"old"`
	New      int       `json:"new"`
	Unknown  int       `json:"unknown"`
	Changed  []*Change `json:"changed"`
	// Not part of the JSON schema: unknowns per side, how many commits
	// changed verdict in all, and the job's minutes when configured.
	OldUnknown, NewUnknown int     `json:"-"`
	ChangedTotal           int     `json:"-"`
	Minutes                float64 `json:"-"`
	HasMinutes             bool    `json:"-"`
}

// Change is one commit whose verdict for a job differs between old and
// new.
type Change struct {
	Commit string            `json:"commit"`
	Old    simulate.Decision `json:"old"`
	New    simulate.Decision `json:"new"`
	Why    string            `json:"why"`
	// Subject is the commit's subject line (not part of the JSON schema).
	Subject string `json:"-"`
}

// Diff is New - Old.
func (j *Job) Diff() int { return j.New - j.Old }

// Hours is the runner-hours the change saves (negative) or adds, over the
// commits whose verdicts are known.
func (j *Job) Hours() float64 { return float64(j.Diff()) * j.Minutes / 60 }

// verdict is one job's answer on one side for one commit.
type verdict struct {
	v   simulate.Decision
	why string
}

// sideRun evaluates commits under one side's workflows, once per distinct
// changed-file list: verdicts for every commit, reasons only for the
// commits shown as examples.
type sideRun struct {
	side    *Side
	p       *explain.Prepared
	memo    map[string]map[jobKey]verdict
	reasons map[string]map[jobKey]string
	// classes and order record the side's heavy and GPU jobs as met.
	classes map[jobKey]string
	order   []jobKey
	// names holds each recorded job's id as the side writes it.
	names map[jobKey]string
	// files lists the side's workflow files, to tell a missing job from a
	// missing workflow.
	files map[string]bool
}

// jobKey names a job across the two sides: its id is lower-cased, as
// GitHub compares ids, so `Train:` at one side is `train:` at the other.
type jobKey struct{ workflow, job string }

func keyOf(file, id string) jobKey { return jobKey{file, strings.ToLower(id)} }

func newSideRun(s *Side, o explain.Options) *sideRun {
	r := &sideRun{side: s, p: explain.Prepare(s.Workflows, s.FS, o), memo: map[string]map[jobKey]verdict{},
		reasons: map[string]map[jobKey]string{}, classes: map[jobKey]string{}, names: map[jobKey]string{}, files: map[string]bool{}}
	for _, w := range s.Workflows {
		r.files[w.Path] = true
	}
	return r
}

// fileKey identifies a changed-file list: the same list (order included,
// since the first match is the witness) gets the same verdicts.
func fileKey(files []pathsfilter.ChangedFile) string {
	var b strings.Builder
	for _, f := range files {
		b.WriteString(f.Status)
		b.WriteByte(0)
		b.WriteString(f.Path)
		b.WriteByte(0)
	}
	return b.String()
}

// eval returns every job's verdict for files, and records the heavy/GPU
// jobs' classes.
func (r *sideRun) eval(files []pathsfilter.ChangedFile) map[jobKey]verdict {
	k := fileKey(files)
	if m, ok := r.memo[k]; ok {
		return m
	}
	m := map[jobKey]verdict{}
	for _, w := range r.p.Verdicts(files).Workflows {
		for _, j := range w.Jobs {
			jk := keyOf(w.File, j.ID)
			m[jk] = verdict{v: j.Verdict}
			if !j.Heavy && !j.GPU {
				continue
			}
			if _, seen := r.classes[jk]; !seen {
				r.order = append(r.order, jk)
				r.classes[jk] = "heavy"
				r.names[jk] = j.ID
			}
			if j.GPU {
				r.classes[jk] = "gpu"
			}
		}
	}
	r.memo[k] = m
	return m
}

// reason is explain-diff's reason for jk's verdict on files.
func (r *sideRun) reason(files []pathsfilter.ChangedFile, jk jobKey) string {
	k := fileKey(files)
	m, ok := r.reasons[k]
	if !ok {
		m = map[jobKey]string{}
		for _, w := range r.p.Explain(files).Workflows {
			for _, j := range w.Jobs {
				m[keyOf(w.File, j.ID)] = j.Reason
			}
		}
		r.reasons[k] = m
	}
	return m[jk]
}

// of is jk's verdict; a job or workflow the side does not have never runs.
func (r *sideRun) of(m map[jobKey]verdict, jk jobKey, name string) verdict {
	if v, ok := m[jk]; ok {
		return v
	}
	if !r.files[jk.workflow] {
		return verdict{explain.Skip, fmt.Sprintf("%s does not exist at %s", jk.workflow, r.side.Ref)}
	}
	return verdict{explain.Skip, fmt.Sprintf("no job %s at %s", name, r.side.Ref)}
}

// Replay runs every commit through both sides. Jobs are the heavy and GPU
// jobs of either side, by workflow file and then the order explain-diff
// lists them in (new side first); examples are the newest changed commits,
// those decided on both sides first.
func Replay(commits []Commit, oldSide, newSide *Side, o Options) *Result {
	eo := explain.Options{Event: o.Event, Labels: o.Labels, LabelsUnknown: o.Labels == nil, Set: o.Set,
		Classifier: o.Classifier, PathsFilter: o.PathsFilter}
	if eo.Event == "" {
		eo.Event = "pull_request"
	}
	examples := o.Examples
	if examples <= 0 {
		examples = 3
	}
	oldRun, newRun := newSideRun(oldSide, eo), newSideRun(newSide, eo)
	type pair struct{ old, new map[jobKey]verdict }
	per := make([]pair, len(commits))
	// The two sides share nothing but read-only inputs: evaluate them on
	// two cores.
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i, c := range commits {
			per[i].old = oldRun.eval(c.Files)
		}
		if len(commits) == 0 {
			oldRun.eval(nil) // no commit still lists the jobs, with zero counts
		}
	}()
	for i, c := range commits {
		per[i].new = newRun.eval(c.Files)
	}
	if len(commits) == 0 {
		newRun.eval(nil)
	}
	wg.Wait()
	classes := map[jobKey]string{}
	for _, r := range []*sideRun{newRun, oldRun} {
		for jk, c := range r.classes {
			if classes[jk] != "gpu" {
				classes[jk] = c
			}
		}
	}
	order := append(append([]jobKey(nil), newRun.order...), oldRun.order...)
	pos := map[jobKey]int{}
	for i, jk := range order {
		if _, ok := pos[jk]; !ok {
			pos[jk] = i
		}
	}
	keys := make([]jobKey, 0, len(pos))
	for jk := range pos {
		keys = append(keys, jk)
	}
	sort.Slice(keys, func(a, b int) bool {
		if keys[a].workflow != keys[b].workflow {
			return keys[a].workflow < keys[b].workflow
		}
		return pos[keys[a]] < pos[keys[b]]
	})

	res := &Result{Version: 1, Commits: len(commits), Old: oldSide.Ref, New: newSide.Ref, Jobs: []*Job{}, Event: eo.Event}
	for _, jk := range keys {
		// The id as the new side writes it, else as the old side did.
		name := cmp.Or(newRun.names[jk], oldRun.names[jk], jk.job)
		j := &Job{Workflow: jk.workflow, Job: name, Class: classes[jk], Changed: []*Change{}}
		if m, ok := minutesOf(o.Minutes, name); ok {
			j.Minutes, j.HasMinutes = m, true
		}
		var decided, undecided []*Change
		for i, pr := range per {
			ov, nv := oldRun.of(pr.old, jk, name), newRun.of(pr.new, jk, name)
			if ov.v == explain.Run {
				j.Old++
			}
			if nv.v == explain.Run {
				j.New++
			}
			if ov.v == explain.Unknown {
				j.OldUnknown++
			}
			if nv.v == explain.Unknown {
				j.NewUnknown++
			}
			if ov.v == explain.Unknown || nv.v == explain.Unknown {
				j.Unknown++
			}
			if ov.v == nv.v {
				continue
			}
			j.ChangedTotal++
			isDecided := ov.v != explain.Unknown && nv.v != explain.Unknown
			if isDecided && len(decided) >= examples || !isDecided && len(undecided) >= examples {
				continue
			}
			files := commits[i].Files
			if ov.why == "" {
				ov.why = oldRun.reason(files, jk)
			}
			if nv.why == "" {
				nv.why = newRun.reason(files, jk)
			}
			ch := &Change{Commit: commits[i].SHA, Old: ov.v, New: nv.v, Why: why(ov, nv), Subject: commits[i].Subject}
			if isDecided {
				decided = append(decided, ch)
			} else {
				undecided = append(undecided, ch)
			}
		}
		j.Changed = append(j.Changed, decided...)
		for _, ch := range undecided {
			if len(j.Changed) < examples {
				j.Changed = append(j.Changed, ch)
			}
		}
		res.Jobs = append(res.Jobs, j)
	}
	return res
}

// why puts the two sides' reasons side by side (a reason may hold "; "):
// each names the filter output, label or trigger its condition read, and
// the file and pattern that made a filter true.
func why(o, n verdict) string {
	return fmt.Sprintf("old: %s | new: %s", orDash(o.why), orDash(n.why))
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// minutesOf looks a job up in heavy.minutes; job ids are
// case-insensitive, as in GitHub. Keys are tried in sorted order, so a map
// with two spellings of one id (config refuses it) still answers the same.
func minutesOf(m map[string]float64, job string) (float64, bool) {
	if v, ok := m[job]; ok {
		return v, true
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if strings.EqualFold(k, job) {
			return m[k], true
		}
	}
	return 0, false
}

// LoadWorkflows reads every .yml/.yaml directly in .github/workflows of
// fsys, as explain-diff and GitHub do. A file GitHub ignores (empty,
// commented out, binary) is skipped with a note; one that does not parse is
// an error, since its jobs cannot be counted.
func LoadWorkflows(fsys fs.FS) (wfs []*workflowgraph.Workflow, notes []string, err error) {
	wfs, notes, _, err = loadWorkflows(fsys)
	return wfs, notes, err
}

// loadWorkflows is LoadWorkflows with the workflows' syntax findings.
func loadWorkflows(fsys fs.FS) (wfs []*workflowgraph.Workflow, notes []string, parse []finding.Finding, err error) {
	entries, err := fs.ReadDir(fsys, ".github/workflows")
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil, nil, nil // no workflows: every job count is zero
		}
		return nil, nil, nil, fmt.Errorf(".github/workflows: %w", err)
	}
	callees := workflowgraph.NewCallees()
	for _, en := range entries {
		name := en.Name()
		if en.IsDir() || !(strings.HasSuffix(name, ".yml") || strings.HasSuffix(name, ".yaml")) {
			continue
		}
		p := path.Join(".github/workflows", name)
		src, rerr := fs.ReadFile(fsys, p)
		if rerr != nil {
			return nil, nil, nil, fmt.Errorf("%s: %w", p, rerr)
		}
		if cerr := workflowgraph.CheckWorkflowBytes(p, src); cerr != nil {
			notes = append(notes, cerr.Error()+"; skipped")
			continue
		}
		w, ps, lerr := workflowgraph.LoadShared(callees, "", fsys, p)
		if lerr != nil {
			return nil, nil, nil, lerr
		}
		if w == nil {
			return nil, nil, nil, fmt.Errorf("%s: the workflow does not parse (run cicheck lint %s)", p, p)
		}
		wfs, parse = append(wfs, w), append(parse, ps...)
	}
	return wfs, notes, parse, nil
}
