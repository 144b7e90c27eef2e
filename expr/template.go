package expr

import (
	"strings"

	"github.com/rhysd/actionlint"
)

// Template is a value that may hold expressions (a job output, a `with:`
// input), parsed once: literal text and `${{ x }}` parts.
type Template struct {
	lits  []string // lits[k] precedes nodes[k]; the last one ends the text
	nodes []actionlint.ExprNode
	bad   bool // an unterminated or unparsable expression: err
	err   Value
}

// ParseTemplate splits raw into literal text and expressions.
func ParseTemplate(raw string) *Template {
	t := &Template{}
	rest := raw
	for {
		i := strings.Index(rest, "${{")
		if i < 0 {
			t.lits = append(t.lits, rest)
			return t
		}
		k := strings.Index(rest[i:], "}}")
		if k < 0 {
			t.bad, t.err = true, Unknown("unterminated expression")
			return t
		}
		n, err := Parse(rest[i+3 : i+k])
		if err != nil {
			t.bad, t.err = true, Unknown(err.Error())
			return t
		}
		t.lits = append(t.lits, rest[:i])
		t.nodes = append(t.nodes, n)
		rest = rest[i+k+2:]
	}
}

// Literal reports whether the template holds no expression.
func (t *Template) Literal() bool { return !t.bad && len(t.nodes) == 0 }

// Eval evaluates the template: each expression converted to text as
// format() converts it. The first expression that is not known (or raises)
// is the result.
func (t *Template) Eval(env *Env) Value {
	if t.bad {
		return t.err
	}
	if len(t.nodes) == 0 {
		return String(t.lits[0])
	}
	var b strings.Builder
	for k, n := range t.nodes {
		b.WriteString(t.lits[k])
		v := Eval(n, env)
		if !v.Known() {
			return v
		}
		b.WriteString(v.Text())
	}
	b.WriteString(t.lits[len(t.nodes)])
	return String(b.String())
}

// EvalTemplate parses and evaluates raw (ParseTemplate, then Eval).
func EvalTemplate(raw string, env *Env) Value { return ParseTemplate(raw).Eval(env) }
