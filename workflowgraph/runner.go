package workflowgraph

import (
	"encoding/json"
	"slices"
	"strings"

	"github.com/rhysd/actionlint"
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

// alt is one possible value of an expression: a list of labels (a JSON
// array gives several labels at once; a plain string gives one).
type alt []string

// maxAlts bounds the product of templated pieces.
const maxAlts = 256

type resolveCtx struct {
	matrix   *actionlint.Matrix
	inputs   map[string][]sval // with: values from the caller, resolved (nil: not called)
	defaults map[string]string // workflow_call input defaults
	depth    int
	exprs    exprCache
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
		if alts, ok := resolveString(s.Value, rc); ok {
			for _, a := range alts {
				r.Labels = append(r.Labels, a...)
			}
		} else if labels, sym, ok := partialMatrixRow(s.Value, rc); ok {
			r.Labels = append(r.Labels, labels...)
			r.Symbolic = append(r.Symbolic, sym...)
		} else {
			r.Symbolic = append(r.Symbolic, s.Value)
		}
	}
	add(ro.LabelsExpr)
	for _, l := range ro.Labels {
		add(l)
	}
	if ro.Group != nil {
		if alts, ok := resolveString(ro.Group.Value, rc); ok && len(alts) == 1 && len(alts[0]) == 1 {
			r.Group = alts[0][0]
		} else {
			r.Group = ro.Group.Value
			if strings.Contains(ro.Group.Value, "${{") {
				r.Group = ""
				r.Symbolic = append(r.Symbolic, "group: "+ro.Group.Value)
			}
		}
	}
	r.Labels, r.Symbolic = dedupe(r.Labels), dedupe(r.Symbolic)
	return r
}

// resolveString resolves a string that may contain `${{ }}` pieces into
// its possible values. ok is false when any piece is not static.
func resolveString(s string, rc *resolveCtx) ([]alt, bool) {
	if !strings.Contains(s, "${{") {
		return []alt{{s}}, true
	}
	trimmed := strings.TrimSpace(s)
	if strings.HasPrefix(trimmed, "${{") && strings.HasSuffix(trimmed, "}}") && strings.Count(trimmed, "${{") == 1 {
		e, err := rc.exprs.parse(trimmed[3 : len(trimmed)-2])
		if err != "" {
			return nil, false
		}
		vals, ok := evalStatic(e, rc)
		if !ok {
			return nil, false
		}
		var out []alt
		for _, v := range vals {
			if !v.isBool {
				out = append(out, v.labels())
			}
		}
		return out, len(out) > 0
	}
	// A template: every piece becomes text; take the product.
	results := []string{""}
	rest := s
	for {
		i := strings.Index(rest, "${{")
		if i < 0 {
			break
		}
		j := strings.Index(rest[i:], "}}")
		if j < 0 {
			return nil, false
		}
		lit := rest[:i]
		e, err := rc.exprs.parse(rest[i+3 : i+j])
		if err != "" {
			return nil, false
		}
		vals, ok := evalStatic(e, rc)
		if !ok {
			return nil, false
		}
		var next []string
		for _, r := range results {
			for _, v := range vals {
				next = append(next, r+lit+v.text())
				if len(next) > maxAlts {
					return nil, false
				}
			}
		}
		results = next
		rest = rest[i+j+2:]
	}
	var out []alt
	for _, r := range results {
		out = append(out, alt{r + rest})
	}
	return out, true
}

// sval is a static value: a string, or an array of strings.
type sval struct {
	str    string
	arr    []string
	isArr  bool
	isBool bool // a boolean: a condition, never a label
}

var (
	svTrue  = sval{str: "true", isBool: true}
	svFalse = sval{str: "false", isBool: true}
	// svEither is a condition cicheck cannot decide statically: both
	// branches of `cond && 'a' || 'b'` stay possible.
	svEither = []sval{svTrue, svFalse}
)

func (v sval) labels() alt {
	if v.isArr {
		return alt(v.arr)
	}
	return alt{v.str}
}

func (v sval) text() string {
	if v.isArr {
		b, _ := json.Marshal(v.arr)
		return string(b)
	}
	return v.str
}

func (v sval) truthy() bool {
	if v.isBool {
		return v.str == "true"
	}
	return v.isArr || v.str != ""
}

// evalStatic evaluates the small subset of expressions that appear in
// runs-on: literals, matrix.X(.Y), inputs.X, fromJSON, toJSON, format, ||.
// Every value is a set of possibilities (a matrix row has several).
func evalStatic(e actionlint.ExprNode, rc *resolveCtx) ([]sval, bool) {
	if rc.depth > 16 {
		return nil, false
	}
	rc.depth++
	defer func() { rc.depth-- }()
	switch n := e.(type) {
	case *actionlint.StringNode:
		return []sval{{str: n.Value}}, true
	case *actionlint.IntNode:
		return []sval{{str: n.Token().Value}}, true
	case *actionlint.BoolNode:
		if n.Value {
			return []sval{svTrue}, true
		}
		return []sval{svFalse}, true
	case *actionlint.NotOpNode:
		in, ok := evalStatic(n.Operand, rc)
		if !ok {
			return svEither, true
		}
		var out []sval
		for _, v := range in {
			if v.truthy() {
				out = append(out, svFalse)
			} else {
				out = append(out, svTrue)
			}
		}
		return dedupeVals(out), true
	case *actionlint.CompareOpNode:
		return evalCompare(n, rc), true
	case *actionlint.ObjectDerefNode:
		return evalDeref(n, rc)
	case *actionlint.IndexAccessNode:
		if s, ok := n.Index.(*actionlint.StringNode); ok {
			return evalDeref(&actionlint.ObjectDerefNode{Receiver: n.Operand, Property: s.Value}, rc)
		}
		return nil, false
	case *actionlint.LogicalOpNode:
		l, ok := evalStatic(n.Left, rc)
		if !ok {
			if n.Kind != actionlint.LogicalOpNodeKindAnd {
				return nil, false
			}
			// An undecidable condition guarding a value: `cond && 'x'`.
			l = svEither
		}
		if n.Kind == actionlint.LogicalOpNodeKindAnd {
			var out []sval
			needRight := false
			for _, v := range l {
				if v.truthy() {
					needRight = true
				} else {
					out = append(out, v)
				}
			}
			if needRight {
				r, ok := evalStatic(n.Right, rc)
				if !ok {
					return nil, false
				}
				out = append(out, r...)
			}
			return dedupeVals(out), true
		}
		var out []sval
		needRight := false
		for _, v := range l {
			if v.truthy() {
				out = append(out, v)
			} else {
				needRight = true
			}
		}
		if needRight {
			r, ok := evalStatic(n.Right, rc)
			if !ok {
				return nil, false
			}
			out = append(out, r...)
		}
		return dedupeVals(out), true
	case *actionlint.FuncCallNode:
		return evalCall(n, rc)
	}
	return nil, false
}

// evalCompare decides ==/!= between single static strings
// (case-insensitively, as GitHub does); anything else may go either way.
func evalCompare(n *actionlint.CompareOpNode, rc *resolveCtx) []sval {
	l, lok := evalStatic(n.Left, rc)
	r, rok := evalStatic(n.Right, rc)
	if !lok || !rok || len(l) != 1 || len(r) != 1 || l[0].isArr || r[0].isArr {
		return svEither
	}
	eq := strings.EqualFold(l[0].str, r[0].str)
	switch n.Kind {
	case actionlint.CompareOpNodeKindEq:
		if eq {
			return []sval{svTrue}
		}
		return []sval{svFalse}
	case actionlint.CompareOpNodeKindNotEq:
		if eq {
			return []sval{svFalse}
		}
		return []sval{svTrue}
	}
	return svEither
}

func evalCall(n *actionlint.FuncCallNode, rc *resolveCtx) ([]sval, bool) {
	switch strings.ToLower(n.Callee) {
	case "contains", "startswith", "endswith":
		return svEither, true
	case "fromjson":
		if len(n.Args) != 1 {
			return nil, false
		}
		in, ok := evalStatic(n.Args[0], rc)
		if !ok {
			return nil, false
		}
		var out []sval
		for _, v := range in {
			if v.isArr {
				return nil, false
			}
			var x any
			if json.Unmarshal([]byte(v.str), &x) != nil {
				return nil, false
			}
			switch t := x.(type) {
			case string:
				out = append(out, sval{str: t})
			case []any:
				var arr []string
				for _, el := range t {
					s, ok := el.(string)
					if !ok {
						return nil, false
					}
					arr = append(arr, s)
				}
				out = append(out, sval{arr: arr, isArr: true})
			default:
				return nil, false
			}
		}
		return out, true
	case "tojson":
		if len(n.Args) != 1 {
			return nil, false
		}
		in, ok := evalStatic(n.Args[0], rc)
		if !ok {
			return nil, false
		}
		var out []sval
		for _, v := range in {
			if v.isArr {
				out = append(out, sval{str: v.text()})
			} else {
				b, _ := json.Marshal(v.str)
				out = append(out, sval{str: string(b)})
			}
		}
		return out, true
	case "format":
		if len(n.Args) == 0 {
			return nil, false
		}
		fs, ok := evalStatic(n.Args[0], rc)
		if !ok || len(fs) != 1 || fs[0].isArr {
			return nil, false
		}
		results := []string{fs[0].str}
		for i, a := range n.Args[1:] {
			vals, ok := evalStatic(a, rc)
			if !ok {
				return nil, false
			}
			ph := "{" + itoa(i) + "}"
			var next []string
			for _, r := range results {
				for _, v := range vals {
					next = append(next, strings.ReplaceAll(r, ph, v.text()))
					if len(next) > maxAlts {
						return nil, false
					}
				}
			}
			results = next
		}
		var out []sval
		for _, r := range results {
			out = append(out, sval{str: r})
		}
		return out, true
	}
	return nil, false
}

func itoa(i int) string {
	if i < 10 {
		return string(rune('0' + i))
	}
	return itoa(i/10) + string(rune('0'+i%10))
}

// evalDeref resolves matrix.X[.Y...] and inputs.X.
func evalDeref(n *actionlint.ObjectDerefNode, rc *resolveCtx) ([]sval, bool) {
	// Collect the property chain down to the root variable.
	var props []string
	var cur actionlint.ExprNode = n
	for {
		switch c := cur.(type) {
		case *actionlint.ObjectDerefNode:
			props = append([]string{strings.ToLower(c.Property)}, props...)
			cur = c.Receiver
			continue
		case *actionlint.IndexAccessNode:
			s, ok := c.Index.(*actionlint.StringNode)
			if !ok {
				return nil, false
			}
			props = append([]string{strings.ToLower(s.Value)}, props...)
			cur = c.Operand
			continue
		case *actionlint.VariableNode:
			switch strings.ToLower(c.Name) {
			case "matrix":
				return matrixValues(rc.matrix, props, rc)
			case "inputs":
				if len(props) != 1 {
					return nil, false
				}
				if v, ok := rc.inputs[props[0]]; ok {
					return v, v != nil
				}
				if v, ok := rc.defaults[props[0]]; ok && !strings.Contains(v, "${{") {
					return []sval{{str: v}}, true
				}
			}
		}
		return nil, false
	}
}

// resolveValue resolves a `with:` value in the caller's context. A value
// that is not static resolves to nil (still recorded, so the callee does not
// fall back to the input's default).
func resolveValue(v string, rc *resolveCtx) []sval {
	if !strings.Contains(v, "${{") {
		return []sval{{str: v}}
	}
	t := strings.TrimSpace(v)
	if strings.HasPrefix(t, "${{") && strings.HasSuffix(t, "}}") && strings.Count(t, "${{") == 1 {
		e, err := rc.exprs.parse(t[3 : len(t)-2])
		if err != "" {
			return nil
		}
		vals, ok := evalStatic(e, rc)
		if !ok {
			return nil
		}
		return vals
	}
	alts, ok := resolveString(v, rc)
	if !ok {
		return nil
	}
	var out []sval
	for _, a := range alts {
		out = append(out, sval{str: strings.Join(a, "")})
	}
	return out
}

// matrixValues returns every value the matrix property can take: the row's
// values plus the include entries. A dynamic matrix is not static.
func matrixValues(m *actionlint.Matrix, props []string, rc *resolveCtx) ([]sval, bool) {
	if m == nil || len(props) == 0 {
		return nil, false
	}
	var raws []actionlint.RawYAMLValue
	var fromExpr []sval
	if m.Rows != nil {
		if row, ok := m.Rows[props[0]]; ok {
			if row.Expression != nil {
				// A row computed from the caller's inputs, as reusable GPU
				// workflows do: `gpu: ${{ fromJSON(inputs.gpus) }}`.
				if len(props) != 1 {
					return nil, false
				}
				vals, ok := rowFromExpression(row.Expression.Value, rc)
				if !ok {
					return nil, false
				}
				fromExpr = vals
			} else {
				raws = append(raws, row.Values...)
			}
		}
	}
	// An exclude entry naming only this property removes that value from
	// every combination; include entries are added after excludes, so
	// they stay. Entries with more keys may leave the value elsewhere.
	if ex := excludedValues(m, props); len(ex) > 0 {
		raws = slices.DeleteFunc(raws, func(r actionlint.RawYAMLValue) bool {
			s, ok := r.(*actionlint.RawYAMLString)
			return ok && ex[s.Value]
		})
		fromExpr = slices.DeleteFunc(fromExpr, func(v sval) bool { return !v.isArr && !v.isBool && ex[v.str] })
	}
	if m.Include != nil {
		if m.Include.Expression != nil {
			return nil, false
		}
		for _, c := range m.Include.Combinations {
			if c.Expression != nil {
				return nil, false
			}
			if a, ok := c.Assigns[props[0]]; ok && a.Value != nil {
				raws = append(raws, a.Value)
			}
		}
	}
	if len(raws) == 0 && len(fromExpr) == 0 {
		return nil, false
	}
	out := fromExpr
	for _, r := range raws {
		v, ok := rawValue(r, props[1:])
		if !ok {
			return nil, false
		}
		out = append(out, v)
	}
	return dedupeVals(out), true
}

// partialMatrixRow resolves `${{ matrix.X }}` over a row that mixes static
// values with expressions (`[h100, "${{ inputs.gpu }}"]`): the static values
// become labels and each unresolvable element stays symbolic, so h100 is not
// dropped along with it.
func partialMatrixRow(s string, rc *resolveCtx) (labels, symbolic []string, ok bool) {
	t := strings.TrimSpace(s)
	if rc.matrix == nil || rc.matrix.Rows == nil || !strings.HasPrefix(t, "${{") || !strings.HasSuffix(t, "}}") || strings.Count(t, "${{") != 1 {
		return nil, nil, false
	}
	e, err := rc.exprs.parse(t[3 : len(t)-2])
	if err != "" {
		return nil, nil, false
	}
	d, isDeref := e.(*actionlint.ObjectDerefNode)
	if !isDeref {
		return nil, nil, false
	}
	if v, isVar := d.Receiver.(*actionlint.VariableNode); !isVar || !strings.EqualFold(v.Name, "matrix") {
		return nil, nil, false
	}
	prop := strings.ToLower(d.Property)
	row, found := rc.matrix.Rows[prop]
	if !found || row.Expression != nil {
		return nil, nil, false
	}
	values := append([]actionlint.RawYAMLValue(nil), row.Values...)
	if ex := excludedValues(rc.matrix, []string{prop}); len(ex) > 0 {
		values = slices.DeleteFunc(values, func(r actionlint.RawYAMLValue) bool {
			str, isStr := r.(*actionlint.RawYAMLString)
			return isStr && ex[str.Value]
		})
	}
	if inc := rc.matrix.Include; inc != nil {
		if inc.Expression != nil {
			return nil, nil, false
		}
		for _, c := range inc.Combinations {
			if c.Expression != nil {
				return nil, nil, false
			}
			if a, has := c.Assigns[prop]; has && a.Value != nil {
				values = append(values, a.Value)
			}
		}
	}
	for _, v := range values {
		str, isStr := v.(*actionlint.RawYAMLString)
		if !isStr {
			return nil, nil, false
		}
		if alts, resolved := resolveString(str.Value, rc); resolved {
			for _, a := range alts {
				labels = append(labels, a...)
			}
		} else {
			symbolic = append(symbolic, str.Value)
		}
	}
	return labels, symbolic, len(labels) > 0
}

// excludedValues is the set of values of a top-level matrix property that
// single-key exclude entries remove.
func excludedValues(m *actionlint.Matrix, props []string) map[string]bool {
	if m.Exclude == nil || m.Exclude.Expression != nil || len(props) != 1 {
		return nil
	}
	var ex map[string]bool
	for _, c := range m.Exclude.Combinations {
		if c == nil || c.Expression != nil || len(c.Assigns) != 1 {
			continue
		}
		if a, ok := c.Assigns[props[0]]; ok && a != nil {
			if s, ok := a.Value.(*actionlint.RawYAMLString); ok && !strings.Contains(s.Value, "${{") {
				if ex == nil {
					ex = map[string]bool{}
				}
				ex[s.Value] = true
			}
		}
	}
	return ex
}

// rowFromExpression evaluates a matrix row written as one expression; each
// element of the resulting array is one value of the row.
func rowFromExpression(src string, rc *resolveCtx) ([]sval, bool) {
	t := strings.TrimSpace(src)
	if !strings.HasPrefix(t, "${{") || !strings.HasSuffix(t, "}}") {
		return nil, false
	}
	e, err := rc.exprs.parse(t[3 : len(t)-2])
	if err != "" {
		return nil, false
	}
	// The matrix is not in scope inside its own definition.
	inner := *rc
	inner.matrix = nil
	vals, ok := evalStatic(e, &inner)
	if !ok {
		return nil, false
	}
	var out []sval
	for _, v := range vals {
		if !v.isArr {
			return nil, false
		}
		for _, el := range v.arr {
			out = append(out, sval{str: el})
		}
	}
	return out, len(out) > 0
}

func rawValue(r actionlint.RawYAMLValue, props []string) (sval, bool) {
	for _, p := range props {
		o, ok := r.(*actionlint.RawYAMLObject)
		if !ok {
			return sval{}, false
		}
		r, ok = o.Props[p]
		if !ok {
			return sval{}, false
		}
	}
	switch t := r.(type) {
	case *actionlint.RawYAMLString:
		if strings.Contains(t.Value, "${{") {
			return sval{}, false
		}
		return sval{str: t.Value}, true
	case *actionlint.RawYAMLArray:
		var arr []string
		for _, el := range t.Elems {
			s, ok := el.(*actionlint.RawYAMLString)
			if !ok {
				return sval{}, false
			}
			arr = append(arr, s.Value)
		}
		return sval{arr: arr, isArr: true}, true
	}
	return sval{}, false
}

func dedupeVals(vs []sval) []sval {
	seen := map[string]bool{}
	var out []sval
	for _, v := range vs {
		k := v.text()
		if v.isArr {
			k = "[]" + k
		} else if v.isBool {
			k = "bool:" + k
		}
		if !seen[k] {
			seen[k] = true
			out = append(out, v)
		}
	}
	return out
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
