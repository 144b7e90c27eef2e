package expr

import (
	"math"
	"reflect"
	"sort"
	"strconv"
	"strings"
)

// Kind is the kind of a Value.
type Kind uint8

// Value kinds. The zero Value is unknown, so an unset Env field means "not
// given".
const (
	KindUnknown Kind = iota // a fact nobody supplied; see Value.Why
	KindNull
	KindBool
	KindNumber
	KindString
	KindArray
	KindObject
	KindError // evaluation raised; Value.Why is the message
)

var kindNames = [...]string{"unknown", "null", "boolean", "number", "string", "array", "object", "error"}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "invalid"
}

// Tri is a three-valued truth: Yes, No or Maybe.
type Tri uint8

// Truth values. Maybe is the zero value: unknown unless decided.
const (
	Maybe Tri = iota
	Yes
	No
)

func (t Tri) String() string {
	switch t {
	case Yes:
		return "true"
	case No:
		return "false"
	}
	return "unknown"
}

// Not is Kleene negation.
func (t Tri) Not() Tri {
	switch t {
	case Yes:
		return No
	case No:
		return Yes
	}
	return Maybe
}

// TriAnd is Kleene conjunction: false if either is, else unknown if
// either is, else true.
func TriAnd(a, b Tri) Tri {
	if a == No || b == No {
		return No
	}
	if a == Maybe || b == Maybe {
		return Maybe
	}
	return Yes
}

// TriOr is Kleene disjunction.
func TriOr(a, b Tri) Tri {
	if a == Yes || b == Yes {
		return Yes
	}
	if a == Maybe || b == Maybe {
		return Maybe
	}
	return No
}

// TriOf converts a bool.
func TriOf(b bool) Tri {
	if b {
		return Yes
	}
	return No
}

// Value is an expression value. Objects keep lower-cased keys because
// property access is case-insensitive.
type Value struct {
	Kind   Kind
	Bool   bool
	Num    float64
	Str    string
	Elems  []Value
	Fields map[string]Value
	// Open marks an object whose missing keys are unknown rather than null:
	// a context the caller only partly knows (github, vars, inputs).
	Open bool
	// Why explains an unknown value or holds an error's message.
	Why string
	// Truth is the known truthiness of an unknown value (for example
	// `x && false`: the value is not known, but it is falsy).
	Truth Tri
	// MayErr is set on an unknown value whose evaluation raises in some of
	// the cases it stands for; it holds the error message.
	MayErr string
	// Alts, on an unknown value, lists the values it may stand for (OneOf):
	// a comparison that gives the same answer for each is decided. An
	// alternative is a known value or, where an operand was not known, an
	// unknown value of known truthiness (the falsy side of `vars.x && 'a'`),
	// so `vars.x && 'a' || 'b'` is one of 'a' and 'b'. A comparison or
	// a test function over unknown operands is one of true and false.
	Alts []Value
	// MayBeEmpty, on an unknown value, says it may be the empty string: an
	// output of a job that failed, perhaps before setting it. fromJSON of
	// such a value may raise, and evaluated in source order that error
	// wins over whatever stands to its right (gha-job-status.md §6).
	MayBeEmpty bool

	filtered bool // array produced by `.*`: property access maps over it
}

// Null returns the null value.
func Null() Value { return Value{Kind: KindNull} }

// Bool returns a boolean value.
func Bool(b bool) Value { return Value{Kind: KindBool, Bool: b} }

// Number returns a number value.
func Number(f float64) Value { return Value{Kind: KindNumber, Num: f} }

// String returns a string value.
func String(s string) Value { return Value{Kind: KindString, Str: s} }

// Array returns an array value.
func Array(elems ...Value) Value {
	if elems == nil {
		elems = []Value{}
	}
	return Value{Kind: KindArray, Elems: elems}
}

// Object returns a closed object (missing keys are null). Keys are
// lower-cased.
func Object(fields map[string]Value) Value {
	m := make(map[string]Value, len(fields))
	for k, v := range fields {
		m[strings.ToLower(k)] = v
	}
	return Value{Kind: KindObject, Fields: m}
}

// OpenObject returns an object whose missing keys are unknown.
func OpenObject(fields map[string]Value) Value {
	v := Object(fields)
	v.Open = true
	return v
}

// Unknown returns an unknown value with a reason.
func Unknown(why string) Value { return Value{Kind: KindUnknown, Why: why} }

// OneOf returns an unknown value that is one of alts, e.g.
// a job result that is cancelled or skipped: comparisons and truthiness
// that agree over every alternative are decided, anything else stays
// unknown.
func OneOf(why string, alts ...Value) Value {
	v := Value{Kind: KindUnknown, Why: why, Alts: alts}
	for i, a := range alts {
		if t := a.Truthy(); i == 0 {
			v.Truth = t
		} else if t != v.Truth {
			v.Truth = Maybe
		}
	}
	return v
}

// unknownBool is u (unknown) narrowed to a boolean: what a comparison, a
// negation or a test function yields when an operand is not known.
func unknownBool(u Value) Value {
	u.Alts, u.Truth, u.MayBeEmpty = []Value{Bool(true), Bool(false)}, Maybe, false
	return u
}

// Errorf returns an evaluation error value.
func Errorf(msg string) Value { return Value{Kind: KindError, Why: msg} }

// Get returns the property name of an object value (case-insensitive),
// null when absent from a closed object, unknown when absent from an open
// one or when v itself is unknown.
func (v Value) Get(name string) Value {
	name = strings.ToLower(name)
	switch v.Kind {
	case KindUnknown:
		return v
	case KindObject:
		if f, ok := v.Fields[name]; ok {
			return f
		}
		if v.Open {
			return Unknown("")
		}
	}
	return Null()
}

// Set stores the value at a dotted path (lower-cased) inside v, creating
// open objects on the way, and returns the updated value. It is how callers
// supply facts such as "github.event_name" or "vars.RUN_GPU".
func (v Value) Set(path string, x Value) Value {
	head, rest, more := strings.Cut(strings.ToLower(path), ".")
	if v.Kind != KindObject {
		v = OpenObject(nil)
	} else {
		// Copy so a shared object is never mutated behind its owners' backs.
		m := make(map[string]Value, len(v.Fields)+1)
		for k, f := range v.Fields {
			m[k] = f
		}
		v.Fields = m
	}
	if !more {
		v.Fields[head] = x
		return v
	}
	v.Fields[head] = v.Fields[head].Set(rest, x)
	return v
}

// Truthy is the value's truthiness: falsy values are false, 0, -0, NaN, the empty string
// and null; arrays and objects are truthy; unknown is Maybe unless known.
func (v Value) Truthy() Tri {
	switch v.Kind {
	case KindUnknown:
		return v.Truth
	case KindError:
		return Maybe
	case KindNull:
		return No
	case KindBool:
		return TriOf(v.Bool)
	case KindNumber:
		return TriOf(v.Num != 0 && !math.IsNaN(v.Num))
	case KindString:
		return TriOf(v.Str != "")
	}
	return Yes
}

// Known reports whether v is a concrete value (not unknown, not an error).
func (v Value) Known() bool { return v.Kind != KindUnknown && v.Kind != KindError }

// primitive reports null, bool, number or string.
func (v Value) primitive() bool {
	return v.Kind == KindNull || v.Kind == KindBool || v.Kind == KindNumber || v.Kind == KindString
}

// Text is the string coercion GitHub uses in format, join and contains:
// null is ”, numbers print without trailing zeros, arrays are 'Array' and
// objects 'Object'.
func (v Value) Text() string {
	switch v.Kind {
	case KindNull:
		return ""
	case KindBool:
		if v.Bool {
			return "true"
		}
		return "false"
	case KindNumber:
		return formatNumber(v.Num)
	case KindString:
		return v.Str
	case KindArray:
		return "Array"
	case KindObject:
		return "Object"
	}
	return ""
}

// String renders the value for messages: strings quoted the expression way,
// unknown as "unknown".
func (v Value) String() string {
	switch v.Kind {
	case KindUnknown:
		return "unknown"
	case KindError:
		return "error: " + v.Why
	case KindNull:
		return "null"
	case KindString:
		return "'" + strings.ReplaceAll(v.Str, "'", "''") + "'"
	}
	return v.Text()
}

// formatNumber converts a number to a string as the runner does.
func formatNumber(f float64) string {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "Infinity"
	case math.IsInf(f, -1):
		return "-Infinity"
	case f == 0:
		return "0" // -0 too: the newer runner engine writes 0
	}
	// The runner converts numbers with .NET's "G15" (ExpressionConstants.
	// NumberFormat): 15 significant digits, scientific notation when the
	// exponent is below -5 or at least 15, as 1E+15 and 1E-05. Go's 'g'
	// with precision 15 picks the same form; only the E's case differs.
	return strings.Replace(strconv.FormatFloat(f, 'g', 15, 64), "e", "E", 1)
}

// ParseNumber converts text to a number as GitHub's loose coercion does
// (the empty string is 0, "0x10" is 16, other text that is no number is NaN).
func ParseNumber(s string) float64 { return String(s).toNumber() }

// toNumber is JavaScript's Number() coercion used by the runner.
func (v Value) toNumber() float64 {
	switch v.Kind {
	case KindNull:
		return 0
	case KindBool:
		if v.Bool {
			return 1
		}
		return 0
	case KindNumber:
		return v.Num
	case KindString:
		return parseNumber(v.Str)
	}
	return math.NaN()
}

// parseNumber is the runner's ExpressionUtility.ParseNumber
// (actions/runner, src/Sdk/DTExpressions2/Expressions2/Sdk/ExpressionUtility.cs):
// the trimmed string is 0 when empty; else a decimal with an optional
// leading sign, point and exponent (Double.TryParse with AllowLeadingSign,
// AllowDecimalPoint and AllowExponent); else "0x" (lower-case) and hex
// digits, or "0o" and octal digits, read as a 32-bit integer (two's
// complement: 0xffffffff is -1; more bits are NaN); else Infinity or
// -Infinity; else NaN. There is no 0b, and 0X or 0O is NaN.
// (.NET's Double.TryParse also reads its own infinity and NaN symbols;
// "+Infinity" is taken as Infinity here, as it was before.)
func parseNumber(s string) float64 {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0
	}
	if f, ok := parseDecimal(s); ok {
		return f
	}
	for _, r := range []struct {
		prefix string
		base   int
		digits string
	}{{"0x", 16, "0123456789abcdefABCDEF"}, {"0o", 8, "01234567"}} {
		if len(s) > 2 && strings.HasPrefix(s, r.prefix) && strings.Trim(s[2:], r.digits) == "" {
			n, err := strconv.ParseUint(s[2:], r.base, 32)
			if err != nil {
				return math.NaN() // exceeds 32 bits
			}
			return float64(int32(uint32(n)))
		}
	}
	switch s {
	case "Infinity", "+Infinity":
		return math.Inf(1)
	case "-Infinity":
		return math.Inf(-1)
	}
	return math.NaN()
}

// parseDecimal accepts [+-] digits [. digits] [e [+-] digits], with at
// least one digit before the exponent: what Double.TryParse takes with
// AllowLeadingSign, AllowDecimalPoint and AllowExponent. A value too large
// is infinite, as .NET Core returns it.
func parseDecimal(s string) (float64, bool) {
	i := 0
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	digits := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i, digits = i+1, digits+1
	}
	if i < len(s) && s[i] == '.' {
		i++
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i, digits = i+1, digits+1
		}
	}
	if digits == 0 {
		return 0, false
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		exp := 0
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i, exp = i+1, exp+1
		}
		if exp == 0 {
			return 0, false
		}
	}
	if i != len(s) {
		return 0, false
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil && !math.IsInf(f, 0) {
		return 0, false
	}
	return f, true
}

// coerce applies the runner's abstract-equality coercion: number vs string
// makes both numbers; null or bool on either side becomes a number.
func coerce(l, r Value) (Value, Value) {
	if l.Kind == r.Kind {
		return l, r
	}
	switch l.Kind {
	case KindNumber:
		if r.Kind == KindString {
			return l, Number(r.toNumber())
		}
	case KindString:
		if r.Kind == KindNumber {
			return Number(l.toNumber()), r
		}
	case KindNull, KindBool:
		return coerce(Number(l.toNumber()), r)
	}
	switch r.Kind {
	case KindNull, KindBool:
		return coerce(l, Number(r.toNumber()))
	}
	return l, r
}

// Equal is GitHub's loose equality on known values.
func Equal(a, b Value) bool {
	l, r := coerce(a, b)
	if l.Kind != r.Kind {
		return false
	}
	switch l.Kind {
	case KindNull:
		return true
	case KindNumber:
		return l.Num == r.Num // NaN compares false
	case KindString:
		return upper(l.Str) == upper(r.Str)
	case KindBool:
		return l.Bool == r.Bool
	case KindObject:
		return reflect.ValueOf(l.Fields).Pointer() == reflect.ValueOf(r.Fields).Pointer()
	case KindArray:
		return len(l.Elems) > 0 && len(l.Elems) == len(r.Elems) && &l.Elems[0] == &r.Elems[0]
	}
	return false
}

// less is GitHub's < on known values.
func less(a, b Value) bool {
	l, r := coerce(a, b)
	if l.Kind != r.Kind {
		return false
	}
	switch l.Kind {
	case KindNumber:
		return l.Num < r.Num
	case KindString:
		return upper(l.Str) < upper(r.Str)
	case KindBool:
		return !l.Bool && r.Bool
	}
	return false
}

// upper folds case the way the runner compares strings (ordinal ignore
// case), leaving the dotless ı alone as the runner does.
func upper(s string) string {
	if !strings.ContainsRune(s, 'ı') {
		return strings.ToUpper(s)
	}
	var b strings.Builder
	for _, r := range s {
		if r == 'ı' {
			b.WriteRune(r)
		} else {
			b.WriteString(strings.ToUpper(string(r)))
		}
	}
	return b.String()
}

// sortedKeys returns an object's keys in order, for deterministic output.
func sortedKeys(m map[string]Value) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}
