package testregistry

import (
	"path"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/rhysd/actionlint"
)

// RunSuiteCall is one run_suite.py invocation a workflow makes, in one of
// the ways its job runs: a leg of the job's matrix, under one caller's
// with: values when the workflow is a local reusable one. A call site
// that runs several ways gives one RunSuiteCall per distinct outcome.
type RunSuiteCall struct {
	// File, Line and Col locate the --suite argument in the run: script
	// (the step when the script's text cannot be placed).
	File      string
	Line, Col int
	// Job is the job's id; Via names the caller job (file:job) whose
	// with: values were substituted for inputs, "" when none was.
	Job, Via  string
	HW, Suite string
	Nightly   bool
	// HWExpr and SuiteExpr say the value came from an expression or a
	// shell variable cicheck cannot resolve: it could be any.
	// NightlyExpr says a word cicheck cannot resolve could add --nightly.
	HWExpr, SuiteExpr, NightlyExpr bool
	// ValueFile, ValueLine and ValueCol locate where a suite expanded from
	// an expression is written (the matrix entry, the caller's with:
	// value); empty when the suite is written at the argument.
	ValueFile           string
	ValueLine, ValueCol int
	// Runner is the job's runs-on labels (and group) in this leg;
	// RunnerExpr says they are not all known.
	Runner     []string
	RunnerExpr bool
}

// maxWays bounds the ways a job is evaluated (matrix legs times caller
// contexts), as GitHub bounds a matrix at 256 legs.
const maxWays = 256

// FindRunSuiteCalls finds the invocations of script in the workflows'
// run: steps. script is a file name ("run_suite.py"), matched by the
// invoked path's last element, or a repository path ("test/run_suite.py"),
// matched with the step's working directory and the script's cd commands
// followed. Only invocations that pass --hw are taken (run_suite.py
// requires it; a same-named script without it is another one), and a
// script path that goes through a shell variable is not one cicheck can
// see, so it is left out. Expressions in the arguments are expanded over
// the job's matrix legs and over the with: values of the jobs (in wfs)
// that call the workflow.
func FindRunSuiteCalls(wfs []WorkflowFile, script string) []RunSuiteCall {
	f := &callFinder{wfs: wfs, script: script, callers: map[string][]callerRef{}}
	for i := range wfs {
		wf := &wfs[i]
		if wf.AST == nil {
			continue
		}
		for _, j := range sortedJobs(wf.AST) {
			if j.WorkflowCall == nil || j.WorkflowCall.Uses == nil {
				continue
			}
			u := j.WorkflowCall.Uses.Value
			if !strings.HasPrefix(u, "./") || strings.Contains(u, "${{") {
				continue
			}
			callee := path.Clean(strings.TrimPrefix(u, "./"))
			f.callers[callee] = append(f.callers[callee], callerRef{wf, j})
		}
	}
	var out []RunSuiteCall
	seen := map[string]bool{}
	for i := range wfs {
		wf := &wfs[i]
		if wf.AST == nil {
			continue
		}
		lines := lineStarts(wf.Source)
		for _, ctx := range f.contexts(wf, 0, nil) {
			for _, j := range sortedJobs(wf.AST) {
				for _, c := range f.jobCalls(wf, lines, j, ctx) {
					k := callKey(c)
					if !seen[k] {
						seen[k] = true
						out = append(out, c)
					}
				}
			}
		}
	}
	sort.SliceStable(out, func(a, b int) bool {
		x, y := out[a], out[b]
		if x.File != y.File {
			return x.File < y.File
		}
		if x.Line != y.Line {
			return x.Line < y.Line
		}
		return x.Col < y.Col
	})
	return out
}

func callKey(c RunSuiteCall) string {
	return strings.Join([]string{c.File, strconv.Itoa(c.Line), strconv.Itoa(c.Col), c.Job, c.Via, c.HW, c.Suite,
		boolStr(c.Nightly), boolStr(c.HWExpr), boolStr(c.SuiteExpr), boolStr(c.NightlyExpr),
		c.ValueFile, strconv.Itoa(c.ValueLine), strconv.Itoa(c.ValueCol), strings.Join(c.Runner, "\x01"), boolStr(c.RunnerExpr)}, "\x00")
}

func boolStr(b bool) string {
	if b {
		return "1"
	}
	return "0"
}

type callerRef struct {
	wf  *WorkflowFile
	job *actionlint.Job
}

type callFinder struct {
	wfs     []WorkflowFile
	script  string
	callers map[string][]callerRef
}

// srcVal is a value known statically and where it is written.
type srcVal struct {
	v         string
	file      string
	line, col int
}

// evalCtx is what the expressions of one way a job runs see: its
// caller's inputs (nil: not known) and its matrix leg.
type evalCtx struct {
	inputs map[string]srcVal // by lower-cased name; absent: unknown
	known  bool              // inputs come from a caller (else every input is unknown)
	via    string
	matrix map[string]srcVal // by lower-cased key; absent: unknown
}

// sortedJobs is the workflow's jobs in file order.
func sortedJobs(w *actionlint.Workflow) []*actionlint.Job {
	js := make([]*actionlint.Job, 0, len(w.Jobs))
	for _, j := range w.Jobs {
		if j != nil && j.ID != nil {
			js = append(js, j)
		}
	}
	sort.Slice(js, func(a, b int) bool {
		pa, pb := js[a].Pos, js[b].Pos
		if pa == nil || pb == nil {
			return js[a].ID.Value < js[b].ID.Value
		}
		if pa.Line != pb.Line {
			return pa.Line < pb.Line
		}
		return pa.Col < pb.Col
	})
	return js
}

// contexts are the input bindings wf runs under: one per way a caller job
// in wfs runs it, plus the unknown binding when nothing calls it or it has
// a trigger of its own (a dispatch, a schedule), whose inputs could be any.
func (f *callFinder) contexts(wf *WorkflowFile, depth int, stack []string) []evalCtx {
	unknown := []evalCtx{{}}
	call, other := false, false
	var decl map[string]*actionlint.WorkflowCallEventInput
	for _, ev := range wf.AST.On {
		if wc, ok := ev.(*actionlint.WorkflowCallEvent); ok {
			call = true
			decl = map[string]*actionlint.WorkflowCallEventInput{}
			for _, in := range wc.Inputs {
				if in != nil {
					decl[in.ID] = in
				}
			}
		} else {
			other = true
		}
	}
	refs := f.callers[path.Clean(wf.Path)]
	if !call || len(refs) == 0 || depth >= maxCallDepth || slices.Contains(stack, wf.Path) {
		return unknown
	}
	var out []evalCtx
	if other {
		out = append(out, evalCtx{})
	}
	stack = append(stack, wf.Path)
	for _, r := range refs {
		lines := lineStarts(r.wf.Source)
		for _, cc := range f.contexts(r.wf, depth+1, stack) {
			for _, leg := range matrixLegs(r.job, cc, r.wf, lines) {
				ctx := evalCtx{inputs: map[string]srcVal{}, known: true, via: r.wf.Path + ":" + r.job.ID.Value}
				for id, in := range decl {
					if in.Default != nil && !strings.Contains(in.Default.Value, "${{") {
						ctx.inputs[id] = srcVal{v: in.Default.Value}
					}
				}
				for id, in := range r.job.WorkflowCall.Inputs {
					if in == nil || in.Value == nil {
						continue
					}
					delete(ctx.inputs, id)
					if v, ok := subst(in.Value.Value, &leg); ok {
						sv := srcVal{v: v}
						if sv.file, sv.line, sv.col = leg.origin(in.Value.Value); sv.file == "" {
							sv.file = r.wf.Path
							sv.line, sv.col = valuePos(r.wf.Source, lines, in.Value)
						}
						ctx.inputs[id] = sv
					}
				}
				out = append(out, ctx)
				if len(out) >= maxWays {
					return out
				}
			}
		}
	}
	return out
}

// maxCallDepth bounds the chain of callers followed (GitHub allows four
// levels of reusable workflows).
const maxCallDepth = 4

// valuePos is where a string's text starts in src (after its quote).
func valuePos(src []byte, lines []int, s *actionlint.String) (int, int) {
	off := offsetOf(src, lines, s.Pos)
	if off < 0 {
		return 0, 0
	}
	if off < len(src) && (src[off] == '\'' || src[off] == '"') {
		off++
	}
	return posOf(lines, off)
}

// origin is where the value of s is written when s is exactly one
// ${{ matrix.x }} or ${{ inputs.x }} expression whose value is known.
func (c *evalCtx) origin(s string) (string, int, int) {
	t := strings.TrimSpace(s)
	if !strings.HasPrefix(t, "${{") || !strings.HasSuffix(t, "}}") || strings.Count(t, "${{") != 1 {
		return "", 0, 0
	}
	if sv, ok := c.lookup(strings.TrimSpace(t[3 : len(t)-2])); ok {
		return sv.file, sv.line, sv.col
	}
	return "", 0, 0
}

// lookup resolves a matrix.x or inputs.x reference.
func (c *evalCtx) lookup(e string) (srcVal, bool) {
	head, key, ok := strings.Cut(e, ".")
	if !ok || !isIdent(key) {
		return srcVal{}, false
	}
	key = strings.ToLower(key)
	switch strings.ToLower(head) {
	case "matrix":
		sv, ok := c.matrix[key]
		return sv, ok
	case "inputs":
		if !c.known {
			return srcVal{}, false
		}
		sv, ok := c.inputs[key]
		return sv, ok
	}
	return srcVal{}, false
}

func isIdent(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		b := s[i]
		if b != '_' && b != '-' && (b < '0' || b > '9') && (b < 'a' || b > 'z') && (b < 'A' || b > 'Z') {
			return false
		}
	}
	return true
}

// subst replaces each ${{ matrix.x }} and ${{ inputs.x }} of s by its
// value; ok is false when an expression is left that it cannot resolve.
func subst(s string, c *evalCtx) (string, bool) {
	if !strings.Contains(s, "${{") {
		return s, true
	}
	var b strings.Builder
	for {
		i := strings.Index(s, "${{")
		if i < 0 {
			b.WriteString(s)
			return b.String(), true
		}
		k := strings.Index(s[i:], "}}")
		if k < 0 {
			return "", false
		}
		sv, ok := c.lookup(strings.TrimSpace(s[i+3 : i+k]))
		if !ok {
			return "", false
		}
		b.WriteString(s[:i])
		b.WriteString(sv.v)
		s = s[i+k+2:]
	}
}

// matrixLegs is the job's matrix legs (one empty leg without a matrix),
// each with the caller context cc: the product of the literal rows less
// exclude, then include entries merged or added as GitHub does. A row or
// an entry given by an expression leaves its keys unknown.
func matrixLegs(j *actionlint.Job, cc evalCtx, wf *WorkflowFile, lines []int) []evalCtx {
	base := cc
	base.matrix = nil
	if j.Strategy == nil || j.Strategy.Matrix == nil || j.Strategy.Matrix.Expression != nil {
		return []evalCtx{base}
	}
	m := j.Strategy.Matrix
	rowVal := func(v actionlint.RawYAMLValue) (srcVal, bool) {
		s, ok := v.(*actionlint.RawYAMLString)
		if !ok {
			return srcVal{}, false
		}
		val, ok := subst(s.Value, &cc)
		if !ok {
			return srcVal{}, false
		}
		sv := srcVal{v: val, file: wf.Path}
		sv.line, sv.col = valuePos(wf.Source, lines, &actionlint.String{Pos: s.Pos()})
		return sv, true
	}
	legs := []map[string]srcVal{{}}
	orig := map[string]bool{}
	for _, key := range sortedKeys(m.Rows) {
		row := m.Rows[key]
		orig[key] = true
		if row == nil || row.Expression != nil {
			continue
		}
		var next []map[string]srcVal
		for _, l := range legs {
			for _, v := range row.Values {
				n := cloneLeg(l)
				if sv, ok := rowVal(v); ok {
					n[key] = sv
				}
				next = append(next, n)
			}
		}
		if len(next) > maxWays {
			return []evalCtx{base}
		}
		legs = next
	}
	if m.Exclude != nil {
		for _, ex := range m.Exclude.Combinations {
			if ex == nil || ex.Expression != nil {
				continue
			}
			legs = slices.DeleteFunc(legs, func(l map[string]srcVal) bool {
				for k, a := range ex.Assigns {
					sv, ok := rowVal(a.Value)
					if !ok || l[k].v != sv.v {
						return false
					}
				}
				return true
			})
		}
	}
	if m.Include != nil && m.Include.Expression == nil {
		n := len(legs)
		for _, inc := range m.Include.Combinations {
			if inc == nil || inc.Expression != nil {
				continue
			}
			vals := map[string]srcVal{}
			for k, a := range inc.Assigns {
				if sv, ok := rowVal(a.Value); ok {
					vals[k] = sv
				}
			}
			matched := false
			for _, l := range legs[:n] {
				if !includeMatches(l, inc, vals, orig) {
					continue
				}
				matched = true
				for k, sv := range vals {
					if !orig[k] {
						l[k] = sv
					}
				}
			}
			if !matched && len(legs) < maxWays {
				legs = append(legs, vals)
			}
		}
		// A leg of an empty product is no leg when include entries exist.
		if len(m.Rows) == 0 && n == 1 && len(legs) > 1 && len(legs[0]) == 0 {
			legs = legs[1:]
		}
	}
	out := make([]evalCtx, len(legs))
	for i, l := range legs {
		out[i] = base
		out[i].matrix = l
	}
	return out
}

// includeMatches: an include entry extends a leg when each of its keys
// that the matrix's rows define has the leg's value.
func includeMatches(l map[string]srcVal, inc *actionlint.MatrixCombination, vals map[string]srcVal, orig map[string]bool) bool {
	if len(orig) == 0 {
		return false
	}
	for k := range inc.Assigns {
		if !orig[k] {
			continue
		}
		sv, ok := vals[k]
		if !ok || l[k].v != sv.v {
			return false
		}
	}
	return true
}

func cloneLeg(l map[string]srcVal) map[string]srcVal {
	n := make(map[string]srcVal, len(l)+1)
	for k, v := range l {
		n[k] = v
	}
	return n
}

// jobCalls is the calls the job's run: steps make under ctx, leg by leg.
func (f *callFinder) jobCalls(wf *WorkflowFile, lines []int, j *actionlint.Job, ctx evalCtx) []RunSuiteCall {
	if j.WorkflowCall != nil || len(j.Steps) == 0 {
		return nil
	}
	var out []RunSuiteCall
	for _, leg := range matrixLegs(j, ctx, wf, lines) {
		runner, rexpr := legRunner(j, &leg)
		for _, st := range j.Steps {
			run, ok := st.Exec.(*actionlint.ExecRun)
			if !ok || run.Run == nil {
				continue
			}
			dir := ""
			if run.WorkingDirectory != nil {
				dir = run.WorkingDirectory.Value
			} else if j.Defaults != nil && j.Defaults.Run != nil && j.Defaults.Run.WorkingDirectory != nil {
				dir = j.Defaults.Run.WorkingDirectory.Value
			} else if wf.AST.Defaults != nil && wf.AST.Defaults.Run != nil && wf.AST.Defaults.Run.WorkingDirectory != nil {
				dir = wf.AST.Defaults.Run.WorkingDirectory.Value
			}
			dirOK := true
			if strings.Contains(dir, "${{") || strings.Contains(dir, "$") {
				dirOK = false
			}
			env := stepEnv(wf.AST, j, st)
			for _, inv := range f.invocations(run.Run.Value, path.Clean("./"+dir), dirOK) {
				c := RunSuiteCall{File: wf.Path, Job: j.ID.Value, Via: leg.via, Runner: runner, RunnerExpr: rexpr}
				c.Line, c.Col = scriptPos(wf.Source, lines, run.Run, inv.suiteOff, inv.suiteRaw)
				if c.Line == 0 && st.Pos != nil {
					c.Line, c.Col = st.Pos.Line, st.Pos.Col
				}
				var hwOK, suiteOK bool
				c.HW, hwOK, _ = resolveWord(inv.hw, &leg, env, run.Run.Value)
				c.HWExpr = !hwOK
				var sv srcVal
				c.Suite, suiteOK, sv = resolveWord(inv.suite, &leg, env, run.Run.Value)
				c.SuiteExpr = !suiteOK
				if suiteOK && sv.file != "" {
					c.ValueFile, c.ValueLine, c.ValueCol = sv.file, sv.line, sv.col
				}
				c.Nightly = inv.nightly
				for _, w := range inv.dynamic {
					v, ok, _ := resolveWord(w, &leg, env, run.Run.Value)
					if !ok {
						c.NightlyExpr = c.NightlyExpr || mayBeNightly(w, env, run.Run.Value)
					} else if slices.Contains(strings.Fields(v), "--nightly") {
						c.Nightly = true
					}
				}
				if c.Nightly {
					c.NightlyExpr = false
				}
				if c.HWExpr {
					c.HW = ""
				}
				if c.SuiteExpr {
					c.Suite = ""
				}
				out = append(out, c)
			}
		}
		if len(out) > maxWays*4 {
			break
		}
	}
	return out
}

// legRunner is the job's runs-on in a leg: labels and group, and whether
// any of it is not known.
func legRunner(j *actionlint.Job, leg *evalCtx) ([]string, bool) {
	r := j.RunsOn
	if r == nil {
		return nil, true
	}
	var out []string
	add := func(s *actionlint.String) bool {
		if s == nil {
			return true
		}
		v, ok := subst(s.Value, leg)
		if !ok || strings.HasPrefix(strings.TrimSpace(v), "[") || strings.HasPrefix(strings.TrimSpace(v), "{") {
			return false
		}
		out = append(out, v)
		return true
	}
	if r.LabelsExpr != nil && !add(r.LabelsExpr) {
		return nil, true
	}
	for _, l := range r.Labels {
		if !add(l) {
			return nil, true
		}
	}
	if r.Group != nil && !add(r.Group) {
		return nil, true
	}
	if len(out) == 0 {
		return nil, true
	}
	return out, false
}

// stepEnv is the env: a step sees (workflow, job, step; the nearest wins),
// by name as written.
func stepEnv(w *actionlint.Workflow, j *actionlint.Job, st *actionlint.Step) map[string]string {
	env := map[string]string{}
	for _, e := range []*actionlint.Env{w.Env, j.Env, st.Env} {
		if e == nil {
			continue
		}
		if e.Expression != nil {
			clear(env) // any name may be set: none is known
			continue
		}
		for _, v := range e.Vars {
			if v != nil && v.Name != nil && v.Value != nil {
				env[v.Name.Value] = v.Value.Value
			}
		}
	}
	return env
}

// resolveWord is a shell word's value in leg: expressions substituted,
// and a word that is exactly $NAME or ${NAME} read from env: unless the
// script assigns the name itself. sv is where an expanded value is written.
func resolveWord(w shellWord, leg *evalCtx, env map[string]string, script string) (string, bool, srcVal) {
	text := w.text
	if name, ok := shellVar(text); ok {
		v, in := env[name]
		if !in || assigns(script, name) {
			return "", false, srcVal{}
		}
		text = v
	} else if w.shell {
		return "", false, srcVal{}
	}
	v, ok := subst(text, leg)
	if !ok {
		return "", false, srcVal{}
	}
	var sv srcVal
	sv.file, sv.line, sv.col = leg.origin(text)
	return v, true, sv
}

// shellVar is NAME when s is exactly $NAME or ${NAME}.
func shellVar(s string) (string, bool) {
	n, ok := strings.CutPrefix(s, "$")
	if !ok {
		return "", false
	}
	if b, ok := strings.CutPrefix(n, "{"); ok {
		n, ok = strings.CutSuffix(b, "}")
		if !ok {
			return "", false
		}
	}
	if n == "" || !isIdent(n) || strings.Contains(n, "-") {
		return "", false
	}
	return n, true
}

// assigns reports a script that sets the shell variable name (NAME=...,
// export NAME=..., read NAME, for NAME in).
func assigns(script, name string) bool {
	for _, f := range strings.FieldsFunc(script, func(r rune) bool { return r == '\n' || r == ';' || r == '&' || r == '|' }) {
		ws := strings.Fields(f)
		for i, w := range ws {
			if strings.HasPrefix(w, name+"=") {
				return true
			}
			if (w == "read" || w == "for" || w == "local" || w == "declare") && i+1 < len(ws) && slices.Contains(ws[i+1:], name) {
				return true
			}
		}
	}
	return false
}

// mayBeNightly reports an argument cicheck cannot resolve that could
// still be --nightly: its text (a variable's env: value) mentions nightly,
// or it is a bare reference (an input, a variable never set in env:)
// whose value could be anything. A compound expression such as
// ${{ x && '--continue-on-error' || ” }} gives only its literals.
func mayBeNightly(w shellWord, env map[string]string, script string) bool {
	text := w.text
	if name, ok := shellVar(text); ok {
		v, in := env[name]
		if !in || assigns(script, name) {
			return true
		}
		text = v
	} else if w.shell {
		return true
	}
	if strings.Contains(strings.ToLower(text), "nightly") {
		return true
	}
	for s := text; ; {
		i := strings.Index(s, "${{")
		if i < 0 {
			return false
		}
		e := exprEnd(s, i)
		inner := strings.TrimSpace(strings.TrimSuffix(s[i+3:e], "}}"))
		if isRefPath(inner) {
			return true
		}
		s = s[e:]
	}
}

// isRefPath: a bare context reference (inputs.x, vars.y, needs.a.outputs.b).
func isRefPath(e string) bool {
	if e == "" {
		return false
	}
	for _, part := range strings.Split(e, ".") {
		if !isIdent(part) {
			return false
		}
	}
	return true
}
