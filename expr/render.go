package expr

import (
	"strconv"
	"strings"

	"github.com/rhysd/actionlint"
)

// Render prints an expression AST back as source text, for messages and
// fixes. Variable and property names come out lower-cased, as actionlint
// stores them.
func Render(n actionlint.ExprNode) string {
	var b strings.Builder
	render(&b, n, nil)
	return b.String()
}

// RenderReplace is Render with some nodes replaced: repl returns the text
// for a node and true to use it instead of the node's own rendering. The
// replacement is parenthesised where precedence needs it (it is treated as
// a unary expression, so write "(a || b)" for a binary one).
func RenderReplace(n actionlint.ExprNode, repl func(actionlint.ExprNode) (string, bool)) string {
	var b strings.Builder
	render(&b, n, repl)
	return b.String()
}

// prec orders operators for parenthesisation: || < && < comparison < unary.
func prec(n actionlint.ExprNode) int {
	switch n := n.(type) {
	case *actionlint.LogicalOpNode:
		if n.Kind == actionlint.LogicalOpNodeKindOr {
			return 1
		}
		return 2
	case *actionlint.CompareOpNode:
		return 3
	}
	return 4
}

func renderChild(b *strings.Builder, n actionlint.ExprNode, min int, repl func(actionlint.ExprNode) (string, bool)) {
	if repl != nil {
		if s, ok := repl(n); ok {
			b.WriteString(s)
			return
		}
	}
	if prec(n) < min {
		b.WriteByte('(')
		render(b, n, repl)
		b.WriteByte(')')
		return
	}
	render(b, n, repl)
}

func render(b *strings.Builder, n actionlint.ExprNode, repl func(actionlint.ExprNode) (string, bool)) {
	if repl != nil {
		if s, ok := repl(n); ok {
			b.WriteString(s)
			return
		}
	}
	switch n := n.(type) {
	case nil:
		b.WriteString("")
	case *actionlint.NullNode:
		b.WriteString("null")
	case *actionlint.BoolNode:
		b.WriteString(strconv.FormatBool(n.Value))
	case *actionlint.IntNode:
		b.WriteString(strconv.Itoa(n.Value))
	case *actionlint.FloatNode:
		b.WriteString(formatNumber(n.Value))
	case *actionlint.StringNode:
		b.WriteString("'" + strings.ReplaceAll(n.Value, "'", "''") + "'")
	case *actionlint.VariableNode:
		b.WriteString(n.Name)
	case *actionlint.ObjectDerefNode:
		renderChild(b, n.Receiver, 4, repl)
		b.WriteString("." + n.Property)
	case *actionlint.ArrayDerefNode:
		renderChild(b, n.Receiver, 4, repl)
		b.WriteString(".*")
	case *actionlint.IndexAccessNode:
		renderChild(b, n.Operand, 4, repl)
		b.WriteByte('[')
		render(b, n.Index, repl)
		b.WriteByte(']')
	case *actionlint.NotOpNode:
		b.WriteByte('!')
		renderChild(b, n.Operand, 4, repl)
	case *actionlint.CompareOpNode:
		renderChild(b, n.Left, 3, repl)
		b.WriteString(" " + n.Kind.String() + " ")
		renderChild(b, n.Right, 4, repl)
	case *actionlint.LogicalOpNode:
		p := prec(n)
		renderChild(b, n.Left, p, repl)
		b.WriteString(" " + n.Kind.String() + " ")
		renderChild(b, n.Right, p+1, repl)
	case *actionlint.FuncCallNode:
		b.WriteString(n.Callee + "(")
		for i, a := range n.Args {
			if i > 0 {
				b.WriteString(", ")
			}
			render(b, a, repl)
		}
		b.WriteByte(')')
	}
}
