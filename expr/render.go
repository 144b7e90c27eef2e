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
	render(&b, n)
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

func renderChild(b *strings.Builder, n actionlint.ExprNode, min int) {
	if prec(n) < min {
		b.WriteByte('(')
		render(b, n)
		b.WriteByte(')')
		return
	}
	render(b, n)
}

func render(b *strings.Builder, n actionlint.ExprNode) {
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
		renderChild(b, n.Receiver, 4)
		b.WriteString("." + n.Property)
	case *actionlint.ArrayDerefNode:
		renderChild(b, n.Receiver, 4)
		b.WriteString(".*")
	case *actionlint.IndexAccessNode:
		renderChild(b, n.Operand, 4)
		b.WriteByte('[')
		render(b, n.Index)
		b.WriteByte(']')
	case *actionlint.NotOpNode:
		b.WriteByte('!')
		renderChild(b, n.Operand, 4)
	case *actionlint.CompareOpNode:
		renderChild(b, n.Left, 3)
		b.WriteString(" " + n.Kind.String() + " ")
		renderChild(b, n.Right, 4)
	case *actionlint.LogicalOpNode:
		p := prec(n)
		renderChild(b, n.Left, p)
		b.WriteString(" " + n.Kind.String() + " ")
		renderChild(b, n.Right, p+1)
	case *actionlint.FuncCallNode:
		b.WriteString(n.Callee + "(")
		for i, a := range n.Args {
			if i > 0 {
				b.WriteString(", ")
			}
			render(b, a)
		}
		b.WriteByte(')')
	}
}
