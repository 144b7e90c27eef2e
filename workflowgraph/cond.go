package workflowgraph

import (
	"slices"
	"sort"
	"strings"

	"github.com/rhysd/actionlint"

	"github.com/cicheck/cicheck/expr"
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

	status   *[]string // StatusFuncs, set by parseCond (cacheStatus)
	statusOf actionlint.ExprNode
}

// StatusFuncs returns the lower-cased status-check function names called
// anywhere in the parsed condition (expr.StatusCalls over Expr and the
// embedded expressions), sorted and without duplicates. It is safe on a
// nil Cond (no condition: no status function). The caller owns the slice.
func (c *Cond) StatusFuncs() []string {
	if c == nil {
		return nil
	}
	if c.status != nil && c.statusOf == c.Expr {
		return slices.Clone(*c.status)
	}
	return statusFuncs(c.Expr, c.Embedded)
}

// cacheStatus records StatusFuncs at parse time: rules ask about the same
// job again and again. Nothing writes it later, so a Cond can be read from
// several goroutines; Expr is remembered so that a Cond edited after
// parsing is not answered from a stale cache.
func (c *Cond) cacheStatus() {
	out := statusFuncs(c.Expr, c.Embedded)
	c.status, c.statusOf = &out, c.Expr
}

func statusFuncs(e actionlint.ExprNode, embedded []actionlint.ExprNode) []string {
	out := expr.StatusCalls(e)
	for _, n := range embedded {
		out = append(out, expr.StatusCalls(n)...)
	}
	if len(embedded) > 0 {
		sort.Strings(out)
		out = slices.Compact(out)
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// HasStatusFunc reports whether the condition is used as written rather
// than wrapped in the implicit `success() && (...)`.
func (c *Cond) HasStatusFunc() bool { return len(c.StatusFuncs()) > 0 }

// parseCond builds a Cond from the raw `if:` string (nil when absent/blank).
func parseCond(s *actionlint.String, cache exprCache) *Cond {
	c := readCond(s, cache)
	if c != nil {
		c.cacheStatus()
	}
	return c
}

func readCond(s *actionlint.String, cache exprCache) *Cond {
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
			c.Embedded = parseEmbedded(v, cache)
			return c
		}
		v = v[start+3 : end]
	}
	e, err := cache.parse(v)
	if err != "" {
		c.ParseError = err
		return c
	}
	c.Expr = e
	return c
}

// exprCache memoizes ParseExpr within one Build. A local reusable workflow
// is rebuilt for every job that calls it (its inputs differ), and callers
// repeat the same `with:` values, so the same text is parsed many times.
// The parsed trees are shared; nothing mutates an ExprNode. A nil cache
// parses every time.
type exprCache map[string]parsedExpr

type parsedExpr struct {
	e    actionlint.ExprNode
	err  string
	tmpl *expr.Template
}

// template parses src as a template (text with `${{ }}` pieces), once.
func (c exprCache) template(src string) *expr.Template {
	if c == nil {
		return expr.ParseTemplate(src)
	}
	k := "\x00template:" + src
	if p, ok := c[k]; ok {
		return p.tmpl
	}
	t := expr.ParseTemplate(src)
	c[k] = parsedExpr{tmpl: t}
	return t
}

func (c exprCache) parse(src string) (actionlint.ExprNode, string) {
	if c == nil {
		return ParseExpr(src)
	}
	if p, ok := c[src]; ok {
		return p.e, p.err
	}
	e, err := ParseExpr(src)
	c[src] = parsedExpr{e: e, err: err}
	return e, err
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
func parseEmbedded(v string, cache exprCache) []actionlint.ExprNode {
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
		if e, err := cache.parse(v[:j]); err == "" {
			out = append(out, e)
		}
		v = v[j+2:]
	}
}
