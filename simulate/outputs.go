package simulate

import (
	"slices"
	"sort"
	"strings"

	"github.com/cicheck/cicheck/expr"
	"github.com/cicheck/cicheck/workflowgraph"
)

// jobOutputTemplates are a job's declared outputs, parsed once per Sim,
// and its matrix legs.
type jobOutputTemplates struct {
	names  []string // lower-cased, sorted
	tmpls  []*expr.Template
	legs   []workflowgraph.Leg
	static bool // the matrix is static (or there is none)
	matrix bool // the job has a strategy.matrix
}

func (s *Sim) outputTemplates() []jobOutputTemplates {
	s.outsOnce.Do(func() {
		s.outs = make([]jobOutputTemplates, len(s.jobs))
		for i, j := range s.jobs {
			if len(j.Outputs) == 0 || j.Uses != "" {
				continue
			}
			t := &s.outs[i]
			t.names = slices.Sorted(func(yield func(string) bool) {
				for k := range j.Outputs {
					if !yield(k) {
						return
					}
				}
			})
			for _, name := range t.names {
				t.tmpls = append(t.tmpls, expr.ParseTemplate(j.Outputs[name]))
			}
			t.legs, t.static = workflowgraph.Legs(j)
			t.matrix = j.AST != nil && j.AST.Strategy != nil && j.AST.Strategy.Matrix != nil
		}
	})
	return s.outs
}

// staticOutputs fills in the declared outputs of job i, which ended
// success or failure, that the scenario does not give and that its value
// decides without the job's steps: a literal, or expressions over needs,
// matrix, github, inputs and vars (the runner evaluates a job's outputs
// when it ends, whatever its result). A matrix job's outputs combine its
// legs' values: GitHub drops an empty value and keeps the value of the last
// leg to finish among the rest, so they are known only when every leg
// writes the same text (docs, "Passing information between jobs": "Using
// job outputs in a matrix job").
func (st *state) staticOutputs(i int, out expr.Value) expr.Value {
	t := st.s.outputTemplates()[i]
	if out.Kind != expr.KindObject || len(t.names) == 0 {
		return out
	}
	j := st.s.jobs[i]
	var env *expr.Env
	var fields map[string]expr.Value
	for k, name := range t.names {
		if _, given := st.given[strings.ToLower(j.ID)][name]; given {
			continue
		}
		tm := t.tmpls[k]
		if !tm.Literal() && env == nil {
			env = st.env(i)
			defer delete(st.ctx, "matrix")
		}
		v, ok := st.legOutput(i, tm, t, env)
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
func (st *state) legOutput(i int, tm *expr.Template, t jobOutputTemplates, env *expr.Env) (expr.Value, bool) {
	eval := func() (string, bool) {
		v := tm.Eval(env)
		if !v.Known() || v.Kind == expr.KindArray || v.Kind == expr.KindObject {
			return "", false
		}
		return v.Text(), true
	}
	if tm.Literal() || len(t.legs) == 0 {
		switch {
		case tm.Literal():
		case !t.matrix:
			st.ctx["matrix"] = expr.Null() // no matrix: matrix.x is null
		default:
			delete(st.ctx, "matrix") // a dynamic matrix: unknown
		}
		s, ok := eval()
		switch {
		case !ok:
			return expr.Value{}, false
		case s == "":
			return expr.Null(), true
		}
		return expr.String(s), true
	}
	set := map[string]bool{}
	for _, l := range t.legs {
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
