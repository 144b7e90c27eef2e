package expr

import (
	"fmt"
	"sort"
	"strings"

	"github.com/rhysd/actionlint"
)

// ParseError is a syntax error in an expression. Line and Column are
// 1-based and relative to the expression source.
type ParseError struct {
	Line, Column int
	Msg          string
}

func (e *ParseError) Error() string { return fmt.Sprintf("%d:%d: %s", e.Line, e.Column, e.Msg) }

// Parse parses an expression written without its ${{ }} delimiters.
func Parse(src string) (actionlint.ExprNode, error) {
	// actionlint's lexer expects the closing "}}" of an interpolation.
	n, err := actionlint.NewExprParser().Parse(actionlint.NewExprLexer(src + "}}"))
	if err != nil {
		return nil, &ParseError{Line: err.Line, Column: err.Column, Msg: err.Message}
	}
	return n, nil
}

// StatusCalls returns the status-check functions called anywhere in n
// (lower-cased, sorted, unique): under !, in either arm of || and &&, in
// other functions' arguments, compared case-insensitively, exactly the test
// GitHub uses to decide on the implicit success() (spec §3). String
// literals such as 'always()' are not calls.
func StatusCalls(n actionlint.ExprNode) []string {
	if n == nil {
		return nil
	}
	seen := map[string]bool{}
	actionlint.VisitExprNode(n, func(node, _ actionlint.ExprNode, entering bool) {
		if c, ok := node.(*actionlint.FuncCallNode); ok && entering && IsStatusFunc(c.Callee) {
			seen[strings.ToLower(c.Callee)] = true
		}
	})
	out := make([]string, 0, len(seen))
	for k := range seen {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// SuccessConjunct reports whether success() (no arguments) is a conjunct
// of n's top-level &&: then, like the implicit success(), n is false when
// any ancestor did not succeed, whatever other status functions it calls
// (`success() && always()`); `!success()` or `success() || x` are not.
func SuccessConjunct(n actionlint.ExprNode) bool {
	switch x := n.(type) {
	case *actionlint.LogicalOpNode:
		return x.Kind == actionlint.LogicalOpNodeKindAnd && (SuccessConjunct(x.Left) || SuccessConjunct(x.Right))
	case *actionlint.FuncCallNode:
		return strings.EqualFold(x.Callee, "success") && len(x.Args) == 0
	}
	return false
}

// Condition is a job-level `if:` value read the way GitHub reads it
// (spec §2–§3).
type Condition struct {
	// Raw is the value as written after YAML processing; "" when absent.
	Raw string
	// Expr is the parsed expression as written: the text inside a single
	// ${{ }} or the bare value. Nil when Raw is blank, templated or invalid.
	Expr actionlint.ExprNode
	// Templated is rule 2.3: text around ${{ }} makes a format(...) string
	// that is always truthy.
	Templated bool
	// Status lists the status functions found (StatusCalls); for a templated
	// value, those in its embedded expressions.
	Status []string
	// Err is a parse error; the workflow is then invalid.
	Err error
}

// ParseCondition reads a job `if:` value.
func ParseCondition(raw string) *Condition {
	c := &Condition{Raw: raw}
	if strings.TrimSpace(raw) == "" {
		return c
	}
	if IsTemplated(raw) {
		c.Templated = true
		rest := raw
		seen := map[string]bool{}
		for {
			s := strings.Index(rest, "${{")
			if s < 0 {
				break
			}
			e := strings.Index(rest[s:], "}}")
			if e < 0 {
				break
			}
			n, err := Parse(rest[s+3 : s+e])
			if err != nil {
				c.Err = err
				return c
			}
			for _, f := range StatusCalls(n) {
				seen[f] = true
			}
			rest = rest[s+e+2:]
		}
		for f := range seen {
			c.Status = append(c.Status, f)
		}
		sort.Strings(c.Status)
		return c
	}
	src := raw
	if s := strings.Index(raw, "${{"); s == 0 {
		src = raw[3 : len(raw)-2]
	}
	n, err := Parse(src)
	if err != nil {
		c.Err = err
		return c
	}
	c.Expr = n
	c.Status = StatusCalls(n)
	return c
}

// IsTemplated is rule 2.5, verbatim so results match actionlint: with s the
// first "${{" and e the first "}}", the value is a string template iff
// s > 0 || e+2 < len || more than one "${{".
func IsTemplated(v string) bool {
	s := strings.Index(v, "${{")
	e := strings.Index(v, "}}")
	if s < 0 || e < 0 {
		return false
	}
	return s > 0 || e+2 < len(v) || strings.Count(v, "${{") > 1
}

// Implicit reports whether GitHub prefixes `success() &&`: no status
// function anywhere.
func (c *Condition) Implicit() bool { return len(c.Status) == 0 }

// Effective returns the condition GitHub evaluates, as an AST: the
// expression, wrapped in `success() && (…)` when Implicit. A blank or
// templated value without status function is `success()`; a templated one
// with a status function is `true`. Nil when the value does not parse.
func (c *Condition) Effective() actionlint.ExprNode {
	success := &actionlint.FuncCallNode{Callee: "success"}
	switch {
	case c.Err != nil:
		return nil
	case c.Templated && c.Implicit():
		return success
	case c.Templated:
		return &actionlint.BoolNode{Value: true}
	case c.Expr == nil:
		return success
	case c.Implicit():
		return &actionlint.LogicalOpNode{Kind: actionlint.LogicalOpNodeKindAnd, Left: success, Right: c.Expr}
	}
	return c.Expr
}

// Eval evaluates the effective condition; an unparsable one is an error
// value.
func (c *Condition) Eval(env *Env) Value {
	n := c.Effective()
	if n == nil {
		return Errorf("invalid expression: " + c.Err.Error())
	}
	return Eval(n, env)
}
