package expr

import "strings"

// EvalTemplate evaluates a value that may hold expressions (a job output,
// a `with:` input): literal text, one `${{ x }}`, or text around
// expressions, each converted to text as format() converts it. The first
// expression that is not known (or raises) is the result.
func EvalTemplate(raw string, env *Env) Value {
	if !strings.Contains(raw, "${{") {
		return String(raw)
	}
	var b strings.Builder
	rest := raw
	for {
		i := strings.Index(rest, "${{")
		if i < 0 {
			b.WriteString(rest)
			break
		}
		k := strings.Index(rest[i:], "}}")
		if k < 0 {
			return Unknown("unterminated expression")
		}
		b.WriteString(rest[:i])
		n, err := Parse(rest[i+3 : i+k])
		if err != nil {
			return Unknown(err.Error())
		}
		v := Eval(n, env)
		if !v.Known() {
			return v
		}
		b.WriteString(v.Text())
		rest = rest[i+k+2:]
	}
	return String(b.String())
}
