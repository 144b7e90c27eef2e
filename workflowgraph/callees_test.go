package workflowgraph

import (
	"io/fs"
	"slices"
	"sync"
	"testing"
	"testing/fstest"

	"github.com/rhysd/actionlint"
)

// countingFS counts the opens of each path.
type countingFS struct {
	fs.FS
	mu    sync.Mutex
	opens map[string]int
}

func (c *countingFS) Open(name string) (fs.File, error) {
	c.mu.Lock()
	c.opens[name]++
	c.mu.Unlock()
	return c.FS.Open(name)
}

const stage = `on:
  workflow_call:
    inputs:
      runner: {type: string, required: true}
jobs:
  test:
    runs-on: ${{ inputs.runner }}
    steps: [{run: pytest}]
`

func caller(runner string) string {
	return `on: push
jobs:
  gpu:
    uses: ./.github/workflows/stage.yml
    with: {runner: ` + runner + `}
`
}

// TestCalleesParsedOnce: workflows of one run that call the same local
// reusable workflow read it once, each caller still gets its own inputs
// substituted, and a file already parsed by the caller is not read again.
func TestCalleesParsedOnce(t *testing.T) {
	fsys := &countingFS{FS: fstest.MapFS{
		".github/workflows/stage.yml": {Data: []byte(stage)},
		".github/workflows/a.yml":     {Data: []byte(caller("h100"))},
		".github/workflows/b.yml":     {Data: []byte(caller("ubuntu-latest"))},
	}, opens: map[string]int{}}
	build := func(c *Callees, p string) *Workflow {
		src, err := ReadFile(fsys, p)
		if err != nil {
			t.Fatal(err)
		}
		ast, _ := actionlint.Parse(src)
		if c == nil {
			return Build(fsys, p, src, ast)
		}
		return BuildShared(c, "repo", fsys, p, src, ast)
	}
	// Without a shared cache each build reads the callee again.
	build(nil, ".github/workflows/a.yml")
	build(nil, ".github/workflows/b.yml")
	if n := fsys.opens[".github/workflows/stage.yml"]; n != 2 {
		t.Fatalf("without a cache: callee opened %d times, want 2", n)
	}
	fsys.opens = map[string]int{}
	c := NewCallees()
	wa := build(c, ".github/workflows/a.yml")
	wb := build(c, ".github/workflows/b.yml")
	if n := fsys.opens[".github/workflows/stage.yml"]; n != 1 {
		t.Fatalf("shared cache: callee opened %d times, want 1", n)
	}
	ra, rb := wa.Job("gpu").Callee.Job("test").Runner.Labels, wb.Job("gpu").Callee.Job("test").Runner.Labels
	if len(ra) != 1 || ra[0] != "h100" || len(rb) != 1 || rb[0] != "ubuntu-latest" {
		t.Fatalf("inputs not substituted per caller: %v, %v", ra, rb)
	}
	// Another root is another repository: read again.
	BuildShared(c, "other", fsys, ".github/workflows/a.yml", []byte(caller("h100")), mustParse(t, caller("h100")))
	if n := fsys.opens[".github/workflows/stage.yml"]; n != 2 {
		t.Fatalf("another root: callee opened %d times in all, want 2", n)
	}
	// A file added with its parse is never read as a callee.
	fsys.opens = map[string]int{}
	c = NewCallees()
	c.Add("repo", ".github/workflows/stage.yml", []byte(stage), mustParse(t, stage))
	build(c, ".github/workflows/a.yml")
	if n := fsys.opens[".github/workflows/stage.yml"]; n != 0 {
		t.Fatalf("added callee opened %d times, want 0", n)
	}
}

func mustParse(t *testing.T, src string) *actionlint.Workflow {
	t.Helper()
	ast, errs := actionlint.Parse([]byte(src))
	if ast == nil {
		t.Fatal(errs)
	}
	return ast
}

// TestLoadShared: a reusable workflow loaded first is not read again as
// the callee of a workflow loaded after it, and the graphs equal Load's.
func TestLoadShared(t *testing.T) {
	fsys := &countingFS{FS: fstest.MapFS{
		".github/workflows/stage.yml": {Data: []byte(stage)},
		".github/workflows/a.yml":     {Data: []byte(caller("h100"))},
	}, opens: map[string]int{}}
	c := NewCallees()
	if _, _, err := LoadShared(c, "", fsys, ".github/workflows/stage.yml"); err != nil {
		t.Fatal(err)
	}
	w, _, err := LoadShared(c, "", fsys, ".github/workflows/a.yml")
	if err != nil {
		t.Fatal(err)
	}
	if n := fsys.opens[".github/workflows/stage.yml"]; n != 1 {
		t.Fatalf("stage.yml opened %d times, want 1", n)
	}
	plain, _, _ := Load(fsys, ".github/workflows/a.yml")
	got, want := w.Job("gpu").Callee.Job("test").Runner.Labels, plain.Job("gpu").Callee.Job("test").Runner.Labels
	if !slices.Equal(got, want) || len(got) != 1 || got[0] != "h100" {
		t.Fatalf("shared %v, plain %v", got, want)
	}
}
