package workflowgraph

import (
	"slices"
	"sort"
	"strings"

	"github.com/rhysd/actionlint"

	"github.com/cicheck/cicheck/expr"
)

// Leg is one combination of a job's matrix: its keys (lower-cased) and
// scalar values, keys in the matrix's row order, include-only keys after
// them, sorted.
type Leg struct {
	Keys, Values []string
}

// String renders k=v,k=v, the form simulate's --fail JOB[k=v,...] takes.
func (l Leg) String() string {
	parts := make([]string, len(l.Keys))
	for i, k := range l.Keys {
		parts[i] = k + "=" + l.Values[i]
	}
	return strings.Join(parts, ",")
}

// Get returns the leg's value for key and whether it has one.
func (l Leg) Get(key string) (string, bool) {
	if i := slices.Index(l.Keys, strings.ToLower(key)); i >= 0 {
		return l.Values[i], true
	}
	return "", false
}

// Matches reports whether the leg has every key=value of sel (a subset
// selects every leg that has it).
func (l Leg) Matches(sel map[string]string) bool {
	for k, v := range sel {
		if got, ok := l.Get(k); !ok || got != v {
			return false
		}
	}
	return true
}

// Legs expands j's strategy.matrix as GitHub does (docs, "Running
// variations of jobs in a workflow"): the product of the rows; exclude
// removes every combination that has all of an entry's key/values; then
// each include entry is added to every combination of the product whose
// original values it does not overwrite (values added by an earlier include
// may be overwritten), or becomes a combination of its own when it fits
// none.
// ok is false when the matrix is not static (an expression anywhere) or a
// value is not a scalar; nil legs with ok true means no matrix.
//
// A matrix of more than MaxLegs legs has none (ok false): GitHub fails the
// job instead (MatrixSize).
func Legs(j *Job) (legs []Leg, ok bool) {
	if j == nil || j.AST == nil || j.AST.Strategy == nil || j.AST.Strategy.Matrix == nil {
		return nil, true
	}
	combos, ok := expandMatrix(j.AST.Strategy.Matrix, scalarCell, nil, expandCap)
	if !ok || len(combos) > MaxLegs {
		return nil, false
	}
	for _, c := range combos {
		l := Leg{Keys: c.keys, Values: make([]string, len(c.keys))}
		for i, k := range c.keys {
			l.Values[i] = c.vals[k].key // present: the combination has k
		}
		legs = append(legs, l)
	}
	return legs, true
}

// MaxLegs is GitHub's cap on the jobs one matrix generates ("A matrix will
// generate a maximum of 256 jobs per workflow run").
const MaxLegs = 256

// expandCap bounds the combinations cicheck expands to count a matrix's
// legs: an exclude can only be applied to combinations that exist, so a
// larger product with excludes is not counted (a product of 8 keys of 20
// values is 2.56e10 combinations).
const expandCap = 16 * MaxLegs

func scalarCell(v actionlint.RawYAMLValue) (cell, bool) {
	s, ok := scalar(v)
	return cell{key: s}, ok
}

// MatrixSize counts the legs j's static matrix generates, exclude and
// include applied, without expanding more than expandCap combinations: a
// product beyond that is counted arithmetically when nothing excludes from
// it (each include entry then fits some combination exactly when its
// values for the matrix's own keys are among theirs), and is not counted
// (ok false) otherwise. No matrix is 0 legs; a matrix that is not static
// is not counted.
func MatrixSize(j *Job) (n int, ok bool) {
	if j == nil || j.AST == nil || j.AST.Strategy == nil || j.AST.Strategy.Matrix == nil {
		return 0, true
	}
	m := j.AST.Strategy.Matrix
	if combos, ok := expandMatrix(m, scalarCell, nil, expandCap); ok {
		return len(combos), true
	}
	if m.Expression != nil || m.Exclude != nil && (m.Exclude.Expression != nil || len(m.Exclude.Combinations) > 0) {
		return 0, false
	}
	values := map[string]map[string]bool{}
	product := 1
	for key, r := range m.Rows {
		if r == nil || r.Expression != nil {
			return 0, false
		}
		vs := map[string]bool{}
		for _, v := range r.Values {
			s, ok := scalar(v)
			if !ok {
				return 0, false
			}
			vs[s] = true
		}
		values[strings.ToLower(key)] = vs
		// Saturate: past a million legs the count only says "too many".
		product = min(product*max(len(r.Values), 0), 1<<20)
	}
	n = product
	if m.Include != nil {
		if m.Include.Expression != nil {
			return 0, false
		}
	entries:
		for _, c := range m.Include.Combinations {
			if c == nil || c.Expression != nil {
				return 0, false
			}
			for k, a := range c.Assigns {
				if a == nil {
					continue
				}
				s, ok := scalar(a.Value)
				if !ok {
					return 0, false
				}
				if vs, row := values[strings.ToLower(k)]; row && !vs[s] {
					n++ // fits no combination: a leg of its own
					continue entries
				}
			}
		}
	}
	return n, true
}

// cell is one matrix value: key is how include and exclude compare it
// (the text of a scalar); val its value for expressions; raw, for a value
// written as an expression that is not known, the text as written.
type cell struct {
	key     string
	val     expr.Value
	raw     string
	unknown bool
}

// combo is one expanded combination: keys in the matrix's row order,
// include-only keys after them, sorted.
type combo struct {
	keys []string
	vals map[string]*cell
}

// expandMatrix is the expansion Legs documents, over cells that conv makes
// of the YAML values. rowExpr reads a row written as one expression (nil:
// such a row is not static). limit, when positive, bounds the combinations
// of the product. ok is false when the matrix is not static, a value does
// not convert, the product exceeds limit, or an include or exclude entry
// would have to compare an unknown value.
func expandMatrix(m *actionlint.Matrix, conv func(actionlint.RawYAMLValue) (cell, bool), rowExpr func(*actionlint.String) ([]cell, bool), limit int) ([]combo, bool) {
	if m.Expression != nil {
		return nil, false
	}
	type row struct {
		key  string
		vals []*cell
		pos  *actionlint.Pos
	}
	var rows []row
	size := 1
	for key, r := range m.Rows {
		if r == nil {
			return nil, false
		}
		var vals []*cell
		if r.Expression != nil {
			if rowExpr == nil {
				return nil, false
			}
			cs, ok := rowExpr(r.Expression)
			if !ok {
				return nil, false
			}
			for i := range cs {
				vals = append(vals, &cs[i])
			}
		}
		for _, v := range r.Values {
			c, ok := conv(v)
			if !ok {
				return nil, false
			}
			vals = append(vals, &c)
		}
		var pos *actionlint.Pos
		if r.Name != nil {
			pos = r.Name.Pos
		}
		if size *= len(vals); limit > 0 && size > limit {
			return nil, false
		}
		rows = append(rows, row{strings.ToLower(key), vals, pos})
	}
	sort.Slice(rows, func(a, b int) bool {
		pa, pb := rows[a].pos, rows[b].pos
		if pa == nil || pb == nil {
			return rows[a].key < rows[b].key
		}
		if pa.Line != pb.Line {
			return pa.Line < pb.Line
		}
		return pa.Col < pb.Col
	})
	type work struct {
		vals     map[string]*cell
		original map[string]bool
	}
	combos := []work{{vals: map[string]*cell{}, original: map[string]bool{}}}
	for _, r := range rows {
		var next []work
		for _, c := range combos {
			for _, v := range r.vals {
				n := work{vals: make(map[string]*cell, len(c.vals)+1), original: make(map[string]bool, len(c.vals)+1)}
				for k, x := range c.vals {
					n.vals[k], n.original[k] = x, true
				}
				n.vals[r.key], n.original[r.key] = v, true
				next = append(next, n)
			}
		}
		combos = next
	}
	if len(rows) == 0 {
		combos = nil
	}
	entries := func(cs *actionlint.MatrixCombinations) ([]map[string]*cell, bool) {
		if cs == nil {
			return nil, true
		}
		if cs.Expression != nil {
			return nil, false
		}
		var out []map[string]*cell
		for _, c := range cs.Combinations {
			if c == nil || c.Expression != nil {
				return nil, false
			}
			e := map[string]*cell{}
			for k, a := range c.Assigns {
				if a == nil {
					continue
				}
				v, ok := conv(a.Value)
				if !ok {
					return nil, false
				}
				e[strings.ToLower(k)] = &v
			}
			out = append(out, e)
		}
		return out, true
	}
	excludes, ok1 := entries(m.Exclude)
	includes, ok2 := entries(m.Include)
	if !ok1 || !ok2 {
		return nil, false
	}
	// differs compares an entry's value with a combination's; an unknown
	// value on either side cannot be compared (ok false).
	differs := func(c work, k string, v *cell) (bool, bool) {
		x := c.vals[k]
		if v.unknown || x != nil && x.unknown {
			return false, false
		}
		// A combination without k compares as the empty string, as it
		// always has.
		return (x == nil && v.key != "") || (x != nil && x.key != v.key), true
	}
	comparable := true
	combos = slices.DeleteFunc(combos, func(c work) bool {
		for _, ex := range excludes {
			all := len(ex) > 0
			for k, v := range ex {
				d, ok := differs(c, k, v)
				comparable = comparable && ok
				if d {
					all = false
				}
			}
			if all {
				return true
			}
		}
		return false
	})
	// Only the product's combinations take include entries; a combination
	// an include entry created takes no later entry (the docs' banana).
	nOriginal := len(combos)
	for _, inc := range includes {
		added := false
		for i := 0; i < nOriginal; i++ {
			c := &combos[i]
			fits := true
			for k, v := range inc {
				if !c.original[k] {
					continue
				}
				d, ok := differs(*c, k, v)
				comparable = comparable && ok
				if d {
					fits = false
				}
			}
			if !fits {
				continue
			}
			for k, v := range inc {
				c.vals[k] = v
			}
			added = true
		}
		if !added {
			n := work{vals: map[string]*cell{}, original: map[string]bool{}}
			for k, v := range inc {
				n.vals[k] = v
			}
			combos = append(combos, n)
		}
	}
	if !comparable || limit > 0 && len(combos) > limit {
		return nil, false
	}
	rowKeys := make([]string, len(rows))
	for i, r := range rows {
		rowKeys[i] = r.key
	}
	out := make([]combo, 0, len(combos))
	for _, c := range combos {
		var keys []string
		for _, k := range rowKeys {
			if _, ok := c.vals[k]; ok {
				keys = append(keys, k)
			}
		}
		var extra []string
		for k := range c.vals {
			if !slices.Contains(rowKeys, k) {
				extra = append(extra, k)
			}
		}
		sort.Strings(extra)
		out = append(out, combo{keys: append(keys, extra...), vals: c.vals})
	}
	return out, true
}

// scalar renders a scalar matrix value; an expression, list or map is not
// one.
func scalar(v actionlint.RawYAMLValue) (string, bool) {
	s, ok := v.(*actionlint.RawYAMLString)
	if !ok || strings.Contains(s.Value, "${{") {
		return "", false
	}
	return s.Value, true
}
