package workflowgraph

import (
	"encoding/json"
	"maps"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/rhysd/actionlint"

	"github.com/cicheck/cicheck/expr"
)

// Runner is a job's resolved `runs-on`.
type Runner struct {
	// Labels are the labels resolved statically: literals, list entries,
	// `labels:` of a group form, every value of a static matrix row, and
	// inputs substituted through local reusable workflows. Sorted.
	Labels []string
	// Group is the runner group of the `group:` form.
	Group string
	// Symbolic holds what could not be resolved, as written (for example
	// `${{ needs.setup.outputs.runner }}`). Never dropped. Sorted.
	Symbolic []string
	// InferredFrom names the `with:` inputs the labels were inferred from
	// when the job calls a remote reusable workflow.
	InferredFrom []string
	// Candidates are labels a Symbolic runner may take (runnerCandidates),
	// for classification only: they are not resolved labels.
	Candidates []Candidate
}

// All returns the resolved labels plus the group, for matching.
func (r Runner) All() []string {
	if r.Group == "" {
		return r.Labels
	}
	return append(append([]string(nil), r.Labels...), r.Group)
}

// maxAlts bounds the ways a job is evaluated: its matrix legs (GitHub runs
// at most 256 per matrix) times the choices of its caller's inputs.
// Beyond it a matrix is read key by key and inputs are unknown.
const maxAlts = 256

// resolveCtx is what a job's runs-on and `with:` values are evaluated in.
type resolveCtx struct {
	matrix   *actionlint.Matrix
	inputs   map[string][]expr.Value                          // with: values from the caller, each the values it may take (nil: not static); nil map: not called
	defaults map[string]string                                // workflow_call input defaults
	types    map[string]actionlint.WorkflowCallEventInputType // workflow_call input types, by lower-cased name
	exprs    exprCache
	alts     []alternative // the job's alternatives, made on first use
	inAlts   []alternative // one per choice of inputs, without the matrix
}

// alternative is one way a job runs: one leg of its matrix under one
// choice of its caller's inputs. Every expression of the job is evaluated
// once per alternative by package expr, and the values are collected.
type alternative struct {
	env *expr.Env
	// matrix, when set, is this leg's matrix context: the legs of a job
	// share one Env (an Env and its map per leg would dominate the cost)
	// and use puts it in place. Alternatives are evaluated one at a time.
	matrix *expr.Value
	// raw holds, by matrix key, a value written as an expression that is
	// not known, as written: `${{ matrix.gpu }}` over it shows that text.
	raw map[string]string
}

// use readies the alternative's Env for one evaluation.
func (a alternative) use() *expr.Env {
	if a.matrix != nil {
		a.env.Contexts["matrix"] = *a.matrix
	}
	return a.env
}

func resolveRunner(ro *actionlint.Runner, rc *resolveCtx) Runner {
	var r Runner
	if ro == nil {
		return r
	}
	add := func(s *actionlint.String) {
		if s == nil {
			return
		}
		labels, sym := resolveLabels(s.Value, rc)
		r.Labels = append(r.Labels, labels...)
		r.Symbolic = append(r.Symbolic, sym...)
	}
	add(ro.LabelsExpr)
	for _, l := range ro.Labels {
		add(l)
	}
	if ro.Group != nil {
		g := ro.Group.Value
		if !strings.Contains(g, "${{") {
			r.Group = g
		} else if labels, sym := resolveLabels(g, rc); len(sym) == 0 && len(dedupe(labels)) == 1 {
			r.Group = labels[0]
		} else {
			r.Symbolic = append(r.Symbolic, "group: "+g)
		}
	}
	r.Labels, r.Symbolic = dedupe(r.Labels), dedupe(r.Symbolic)
	return r
}

// resolveLabels evaluates one runs-on string in every alternative of the
// job and collects the labels. What is not known in some alternative stays
// symbolic: the string as written, or, for `${{ matrix.x }}` over a value
// written as an expression, that value as written. With no label known the
// whole string is symbolic.
func resolveLabels(s string, rc *resolveCtx) (labels, symbolic []string) {
	if !strings.Contains(s, "${{") {
		return []string{s}, nil
	}
	key := matrixKey(s, rc.exprs)
	whole := false
	for _, a := range rc.alternativesFor(s) {
		ls, ok := labelsOf(evalString(s, a.use(), rc.exprs))
		switch {
		case ok:
			labels = append(labels, ls...)
		case key != "" && a.raw[key] != "":
			symbolic = append(symbolic, a.raw[key])
		default:
			whole = true
		}
	}
	if len(labels) == 0 {
		return nil, []string{s}
	}
	if whole {
		symbolic = append(symbolic, s)
	}
	return labels, symbolic
}

// matrixKey is x when s is exactly `${{ matrix.x }}`.
func matrixKey(s string, cache exprCache) string {
	t := strings.TrimSpace(s)
	if !isSingleExpr(t) {
		return ""
	}
	e, err := cache.parse(t[3 : len(t)-2])
	if err != "" {
		return ""
	}
	d, ok := e.(*actionlint.ObjectDerefNode)
	if !ok {
		return ""
	}
	if v, ok := d.Receiver.(*actionlint.VariableNode); !ok || !strings.EqualFold(v.Name, "matrix") {
		return ""
	}
	return strings.ToLower(d.Property)
}

// isSingleExpr reports a trimmed string that is one `${{ }}` and nothing
// else: its value is the expression's (a list stays a list), not text.
func isSingleExpr(t string) bool {
	return strings.HasPrefix(t, "${{") && strings.HasSuffix(t, "}}") && strings.Count(t, "${{") == 1
}

// evalString evaluates a value that may hold `${{ }}`: a single expression
// to its value, anything else as a template to its text.
func evalString(s string, env *expr.Env, cache exprCache) expr.Value {
	if !strings.Contains(s, "${{") {
		return expr.String(s)
	}
	if t := strings.TrimSpace(s); isSingleExpr(t) {
		e, err := cache.parse(t[3 : len(t)-2])
		if err != "" {
			return expr.Unknown(err)
		}
		return expr.Eval(e, env)
	}
	return cache.template(s).Eval(env)
}

// labelsOf reads a runs-on value: a string or number is a label, a list of
// them several. false, null and the falsy side of `cond && 'x'` are no
// label (GitHub would refuse them; the other side is what matters). ok is
// false when the value, or one of its alternatives, is not known.
func labelsOf(v expr.Value) ([]string, bool) {
	switch v.Kind {
	case expr.KindString, expr.KindNumber:
		return []string{v.Text()}, true
	case expr.KindBool, expr.KindNull:
		return nil, true
	case expr.KindArray:
		out := make([]string, 0, len(v.Elems))
		for _, el := range v.Elems {
			if el.Kind != expr.KindString && el.Kind != expr.KindNumber {
				return nil, false
			}
			out = append(out, el.Text())
		}
		return out, true
	case expr.KindUnknown:
		if len(v.Alts) == 0 {
			return nil, v.Truth == expr.No
		}
		if v.MayErr != "" {
			return nil, false
		}
		var out []string
		for _, a := range v.Alts {
			ls, ok := labelsOf(a)
			if !ok {
				return nil, false
			}
			out = append(out, ls...)
		}
		return out, true
	}
	return nil, false
}

// resolveValue evaluates a `with:` value in every alternative of the
// caller: the values it may take, nil when it is not known in one of them
// (still recorded, so the callee does not fall back to the input's
// default).
func resolveValue(v string, rc *resolveCtx) []expr.Value {
	if !strings.Contains(v, "${{") {
		return []expr.Value{expr.String(v)}
	}
	var out []expr.Value
	for _, a := range rc.alternativesFor(v) {
		x := evalString(v, a.use(), rc.exprs)
		switch {
		case x.Known():
			out = append(out, x)
		case x.Kind == expr.KindUnknown && len(x.Alts) > 0 && x.MayErr == "":
			for _, y := range x.Alts {
				if !y.Known() {
					return nil
				}
				out = append(out, y)
			}
		default:
			return nil
		}
	}
	return dedupeValues(out)
}

// alternativesFor is the alternatives s is evaluated in: the matrix's
// legs only when s may read the matrix (legs that differ in nothing s
// reads would repeat the same evaluation).
func (rc *resolveCtx) alternativesFor(s string) []alternative {
	if rc.matrix != nil && mentionsMatrix(s) {
		return rc.alternatives()
	}
	if rc.inAlts == nil {
		for _, in := range rc.inputChoices() {
			rc.inAlts = append(rc.inAlts, alternative{env: &expr.Env{Contexts: map[string]expr.Value{"inputs": in}}})
		}
	}
	return rc.inAlts
}

// mentionsMatrix reports the word matrix in s in any case, as context
// names are case-insensitive: the only way an expression reads it.
func mentionsMatrix(s string) bool {
	for i := 0; i+6 <= len(s); i++ {
		if strings.EqualFold(s[i:i+6], "matrix") {
			return true
		}
	}
	return false
}

// alternatives makes, once per job, the job's alternatives: each choice of
// the caller's inputs that take several values, times the matrix's legs.
func (rc *resolveCtx) alternatives() []alternative {
	if rc.alts != nil {
		return rc.alts
	}
	choices := rc.inputChoices()
	for _, in := range choices {
		// The legs share the bound with the input choices: at most maxAlts
		// alternatives in all, beyond which each key is one of its values.
		rc.alts = append(rc.alts, matrixAlternatives(rc.matrix, in, rc.exprs, max(1, maxAlts/len(choices)))...)
	}
	return rc.alts
}

// inputChoices is the inputs context in each choice of the inputs the
// caller passes several values for (a with: value over the caller's matrix).
// Defaults fill inputs the caller does not pass; any other input is
// unknown. Past maxAlts choices those inputs are unknown too.
func (rc *resolveCtx) inputChoices() []expr.Value {
	fields := map[string]expr.Value{}
	for k, v := range rc.defaults {
		if !strings.Contains(v, "${{") {
			fields[strings.ToLower(k)] = rc.typed(strings.ToLower(k), expr.String(v))
		}
	}
	var multi []string
	n := 1
	for k, vs := range rc.inputs {
		switch len(vs) {
		case 0:
			fields[k] = expr.Unknown("inputs." + k + " is not known statically")
		case 1:
			fields[k] = rc.typed(k, vs[0])
		default:
			multi = append(multi, k)
			n *= len(vs)
		}
	}
	if n > maxAlts {
		for _, k := range multi {
			fields[k] = expr.Unknown("inputs." + k + " takes too many values")
		}
		multi = nil
	}
	sort.Strings(multi)
	choices := []map[string]expr.Value{fields}
	for _, k := range multi {
		var next []map[string]expr.Value
		for _, c := range choices {
			for _, v := range rc.inputs[k] {
				m := maps.Clone(c)
				m[k] = rc.typed(k, v)
				next = append(next, m)
			}
		}
		choices = next
	}
	out := make([]expr.Value, len(choices))
	for i, c := range choices {
		out[i] = expr.OpenObject(c)
	}
	return out
}

// matrixAlternatives is one alternative per leg of m under the inputs
// context in. A matrix that cannot be expanded leg by leg (an unknown row,
// an include or exclude that would compare an unknown value, more legs
// than limit) is read as one alternative in which each key is one of
// its values; a matrix that is one expression is not known.
func matrixAlternatives(m *actionlint.Matrix, in expr.Value, cache exprCache, limit int) []alternative {
	base := map[string]expr.Value{"inputs": in}
	if m == nil || m.Expression != nil {
		return []alternative{{env: &expr.Env{Contexts: base}}}
	}
	// The matrix is not in scope inside its own definition.
	inner := &expr.Env{Contexts: base}
	conv := func(v actionlint.RawYAMLValue) (cell, bool) { return matrixCell(v, inner, cache), true }
	rowExpr := func(s *actionlint.String) ([]cell, bool) {
		v := evalString(s.Value, inner, cache)
		if v.Kind != expr.KindArray {
			return nil, false
		}
		out := make([]cell, len(v.Elems))
		for i, el := range v.Elems {
			out[i] = cell{key: canon(el), val: el}
		}
		return out, true
	}
	combos, ok := expandMatrix(m, conv, rowExpr, limit)
	if !ok {
		ctx := maps.Clone(base)
		ctx["matrix"] = unionMatrix(m, conv, rowExpr)
		return []alternative{{env: &expr.Env{Contexts: ctx}}}
	}
	out := make([]alternative, 0, len(combos))
	legEnv := &expr.Env{Contexts: map[string]expr.Value{"inputs": in}}
	for _, c := range combos {
		fields := make(map[string]expr.Value, len(c.vals))
		var raw map[string]string
		for k, v := range c.vals {
			fields[k] = v.val
			if v.raw != "" {
				if raw == nil {
					raw = map[string]string{}
				}
				raw[k] = v.raw
			}
		}
		// The keys are lower-cased already (expandMatrix): the object is
		// built as expr.Object would build it, without a second copy.
		out = append(out, alternative{env: legEnv, matrix: &expr.Value{Kind: expr.KindObject, Fields: fields}, raw: raw})
	}
	if len(out) == 0 { // an empty matrix: no leg, nothing known
		out = append(out, alternative{env: &expr.Env{Contexts: base}})
	}
	return out
}

// unionMatrix is the matrix context when legs cannot be told apart: each
// key is one of the values its row and the include entries give it, less
// those a single-key exclude entry removes; a key with a value that is not
// known is unknown, and an include written as an expression leaves the
// whole matrix unknown.
func unionMatrix(m *actionlint.Matrix, conv func(actionlint.RawYAMLValue) (cell, bool), rowExpr func(*actionlint.String) ([]cell, bool)) expr.Value {
	if m.Include != nil && m.Include.Expression != nil {
		return expr.Unknown("matrix.include is an expression")
	}
	vals := map[string][]cell{}
	unknown := map[string]bool{}
	for key, r := range m.Rows {
		k := strings.ToLower(key)
		if r == nil {
			continue
		}
		if r.Expression != nil {
			cs, ok := rowExpr(r.Expression)
			if !ok {
				unknown[k] = true
			}
			vals[k] = append(vals[k], cs...)
		}
		for _, v := range r.Values {
			c, _ := conv(v)
			vals[k] = append(vals[k], c)
		}
	}
	for k := range vals {
		if ex := excludedValues(m, k); len(ex) > 0 {
			vals[k] = slices.DeleteFunc(vals[k], func(c cell) bool { return !c.unknown && ex[c.key] })
		}
	}
	if m.Include != nil {
		for _, c := range m.Include.Combinations {
			if c == nil || c.Expression != nil {
				return expr.Unknown("a matrix.include entry is an expression")
			}
			for k, a := range c.Assigns {
				if a != nil && a.Value != nil {
					x, _ := conv(a.Value)
					vals[strings.ToLower(k)] = append(vals[strings.ToLower(k)], x)
				}
			}
		}
	}
	fields := map[string]expr.Value{}
	for k, cs := range vals {
		alts := make([]expr.Value, 0, len(cs))
		for _, c := range cs {
			if c.unknown {
				unknown[k] = true
			}
			alts = append(alts, c.val)
		}
		alts = dedupeValues(alts)
		switch {
		case unknown[k] || len(alts) == 0:
			fields[k] = expr.Unknown("matrix." + k + " is not known statically")
		case len(alts) == 1:
			fields[k] = alts[0]
		default:
			fields[k] = expr.OneOf("matrix."+k+" takes several values", alts...)
		}
	}
	for k := range unknown {
		if _, ok := fields[k]; !ok {
			fields[k] = expr.Unknown("matrix." + k + " is not known statically")
		}
	}
	return expr.Object(fields)
}

// excludedValues is the set of values of a top-level matrix key that
// single-key exclude entries remove.
func excludedValues(m *actionlint.Matrix, key string) map[string]bool {
	if m.Exclude == nil || m.Exclude.Expression != nil {
		return nil
	}
	var ex map[string]bool
	for _, c := range m.Exclude.Combinations {
		if c == nil || c.Expression != nil || len(c.Assigns) != 1 {
			continue
		}
		for k, a := range c.Assigns {
			if strings.EqualFold(k, key) && a != nil {
				if s, ok := a.Value.(*actionlint.RawYAMLString); ok && !strings.Contains(s.Value, "${{") {
					if ex == nil {
						ex = map[string]bool{}
					}
					ex[s.Value] = true
				}
			}
		}
	}
	return ex
}

// matrixCell converts a matrix value: strings, lists and mappings become
// values; a string written as an expression is evaluated in env (the
// inputs), and stays unknown, with its text, when it is not known.
func matrixCell(v actionlint.RawYAMLValue, env *expr.Env, cache exprCache) cell {
	val, raw := rawToValue(v, env, cache)
	if raw != "" {
		return cell{key: "\x00?" + raw, val: val, raw: raw, unknown: true}
	}
	return cell{key: canon(val), val: val}
}

// rawToValue converts a YAML value; raw is the first string in it written
// as an expression that is not known.
func rawToValue(v actionlint.RawYAMLValue, env *expr.Env, cache exprCache) (expr.Value, string) {
	switch t := v.(type) {
	case *actionlint.RawYAMLString:
		if !strings.Contains(t.Value, "${{") {
			return expr.String(t.Value), ""
		}
		x := evalString(t.Value, env, cache)
		if !x.Known() {
			return expr.Unknown(t.Value + " is not known statically"), t.Value
		}
		return x, ""
	case *actionlint.RawYAMLArray:
		elems := make([]expr.Value, 0, len(t.Elems))
		raw := ""
		for _, el := range t.Elems {
			x, r := rawToValue(el, env, cache)
			if raw == "" {
				raw = r
			}
			elems = append(elems, x)
		}
		return expr.Array(elems...), raw
	case *actionlint.RawYAMLObject:
		fields := make(map[string]expr.Value, len(t.Props))
		raw := ""
		for _, k := range slices.Sorted(maps.Keys(t.Props)) {
			x, r := rawToValue(t.Props[k], env, cache)
			if raw == "" {
				raw = r
			}
			fields[k] = x
		}
		return expr.Object(fields), raw
	}
	return expr.Null(), ""
}

// canon is a value's identity for include/exclude comparison and
// de-duplication: a string is itself (as Legs compares), anything else its
// kind and JSON-like text.
func canon(v expr.Value) string {
	switch v.Kind {
	case expr.KindString:
		return v.Str
	case expr.KindArray:
		parts := make([]string, len(v.Elems))
		for i, el := range v.Elems {
			parts[i] = strconv.Quote(canon(el))
		}
		return "\x00[" + strings.Join(parts, ",") + "]"
	case expr.KindObject:
		keys := slices.Sorted(maps.Keys(v.Fields))
		parts := make([]string, len(keys))
		for i, k := range keys {
			parts[i] = strconv.Quote(k) + ":" + strconv.Quote(canon(v.Fields[k]))
		}
		return "\x00{" + strings.Join(parts, ",") + "}"
	}
	return "\x00" + v.Kind.String() + ":" + v.String()
}

func dedupeValues(vs []expr.Value) []expr.Value {
	seen := map[string]bool{}
	var out []expr.Value
	for _, v := range vs {
		if k := canon(v); !seen[k] {
			seen[k] = true
			out = append(out, v)
		}
	}
	return out
}

// valueText is a `with:` value as the callee's inputs show it: a list as
// compact JSON, anything else as GitHub converts it to text.
func valueText(v expr.Value) string {
	if v.Kind == expr.KindArray {
		texts := make([]string, len(v.Elems))
		for i, el := range v.Elems {
			texts[i] = el.Text()
		}
		b, _ := json.Marshal(texts)
		return string(b)
	}
	return v.Text()
}

// expandJSONLabels reads an input value as a label or a JSON array of labels.
func expandJSONLabels(v string) []string {
	t := strings.TrimSpace(v)
	if strings.HasPrefix(t, "[") {
		var arr []string
		if json.Unmarshal([]byte(t), &arr) == nil {
			return arr
		}
	}
	if t == "" {
		return nil
	}
	return []string{t}
}

// inputTypes are the declared types of a called workflow's inputs.
func inputTypes(ast *actionlint.Workflow) map[string]actionlint.WorkflowCallEventInputType {
	ev, ok := ast.FindWorkflowCallEvent()
	if !ok {
		return nil
	}
	m := map[string]actionlint.WorkflowCallEventInputType{}
	for _, in := range ev.Inputs {
		if in != nil {
			m[strings.ToLower(in.ID)] = in.Type
		}
	}
	return m
}

// inputDefaults are the defaults of a called workflow's inputs, by
// lower-cased name, as written.
func inputDefaults(ast *actionlint.Workflow) map[string]string {
	ev, ok := ast.FindWorkflowCallEvent()
	if !ok {
		return nil
	}
	m := map[string]string{}
	for _, in := range ev.Inputs {
		if in != nil && in.Default != nil {
			m[strings.ToLower(in.ID)] = in.Default.Value
		}
	}
	return m
}

// typed is a text value as the callee reads its input: a boolean input's
// "false" is false (as text it would be truthy: `inputs.x && 'a' || 'b'`
// would take the wrong arm), a number input's text a number.
func (rc *resolveCtx) typed(name string, v expr.Value) expr.Value {
	if v.Kind != expr.KindString {
		return v
	}
	switch rc.types[name] {
	case actionlint.WorkflowCallEventInputTypeBoolean:
		switch strings.ToLower(strings.TrimSpace(v.Str)) {
		case "true":
			return expr.Bool(true)
		case "false":
			return expr.Bool(false)
		}
	case actionlint.WorkflowCallEventInputTypeNumber:
		if f, err := strconv.ParseFloat(strings.TrimSpace(v.Str), 64); err == nil {
			return expr.Number(f)
		}
	}
	return v
}
