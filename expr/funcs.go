package expr

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/rhysd/actionlint"
)

// statusFuncs are the functions whose presence anywhere in a job `if:`
// stops GitHub from prefixing `success() &&` (spec §3).
var statusFuncs = map[string]bool{"always": true, "cancelled": true, "failure": true, "success": true}

// testFuncs return a boolean whatever their arguments: over unknown
// arguments they are one of true and false.
var testFuncs = map[string]bool{"contains": true, "startswith": true, "endswith": true}

// IsStatusFunc reports whether name (any case) is a status-check function.
func IsStatusFunc(name string) bool { return statusFuncs[strings.ToLower(name)] }

func (e *evaluator) call(n *actionlint.FuncCallNode) Value {
	name := strings.ToLower(n.Callee)
	switch name {
	case "always":
		return Bool(true)
	case "case":
		return e.caseOf(n)
	case "format":
		if len(n.Args) < 1 {
			return arity(name)
		}
		return e.formatOf(n)
	case "cancelled":
		return status(e.env.Cancelled, "cancelled()")
	case "success", "failure":
		if len(n.Args) > 0 {
			// Azure Pipelines heritage, undocumented on GitHub (spec §4).
			return Unknown(name + "() with arguments is undocumented")
		}
		if name == "success" {
			return status(e.env.Success, "success()")
		}
		return status(e.env.Failure, "failure()")
	}
	args := make([]Value, len(n.Args))
	for i, a := range n.Args {
		args[i] = e.eval(a)
		if args[i].Kind == KindError {
			return args[i]
		}
	}
	for _, a := range args {
		if a.Kind == KindUnknown {
			u := unknownFrom(args...)
			if name == "fromjson" && a.MayBeEmpty && u.MayErr == "" {
				u.MayErr = "fromJSON: empty input is not JSON, if " + whyOf(a)
			}
			if testFuncs[name] {
				return unknownBool(u)
			}
			return u
		}
	}
	switch name {
	case "contains":
		if len(args) != 2 {
			return arity(name)
		}
		if contains(args[0], args[1]) {
			return Bool(true)
		}
		// Not found among the known elements: an unknown one may match.
		if u, ok := nestedUnknown(args[0]); ok && args[0].Kind == KindArray {
			return unknownBool(u)
		}
		if u, ok := nestedUnknown(args[1]); ok {
			return unknownBool(u)
		}
		return Bool(false)
	case "startswith", "endswith":
		if len(args) != 2 {
			return arity(name)
		}
		if !args[0].primitive() || !args[1].primitive() {
			return Bool(false)
		}
		s, p := upper(args[0].Text()), upper(args[1].Text())
		if name == "startswith" {
			return Bool(strings.HasPrefix(s, p))
		}
		return Bool(strings.HasSuffix(s, p))
	case "join":
		if len(args) < 1 || len(args) > 2 {
			return arity(name)
		}
		if u, ok := nestedUnknown(args[0]); ok {
			return u
		}
		return join(args)
	case "tojson":
		if len(args) != 1 {
			return arity(name)
		}
		if u, ok := nestedUnknown(args[0]); ok {
			return u
		}
		var b bytes.Buffer
		writeJSON(&b, args[0], "")
		return String(b.String())
	case "fromjson":
		if len(args) != 1 {
			return arity(name)
		}
		return FromJSON(args[0].Text())
	case "hashfiles":
		return Unknown("hashFiles() is not evaluated offline")
	}
	return Unknown("unknown function " + n.Callee + "()")
}

func status(v Value, name string) Value {
	if v.Kind == KindUnknown && v.Why == "" {
		v.Why = name + " is not known"
	}
	return v
}

// arity is a wrong argument count: a static error actionlint reports, so it
// is unknown here rather than an evaluation error reported twice.
func arity(name string) Value { return Unknown("wrong number of arguments to " + name + "()") }

func contains(search, item Value) bool {
	if search.primitive() {
		if !item.primitive() {
			return false
		}
		// OrdinalIgnoreCase compares upper-case forms, as equality does.
		return strings.Contains(upper(search.Text()), upper(item.Text()))
	}
	if search.Kind == KindArray {
		for _, el := range search.Elems {
			if el.Known() && Equal(item, el) {
				return true
			}
		}
	}
	return false
}

func join(args []Value) Value {
	if args[0].primitive() {
		return String(args[0].Text())
	}
	if args[0].Kind != KindArray {
		return String("")
	}
	sep := ","
	if len(args) > 1 && args[1].primitive() {
		sep = args[1].Text()
	}
	parts := make([]string, len(args[0].Elems))
	for i, el := range args[0].Elems {
		parts[i] = el.Text()
	}
	return String(strings.Join(parts, sep))
}

// formatOf is format('{0} {{x}}', a...) as the runner's Functions/Format.cs
// evaluates it: the format string is read first (a placeholder is digits
// up to 255 then '}' or ':'; a format specifier, or an index beyond the
// arguments, or a lone brace raises); then only the arguments it uses are
// evaluated, in the order they appear, each once.
func (e *evaluator) formatOf(n *actionlint.FuncCallNode) Value {
	fv := e.eval(n.Args[0])
	if fv.Kind == KindError || fv.Kind == KindUnknown {
		return fv
	}
	fs := fv.Text()
	type segment struct {
		text string
		arg  int // -1: text
	}
	var segs []segment
	invalid := Errorf("the format string is invalid: " + fs)
	for i := 0; i < len(fs); {
		lb, rb := indexFrom(fs, '{', i), indexFrom(fs, '}', i)
		switch {
		case lb >= 0 && (rb < 0 || rb > lb):
			if lb+1 < len(fs) && fs[lb+1] == '{' {
				segs = append(segs, segment{fs[i : lb+1], -1})
				i = lb + 2
				continue
			}
			j := lb + 1
			for j < len(fs) && fs[j] >= '0' && fs[j] <= '9' {
				j++
			}
			idx, err := strconv.Atoi(fs[lb+1 : j])
			if j == lb+1 || err != nil || idx > 255 || rb <= lb+1 {
				return invalid
			}
			switch {
			case j < len(fs) && fs[j] == '}':
			case j < len(fs) && fs[j] == ':':
				// A format specifier: .NET raises for every value an
				// expression can produce.
				return Errorf("the format specifiers of " + fs + " are not valid for its argument")
			default:
				return invalid
			}
			if idx > len(n.Args)-2 {
				return Errorf("the format string references more arguments than were supplied: " + fs)
			}
			segs = append(segs, segment{fs[i:lb], -1}, segment{"", idx})
			i = j + 1
		case rb >= 0:
			if rb+1 < len(fs) && fs[rb+1] == '}' {
				segs = append(segs, segment{fs[i : rb+1], -1})
				i = rb + 2
				continue
			}
			return invalid
		default:
			segs = append(segs, segment{fs[i:], -1})
			i = len(fs)
		}
	}
	args := map[int]Value{}
	var b strings.Builder
	for _, s := range segs {
		if s.arg < 0 {
			b.WriteString(s.text)
			continue
		}
		v, ok := args[s.arg]
		if !ok {
			v = e.eval(n.Args[s.arg+1])
			args[s.arg] = v
		}
		switch v.Kind {
		case KindError, KindUnknown:
			return v
		}
		b.WriteString(v.Text())
	}
	return String(b.String())
}

func indexFrom(s string, c byte, from int) int {
	if i := strings.IndexByte(s[from:], c); i >= 0 {
		return from + i
	}
	return -1
}

// FromJSON parses s as fromJSON does: an error value when s is not JSON
// (including the empty string of a missing output, spec §6).
func FromJSON(s string) Value {
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	v, err := decodeValue(dec)
	if err != nil {
		return Errorf("fromJSON: " + jsonMsg(s, err))
	}
	if _, err := dec.Token(); err == nil {
		return Errorf("fromJSON: trailing data after JSON value")
	}
	return v
}

// decodeValue reads one JSON value in document order, so that of two keys
// that differ only in case the later value wins, deterministically, as the
// runner's case-insensitive dictionary keeps it.
func decodeValue(dec *json.Decoder) (Value, error) {
	return decodeValueAt(dec, 0)
}

func decodeValueAt(dec *json.Decoder, depth int) (Value, error) {
	t, err := dec.Token()
	if err != nil {
		if depth > 0 && errors.Is(err, io.EOF) {
			err = io.ErrUnexpectedEOF // the document stopped inside a value
		}
		return Value{}, err
	}
	// A closing delimiter read on its own is the end of an open value.
	next := func() error {
		_, err := dec.Token()
		if errors.Is(err, io.EOF) {
			return io.ErrUnexpectedEOF
		}
		return err
	}
	switch t := t.(type) {
	case json.Delim:
		switch t {
		case '[':
			var elems []Value
			for dec.More() {
				v, err := decodeValueAt(dec, depth+1)
				if err != nil {
					return Value{}, err
				}
				elems = append(elems, v)
			}
			if err := next(); err != nil {
				return Value{}, err
			}
			return Array(elems...), nil
		case '{':
			fields := map[string]Value{}
			for dec.More() {
				k, err := dec.Token()
				if err != nil {
					if errors.Is(err, io.EOF) {
						err = io.ErrUnexpectedEOF
					}
					return Value{}, err
				}
				key, _ := k.(string)
				v, err := decodeValueAt(dec, depth+1)
				if err != nil {
					return Value{}, err
				}
				fields[strings.ToLower(key)] = v
			}
			if err := next(); err != nil {
				return Value{}, err
			}
			return Object(fields), nil
		}
	case nil:
		return Null(), nil
	case bool:
		return Bool(t), nil
	case json.Number:
		f, err := strconv.ParseFloat(string(t), 64)
		if err != nil && !math.IsInf(f, 0) {
			return Number(math.NaN()), nil
		}
		return Number(f), nil // too large: infinite, as .NET reads it
	case string:
		return String(t), nil
	}
	return Null(), nil
}

func jsonMsg(s string, err error) string {
	if strings.TrimSpace(s) == "" {
		return "empty input is not JSON"
	}
	return err.Error()
}

// writeJSON renders v like toJSON: two-space indentation, keys sorted for
// determinism.
func writeJSON(b *bytes.Buffer, v Value, indent string) {
	switch v.Kind {
	case KindArray:
		if len(v.Elems) == 0 {
			b.WriteString("[]")
			return
		}
		b.WriteString("[\n")
		for i, el := range v.Elems {
			b.WriteString(indent + "  ")
			writeJSON(b, el, indent+"  ")
			if i < len(v.Elems)-1 {
				b.WriteByte(',')
			}
			b.WriteByte('\n')
		}
		b.WriteString(indent + "]")
	case KindObject:
		if len(v.Fields) == 0 {
			b.WriteString("{}")
			return
		}
		b.WriteString("{\n")
		keys := sortedKeys(v.Fields)
		for i, k := range keys {
			q := jsonString(k)
			b.WriteString(indent + "  ")
			b.Write(q)
			b.WriteString(": ")
			writeJSON(b, v.Fields[k], indent+"  ")
			if i < len(keys)-1 {
				b.WriteByte(',')
			}
			b.WriteByte('\n')
		}
		b.WriteString(indent + "}")
	case KindString:
		q := jsonString(v.Str)
		b.Write(q)
	case KindNumber:
		if math.IsNaN(v.Num) || math.IsInf(v.Num, 0) {
			b.WriteString("null")
			return
		}
		b.WriteString(formatNumber(v.Num))
	case KindBool:
		b.WriteString(v.Text())
	default:
		b.WriteString("null")
	}
}

// whyOf is an unknown value's explanation, or a generic one.
func whyOf(v Value) string {
	if v.Why != "" {
		return v.Why
	}
	return "its value is not known"
}

// caseOf is case(pred1, val1, ..., default) as the runner evaluates it
// (actions/runner Functions/Case.cs): an even number of arguments raises;
// predicates are evaluated in order and must be booleans (else it raises);
// the value after the first true one is the result, only it is evaluated;
// with none true, the last argument. An unknown predicate leaves the
// result unknown.
func (e *evaluator) caseOf(n *actionlint.FuncCallNode) Value {
	if len(n.Args)%2 == 0 {
		return Errorf("case requires an odd number of arguments")
	}
	for i := 0; i+1 < len(n.Args); i += 2 {
		p := e.eval(n.Args[i])
		switch {
		case p.Kind == KindError:
			return p
		case p.Kind == KindUnknown:
			u := unknownFrom(p)
			if u.Why == "" {
				u.Why = "a case() predicate is not known"
			}
			return u
		case p.Kind != KindBool:
			return Errorf("case predicate must evaluate to a boolean value")
		case p.Bool:
			return e.eval(n.Args[i+1])
		}
	}
	return e.eval(n.Args[len(n.Args)-1])
}

// nestedUnknown finds an unknown value inside an array or object (or an
// object not every property of which is known): functions that read the
// whole value (toJSON, join, contains) cannot decide then.
func nestedUnknown(v Value) (Value, bool) {
	switch v.Kind {
	case KindUnknown:
		return v, true
	case KindArray:
		for _, el := range v.Elems {
			if u, ok := nestedUnknown(el); ok {
				return u, true
			}
		}
	case KindObject:
		if v.Open {
			return Unknown("not every property of an object is given"), true
		}
		for _, k := range sortedKeys(v.Fields) {
			if u, ok := nestedUnknown(v.Fields[k]); ok {
				return u, true
			}
		}
	}
	return Value{}, false
}

// jsonString quotes s as toJSON does: Newtonsoft's default escaping, which
// leaves <, > and & as they are (encoding/json would write \u003c).
func jsonString(s string) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}
