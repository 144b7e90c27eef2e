package replay

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/cicheck/cicheck/config"
	"github.com/cicheck/cicheck/explain"
	"github.com/cicheck/cicheck/pathsfilter"
)

// side loads a fixture repository's workflows.
func side(t *testing.T, fixture, ref string) (*Side, *config.Config) {
	t.Helper()
	fsys := os.DirFS(filepath.Join("..", "fixtures", fixture))
	cfg, err := config.Load(fsys, ".cicheck.yaml")
	if err != nil {
		t.Fatal(err)
	}
	wfs, notes, err := LoadWorkflows(fsys)
	if err != nil || len(notes) != 0 || len(wfs) == 0 {
		t.Fatalf("load %s: %v %v", fixture, notes, err)
	}
	return &Side{Ref: ref, Workflows: wfs, FS: fsys}, cfg
}

func commit(sha string, paths ...string) Commit {
	c := Commit{SHA: sha, Subject: "touch " + strings.Join(paths, ", ")}
	for _, p := range paths {
		c.Files = append(c.Files, pathsfilter.ChangedFile{Path: p, Status: pathsfilter.StatusModified})
	}
	return c
}

// seedHistory is a history in the image of seed 002's repository; c2 and
// c5 touch only the workflow file. No commit touches the Metal, CUDA or
// ROCm overlays, whose filters the fix also changes.
func seedHistory() []Commit {
	return []Commit{
		commit("c7", "src/lib/mlx-cpp/turbo/k.cpp"),
		commit("c6", "build.rs"),
		commit("c5", ".github/workflows/ci.yml"),
		commit("c4", "webui/app.ts", "docs/webui.md"),
		commit("c3", "docs/installation.md"),
		commit("c2", ".github/workflows/ci.yml"),
		commit("c1", "src/main.rs"),
	}
}

var heavyJobs = []string{"clippy", "webui-installed-artifact", "xla-compile", "xla-link", "cuda-sm70", "cuda-blockfloat", "rocm-build"}

// withWorkflowInFilters is seed 002's fixed workflow with the workflow
// file put back into every heavy filter: the change under review is then
// exactly its removal.
func withWorkflowInFilters(t *testing.T) *Side {
	t.Helper()
	b, err := os.ReadFile("../fixtures/paths-mlx/.github/workflows/ci.yml")
	if err != nil {
		t.Fatal(err)
	}
	src := string(b)
	for _, f := range []string{"rust", "xla_link", "cuda_arch", "rocm", "webui_bundle"} {
		head := "            " + f + ":\n"
		if !strings.Contains(src, head) {
			t.Fatalf("no filter %s", f)
		}
		src = strings.Replace(src, head, head+"              - '.github/workflows/ci.yml'\n", 1)
	}
	return mapSide("old", map[string]string{".github/workflows/ci.yml": src})
}

// TestSeed002: removing the workflow file from every heavy filter drops
// each heavy job's wakes by exactly the commits that touched only that
// file, and those are the commits listed as changed.
func TestSeed002(t *testing.T) {
	oldSide := withWorkflowInFilters(t)
	newSide, cfg := side(t, "paths-mlx", "after")
	o := Options{Labels: []string{}, Set: map[string]string{"github.repository": "lablup/mlxcel"},
		Classifier: cfg.Classifier(), PathsFilter: cfg.PathsFilter}
	r := Replay(seedHistory(), oldSide, newSide, o)
	if r.Commits != 7 || len(r.Jobs) != len(heavyJobs) {
		t.Fatalf("commits %d, jobs %d", r.Commits, len(r.Jobs))
	}
	for i, j := range r.Jobs {
		if j.Job != heavyJobs[i] || j.Workflow != ".github/workflows/ci.yml" || j.Class != "gpu" {
			t.Errorf("job %d = %s %s %s", i, j.Workflow, j.Job, j.Class)
		}
		var changed []string
		for _, c := range j.Changed {
			changed = append(changed, c.Commit+":"+string(c.Old)+">"+string(c.New))
			if !strings.Contains(c.Why, `.github/workflows/ci.yml matches ".github/workflows/ci.yml"`) || !strings.Contains(c.Why, "label ci:full absent") {
				t.Errorf("%s %s: why %q", j.Job, c.Commit, c.Why)
			}
		}
		if j.Old-j.New != 2 || j.Unknown != 0 || j.ChangedTotal != 2 || strings.Join(changed, " ") != "c5:run>skip c2:run>skip" {
			t.Errorf("%s: old %d new %d unknown %d changed %v", j.Job, j.Old, j.New, j.Unknown, changed)
		}
	}
	want := map[string][2]int{"clippy": {4, 2}, "webui-installed-artifact": {3, 1}, "xla-compile": {4, 2}, "xla-link": {3, 1},
		"cuda-sm70": {4, 2}, "cuda-blockfloat": {4, 2}, "rocm-build": {4, 2}}
	// GB10 and gfx1151 are accelerators by name: the classifier's GPU
	// class wins over heavy.
	for _, j := range r.Jobs {
		if w := want[j.Job]; j.Old != w[0] || j.New != w[1] {
			t.Errorf("%s: old %d new %d, want %v", j.Job, j.Old, j.New, w)
		}
	}

	// Labels unknown (the default: git does not record them): the fixed
	// conditions read ci:full, so where no filter is true the new verdict
	// is undecided, never guessed; the certain wakes are the same.
	o.Labels = nil
	u := Replay(seedHistory(), oldSide, newSide, o)
	for i, j := range u.Jobs {
		if j.New != r.Jobs[i].New || j.Old != r.Jobs[i].Old || j.Unknown != 7-j.New || j.OldUnknown != 7-j.Old || j.NewUnknown != j.Unknown {
			t.Errorf("labels unknown: %s old %d new %d unknown %d (old %d new %d)", j.Job, j.Old, j.New, j.Unknown, j.OldUnknown, j.NewUnknown)
		}
	}
	// With the label, every heavy job wakes on every commit under new.
	o.Labels = []string{"ci:full"}
	for _, j := range Replay(seedHistory(), oldSide, newSide, o).Jobs {
		if j.New != 7 {
			t.Errorf("ci:full: %s new %d", j.Job, j.New)
		}
	}
}

// TestSeed002Before: against the seed's first proposal (the `!`
// exclusions under the default quantifier some), replay also shows the
// widening: the CUDA and ROCm jobs woke on every commit, docs included.
func TestSeed002Before(t *testing.T) {
	oldSide, _ := side(t, "paths-mlx-before", "before")
	newSide, cfg := side(t, "paths-mlx", "after")
	o := Options{Labels: []string{}, Set: map[string]string{"github.repository": "lablup/mlxcel"}, Classifier: cfg.Classifier(), PathsFilter: cfg.PathsFilter}
	for _, j := range Replay(seedHistory(), oldSide, newSide, o).Jobs {
		switch j.Job {
		case "cuda-sm70", "cuda-blockfloat", "rocm-build":
			if j.Old != 7 || j.New != 2 || !strings.Contains(j.Changed[2].Why, `docs/installation.md matches "!src/lib/mlx-cpp/patches/**"`) {
				t.Errorf("%s: old %d new %d %+v", j.Job, j.Old, j.New, j.Changed[2])
			}
		case "clippy":
			if j.Old != 4 || j.New != 2 {
				t.Errorf("%s: old %d new %d", j.Job, j.Old, j.New)
			}
		}
	}
}

// TestSameAsExplain: every verdict replay counts is explain-diff's for the
// same files (one engine).
func TestSameAsExplain(t *testing.T) {
	oldSide, cfg := side(t, "paths-mlx-before", "before")
	o := Options{Labels: []string{}, Set: map[string]string{"github.repository": "lablup/mlxcel"}, Classifier: cfg.Classifier(), PathsFilter: cfg.PathsFilter}
	for _, c := range seedHistory() {
		r := Replay([]Commit{c}, oldSide, oldSide, o)
		rep := explain.Explain(c.Files, oldSide.Workflows, oldSide.FS, explain.Options{Labels: []string{}, Set: o.Set, Classifier: o.Classifier, PathsFilter: o.PathsFilter})
		got := map[string]bool{}
		for _, j := range r.Jobs {
			got[j.Job] = j.Old == 1
		}
		for _, j := range rep.Workflows[0].Jobs {
			if (j.Heavy || j.GPU) && got[j.ID] != (j.Verdict == explain.Run) {
				t.Errorf("%s %s: replay %v, explain %s", c.SHA, j.ID, got[j.ID], j.Verdict)
			}
		}
	}
}

func mapSide(ref string, files map[string]string) *Side {
	m := fstest.MapFS{}
	for p, s := range files {
		m[p] = &fstest.MapFile{Data: []byte(s)}
	}
	wfs, _, err := LoadWorkflows(m)
	if err != nil {
		panic(err)
	}
	return &Side{Ref: ref, Workflows: wfs, FS: m}
}

const gpuWF = `on:
  pull_request:
    paths: ['%s']
jobs:
  %s:
    runs-on: [self-hosted, h100]
    if: %s
    steps:
      - run: nvidia-smi
`

// TestCounting covers the counting rules and their near misses: a job or
// workflow on one side only, unknown on one side, the example cap with
// decided changes first, the memo of equal file lists, minutes by
// case-insensitive job id, and an empty range.
func TestCounting(t *testing.T) {
	wf := func(paths, job, cond string) string { return fmt.Sprintf(gpuWF, paths, job, cond) }
	oldS := mapSide("old", map[string]string{
		".github/workflows/a.yml":    wf("src/**", "train", "true") + "  legacy:\n    runs-on: h100\n    steps:\n      - run: x\n",
		".github/workflows/gone.yml": wf("**", "bench", "true"),
	})
	newS := mapSide("new", map[string]string{
		".github/workflows/a.yml": wf("src/**", "Train", "vars.GPU == 'on'") + "  eval:\n    runs-on: h100\n    steps:\n      - run: x\n",
	})
	var commits []Commit
	for i := 0; i < 6; i++ {
		commits = append(commits, commit(fmt.Sprintf("s%d", i), "src/x.go"))
	}
	commits = append(commits, commit("d0", "docs/a.md"))
	o := Options{Minutes: map[string]float64{"TRAIN": 30, "bench": 60}, Classifier: config.Default().Classifier()}
	r := Replay(commits, oldS, newS, o)
	var rows []string
	got := map[string]*Job{}
	for _, j := range r.Jobs {
		rows = append(rows, j.Workflow+" "+j.Job)
		got[j.Job] = j
	}
	// Rows by workflow file, then as explain-diff lists the new side; ids are
	// case-insensitive (Train at new is train at old) and shown as the new
	// side writes them.
	if strings.Join(rows, ", ") != ".github/workflows/a.yml Train, .github/workflows/a.yml eval, .github/workflows/a.yml legacy, .github/workflows/gone.yml bench" {
		t.Fatalf("rows %v", rows)
	}
	// Unknown at new is counted, not guessed; minutes match case-insensitively.
	if tr := got["Train"]; tr.Old != 6 || tr.New != 0 || tr.Unknown != 6 || tr.NewUnknown != 6 || tr.OldUnknown != 0 || tr.Class != "gpu" ||
		!tr.HasMinutes || tr.Hours() != -3 || tr.ChangedTotal != 6 || len(tr.Changed) != 3 || tr.Changed[0].New != explain.Unknown {
		t.Errorf("train: %+v", tr)
	}
	if l := got["legacy"]; l.Old != 6 || l.New != 0 || l.HasMinutes || !strings.HasSuffix(l.Changed[0].Why, " | new: no job legacy at new") {
		t.Errorf("legacy: %+v %+v", l, l.Changed[0])
	}
	if g := got["bench"]; g.Old != 7 || g.New != 0 || g.Changed[0].New != explain.Skip || !strings.HasSuffix(g.Changed[0].Why, "new: .github/workflows/gone.yml does not exist at new") {
		t.Errorf("bench: %+v", g)
	}
	if e := got["eval"]; e.Old != 0 || e.New != 6 || e.HasMinutes || !strings.Contains(e.Changed[0].Why, "old: no job eval at old") {
		t.Errorf("eval: %+v", e)
	}
	// Examples: decided changes (run -> skip) before undecided ones.
	mixed := mapSide("mixed", map[string]string{".github/workflows/a.yml": wf("src/**", "train", "vars.GPU == 'on'")})
	plain := mapSide("plain", map[string]string{".github/workflows/a.yml": wf("docs/**", "train", "true")})
	r = Replay(commits, plain, mixed, Options{Classifier: o.Classifier})
	j := r.Jobs[0]
	var seq []string
	for _, c := range j.Changed {
		seq = append(seq, c.Commit+":"+string(c.Old)+">"+string(c.New))
	}
	if strings.Join(seq, " ") != "d0:run>skip s0:skip>unknown s1:skip>unknown" || j.ChangedTotal != 7 || j.Unknown != 6 {
		t.Errorf("examples %v, changed %d, unknown %d", seq, j.ChangedTotal, j.Unknown)
	}
	r = Replay(commits, plain, mixed, Options{Examples: 1, Classifier: o.Classifier})
	if len(r.Jobs[0].Changed) != 1 {
		t.Errorf("examples cap: %d", len(r.Jobs[0].Changed))
	}
	// No commits: the jobs are listed with zero counts.
	r = Replay(nil, oldS, newS, o)
	if r.Commits != 0 || len(r.Jobs) != 4 || r.Jobs[0].Old != 0 || len(r.Jobs[0].Changed) != 0 {
		t.Errorf("empty: %+v", r)
	}
	// No workflows on either side.
	empty := mapSide("e", nil)
	if r := Replay(commits, empty, empty, o); len(r.Jobs) != 0 {
		t.Errorf("no workflows: %+v", r.Jobs)
	}
}

func TestLoadWorkflows(t *testing.T) {
	m := fstest.MapFS{
		".github/workflows/ok.yml":        {Data: []byte("on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: x\n")},
		".github/workflows/empty.yml":     {Data: []byte("")},
		".github/workflows/comment.yaml":  {Data: []byte("# on: push\n")},
		".github/workflows/notes.md":      {Data: []byte("# x")},
		".github/workflows/sub/inner.yml": {Data: []byte("on: push\n")},
	}
	wfs, notes, err := LoadWorkflows(m)
	if err != nil || len(wfs) != 1 || wfs[0].Path != ".github/workflows/ok.yml" || len(notes) != 2 {
		t.Fatalf("%v %v %v", wfs, notes, err)
	}
	m[".github/workflows/bad.yml"] = &fstest.MapFile{Data: []byte("on: [push\n")}
	if _, _, err := LoadWorkflows(m); err == nil || !strings.HasPrefix(err.Error(), ".github/workflows/bad.yml") {
		t.Errorf("bad: %v", err)
	}
	if wfs, _, err := LoadWorkflows(fstest.MapFS{"README": {}}); err != nil || wfs != nil {
		t.Errorf("none: %v %v", wfs, err)
	}
}

func TestWrite(t *testing.T) {
	for _, f := range Formats() {
		var b bytes.Buffer
		if err := Write(&b, f, &Result{Version: 1, Jobs: []*Job{}}); err != nil || b.Len() == 0 {
			t.Errorf("%s: %v", f, err)
		}
	}
	if err := Write(&bytes.Buffer{}, "xml", &Result{}); err == nil {
		t.Error("xml accepted")
	}
}
