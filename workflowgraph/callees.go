package workflowgraph

import (
	"io/fs"
	"path"
	"sync"

	"github.com/rhysd/actionlint"
)

// Callees holds the local reusable workflows of a run, each read and
// parsed once and shared by every caller in every workflow of the run
// (twenty pipelines calling one gpu-stage.yml parse it once, not twenty
// times). It is safe for concurrent use. A file the run lints anyway can be
// added with its parse, so it is not parsed a second time as a callee.
type Callees struct {
	mu    sync.Mutex
	files map[calleeKey]*calleeFile
}

type calleeKey struct{ root, path string }

type calleeFile struct {
	once sync.Once
	ast  *actionlint.Workflow
	src  []byte
	err  string
}

// NewCallees returns an empty cache.
func NewCallees() *Callees { return &Callees{files: map[calleeKey]*calleeFile{}} }

func (c *Callees) entry(root, p string) *calleeFile {
	c.mu.Lock()
	defer c.mu.Unlock()
	k := calleeKey{root, path.Clean(p)}
	e := c.files[k]
	if e == nil {
		e = &calleeFile{}
		c.files[k] = e
	}
	return e
}

// Add records the parse of file p under root, done by the caller with
// ReadFile and actionlint (as a callee read would do it). A failed parse
// is not recorded: the callee read then reports its own error.
func (c *Callees) Add(root, p string, src []byte, ast *actionlint.Workflow) {
	if ast == nil {
		return
	}
	e := c.entry(root, p)
	e.once.Do(func() { e.ast, e.src = ast, src })
}

// parse returns the parsed file p of fsys (whose root is root).
func (c *Callees) parse(root string, fsys fs.FS, p string) (*actionlint.Workflow, []byte, string) {
	e := c.entry(root, p)
	e.once.Do(func() { e.ast, e.src, e.err = readCallee(fsys, p) })
	return e.ast, e.src, e.err
}

// BuildShared is Build with the run's cache of local reusable workflows;
// root names fsys's root (the cache key).
func BuildShared(c *Callees, root string, fsys fs.FS, p string, src []byte, ast *actionlint.Workflow) *Workflow {
	b := &builder{fsys: fsys, shared: c, root: root, cache: map[string]*actionlint.Workflow{}, exprs: exprCache{}}
	return b.build(p, src, ast, nil, nil, 0, []string{path.Clean(p)})
}
