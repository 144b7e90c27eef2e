package workflowgraph

import (
	"slices"
	"sort"
	"strings"

	"github.com/rhysd/actionlint"
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
func Legs(j *Job) (legs []Leg, ok bool) {
	if j == nil || j.AST == nil || j.AST.Strategy == nil || j.AST.Strategy.Matrix == nil {
		return nil, true
	}
	m := j.AST.Strategy.Matrix
	if m.Expression != nil {
		return nil, false
	}
	type row struct {
		key  string
		vals []string
		pos  *actionlint.Pos
	}
	var rows []row
	for key, r := range m.Rows {
		if r == nil || r.Expression != nil {
			return nil, false
		}
		var vals []string
		for _, v := range r.Values {
			s, ok := scalar(v)
			if !ok {
				return nil, false
			}
			vals = append(vals, s)
		}
		var pos *actionlint.Pos
		if r.Name != nil {
			pos = r.Name.Pos
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
	type combo struct {
		vals     map[string]string
		original map[string]bool
	}
	combos := []combo{{vals: map[string]string{}, original: map[string]bool{}}}
	for _, r := range rows {
		var next []combo
		for _, c := range combos {
			for _, v := range r.vals {
				n := combo{vals: map[string]string{}, original: map[string]bool{}}
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
	entries := func(cs *actionlint.MatrixCombinations) ([]map[string]string, bool) {
		if cs == nil {
			return nil, true
		}
		if cs.Expression != nil {
			return nil, false
		}
		var out []map[string]string
		for _, c := range cs.Combinations {
			if c == nil || c.Expression != nil {
				return nil, false
			}
			e := map[string]string{}
			for k, a := range c.Assigns {
				if a == nil {
					continue
				}
				s, ok := scalar(a.Value)
				if !ok {
					return nil, false
				}
				e[strings.ToLower(k)] = s
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
	combos = slices.DeleteFunc(combos, func(c combo) bool {
		for _, ex := range excludes {
			all := len(ex) > 0
			for k, v := range ex {
				if c.vals[k] != v {
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
				if c.original[k] && c.vals[k] != v {
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
			n := combo{vals: map[string]string{}, original: map[string]bool{}}
			for k, v := range inc {
				n.vals[k] = v
			}
			combos = append(combos, n)
		}
	}
	rowKeys := make([]string, len(rows))
	for i, r := range rows {
		rowKeys[i] = r.key
	}
	for _, c := range combos {
		var l Leg
		for _, k := range rowKeys {
			if v, ok := c.vals[k]; ok {
				l.Keys, l.Values = append(l.Keys, k), append(l.Values, v)
			}
		}
		var extra []string
		for k := range c.vals {
			if !slices.Contains(rowKeys, k) {
				extra = append(extra, k)
			}
		}
		sort.Strings(extra)
		for _, k := range extra {
			l.Keys, l.Values = append(l.Keys, k), append(l.Values, c.vals[k])
		}
		legs = append(legs, l)
	}
	return legs, true
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
