package fix

import (
	"regexp"
	"slices"
	"strings"

	"github.com/rhysd/actionlint"

	"github.com/cicheck/cicheck/expr"
	"github.com/cicheck/cicheck/finding"
	"github.com/cicheck/cicheck/workflowgraph"
)

// change is one edit of the author's decoded if: value: text replaces
// del bytes at offset at. own marks text that goes on a line of its own
// in a block scalar (before the line of at, or after the line before at).
type change struct {
	at, del int
	text    string
	own     bool
}

// plan is how one job's if: value changes, and the condition it gets.
type plan struct {
	changes []change
	// wrap: a plain value without ${{ }} gets it, or the new leading `!`
	// would read as a YAML tag.
	wrap bool
	// cond is the new condition, without ${{ }}, for the finding's fix:
	// line and the check after the edit.
	cond string
	// keep are the author's texts the new value must still hold verbatim:
	// the condition, or the parts around the always() calls replaced.
	keep []string
}

// Condition is the condition edit e gives job j, as the text of an
// expression (no ${{ }}): the new terms followed by the author's
// condition as written. ok is false when the edit cannot keep the
// author's text (a string template, an if: that does not parse).
func Condition(j *workflowgraph.Job, e finding.CondEdit) (string, bool) {
	p, why := planFor(j.If, e)
	return p.cond, why == ""
}

// terms splits e's terms. A term whose top level is || is put in
// parentheses: joined by && as it stands, it would bind to its
// neighbours (`a && b||c` is `(a && b) || c`), gate nothing it meant to,
// and never be found again by the next run.
func terms(e finding.CondEdit) ([]string, string) {
	if e.Terms == "" {
		return nil, ""
	}
	ts := strings.Split(e.Terms, " && ")
	for i, t := range ts {
		n, err := workflowgraph.ParseExpr(t)
		if err != "" {
			return nil, "a term of the fix does not parse"
		}
		if l, ok := n.(*actionlint.LogicalOpNode); ok && l.Kind == actionlint.LogicalOpNodeKindOr && !parenthesized(t) {
			ts[i] = "(" + t + ")"
		}
	}
	return ts, ""
}

// alwaysCall is the text of an always() call.
var alwaysCall = regexp.MustCompile(`(?i)^always\s*\(\s*\)`)

// planFor computes the changes of edit e on condition c (nil: no if:).
func planFor(c *workflowgraph.Cond, e finding.CondEdit) (plan, string) {
	ts, why := terms(e)
	if why != "" {
		return plan{}, why
	}
	if c == nil {
		if len(ts) == 0 || e.Cancel {
			return plan{}, "the job has no if: to edit"
		}
		return plan{cond: strings.Join(ts, " && ")}, ""
	}
	switch {
	case c.ParseError != "":
		return plan{}, "the if: does not parse; fix the expression first"
	case c.AlwaysTrue || c.Expr == nil:
		return plan{}, "the if: is a string template (text around ${{ }}), which is always true; rewrite it by hand"
	}
	v := c.Raw
	lo, hi := 0, len(v)
	wrapped := strings.HasPrefix(v, "${{")
	if wrapped {
		end := strings.Index(v, "}}")
		if end < 0 || end+2 != len(v) {
			return plan{}, "the if: is not one ${{ }} expression"
		}
		lo, hi = 3, end
	}
	for lo < hi && isSpace(v[lo]) {
		lo++
	}
	for hi > lo && isSpace(v[hi-1]) {
		hi--
	}
	inner := v[lo:hi]
	if strings.Contains(inner, "${{") || strings.Contains(inner, "}}") {
		return plan{}, "the if: holds ${{ or }} inside its expression"
	}
	node, perr := workflowgraph.ParseExpr(inner)
	if perr != "" || expr.Render(node) != expr.Render(c.Expr) {
		return plan{}, "the if: could not be read back exactly"
	}
	p := plan{wrap: !wrapped}
	if e.Cancel {
		newInner := []byte(inner)
		var spans [][2]int
		actionlint.VisitExprNode(node, func(n, _ actionlint.ExprNode, entering bool) {
			f, ok := n.(*actionlint.FuncCallNode)
			if !ok || !entering || !strings.EqualFold(f.Callee, "always") || len(f.Args) != 0 {
				return
			}
			off := f.Token().Offset
			if m := alwaysCall.FindString(inner[off:]); m != "" {
				spans = append(spans, [2]int{off, off + len(m)})
			} else {
				spans = append(spans, [2]int{-1, -1})
			}
		})
		slices.SortFunc(spans, func(a, b [2]int) int { return a[0] - b[0] })
		for i := len(spans) - 1; i >= 0; i-- {
			s := spans[i]
			if s[0] < 0 {
				return plan{}, "an always() call could not be located in the if:"
			}
			p.changes = append([]change{{at: lo + s[0], del: s[1] - s[0], text: "!cancelled()"}}, p.changes...)
			newInner = append(newInner[:s[0]], append([]byte("!cancelled()"), newInner[s[1]:]...)...)
		}
		if len(spans) == 0 {
			return plan{}, "the if: has no always() call to replace"
		}
		prev := 0
		for _, sp := range spans {
			p.keep = append(p.keep, inner[prev:sp[0]])
			prev = sp[1]
		}
		p.keep = append(p.keep, inner[prev:])
		p.cond = string(newInner)
		return p, ""
	}
	present := map[string]bool{}
	for _, n := range conjuncts(node) {
		present[expr.Render(n)] = true
	}
	var add []string
	for _, t := range ts {
		tn, err := workflowgraph.ParseExpr(t)
		if err != "" {
			return plan{}, "a term of the fix does not parse"
		}
		if !present[expr.Render(tn)] {
			present[expr.Render(tn)] = true
			add = append(add, t)
		}
	}
	if len(add) == 0 {
		return plan{}, "the if: already holds every term of the fix"
	}
	prefix := strings.Join(add, " && ") + " && "
	body := inner
	if l, ok := node.(*actionlint.LogicalOpNode); ok && l.Kind == actionlint.LogicalOpNodeKindOr && !parenthesized(inner) {
		prefix += "("
		body = "(" + inner + ")"
		p.changes = []change{{at: lo, text: prefix, own: true}, {at: hi, text: ")", own: true}}
	} else {
		p.changes = []change{{at: lo, text: prefix, own: true}}
	}
	p.cond = strings.Join(add, " && ") + " && " + body
	p.keep = []string{inner}
	return p, ""
}

func isSpace(b byte) bool { return b == ' ' || b == '\t' || b == '\n' || b == '\r' }

// conjuncts are the operands of n's top-level &&.
func conjuncts(n actionlint.ExprNode) []actionlint.ExprNode {
	if l, ok := n.(*actionlint.LogicalOpNode); ok && l.Kind == actionlint.LogicalOpNodeKindAnd {
		return append(conjuncts(l.Left), conjuncts(l.Right)...)
	}
	return []actionlint.ExprNode{n}
}

// parenthesized reports an expression whole inside one pair of
// parentheses, `(a || b)` but not `(a) || (b)`; string literals are
// skipped.
func parenthesized(s string) bool {
	if !strings.HasPrefix(s, "(") || !strings.HasSuffix(s, ")") {
		return false
	}
	depth := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\'':
			for i++; i < len(s); i++ {
				if s[i] == '\'' {
					if i+1 < len(s) && s[i+1] == '\'' {
						i++
						continue
					}
					break
				}
			}
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 && i != len(s)-1 {
				return false
			}
		}
	}
	return depth == 0
}
