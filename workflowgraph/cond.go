package workflowgraph

import (
	"strings"

	"github.com/rhysd/actionlint"
)

// Cond is a job's `if:` condition as written and as parsed.
//
// Expr is nil when the condition is absent (then the Job's If is nil
// altogether), when the value is a string template (text around `${{ }}` or
// more than one `${{ }}`, gha-job-status.md §2.3, AlwaysTrue is set), or when
// it fails to parse (ParseError is set).
type Cond struct {
	Raw        string
	Expr       actionlint.ExprNode
	AlwaysTrue bool
	// Embedded holds the expressions inside a templated value; the status
	// function test of §3 still looks into them (§2.4).
	Embedded   []actionlint.ExprNode
	ParseError string
	Line       int
	Column     int
}

// statusFuncs are the functions whose presence disables the implicit
// `success() &&` (gha-job-status.md §3).
var statusFuncs = map[string]bool{"always": true, "cancelled": true, "failure": true, "success": true}

// StatusFuncs returns the lower-cased status-check function names called
// anywhere in the parsed condition, sorted and without duplicates. It is safe
// on a nil Cond (no condition: no status function).
func (c *Cond) StatusFuncs() []string {
	if c == nil {
		return nil
	}
	seen := map[string]bool{}
	visit := func(n, _ actionlint.ExprNode, entering bool) {
		if !entering {
			return
		}
		if f, ok := n.(*actionlint.FuncCallNode); ok {
			name := strings.ToLower(f.Callee)
			if statusFuncs[name] {
				seen[name] = true
			}
		}
	}
	if c.Expr != nil {
		actionlint.VisitExprNode(c.Expr, visit)
	}
	for _, e := range c.Embedded {
		actionlint.VisitExprNode(e, visit)
	}
	var out []string
	for _, n := range []string{"always", "cancelled", "failure", "success"} {
		if seen[n] {
			out = append(out, n)
		}
	}
	return out
}

// HasStatusFunc reports whether the condition is used as written rather
// than wrapped in the implicit `success() && (...)`.
func (c *Cond) HasStatusFunc() bool { return len(c.StatusFuncs()) > 0 }

// parseCond builds a Cond from the raw `if:` string (nil when absent/blank).
func parseCond(s *actionlint.String) *Cond {
	if s == nil || strings.TrimSpace(s.Value) == "" {
		return nil
	}
	c := &Cond{Raw: s.Value}
	if s.Pos != nil {
		c.Line, c.Column = s.Pos.Line, s.Pos.Col
	}
	v := s.Value
	start, end := strings.Index(v, "${{"), strings.Index(v, "}}")
	if start >= 0 && end >= 0 {
		// Rule 2.5, verbatim so results match actionlint's if-cond.
		if start > 0 || end+2 < len(v) || strings.Count(v, "${{") > 1 {
			c.AlwaysTrue = true
			c.Embedded = parseEmbedded(v)
			return c
		}
		v = v[start+3 : end]
	}
	e, err := ParseExpr(v)
	if err != "" {
		c.ParseError = err
		return c
	}
	c.Expr = e
	return c
}

// ParseExpr parses a bare expression (no `${{ }}`) with actionlint's parser.
// It returns a non-empty message when the expression is invalid.
func ParseExpr(src string) (actionlint.ExprNode, string) {
	p := actionlint.NewExprParser()
	e, err := p.Parse(actionlint.NewExprLexer(src + "}}"))
	if err != nil {
		return nil, err.Message
	}
	return e, ""
}

// parseEmbedded parses every `${{ … }}` inside a templated string, skipping
// the ones that do not parse.
func parseEmbedded(v string) []actionlint.ExprNode {
	var out []actionlint.ExprNode
	for {
		i := strings.Index(v, "${{")
		if i < 0 {
			return out
		}
		v = v[i+3:]
		j := strings.Index(v, "}}")
		if j < 0 {
			return out
		}
		if e, err := ParseExpr(v[:j]); err == "" {
			out = append(out, e)
		}
		v = v[j+2:]
	}
}
