package expr

import (
	"math"
	"strings"

	"github.com/rhysd/actionlint"
)

// Env is what an expression may read.
type Env struct {
	// Contexts maps lower-case top-level names (github, needs, inputs, vars,
	// …) to values. A name absent from the map is unknown.
	Contexts map[string]Value
	// Success, Failure and Cancelled are the values of the job-level status
	// functions called without arguments. The zero Value means unknown.
	Success, Failure, Cancelled Value
}

// Eval evaluates n in env. It never panics on a well-formed AST and always
// terminates (one pass over the tree). A nil env behaves as an empty one; a
// nil node is unknown.
func Eval(n actionlint.ExprNode, env *Env) Value {
	if env == nil {
		env = &Env{}
	}
	if n == nil {
		return Unknown("no expression")
	}
	return (&evaluator{env: env}).eval(n)
}

type evaluator struct{ env *Env }

func (e *evaluator) eval(n actionlint.ExprNode) Value {
	switch n := n.(type) {
	case *actionlint.NullNode:
		return Null()
	case *actionlint.BoolNode:
		return Bool(n.Value)
	case *actionlint.IntNode:
		return Number(float64(n.Value))
	case *actionlint.FloatNode:
		return Number(n.Value)
	case *actionlint.StringNode:
		return String(n.Value)
	case *actionlint.VariableNode:
		if f, ok := NumberKeyword(n); ok {
			return Number(f)
		}
		v, ok := e.env.Contexts[strings.ToLower(n.Name)]
		if !ok {
			return Unknown(n.Name + " is not given")
		}
		return v
	case *actionlint.ObjectDerefNode:
		recv := e.eval(n.Receiver)
		if as := alts(recv); recv.Kind == KindUnknown && as != nil {
			// One of several objects (a matrix key over its rows): the
			// property of each.
			return mapAlts(recv, as, func(a Value) Value { return e.deref(n, a, n.Property) })
		}
		return e.deref(n, recv, n.Property)
	case *actionlint.ArrayDerefNode:
		return e.star(e.eval(n.Receiver))
	case *actionlint.IndexAccessNode:
		// The runner evaluates the left side first and the index only when
		// the left side is a collection (Operators/Index.cs).
		recv := e.eval(n.Operand)
		switch recv.Kind {
		case KindError, KindUnknown:
			return recv
		case KindArray, KindObject:
		default:
			return Null()
		}
		idx := e.eval(n.Index)
		if idx.Kind == KindError {
			return idx
		}
		if !idx.Known() {
			return unknownFrom(idx, recv)
		}
		return index(n, recv, idx)
	case *actionlint.NotOpNode:
		v := e.eval(n.Operand)
		switch v.Kind {
		case KindError:
			return v
		case KindUnknown:
			if t := v.Truthy(); t != Maybe {
				return Bool(t == No)
			}
			return unknownBool(v)
		}
		return Bool(v.Truthy() == No)
	case *actionlint.CompareOpNode:
		l := e.eval(n.Left)
		r := e.eval(n.Right)
		if l.Kind == KindError {
			return l
		}
		if r.Kind == KindError {
			return r
		}
		if !l.Known() || !r.Known() {
			return compareAlts(n.Kind, l, r)
		}
		return Bool(compare(n.Kind, l, r))
	case *actionlint.LogicalOpNode:
		return e.logical(n)
	case *actionlint.FuncCallNode:
		return e.call(n)
	}
	return Unknown("unsupported expression")
}

func (e *evaluator) logical(n *actionlint.LogicalOpNode) Value {
	and := n.Kind == actionlint.LogicalOpNodeKindAnd
	l := e.eval(n.Left)
	if l.Kind == KindError {
		return l
	}
	stop := No // && stops on a falsy left operand, || on a truthy one
	if !and {
		stop = Yes
	}
	switch l.Truthy() {
	case stop:
		return l
	case stop.Not():
		return e.eval(n.Right)
	}
	// Left undecided: the result is l or r, whichever GitHub picks.
	r := e.eval(n.Right)
	out := Value{Kind: KindUnknown, Why: l.Why, MayErr: l.MayErr}
	if r.Kind == KindError {
		out.MayErr = r.Why
		return out
	}
	if out.MayErr == "" {
		out.MayErr = r.MayErr
	}
	// Both outcomes share the stop truthiness when r has it too.
	if r.Truthy() == stop {
		out.Truth = stop
	}
	if out.MayErr == "" {
		if out.Alts = logicalAlts(l, r, stop); len(out.Alts) > 0 {
			out.Truth = OneOf("", out.Alts...).Truth
		}
	}
	return out
}

// mapAlts applies f to each alternative of the OneOf value v: one of the
// results when all are known, else v's unknown.
func mapAlts(v Value, as []Value, f func(Value) Value) Value {
	out := make([]Value, len(as))
	for i, a := range as {
		if out[i] = f(a); !out[i].Known() {
			return unknownFrom(v)
		}
	}
	out = dedupeAlts(out)
	if len(out) == 1 {
		return out[0]
	}
	return OneOf(v.Why, out...)
}

// maxAlts bounds the alternatives a value carries; beyond it the value is
// plainly unknown.
const maxAlts = 256

// logicalAlts lists what `l && r` (stop No) or `l || r` (stop Yes) may
// be when l's truthiness is not known: each alternative of l that stops,
// and r for each that does not. A plain unknown l stands for "l, of the
// stop truthiness". Nil when an alternative's truthiness is itself unknown.
func logicalAlts(l, r Value, stop Tri) []Value {
	rs := []Value{r}
	if r.Kind == KindUnknown && len(r.Alts) > 0 {
		rs = r.Alts
	}
	if len(l.Alts) == 0 {
		// l stops, as a value of the stop truthiness, or r is taken.
		return dedupeAlts(append([]Value{{Kind: KindUnknown, Why: l.Why, Truth: stop}}, rs...))
	}
	var out []Value
	takeR := false
	for _, a := range l.Alts {
		switch a.Truthy() {
		case stop:
			out = append(out, a)
		case stop.Not():
			takeR = true
		default:
			return nil
		}
	}
	if takeR {
		out = append(out, rs...)
	}
	if len(out) > maxAlts {
		return nil
	}
	return dedupeAlts(out)
}

// dedupeAlts drops repeated primitive alternatives, keeping the first.
func dedupeAlts(vs []Value) []Value {
	type key struct {
		kind  Kind
		text  string
		truth Tri
	}
	seen := map[key]bool{}
	out := vs[:0:0]
	for _, v := range vs {
		if v.primitive() || v.Kind == KindUnknown {
			k := key{v.Kind, v.Text(), v.Truth}
			if v.Kind == KindUnknown {
				k.text = v.Why
			}
			if seen[k] {
				continue
			}
			seen[k] = true
		}
		out = append(out, v)
	}
	return out
}

// compareAlts compares operands of which at least one is unknown: decided
// when every alternative of a OneOf value gives the same answer.
func compareAlts(k actionlint.CompareOpNodeKind, l, r Value) Value {
	ls, rs := alts(l), alts(r)
	if ls == nil || rs == nil {
		return unknownBool(unknownFrom(l, r))
	}
	first := compare(k, ls[0], rs[0])
	for _, a := range ls {
		for _, b := range rs {
			if compare(k, a, b) != first {
				return unknownBool(unknownFrom(l, r))
			}
		}
	}
	return Bool(first)
}

// alts is the known values v may be: itself when known, its Alts when it
// is a OneOf value of known alternatives, nil otherwise.
func alts(v Value) []Value {
	if v.Known() {
		return []Value{v}
	}
	if v.Kind == KindUnknown && len(v.Alts) > 0 && v.MayErr == "" {
		for _, a := range v.Alts {
			if !a.Known() {
				return nil
			}
		}
		return v.Alts
	}
	return nil
}

func compare(k actionlint.CompareOpNodeKind, l, r Value) bool {
	switch k {
	case actionlint.CompareOpNodeKindEq:
		return Equal(l, r)
	case actionlint.CompareOpNodeKindNotEq:
		return !Equal(l, r)
	case actionlint.CompareOpNodeKindLess:
		return less(l, r)
	case actionlint.CompareOpNodeKindLessEq:
		return Equal(l, r) || less(l, r)
	case actionlint.CompareOpNodeKindGreater:
		return less(r, l)
	case actionlint.CompareOpNodeKindGreaterEq:
		return Equal(l, r) || less(r, l)
	}
	return false
}

// unknownFrom builds the unknown result of an operation over vs, keeping the
// first reason and any possible error.
func unknownFrom(vs ...Value) Value {
	out := Value{Kind: KindUnknown}
	for _, v := range vs {
		if v.Kind != KindUnknown {
			continue
		}
		if out.Why == "" {
			out.Why = v.Why
		}
		if out.MayErr == "" {
			out.MayErr = v.MayErr
		}
	}
	return out
}

// deref is property access: a.b or a['b'].
func (e *evaluator) deref(n actionlint.ExprNode, recv Value, name string) Value {
	switch recv.Kind {
	case KindUnknown, KindError:
		return recv
	case KindObject:
		v := recv.Get(name)
		if v.Kind == KindUnknown && v.Why == "" {
			v.Why = Render(n) + " is not given"
		}
		return v
	case KindArray:
		if !recv.filtered {
			return Null()
		}
		out := Value{Kind: KindArray, Elems: []Value{}, filtered: true}
		for _, el := range recv.Elems {
			switch el.Kind {
			case KindUnknown:
				return el
			case KindObject:
				v := el.Get(name)
				if v.Kind == KindUnknown {
					if v.Why == "" {
						v.Why = Render(n) + " is not given"
					}
					return v
				}
				if _, ok := el.Fields[strings.ToLower(name)]; ok {
					out.Elems = append(out.Elems, v)
				}
			}
		}
		return out
	}
	return Null()
}

// star is `.*`: the values of an array or object as a filtered array. On a
// filtered array it flattens one level, as the runner does.
func (e *evaluator) star(recv Value) Value {
	out := Value{Kind: KindArray, Elems: []Value{}, filtered: true}
	switch recv.Kind {
	case KindUnknown, KindError:
		return recv
	case KindArray:
		if !recv.filtered {
			out.Elems = append(out.Elems, recv.Elems...)
			return out
		}
		for _, el := range recv.Elems {
			switch el.Kind {
			case KindUnknown:
				return el
			case KindArray:
				out.Elems = append(out.Elems, el.Elems...)
			case KindObject:
				if el.Open {
					return Unknown("not every property of an object is given")
				}
				for _, k := range sortedKeys(el.Fields) {
					out.Elems = append(out.Elems, el.Fields[k])
				}
			}
		}
	case KindObject:
		if recv.Open {
			return Unknown("not every property of an object is given")
		}
		for _, k := range sortedKeys(recv.Fields) {
			out.Elems = append(out.Elems, recv.Fields[k])
		}
	}
	return out
}

// index is a[i] as the runner's Operators/Index.cs evaluates it: an object
// takes the index as a string (a primitive index, converted), an array as
// an integer (the index converted to a number, floored; NaN, negative or
// beyond Int32 is no index), a filtered array applies the string index to
// each nested object and the integer index to each nested array.
func index(n actionlint.ExprNode, recv, idx Value) Value {
	str, hasStr := "", idx.primitive()
	if hasStr {
		str = idx.Text()
	}
	i, hasInt := -1, false
	if f := idx.toNumber(); !math.IsNaN(f) && f >= 0 && math.Floor(f) <= math.MaxInt32 {
		i, hasInt = int(math.Floor(f)), true
	}
	switch recv.Kind {
	case KindObject:
		if !hasStr {
			return Null()
		}
		v := recv.Get(str)
		if v.Kind == KindUnknown && v.Why == "" {
			v.Why = Render(n) + " is not given"
		}
		return v
	case KindArray:
		if recv.filtered {
			out := Value{Kind: KindArray, Elems: []Value{}, filtered: true}
			for _, el := range recv.Elems {
				switch {
				case el.Kind == KindUnknown:
					return el
				case el.Kind == KindObject && hasStr:
					if el.Open {
						return Unknown(Render(n) + " is not given")
					}
					if v, ok := el.Fields[strings.ToLower(str)]; ok {
						out.Elems = append(out.Elems, v)
					}
				case el.Kind == KindArray && hasInt && i < len(el.Elems):
					out.Elems = append(out.Elems, el.Elems[i])
				}
			}
			return out
		}
		if hasInt && i < len(recv.Elems) {
			return recv.Elems[i]
		}
	}
	return Null()
}

// NumberKeyword reports NaN and Infinity, which the runner's lexer reads as
// number literals (case-sensitive, Tokens/LexicalAnalyzer.cs) and
// actionlint's parser as variables.
func NumberKeyword(n *actionlint.VariableNode) (float64, bool) {
	if t := n.Token(); t != nil {
		switch t.Value {
		case "NaN":
			return math.NaN(), true
		case "Infinity":
			return math.Inf(1), true
		}
	}
	return 0, false
}
