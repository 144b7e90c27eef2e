package simulate

import (
	"sort"
	"strings"

	"github.com/cicheck/cicheck/expr"
	"github.com/cicheck/cicheck/workflowgraph"
)

// staticOutputs fills in the declared outputs of job i, which succeeded,
// that the scenario does not give and that its value decides without the
// job's steps: a literal, or expressions over needs, matrix, github, inputs
// and vars. A matrix job's outputs combine its legs' values: GitHub drops an
// empty value and keeps the value of the last leg to finish among the rest,
// so they are known only when every leg writes the same text (docs,
// "Passing information between jobs": "Using job outputs in a matrix job").
func (st *state) staticOutputs(i int, out expr.Value) expr.Value {
	j := st.s.jobs[i]
	if out.Kind != expr.KindObject || len(j.Outputs) == 0 || j.Uses != "" {
		return out
	}
	legs, static := workflowgraph.Legs(j)
	var fields map[string]expr.Value
	for name, raw := range j.Outputs {
		if _, given := st.given[j.ID][name]; given {
			continue
		}
		v, ok := st.legOutput(i, raw, legs, static)
		if !ok {
			continue
		}
		if fields == nil {
			fields = make(map[string]expr.Value, len(out.Fields))
			for k, x := range out.Fields {
				fields[k] = x
			}
		}
		if v.Kind == expr.KindNull {
			delete(fields, name) // GitHub does not set an empty output
		} else {
			fields[name] = v
		}
	}
	if fields == nil {
		return out
	}
	obj := object(fields)
	obj.Open = out.Open
	return obj
}

// legOutput evaluates one output template for every leg (once without a
// matrix). ok is false when a value is not decided statically, so the
// output stays unknown with the reason jobOutputs gave.
func (st *state) legOutput(i int, raw string, legs []workflowgraph.Leg, static bool) (expr.Value, bool) {
	if !strings.Contains(raw, "${{") {
		if raw == "" {
			return expr.Null(), true
		}
		return expr.String(raw), true
	}
	env := st.env(i)
	defer delete(st.ctx, "matrix")
	eval := func() (string, bool) {
		v := expr.EvalTemplate(raw, env)
		if !v.Known() || v.Kind == expr.KindArray || v.Kind == expr.KindObject {
			return "", false
		}
		return v.Text(), true
	}
	if len(legs) == 0 {
		if static && st.s.jobs[i].AST != nil && st.s.jobs[i].AST.Strategy == nil {
			st.ctx["matrix"] = expr.Null() // no matrix: matrix.x is null
		}
		s, ok := eval()
		if !ok {
			return expr.Value{}, false
		}
		if s == "" {
			return expr.Null(), true
		}
		return expr.String(s), true
	}
	set := map[string]bool{}
	for _, l := range legs {
		fields := make(map[string]expr.Value, len(l.Keys))
		for k, key := range l.Keys {
			fields[key] = expr.String(l.Values[k])
		}
		st.ctx["matrix"] = object(fields)
		s, ok := eval()
		if !ok {
			return expr.Value{}, false
		}
		if s != "" {
			set[s] = true
		}
	}
	switch len(set) {
	case 0:
		return expr.Null(), true
	case 1:
		for s := range set {
			return expr.String(s), true
		}
	}
	vals := make([]string, 0, len(set))
	for s := range set {
		vals = append(vals, s)
	}
	sort.Strings(vals)
	alts := make([]expr.Value, len(vals))
	for k, s := range vals {
		alts[k] = expr.String(s)
	}
	return expr.OneOf("the legs of "+st.s.jobs[i].ID+" write different values; the last leg to finish wins", alts...), true
}
