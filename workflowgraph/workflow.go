// Package workflowgraph loads GitHub Actions workflow files once (with
// actionlint's parser) and builds the job graph every cicheck rule queries:
// jobs with their needs, parsed `if:` conditions and resolved runner labels,
// local reusable workflows attached to their caller, transitive ancestors and
// descendants, topological order and needs cycles.
//
// The package is an engine: it reads files only through the fs.FS it is
// given, prints nothing and keeps no global state.
package workflowgraph

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/rhysd/actionlint"

	"github.com/cicheck/cicheck/expr"
	"github.com/cicheck/cicheck/finding"
	"github.com/cicheck/cicheck/internal/ghschema"
	"github.com/cicheck/cicheck/internal/repofs"
)

// MaxFileSize is the largest workflow file cicheck reads. GitHub's own
// limits are far below it; a bigger file is almost certainly not a workflow.
const MaxFileSize = 4 << 20

// maxCallDepth is GitHub's nesting limit for reusable workflows (caller
// plus three levels).
const maxCallDepth = 4

// Workflow is one parsed workflow file and its job graph.
type Workflow struct {
	// Path is the path the workflow was loaded from (slash-separated,
	// relative to the fs.FS root).
	Path   string
	Source []byte
	AST    *actionlint.Workflow
	// Jobs in file order.
	Jobs []*Job
	// Cycles lists each needs cycle once, as job ids in dependency order,
	// rotated to start at the smallest id. Sorted.
	Cycles [][]string
	// Inputs are the `with:` values this workflow was called with when it
	// is a local reusable workflow attached to a caller job (nil otherwise).
	Inputs map[string]string
	// FS is the file system Path is relative to (the repository root), for
	// rules that read files the workflow names (filter files, local
	// actions). May be nil.
	FS fs.FS

	byID map[string]*Job     // by ID as written: the canonical ids in Needs and Cycles
	fold map[string]*Job     // by lower-cased ID, for Job's case-insensitive lookup
	kids map[string][]string // reverse needs edges, sorted
	memo *graphMemo          // set by Build; nil for a Workflow built by hand
}

// Job is one job of a workflow.
type Job struct {
	// ID is the job's key as written in the file. GitHub compares job ids
	// case-insensitively, so look jobs up with Workflow.Job and compare ids
	// with strings.EqualFold; every output shows this spelling.
	ID   string
	Name string
	// Line and Column locate the job's key in the file.
	Line, Column int
	// Needs are the direct needs in written order, each spelled as the ID
	// of the job it names (`needs: build` naming `Build:` gives "Build"), so
	// they compare exactly with Job.ID. An id that names no job is kept as
	// written (see UnknownNeeds).
	Needs []string
	// NeedsPos holds the position of each entry of Needs.
	NeedsPos []Pos
	// If is nil when the job has no (or a blank) `if:`.
	If *Cond
	// ContinueOnError is the literal value; ContinueOnErrorExpr holds the
	// expression when the value is `${{ … }}`.
	ContinueOnError     bool
	ContinueOnErrorExpr string
	// Outputs maps output name (lower-cased) to its raw value.
	Outputs map[string]string
	Runner  Runner
	// Uses is the reusable workflow a caller job calls ("" for a normal job).
	Uses string
	// With holds the caller job's `with:` inputs (lower-cased names).
	With map[string]string
	// Callee is the resolved local reusable workflow (Uses starts with
	// "./"), with its jobs attached and its inputs substituted. Nil when
	// Uses is remote or cannot be read; CalleeError then says why.
	Callee      *Workflow
	CalleeError string
	AST         *actionlint.Job

	wf *Workflow // the workflow holding the job, for what its siblings show
}

// Pos is a 1-based line and column.
type Pos struct{ Line, Column int }

// Load reads and parses one workflow file from fsys and builds its graph.
// The findings are actionlint's parse errors (a broken workflow is a
// finding, not an error). The error is non-nil only for unusable input:
// unreadable, too large, binary, empty, or YAML that is not a workflow; its
// message reads "<path>:<line>:<col>: <problem>" where a position is known.
func Load(fsys fs.FS, p string) (*Workflow, []finding.Finding, error) {
	return LoadShared(nil, "", fsys, p)
}

// LoadShared is Load with the run's cache of local reusable workflows (nil
// for none): a file that declares workflow_call is added with its parse,
// and the callees of the file are read through the cache.
func LoadShared(c *Callees, root string, fsys fs.FS, p string) (*Workflow, []finding.Finding, error) {
	src, err := ReadFile(fsys, p)
	if err != nil {
		return nil, nil, err
	}
	ast, errs := actionlint.Parse(src)
	if err := CheckParsed(p, src, ast); err != nil {
		return nil, nil, err
	}
	var fs []finding.Finding
	gs := ghschema.NewSource(src)
	for _, e := range errs {
		if ghschema.Accepted(ghschema.Err{Kind: e.Kind, Message: e.Message, Line: e.Line, Column: e.Column}, gs) {
			continue // GitHub accepts it today; lint checks it
		}
		fs = append(fs, finding.Finding{Rule: e.Kind, Severity: finding.Error, File: p, Line: e.Line, Column: e.Column, Message: e.Message})
	}
	if ast == nil {
		return nil, finding.Sort(fs), nil
	}
	if c == nil {
		return Build(fsys, p, src, ast), finding.Sort(fs), nil
	}
	if _, reusable := ast.FindWorkflowCallEvent(); reusable {
		c.Add(root, p, src, ast)
	}
	return BuildShared(c, root, fsys, p, src, ast), finding.Sort(fs), nil
}

// ReadFile reads a candidate workflow and rejects unusable input with a
// one-line error naming the file.
func ReadFile(fsys fs.FS, p string) ([]byte, error) {
	f, err := fsys.Open(p)
	switch {
	case errors.Is(err, repofs.ErrOutside):
		// GitHub reads a symbolic link's text, never its target: the file
		// is no workflow, and what it points at is not cicheck's to read.
		return nil, &InvalidFile{Path: p, Msg: "is a symbolic link that leaves the repository: GitHub reads the link's text, not a workflow (the target is not read)"}
	case errors.Is(err, repofs.ErrNotRegular):
		return nil, &InvalidFile{Path: p, Msg: "is not a regular file (a named pipe, device or socket), so it is not a workflow (not read)"}
	case err != nil:
		return nil, fmt.Errorf("%s: %w", p, UnwrapPathError(err))
	}
	defer func() { _ = f.Close() }()
	st, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", p, UnwrapPathError(err))
	}
	if st.IsDir() {
		return nil, fmt.Errorf("%s: is a directory, not a workflow file", p)
	}
	if st.Size() > MaxFileSize {
		return nil, &InvalidFile{Path: p, Msg: fmt.Sprintf("file is %.1f MiB, larger than the %d MiB limit for a workflow", float64(st.Size())/(1<<20), MaxFileSize>>20)}
	}
	// Read at most one byte past the limit: a file that grew (or a pipe
	// reporting no size) cannot make us read without bound.
	src, err := readAll(io.LimitReader(f, MaxFileSize+1), st.Size())
	if err != nil {
		return nil, fmt.Errorf("%s: %w", p, UnwrapPathError(err))
	}
	if len(src) > MaxFileSize {
		return nil, &InvalidFile{Path: p, Msg: fmt.Sprintf("file is larger than the %d MiB limit for a workflow", MaxFileSize>>20)}
	}
	if err := CheckWorkflowBytes(p, src); err != nil {
		return nil, err
	}
	return src, nil
}

// CheckSource is ReadFile's checks for content that did not come from a
// file (stdin): the size limit, then CheckWorkflowBytes.
func CheckSource(p string, src []byte) error {
	if len(src) > MaxFileSize {
		return &InvalidFile{Path: p, Msg: fmt.Sprintf("file is %.1f MiB, larger than the %d MiB limit for a workflow", float64(len(src))/(1<<20), MaxFileSize>>20)}
	}
	return CheckWorkflowBytes(p, src)
}

// readAll is io.ReadAll with the buffer sized from the file's reported
// size (plus one byte to see EOF), so a regular file is read without
// growing and copying the buffer.
func readAll(r io.Reader, size int64) ([]byte, error) {
	if size <= 0 || size > MaxFileSize {
		return io.ReadAll(r)
	}
	buf := make([]byte, 0, size+1)
	for {
		n, err := r.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return buf, err
		}
		if len(buf) == cap(buf) {
			// The file grew: read the rest the ordinary way.
			rest, err := io.ReadAll(r)
			return append(buf, rest...), err
		}
	}
}

// UnwrapPathError drops a PathError's operation and path, so that a
// message names the file once, as the user wrote it.
func UnwrapPathError(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// CheckWorkflowBytes rejects content that cannot be a workflow at all:
// empty (or only comments) and binary, and YAML whose aliases expand past
// MaxAliasNodes. It is cheap: the YAML is parsed
// once, later, by actionlint; CheckParsed then rejects YAML that is not a
// workflow. Malformed YAML passes: it is a syntax finding.
func CheckWorkflowBytes(p string, src []byte) error {
	if i := bytes.IndexByte(src, 0); i >= 0 {
		line, col := position(src, i)
		return &InvalidFile{Path: p, Line: line, Col: col, Msg: "binary data (a NUL byte), not a YAML workflow"}
	}
	if !utf8.Valid(src) {
		line, col := position(src, invalidUTF8(src))
		return &InvalidFile{Path: p, Line: line, Col: col, Msg: "invalid UTF-8, not a YAML workflow"}
	}
	if _, _, ok := firstContentLine(src); !ok {
		if len(bytes.TrimSpace(src)) > 0 {
			return &InvalidFile{Path: p, Msg: "only comments, not a workflow (delete a retired workflow, or move it out of .github/workflows)"}
		}
		return &InvalidFile{Path: p, Msg: "empty file, not a workflow"}
	}
	// Before anything, actionlint included, walks the tree.
	return checkAliases(p, src)
}

// InvalidFile is a file GitHub refuses as a workflow before reading it
// as one: too large, binary, invalid UTF-8, empty, only comments, or YAML
// whose top level is not a workflow; or one whose YAML aliases expand past
// cicheck's budget (MaxAliasNodes). Line and Col are 0 when the whole
// file is at fault.
type InvalidFile struct {
	Path      string
	Line, Col int
	Msg       string
}

func (e *InvalidFile) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d:%d: %s", e.Path, e.Line, e.Col, e.Msg)
	}
	return e.Path + ": " + e.Msg
}

// position is the 1-based line and column (in bytes) of offset i.
func position(src []byte, i int) (line, col int) {
	line = 1 + bytes.Count(src[:i], []byte("\n"))
	return line, i - bytes.LastIndexByte(src[:i], '\n')
}

// invalidUTF8 is the offset of the first byte that is not valid UTF-8.
func invalidUTF8(src []byte) int {
	for i := 0; i < len(src); {
		r, n := utf8.DecodeRune(src[i:])
		if r == utf8.RuneError && n <= 1 {
			return i
		}
		i += n
	}
	return len(src)
}

// CheckParsed rejects parsed YAML that is not a workflow: a top level that
// is not a mapping, or a mapping with neither "on" nor "jobs".
func CheckParsed(p string, src []byte, ast *actionlint.Workflow) error {
	if ast == nil || len(ast.On) > 0 || len(ast.Jobs) > 0 {
		return nil
	}
	line, text, ok := firstContentLine(src)
	if !ok {
		return &InvalidFile{Path: p, Msg: "empty file, not a workflow"}
	}
	col := len(text) - len(strings.TrimLeft(text, " \t")) + 1
	bad := func(msg string) error {
		return &InvalidFile{Path: p, Line: line, Col: col, Msg: "not a workflow: " + msg}
	}
	t := strings.TrimSpace(text)
	switch {
	case strings.HasPrefix(t, "- ") || t == "-" || strings.HasPrefix(t, "["):
		return bad("the top level is a list, not a mapping with \"on\" and \"jobs\"")
	case !strings.Contains(t, ":") && !strings.HasPrefix(t, "{"):
		return bad("the top level is a scalar, not a mapping with \"on\" and \"jobs\"")
	}
	if topLevelKey(src, "runs") {
		return bad("a top-level \"runs\" key makes this an action's metadata; move it to .github/actions/<name>/action.yml")
	}
	if n := documents(src); n > 1 {
		return bad(fmt.Sprintf("a stream of %d YAML documents whose first has no \"on\" or \"jobs\" key (GitHub reads only the first)", n))
	}
	return bad("no \"on\" or \"jobs\" key at the top level")
}

// topLevelKey reports whether src has key at column 1 of some line.
func topLevelKey(src []byte, key string) bool {
	for _, line := range strings.Split(string(src), "\n") {
		if strings.HasPrefix(line, key+":") {
			return true
		}
	}
	return false
}

// documents counts the YAML documents of a stream: one, plus one per
// "---" marker that follows content.
func documents(src []byte) int {
	n, content := 1, false
	for _, line := range strings.Split(string(src), "\n") {
		t := strings.TrimRight(line, " \t\r")
		switch {
		case t == "---" || strings.HasPrefix(t, "--- "):
			if content {
				n++
			}
			content = true // "--- key: v" and what follows belong to the new document
		case t != "" && !strings.HasPrefix(strings.TrimSpace(t), "#"):
			content = true
		}
	}
	return n
}

// firstContentLine returns the first line that is not blank, a comment, a
// directive or a document marker.
func firstContentLine(src []byte) (int, string, bool) {
	n := 0
	for len(src) > 0 {
		n++
		var line []byte
		if i := bytes.IndexByte(src, '\n'); i >= 0 {
			line, src = src[:i], src[i+1:]
		} else {
			line, src = src, nil
		}
		t := strings.TrimSpace(string(line))
		if t == "" || strings.HasPrefix(t, "#") || strings.HasPrefix(t, "%") || t == "---" || t == "..." {
			continue
		}
		return n, strings.TrimRight(string(line), "\r"), true
	}
	return 0, "", false
}

// Build makes the graph of an already parsed workflow (the lint driver
// parses through actionlint's linter and must not parse twice). fsys and p
// are used to resolve local reusable workflows; fsys may be nil.
func Build(fsys fs.FS, p string, src []byte, ast *actionlint.Workflow) *Workflow {
	b := &builder{fsys: fsys, cache: map[string]*actionlint.Workflow{}, exprs: exprCache{}}
	return b.build(p, src, ast, nil, nil, 0, []string{path.Clean(p)})
}

type builder struct {
	fsys fs.FS
	// shared, when set, is the run's cache (keyed by root) that cache
	// fronts for this build.
	shared *Callees
	root   string
	cache  map[string]*actionlint.Workflow // parsed callees by path; nil value = unusable
	srcs   map[string][]byte
	errs   map[string]string
	exprs  exprCache
}

func (b *builder) build(p string, src []byte, ast *actionlint.Workflow, inputs map[string]string, inputVals map[string][]expr.Value, depth int, stack []string) *Workflow {
	w := &Workflow{Path: p, Source: src, AST: ast, Inputs: inputs, FS: b.fsys, byID: map[string]*Job{}, fold: map[string]*Job{}}
	if ast == nil {
		return w
	}
	var defaults map[string]string
	if ev, ok := ast.FindWorkflowCallEvent(); ok {
		defaults = map[string]string{}
		for _, in := range ev.Inputs {
			if in.Default != nil {
				defaults[in.ID] = in.Default.Value
			}
		}
	}
	for id, aj := range ast.Jobs {
		if aj == nil {
			continue
		}
		j := &Job{ID: id, AST: aj, Outputs: map[string]string{}}
		if aj.ID != nil {
			j.ID = aj.ID.Value // the key as written; actionlint's map key is lower-cased
			if aj.ID.Pos != nil {
				j.Line, j.Column = aj.ID.Pos.Line, aj.ID.Pos.Col
			}
		} else if aj.Pos != nil {
			j.Line, j.Column = aj.Pos.Line, aj.Pos.Col
		}
		if aj.Name != nil {
			j.Name = aj.Name.Value
		}
		for _, n := range aj.Needs {
			if n == nil {
				continue
			}
			j.Needs = append(j.Needs, n.Value)
			var ps Pos
			if n.Pos != nil {
				ps = Pos{n.Pos.Line, n.Pos.Col}
			}
			j.NeedsPos = append(j.NeedsPos, ps)
		}
		j.If = parseCond(aj.If, b.exprs)
		if c := aj.ContinueOnError; c != nil {
			j.ContinueOnError = c.Value
			if c.Expression != nil {
				j.ContinueOnErrorExpr = c.Expression.Value
			}
		}
		for name, o := range aj.Outputs {
			if o != nil && o.Value != nil {
				j.Outputs[strings.ToLower(name)] = o.Value.Value
			}
		}
		rc := &resolveCtx{inputs: inputVals, defaults: defaults, types: inputTypes(ast), exprs: b.exprs}
		if aj.Strategy != nil {
			rc.matrix = aj.Strategy.Matrix
		}
		j.Runner = resolveRunner(aj.RunsOn, rc)
		if wc := aj.WorkflowCall; wc != nil && wc.Uses != nil {
			j.Uses = wc.Uses.Value
			j.With = map[string]string{}
			for name, in := range wc.Inputs {
				if in != nil && in.Value != nil {
					j.With[strings.ToLower(name)] = in.Value.Value
				}
			}
			b.attachCallee(j, rc, depth, stack)
		}
		j.wf = w
		w.Jobs = append(w.Jobs, j)
		w.byID[j.ID] = j
		w.fold[strings.ToLower(j.ID)] = j
	}
	// GitHub resolves `needs: build` to job `Build:`; spell each need as its
	// job's ID so the graph compares ids exactly and shows the job's key.
	for _, j := range w.Jobs {
		for k, n := range j.Needs {
			if t := w.fold[strings.ToLower(n)]; t != nil {
				j.Needs[k] = t.ID
			}
		}
	}
	slices.SortFunc(w.Jobs, func(a, c *Job) int {
		if a.Line != c.Line {
			return a.Line - c.Line
		}
		return strings.Compare(a.ID, c.ID)
	})
	w.Cycles = findCycles(w)
	runnerCandidates(w, b.exprs)
	w.kids = w.children()
	w.memo = &graphMemo{}
	return w
}

// attachCallee resolves a local reusable workflow and builds its graph with
// the caller's `with:` inputs substituted; a remote one is judged by the
// caller's runner-like inputs (gha-job-status.md §11).
func (b *builder) attachCallee(j *Job, rc *resolveCtx, depth int, stack []string) {
	// Substitute the caller's own context (its matrix, its inputs) into the
	// `with:` values first: `with: {runs_on: "${{ matrix.gpu }}"}`.
	if !strings.HasPrefix(j.Uses, "./") {
		b.inferRemoteRunner(j, runnerInputs(j, rc))
		return
	}
	if depth+1 >= maxCallDepth {
		j.CalleeError = fmt.Sprintf("reusable workflows nested deeper than %d levels", maxCallDepth)
		return
	}
	cp := path.Clean(strings.TrimPrefix(j.Uses, "./"))
	if i := strings.IndexByte(cp, '@'); i >= 0 {
		cp = cp[:i]
	}
	if slices.Contains(stack, cp) {
		j.CalleeError = "reusable workflow calls itself: " + strings.Join(append(stack, cp), " -> ")
		return
	}
	ast, src, msg := b.parseCallee(cp)
	if ast == nil {
		// Judge an unreadable local callee like a remote one, by the
		// caller's runner-like inputs: a GPU stage stays a GPU stage.
		j.CalleeError = msg
		b.inferRemoteRunner(j, runnerInputs(j, rc))
		if len(j.Runner.InferredFrom) == 0 {
			j.Runner.Symbolic = []string{"runs-on inside " + j.Uses + " (not readable)"}
		}
		return
	}
	// The inputs are resolved only for a callee that is built with them.
	with := map[string]string{}
	withVals := map[string][]expr.Value{}
	for k, v := range j.With {
		with[k] = v
		vals := resolveValue(v, rc)
		withVals[k] = vals
		if len(vals) == 1 {
			with[k] = valueText(vals[0])
		}
	}
	j.Callee = b.build(cp, src, ast, with, withVals, depth+1, append(slices.Clone(stack), cp))
	// The caller runs on whatever its called jobs run on.
	j.Runner = unionRunners(j.Callee.Jobs)
}

func (b *builder) parseCallee(p string) (*actionlint.Workflow, []byte, string) {
	if b.fsys == nil {
		return nil, nil, "no file system to read " + p
	}
	if ast, ok := b.cache[p]; ok {
		return ast, b.srcs[p], b.errs[p]
	}
	if b.srcs == nil {
		b.srcs, b.errs = map[string][]byte{}, map[string]string{}
	}
	var ast *actionlint.Workflow
	var src []byte
	if b.shared != nil {
		ast, src, b.errs[p] = b.shared.parse(b.root, b.fsys, p)
	} else {
		ast, src, b.errs[p] = readCallee(b.fsys, p)
	}
	b.cache[p], b.srcs[p] = ast, src
	return ast, src, b.errs[p]
}

// readCallee reads and parses a local reusable workflow; a nil workflow
// comes with the reason.
func readCallee(fsys fs.FS, p string) (*actionlint.Workflow, []byte, string) {
	src, err := ReadFile(fsys, p)
	if err != nil {
		return nil, nil, err.Error()
	}
	ast, _ := actionlint.Parse(src)
	if ast == nil {
		return nil, src, p + ": cannot be parsed"
	}
	return ast, src, ""
}

// runnerInputs resolves the caller's runner-like `with:` inputs, the only
// ones that matter when the callee's own jobs cannot be built.
func runnerInputs(j *Job, rc *resolveCtx) map[string][]expr.Value {
	vals := map[string][]expr.Value{}
	for k, v := range j.With {
		if runnerLike(k) {
			vals[k] = resolveValue(v, rc)
		}
	}
	return vals
}

// inferRemoteRunner marks a caller of a remote reusable workflow with the
// labels passed in inputs named like a runner.
func (b *builder) inferRemoteRunner(j *Job, withVals map[string][]expr.Value) {
	names := make([]string, 0, len(j.With))
	for k := range j.With {
		names = append(names, k)
	}
	sort.Strings(names)
	var labels, from, sym []string
	for _, k := range names {
		if !runnerLike(k) {
			continue
		}
		vals := withVals[k]
		if vals == nil {
			sym = append(sym, j.With[k])
			from = append(from, k)
			continue
		}
		for _, v := range vals {
			if v.Kind == expr.KindArray {
				for _, el := range v.Elems {
					labels = append(labels, el.Text())
				}
			} else {
				labels = append(labels, expandJSONLabels(v.Text())...)
			}
		}
		from = append(from, k)
	}
	if len(labels) == 0 && len(sym) == 0 {
		// Nothing to infer from: say where the runner is decided.
		j.Runner.Symbolic = []string{"runs-on inside " + j.Uses}
		return
	}
	j.Runner.Labels = dedupe(append(j.Runner.Labels, labels...))
	j.Runner.Symbolic = dedupe(append(j.Runner.Symbolic, sym...))
	j.Runner.InferredFrom = from
}

// runnerLike reports whether an input name says it carries runner labels.
func runnerLike(name string) bool {
	n := strings.ToLower(name)
	return strings.Contains(n, "runner") || strings.Contains(n, "runs-on") || strings.Contains(n, "runs_on")
}

func unionRunners(jobs []*Job) Runner {
	var r Runner
	for _, cj := range jobs {
		r.Labels = append(r.Labels, cj.Runner.Labels...)
		r.Symbolic = append(r.Symbolic, cj.Runner.Symbolic...)
		r.Candidates = append(r.Candidates, cj.Runner.Candidates...)
		if cj.Runner.Group != "" && r.Group == "" {
			r.Group = cj.Runner.Group
		}
	}
	r.Labels, r.Symbolic = dedupe(r.Labels), dedupe(r.Symbolic)
	return r
}

func dedupe(s []string) []string {
	if len(s) == 0 {
		return nil
	}
	s = slices.Clone(s)
	sort.Strings(s)
	return slices.Compact(s)
}

// Job returns the job with the given id (compared case-insensitively), or nil.
func (w *Workflow) Job(id string) *Job {
	if w == nil {
		return nil
	}
	if j := w.byID[id]; j != nil {
		return j // the id as written: no folding needed
	}
	if w.fold == nil { // a Workflow built by hand
		for _, j := range w.Jobs {
			if strings.EqualFold(j.ID, id) {
				return j
			}
		}
		return nil
	}
	return w.fold[strings.ToLower(id)]
}

// UnknownNeeds returns the entries of j.Needs that name no job of w.
func (w *Workflow) UnknownNeeds(j *Job) []string {
	var out []string
	for _, n := range j.Needs {
		if w.byID[n] == nil {
			out = append(out, n)
		}
	}
	return out
}
