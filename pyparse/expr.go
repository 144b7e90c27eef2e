package pyparse

import (
	"errors"
	"math"
	"math/big"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
)

// Node is the small part of a Python expression AST the literal evaluator
// needs: the AST class name (reported in messages such as "got Tuple"), the
// position, and for constants the Python type and value.
type Node struct {
	Class     string // Python ast class: Constant, Name, List, Tuple, Call, ...
	Line, Col int

	Type string  // for Constant: str, bytes, int, float, complex, bool, NoneType, ellipsis
	Str  string  // str/bytes value
	Num  float64 // int/float value; bool as 0/1
	Bool bool    // bool value

	Name  string  // Name id, Attribute attr
	Elts  []*Node // List, Tuple, Set elements; Call positional args; Dict values
	Keys  []*Node // Dict keys (nil entry for **spread)
	Fn    *Node   // Call func, Attribute/Subscript/Starred value
	Kws   []Keyword
	paren bool // a parenthesised expression (for "(f)(x)" positions)
}

// Keyword is one keyword argument of a call; Name is "" for **kwargs.
type Keyword struct {
	Name      string
	Value     *Node
	Line, Col int
}

// isKeyword reports a hard Python keyword. A switch, not a map: it runs on
// every name of every line.
func isKeyword(s string) bool {
	switch s {
	case "False", "None", "True", "and", "as", "assert", "async", "await", "break", "class", "continue",
		"def", "del", "elif", "else", "except", "finally", "for", "from", "global", "if", "import", "in",
		"is", "lambda", "nonlocal", "not", "or", "pass", "raise", "return", "try", "while", "with", "yield":
		return true
	}
	return false
}

type parser struct {
	toks       []token
	paramStack []paramItem // the parameter lists being parsed (params)
	// named: an expression outside brackets here is a named_expression
	// in CPython's grammar (walrusRule); set by the statement parser.
	named bool
	// inMatch: the line is in a match statement's block, where a case
	// block can start (set by the lexer for the statement check).
	inMatch bool
	// subject: the tokens are a match statement's subject, read by
	// CPython's second pass (hint), where every expression outside
	// brackets is a named_expression.
	subject bool
	// forTarget is 1 + the index of a comprehension's targets that
	// invalid_for_target reads as star_expressions, while hint looks
	// for the second pass's errors in them (0: none).
	forTarget int
	i         int
	slab      []Node
	// check: only the syntax matters (the statement check of every line);
	// call arguments, dict items and string values are not kept.
	check bool
	depth int // recursion depth, bounded like CPython's parser
	minor int // target Python 3.minor (0 = newest)
	// softKw is "match" or "case" when the line checked last is such a
	// header, for the block structure check.
	softKw string
	memo   exprMemo // f-string fields already parsed in this file
	// furthest is the line of the furthest token the failed check read,
	// which CPython compares with an unclosed bracket's line.
	furthest int
	failTok  token // where the failed check stopped, before any hint
	// nl is the NEWLINE after line, the whole logical line being
	// checked (zero when unknown: the end of the last token stands in).
	nl   token
	line []token
	// ranOut: a rule read past the last token (the line's end, or the
	// token a tokenizer error stopped at).
	ranOut bool
}

// maxExprDepth bounds the parser's recursion (CPython gives up on about
// 3,000 nested unary operators with a RecursionError).
const maxExprDepth = 3000

// enter counts one level of recursion; leave undoes it.
func (p *parser) enter() error {
	p.depth++
	if p.depth > maxExprDepth {
		return p.fail(p.peek(), "too many nested expressions")
	}
	return nil
}

func (p *parser) leave() { p.depth-- }

func (p *parser) peek() token {
	if p.i < len(p.toks) {
		return p.toks[p.i]
	}
	return p.peekEnd()
}

// peekEnd is peek past the last token: apart, so that peek inlines.
func (p *parser) peekEnd() token {
	if p.nl.line > 0 && len(p.toks) > 0 && len(p.toks) == len(p.line) && &p.toks[0] == &p.line[0] {
		return p.nl
	}
	if len(p.toks) > 0 {
		// The NEWLINE after the last token, which may span lines.
		last := p.toks[len(p.toks)-1]
		if nl := strings.LastIndexByte(last.text, '\n'); nl >= 0 {
			return token{kind: tkNewline, line: last.line + strings.Count(last.text, "\n"), col: len(last.text) - nl}
		}
		return token{kind: tkNewline, line: last.line, col: last.col + len(last.text)}
	}
	return token{kind: tkNewline, line: 1, col: 1}
}

func (p *parser) isOp(s string) bool {
	if p.i >= len(p.toks) {
		return false
	}
	t := &p.toks[p.i]
	return t.kind == tkOp && t.text == s
}

func (p *parser) isKw(s string) bool {
	if p.i >= len(p.toks) {
		return false
	}
	t := &p.toks[p.i]
	return t.kind == tkName && t.text == s
}

// next is peek and a step past the token; written to inline, as it runs
// for every token of every line.
func (p *parser) next() token {
	if p.i < len(p.toks) {
		p.i++
		return p.toks[p.i-1]
	}
	return p.peekEnd()
}

func (p *parser) fail(t token, msg string) *SyntaxError {
	return &SyntaxError{Line: t.line, Col: t.col, Msg: msg}
}

func (p *parser) expectOp(s string) error {
	if !p.isOp(s) {
		return p.fail(p.peek(), "invalid syntax")
	}
	p.next()
	return nil
}

func (p *parser) atEnd() bool { return p.i >= len(p.toks) }

// mk allocates a node from the parser's slab: nodes are small and many,
// and a slab cuts the allocations of a scan by an order of magnitude.
func (p *parser) mk(class string, t token) *Node {
	return p.alloc(Node{Class: class, Line: t.line, Col: t.col})
}

func (p *parser) alloc(n Node) *Node {
	if len(p.slab) == cap(p.slab) {
		p.slab = make([]Node, 0, min(2*cap(p.slab)+8, 256))
	}
	p.slab = append(p.slab, n)
	return &p.slab[len(p.slab)-1]
}

// walrusAhead reports an unparenthesised "NAME :=", which Python accepts
// only in named-expression positions (calls, subscripts, displays).
func (p *parser) walrusAhead() bool {
	return p.peek().kind == tkName && p.i+1 < len(p.toks) && p.toks[p.i+1].kind == tkOp && p.toks[p.i+1].text == ":="
}

// starExpressions parses an expression statement's value.
func (p *parser) starExpressions() (*Node, error) {
	start := p.peek()
	if p.walrusAhead() {
		if p.named {
			// Where a named_expression can start (an expression
			// statement's start), CPython's second pass reads the
			// walrus's value: an error an invalid_* rule raises there
			// wins ("x := (a=1)").
			sub := parser{toks: p.toks[p.i+2:], check: true, minor: p.minor, memo: p.memo}
			var se *SyntaxError
			if _, err := sub.expression(); errors.As(err, &se) && se.Msg != "invalid syntax" && !se.noHint {
				return nil, se
			}
		}
		return nil, p.fail(p.toks[p.i+1], "invalid syntax")
	}
	first, err := p.starExpression()
	if err != nil {
		return nil, err
	}
	if !p.isOp(",") {
		return first, nil
	}
	tup := p.mk("Tuple", start)
	tup.Elts = []*Node{first}
	for p.isOp(",") {
		p.next()
		if p.atEnd() || p.isOp(")") || p.isOp("=") || p.isOp(";") || p.isOp(":") || p.isKw("in") {
			break
		}
		if p.walrusAhead() {
			return nil, p.fail(p.toks[p.i+1], "invalid syntax")
		}
		e, err := p.starExpression()
		if err != nil {
			return nil, err
		}
		tup.Elts = append(tup.Elts, e)
	}
	return tup, nil
}

func (p *parser) starExpression() (*Node, error) {
	if p.isOp("*") {
		t := p.next()
		v, err := p.bitOr()
		if err != nil {
			return nil, err
		}
		n := p.mk("Starred", t)
		n.Fn = v
		return n, nil
	}
	return p.namedExpression()
}

func (p *parser) namedExpression() (*Node, error) {
	t := p.peek()
	if t.kind == tkName && !isKeyword(t.text) && p.i+1 < len(p.toks) && p.toks[p.i+1].kind == tkOp && p.toks[p.i+1].text == ":=" {
		p.i += 2
		if _, err := p.expression(); err != nil {
			return nil, err
		}
		return p.mk("NamedExpr", t), nil
	}
	start := p.i
	n, err := p.expression()
	if err == nil && p.isOp(":=") {
		// invalid_named_expression names the target only where the
		// grammar has a named_expression, and only when an expression
		// follows the ':='; elsewhere the ':=' is a plain syntax error.
		if p.walrusRule(start) {
			if ok, _ := p.expressionFollows(); ok {
				return nil, &SyntaxError{Line: n.Line, Col: n.Col, Msg: "cannot use assignment expressions with " + describeTarget(n)}
			}
		}
		return nil, p.fail(p.peek(), "invalid syntax")
	}
	// Only the statement check (p.check) looks for syntax errors; the
	// evaluating parse of a marker call runs on checked lines.
	if err == nil && p.check && p.isOp("=") && p.namedSlot() {
		if se := p.invalidNamed(n); se != nil {
			return nil, se
		}
	}
	return n, err
}

// argsEnd is the token after the arguments that follow the current one,
// as far as they parse: the last token CPython's invalid_arguments rule
// read, where it reports; or an error of its own in one of them.
func (p *parser) argsEnd() (token, *SyntaxError) {
	save := p.i
	defer func() { p.i = save }()
	for p.isOp(",") {
		p.next()
		if p.isOp(")") {
			break
		}
		if p.isOp("*") || p.isOp("**") {
			p.next()
		} else if t := p.peek(); t.kind == tkName && p.i+1 < len(p.toks) && p.toks[p.i+1].isOp("=") {
			p.i += 2
		}
		if _, err := p.expression(); err != nil {
			// An error of its own in a later argument ("expected
			// 'else'") is raised while the second pass parses it.
			var se *SyntaxError
			if errors.As(err, &se) && se.Msg != "invalid syntax" {
				return p.peek(), se
			}
			break
		}
	}
	return p.peek(), nil
}

// walrusRule reports whether an expression starting at token start sits
// where CPython's grammar reads a named_expression (star_named_expression),
// the only places its invalid_named_expression rule sees: in brackets, a
// parenthesised group or tuple, a list or set display, a subscript (not a
// slice bound), but not call arguments, dict items or comprehension
// clauses; outside them, wherever the statement parser set p.named (a
// condition, a decorator, a match subject, the expressions that start an
// expression statement).
func (p *parser) walrusRule(start int) bool {
	type frame struct {
		call, sub, brace bool
		clause, colon    bool // a 'for' or 'if' clause, a ':' or '**' seen at its depth
		lambdas          int  // lambdas whose ':' is still to come
	}
	var stack []frame
	for i := 0; i < start && i < len(p.toks); i++ {
		t := p.toks[i]
		var f *frame
		if len(stack) > 0 {
			f = &stack[len(stack)-1]
		}
		switch {
		case t.kind == tkOp && (t.text == "(" || t.text == "[" || t.text == "{"):
			after := i > 0 && endsExpr(p.toks[i-1])
			stack = append(stack, frame{call: t.text == "(" && after, sub: t.text == "[" && after, brace: t.text == "{"})
		case t.kind == tkOp && (t.text == ")" || t.text == "]" || t.text == "}"):
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
		case f == nil:
		case t.kind == tkName && (t.text == "for" || t.text == "if" && !f.call):
			f.clause = true
		case t.kind == tkName && t.text == "lambda":
			f.lambdas++
		case t.isOp(":") && f.lambdas > 0:
			f.lambdas--
		case t.isOp(":") || t.isOp("**") && f.brace:
			f.colon = true
		case t.isOp(",") && f.sub:
			f.colon = false // the next slice of a subscript
		}
	}
	if len(stack) == 0 {
		return p.named
	}
	f := stack[len(stack)-1]
	return !f.call && !f.clause && !f.colon
}

// namedSlot reports whether the parser is where CPython's grammar has a
// named_expression: inside a (), [] or {} display or subscript, or in an
// if, elif or while condition; not in call arguments (a keyword) and not
// at statement level (an assignment).
func (p *parser) namedSlot() bool {
	depth := 0
	for j := p.i - 1; j >= 0; j-- {
		t := p.toks[j]
		if t.kind != tkOp {
			continue
		}
		switch t.text {
		case ")", "]", "}":
			depth++
		case "(", "[", "{":
			if depth > 0 {
				depth--
				continue
			}
			// The innermost open bracket: a call's parenthesis follows
			// an expression.
			return !(t.text == "(" && j > 0 && endsExpr(p.toks[j-1]) && !isKeyword(p.toks[j-1].text))
		}
	}
	if p.subject {
		return true // a match statement's subject_expr
	}
	switch p.toks[0].text {
	case "if", "elif", "while":
		// In the condition, not in a body after the ':'.
		c := colonAtDepth0(p.toks)
		return c < 0 || c >= p.i
	case "@":
		return p.toks[0].kind == tkOp // a decorator is a named_expression
	}
	return false
}

// invalidNamed is CPython's invalid_named_expression for "a = b" where a
// named expression stands: the value must parse and not be followed by
// another '=' or ':='.
func (p *parser) invalidNamed(n *Node) *SyntaxError {
	save := p.i
	defer func() { p.i = save }()
	p.next() // =
	_, err := p.bitOr()
	if err != nil {
		// The value is parsed with the second pass's rules: a string
		// that fails to decode, or a hint inside it, is the error.
		var se *SyntaxError
		if !errors.As(err, &se) {
			return nil
		}
		if se.action || se.Msg != "invalid syntax" {
			return se // an invalid_* rule inside the value ("{a: b, c}")
		}
		if h := p.hint(p.toks, se); h != se {
			return h
		}
		if p.atEnd() {
			p.ranOut = true // it needed a token after the last one
		}
		// A PEG parse keeps the operand a broken trailer or operator
		// follows ("x = a..b" is "x = a" before the '.'), and that
		// token is never the '=' or ':=' the rule's lookahead refuses.
		if !p.startsAt(save+1, true) {
			return nil
		}
	} else if p.isOp("=") || p.isOp(":=") {
		return nil
	}
	// The rule's lookahead read the token after the value.
	if p.atEnd() {
		p.furthest = max(p.furthest, p.peek().line+1)
	} else {
		p.furthest = max(p.furthest, p.peek().line)
	}
	if n.Class == "Name" && !n.paren {
		return &SyntaxError{Line: n.Line, Col: n.Col, Msg: "invalid syntax. Maybe you meant '==' or ':=' instead of '='?"}
	}
	switch {
	case n.Class == "List", n.Class == "Tuple", n.Class == "GeneratorExp",
		n.Class == "Constant" && (n.Type == "bool" || n.Type == "NoneType"), !bitwiseOr(n):
		return nil
	}
	return &SyntaxError{Line: n.Line, Col: n.Col, Msg: "cannot assign to " + describeTarget(n) + " here. Maybe you meant '==' instead of '='?"}
}

func (p *parser) expression() (*Node, error) {
	defer p.leave()
	if err := p.enter(); err != nil {
		return nil, err
	}
	t := p.peek()
	if p.isKw("lambda") {
		p.next()
		if err := p.params(":", false); err != nil {
			return nil, err
		}
		if _, err := p.expression(); err != nil {
			return nil, err
		}
		return p.mk("Lambda", t), nil
	}
	body, err := p.disjunction()
	if err != nil {
		return nil, err
	}
	if p.isKw("if") {
		p.next()
		cond := p.i
		if _, err := p.disjunction(); err != nil {
			// invalid_expression reads the condition as the longest
			// disjunction that parses ("c" of "c (else"): when neither
			// 'else' nor ':' follows it, the missing else is the error.
			var se *SyntaxError
			if !errors.As(err, &se) || se.Msg != "invalid syntax" || se.action || atLineEnd(se, p.toks) && openAtEnd(p.toks) {
				return nil, err // raised, or into the end of the file: the tokenizer's error comes first
			}
			if h := p.hint(p.toks, se); h != se {
				return nil, h // an invalid_* rule inside the condition raises first
			}
			if _, j := p.longestPrefix(cond, len(p.toks)-1, (*parser).disjunction); j >= 0 {
				if next := p.toks[j]; !next.isOp(":") && !(next.kind == tkName && next.text == "else") {
					// Its attempt at more read on to where it failed
					// ("x (" of "1 if x (\nclass", past the bracket's line).
					p.readTo(se)
					return nil, &SyntaxError{Line: t.line, Col: t.col, Msg: expectedElse, read: &next}
				}
			}
			return nil, err
		}
		if !p.isKw("else") {
			if p.isOp(":") { // CPython's rule stops short of a ':'
				return nil, p.fail(p.peek(), "invalid syntax")
			}
			// Reported over the whole "a if b" (a known range), but
			// read up to the token after it.
			la := p.peek()
			return nil, &SyntaxError{Line: t.line, Col: t.col, Msg: expectedElse, read: &la}
		}
		p.next()
		if _, err := p.expression(); err != nil {
			return nil, err
		}
		n := p.mk("IfExp", t)
		n.Line, n.Col = body.Line, body.Col
		return n, nil
	}
	return body, nil
}

// The binary and boolean operator levels are parsed by one precedence
// climber (fewer calls per atom than one function per grammar level):
// or (1) < and (2) < not (3, prefix) < comparisons (4) < | (5) < ^ (6) <
// & (7) < shifts (8) < + - (9) < * / // % @ (10). Unary + - ~ and ** are
// handled by factor, as in the grammar.
const (
	precOr      = 1
	precAnd     = 2
	precNot     = 3
	precCompare = 4
	precBitOr   = 5
)

// opPrec is the precedence of the binary operator at the current token (0:
// none) and its width in tokens ("not in", "is not").
func (p *parser) opPrec() (prec, width int) {
	if p.i >= len(p.toks) {
		return 0, 0
	}
	t := &p.toks[p.i]
	if t.kind == tkName {
		switch t.text {
		case "or":
			return precOr, 1
		case "and":
			return precAnd, 1
		case "in":
			return precCompare, 1
		case "is":
			if p.i+1 < len(p.toks) && p.toks[p.i+1].kind == tkName && p.toks[p.i+1].text == "not" {
				return precCompare, 2
			}
			return precCompare, 1
		case "not":
			if p.i+1 < len(p.toks) && p.toks[p.i+1].kind == tkName && p.toks[p.i+1].text == "in" {
				return precCompare, 2
			}
		}
		return 0, 0
	}
	if t.kind != tkOp {
		return 0, 0
	}
	switch t.text {
	case "==", "!=", "<", "<=", ">", ">=":
		return precCompare, 1
	case "|":
		return 5, 1
	case "^":
		return 6, 1
	case "&":
		return 7, 1
	case "<<", ">>":
		return 8, 1
	case "+", "-":
		return 9, 1
	case "*", "/", "//", "%", "@":
		return 10, 1
	}
	return 0, 0
}

func (p *parser) disjunction() (*Node, error) { return p.binExpr(precOr) }

// bitOr parses a bitwise-or level expression (no comparison, no boolean).
func (p *parser) bitOr() (*Node, error) { return p.binExpr(precBitOr) }

func (p *parser) binExpr(minPrec int) (*Node, error) {
	defer p.leave()
	if err := p.enter(); err != nil {
		return nil, err
	}
	var left *Node
	if minPrec <= precNot && p.isKw("not") {
		t := p.next()
		if _, err := p.binExpr(precNot); err != nil {
			return nil, err
		}
		left = p.mk("UnaryOp", t)
		left.Name = "not" // no bitwise_or, unlike -x (bitwiseOr)
	} else {
		var err error
		if left, err = p.factor(); err != nil {
			return nil, err
		}
	}
	for {
		prec, width := p.opPrec()
		if prec == 0 || prec < minPrec {
			return left, nil
		}
		op := p.toks[p.i : p.i+width]
		p.i += width
		next := prec + 1 // for and/or: the right operand may start with not
		if prec == precCompare {
			next = precBitOr
		}
		right, err := p.binExpr(next)
		if err != nil {
			return nil, err
		}
		class := "BinOp"
		switch prec {
		case precOr, precAnd:
			class = "BoolOp"
		case precCompare:
			class = "Compare"
		}
		if left.Class != class || class == "BinOp" {
			first := left
			left = p.alloc(Node{Class: class, Line: left.Line, Col: left.Col})
			if class == "Compare" {
				// A comparison keeps its first operator and left operand
				// for the for-target rule (forTargetInvalid).
				left.Fn, left.Name = first, op[0].text
				if len(op) > 1 {
					left.Name += " " + op[1].text // not in, is not
				}
			}
		}
		if class == "Compare" && !p.check {
			// Its comparators, one per operator (the main-block rule
			// wants exactly one).
			left.Elts = append(left.Elts, right)
		}
	}
}

func (p *parser) factor() (*Node, error) {
	defer p.leave()
	if err := p.enter(); err != nil {
		return nil, err
	}
	t := p.peek()
	if t.kind == tkOp && (t.text == "+" || t.text == "-" || t.text == "~") {
		p.next()
		if _, err := p.factor(); err != nil {
			return nil, err
		}
		return p.mk("UnaryOp", t), nil
	}
	var base *Node
	var err error
	if t.kind == tkName && t.text == "await" {
		p.next()
		if _, err := p.primary(); err != nil {
			return nil, err
		}
		base = p.mk("Await", t)
	} else if base, err = p.primary(); err != nil {
		return nil, err
	}
	if p.isOp("**") {
		p.next()
		if _, err := p.factor(); err != nil {
			return nil, err
		}
		return p.alloc(Node{Class: "BinOp", Line: base.Line, Col: base.Col}), nil
	}
	return base, nil
}

func (p *parser) primary() (*Node, error) {
	start := p.peek()
	n, err := p.atom()
	if err != nil {
		return nil, err
	}
	for {
		switch {
		case p.isOp("."):
			p.next()
			name := p.next()
			if name.kind != tkName || isKeyword(name.text) {
				return nil, p.fail(name, "invalid syntax")
			}
			n = p.alloc(Node{Class: "Attribute", Line: start.line, Col: start.col, Fn: n, Name: name.text})
		case p.isOp("("):
			call, err := p.call(start, n)
			if err != nil {
				return nil, err
			}
			n = call
		case p.isOp("["):
			p.next()
			if err := p.slices(); err != nil {
				return nil, err
			}
			if err := p.expectOp("]"); err != nil {
				return nil, err
			}
			n = p.alloc(Node{Class: "Subscript", Line: start.line, Col: start.col, Fn: n})
		default:
			return n, nil
		}
	}
}

func (p *parser) slices() error {
	if p.isOp("]") {
		return p.fail(p.peek(), "invalid syntax")
	}
	for {
		if p.isOp("]") {
			return nil
		}
		if p.isOp("*") {
			if _, err := p.starExpression(); err != nil {
				return err
			}
		} else {
			if !p.isOp(":") {
				if _, err := p.namedExpression(); err != nil {
					return err
				}
			}
			for i := 0; i < 2 && p.isOp(":"); i++ {
				p.next()
				if !p.isOp(":") && !p.isOp(",") && !p.isOp("]") {
					if _, err := p.expression(); err != nil {
						return err
					}
				}
			}
		}
		if !p.isOp(",") {
			return nil
		}
		p.next()
	}
}

// call parses "(args)" after fn, enforcing the argument-order rules that
// make ast.parse itself fail.
func (p *parser) call(start token, fn *Node) (*Node, error) {
	p.next() // (
	c := p.alloc(Node{Class: "Call", Line: start.line, Col: start.col, Fn: fn})
	sawKw, sawDoubleStar := false, false
	nargs := 0
	for !p.isOp(")") {
		t := p.peek()
		switch {
		case p.isOp("**"):
			p.next()
			v, err := p.expression()
			if err != nil {
				return nil, err
			}
			if !p.check {
				c.Kws = append(c.Kws, Keyword{Value: v, Line: t.line, Col: t.col})
			}
			sawDoubleStar = true
		case p.isOp("*"):
			if sawDoubleStar {
				return nil, p.fail(t, "iterable argument unpacking follows keyword argument unpacking")
			}
			// In a call, * takes a full expression ("*a or b", "*x if c else y").
			p.next()
			if sawKw && !startsExpr(p.peek()) && !p.isKw("lambda") && !p.isKw("not") && !p.isKw("await") &&
				!p.isOp("-") && !p.isOp("+") && !p.isOp("~") {
				// A bare '*' after keyword arguments: invalid_arguments'
				// "kwargs ',' '*'" (CPython's message is about unpacking).
				return nil, p.fail(t, "iterable argument unpacking follows keyword argument unpacking")
			}
			e, err := p.expression()
			if err != nil {
				return nil, err
			}
			v := p.alloc(Node{Class: "Starred", Line: t.line, Col: t.col, Fn: e})
			if !p.check {
				c.Elts = append(c.Elts, v)
			}
		case t.kind == tkName && p.i+1 < len(p.toks) && p.toks[p.i+1].kind == tkOp && p.toks[p.i+1].text == "=" &&
			(!isKeyword(t.text) || t.text == "True" || t.text == "False" || t.text == "None"):
			// invalid_kwarg names True, False and None; another keyword
			// is no NAME to the grammar, and parses (or fails) as the
			// start of an expression.
			if isKeyword(t.text) {
				return nil, p.fail(t, "cannot assign to "+t.text)
			}
			p.i += 2
			v, err := p.expression()
			if err != nil {
				return nil, err
			}
			// invalid_kwarg's "NAME '=' expression for_if_clauses": an
			// error raised reading the clauses (or the end of the file
			// in the bracket) wins, else the '==' hint.
			if ok, err := p.forClausesAhead(); err != nil {
				return nil, err
			} else if ok {
				return nil, p.fail(t, "invalid syntax. Maybe you meant '==' or ':=' instead of '='?")
			}
			if !p.check {
				c.Kws = append(c.Kws, Keyword{Name: t.text, Value: v, Line: t.line, Col: t.col})
			}
			sawKw = true
		default:
			argStart := p.i
			v, err := p.namedExpression()
			if err != nil {
				if sawKw || sawDoubleStar {
					return nil, p.positionalAfterKw(err, argStart, sawDoubleStar)
				}
				return nil, err
			}
			if p.isOp("=") {
				// invalid_kwarg raises over the range from the
				// expression's start.
				return nil, &SyntaxError{Line: v.Line, Col: v.Col, Msg: `expression cannot contain assignment, perhaps you meant "=="?`}
			}
			if p.isKw("for") || p.isKw("async") {
				if err := p.comprehension(); err != nil {
					var se *SyntaxError
					if (sawKw || sawDoubleStar) && errors.As(err, &se) && se.Msg == "invalid syntax" && !se.action {
						// No comprehension after it: the argument alone
						// follows the keyword ones (invalid_arguments).
						return nil, p.positionalAfterKw(se, argStart, sawDoubleStar)
					}
					return nil, err
				}
				// CPython's rules need an argument before it, or a ','
				// after it; anything else is a plain syntax error.
				if nargs > 0 || p.isOp(",") {
					p.genexpReach(nargs == 0)
					return nil, p.fail(t, "Generator expression must be parenthesized")
				}
				if !p.isOp(")") {
					return nil, p.fail(p.peek(), "invalid syntax")
				}
				v = p.alloc(Node{Class: "GeneratorExp", Line: v.Line, Col: v.Col})
			}
			// A positional argument out of order is CPython's
			// invalid_arguments; a missing comma right after it is
			// found first (while the argument is parsed). CPython reports
			// it at the last token it read.
			if (sawDoubleStar || sawKw) && p.i > 0 && endsExpr(p.toks[p.i-1]) && !p.atEnd() && startsExpr(p.peek()) {
				return nil, p.positionalAfterKw(p.fail(p.peek(), "invalid syntax"), argStart, sawDoubleStar)
			}
			if sawDoubleStar || sawKw {
				// A missing comma in a later argument is found while
				// the second pass parses them ("f(a=1, b, 1 2)").
				end, later := p.argsEnd()
				if later != nil {
					return nil, later
				}
				se := p.fail(end, "invalid syntax")
				if h := p.hint(p.toks, se); h.Msg != "invalid syntax" {
					return nil, se
				}
				se.Msg, se.noHint = "positional argument follows keyword argument", true
				if sawDoubleStar {
					se.Msg += " unpacking"
				}
				return nil, se
			}
			if !p.check {
				c.Elts = append(c.Elts, v)
			}
		}
		nargs++
		if !p.isOp(",") {
			break
		}
		p.next()
	}
	if err := p.expectOp(")"); err != nil {
		return nil, err
	}
	return c, nil
}

// positionalAfterKw is CPython's error for a positional argument after a
// keyword one that does not parse (err, from the first pass): the last
// alternative of invalid_arguments, "args ',' args", matches as soon as an
// expression starts at toks[at], and it reports at the token the first
// pass failed on. A rule its second pass meets first keeps err: the
// missing comma or legacy print of hint, a string's action, a specific
// message; so does an argument no expression starts ("f(a=1, -)").
func (p *parser) positionalAfterKw(err error, at int, unpacking bool) error {
	var se *SyntaxError
	if !errors.As(err, &se) || se.Msg != "invalid syntax" || se.action {
		return err
	}
	if at+1 < len(p.toks) && p.toks[at].kind == tkName && p.toks[at+1].isOp(":=") {
		// "b := " with no value: the cut after ':=' fails the argument
		// for invalid_arguments too; the first pass stopped at the ':='.
		sub := parser{toks: p.toks[at+2:], check: true, minor: p.minor, memo: p.memo}
		if _, err := sub.expression(); err != nil {
			// The second pass's "args ',' args" parsed the value as
			// far as it fails ("f(a=1, b := (" reads to the end).
			var value *SyntaxError
			if errors.As(err, &value) {
				p.readTo(value)
			}
			se := p.fail(p.toks[at+1], "invalid syntax")
			se.noHint = true
			return se
		}
	}
	for k := at + 1; k < len(p.toks); k++ {
		if t := p.toks[k]; t.line == se.Line && t.col == se.Col {
			if t.isOp(":=") {
				// "b.c := 1" is no argument to invalid_arguments (it
				// reads "expression !':='"): the error is the first
				// pass's, which after a keyword argument read the
				// argument's first token and, after a name, the one
				// after it, looking for '='.
				t = p.toks[at]
				if t.kind == tkName && at+1 < len(p.toks) {
					t = p.toks[at+1]
				}
				se := p.fail(t, "invalid syntax")
				se.noHint = true // no second-pass rule matches either
				return se
			}
			break
		}
	}
	probe := *se
	if h := p.hint(p.toks, &probe); h.Msg != "invalid syntax" {
		return err
	}
	if !p.exprStartsAt(at) {
		// After a keyword argument the first pass tries only keyword
		// and starred forms, so it never read past the argument's
		// first token.
		save := p.i
		p.i = at
		t := p.peek() // the NEWLINE when the line ends there
		p.i = save
		// Its second pass did parse an expression there
		// (invalid_kwarg's "!(NAME '=') expression '='", then
		// invalid_arguments' "args ',' args"), reading as far as
		// that parse failed (err's token): into a bracket it opens,
		// past its line ("f(a=1,\n(\nclass C:"), to the end of the
		// file. A bracket the file leaves open is then CPython's
		// error.
		p.readTo(se)
		return p.fail(t, "invalid syntax")
	}
	msg := "positional argument follows keyword argument"
	if unpacking {
		msg += " unpacking"
	}
	at2 := p.legacyReach(token{line: se.Line, col: se.Col})
	return &SyntaxError{Line: at2.line, Col: at2.col, Msg: msg, noHint: true}
}

// genexpReach notes how far CPython read before it raises "Generator
// expression must be parenthesized" at an unparenthesised generator
// argument (the current token follows its clauses): the token after the
// clauses, which their rule fetched (past the end of the file in the
// bracket); for the first argument, the arguments after its ',' too,
// which its rule ("',' [args | expression for_if_clauses]") parses as
// far as they go (a later one's rule, "args for_if_clauses", stops at
// the clauses).
func (p *parser) genexpReach(first bool) {
	save := p.i
	defer func() { p.i = save }()
	for {
		if p.atEnd() {
			p.readTo(p.fail(p.peek(), "invalid syntax"))
			return
		}
		if !first || !p.isOp(",") {
			p.furthest = max(p.furthest, p.peek().line)
			return
		}
		p.next()
		if p.isOp("*") || p.isOp("**") {
			p.next()
		} else if t := p.peek(); t.kind == tkName && p.i+1 < len(p.toks) && p.toks[p.i+1].isOp("=") {
			p.i += 2
		}
		if p.atEnd() {
			continue
		}
		if _, err := p.expression(); err != nil {
			var se *SyntaxError
			if errors.As(err, &se) {
				p.readTo(se)
			}
			return
		}
	}
}

// readTo notes that a rule read up to where se, an error of a parse of
// part of p.toks, stopped it (past their end when it ran out of them):
// the last token CPython's parser fetched, whose line decides whether a
// bracket the file leaves open is the error.
func (p *parser) readTo(se *SyntaxError) {
	at := token{line: se.Line, col: se.Col}
	if se.read != nil {
		at = *se.read
	}
	p.furthest = max(p.furthest, at.line)
	if n := len(p.toks); n > 0 && atLineEnd(se, p.toks) {
		p.furthest = max(p.furthest, p.toks[n-1].line+1)
	}
}

// legacyReach is where CPython reports an error raised after its second
// pass met the first pass's failure at t: when t follows a name (not a
// call), invalid_legacy_expression ("print x") has parsed star_expressions
// from t and fetched the token after them, which is then the last token
// read.
func (p *parser) legacyReach(t token) token {
	k := len(p.toks)
	for i, x := range p.toks {
		if x.line > t.line || x.line == t.line && x.col >= t.col {
			k = i
			break
		}
	}
	if k == 0 || k >= len(p.toks) || p.toks[k-1].kind != tkName || isKeyword(p.toks[k-1].text) || p.toks[k].isOp("(") {
		return t
	}
	sub := parser{toks: p.toks[k:], check: true, minor: p.minor, memo: p.memo}
	if _, err := sub.starExpressions(); err != nil {
		return t
	}
	return sub.peek()
}

// exprStartsAt reports whether a PEG parse of an expression succeeds at
// toks[i] for at least a prefix: the operators after an operand are
// optional, so an atom after any unary operators is enough; a bracketed
// atom or a lambda must parse whole.
func (p *parser) exprStartsAt(i int) bool { return p.startsAt(i, false) }

// startsAt is exprStartsAt, or for bitOr the same test of a bitwise_or,
// which neither "not" nor "lambda" starts.
func (p *parser) startsAt(i int, bitOr bool) bool {
	for i < len(p.toks) {
		t := p.toks[i]
		if t.kind == tkOp && (t.text == "-" || t.text == "+" || t.text == "~") || t.kind == tkName && (t.text == "not" && !bitOr || t.text == "await") {
			i++
			continue
		}
		break
	}
	if i >= len(p.toks) {
		return false
	}
	t := p.toks[i]
	switch t.kind {
	case tkNumber, tkString:
		return true
	case tkName:
		switch {
		case t.text == "lambda" && !bitOr:
			sub := parser{toks: p.toks[i:], check: true, minor: p.minor, memo: p.memo}
			_, err := sub.expression()
			return err == nil
		case t.text == "True" || t.text == "False" || t.text == "None":
			return true
		}
		return !isKeyword(t.text)
	case tkOp:
		switch t.text {
		case "...":
			return true
		case "(", "[", "{":
			sub := parser{toks: p.toks[i:], check: true, minor: p.minor, memo: p.memo}
			_, err := sub.atom()
			return err == nil
		}
	}
	return false
}

// comprehension parses one or more "for targets in iter [if cond]" clauses.
// forTargetError is the error of a comprehension's 'for' whose targets
// (from toks[targets]) are no star_targets followed by 'in': CPython's
// second pass reads star_expressions there (invalid_for_target). An
// error its rules raise on the way wins ("[x for i if y]", a missing
// comma); then a target no assignment can have; else the first pass's
// error, where the 'in' is missing or the targets end.
func (p *parser) forTargetError(targets int, fail *SyntaxError) error {
	sub := parser{toks: p.toks[targets:], check: true, minor: p.minor, memo: p.memo}
	n, err := sub.starExpressions()
	var se *SyntaxError
	if errors.As(err, &se) && se.Msg != "invalid syntax" {
		return se
	}
	if err != nil {
		// A PEG parse keeps the longest prefix that parses ("None in"
		// is the target None): its target is the one judged.
		n, _ = p.longestPrefix(targets, targets+sub.i, (*parser).starExpressions)
	}
	at := fail
	if err == nil && targets+sub.i < len(p.toks) {
		at = p.fail(p.toks[targets+sub.i], "invalid syntax") // where an operand may follow another
	}
	p.forTarget = targets + 1 // an expression starts there for the print rule
	h := p.hint(p.toks, at)
	p.forTarget = 0
	if h != at {
		return h
	}
	if n != nil {
		if bad := forTargetInvalid(n); bad != nil {
			return &SyntaxError{Line: bad.Line, Col: bad.Col, Msg: "cannot assign to " + describeTarget(bad)}
		}
	}
	return fail
}

// longestPrefix is the longest run of tokens from toks[from], ending
// before toks[end] or sooner, that rule parses in full, as a PEG parse
// keeps it: its node and the index of the token after it (nil, -1: none).
func (p *parser) longestPrefix(from, end int, rule func(*parser) (*Node, error)) (*Node, int) {
	for j := min(end, len(p.toks)); j > from; j-- {
		sub := parser{toks: p.toks[from:j], check: true, minor: p.minor, memo: p.memo}
		if n, err := rule(&sub); err == nil && sub.atEnd() {
			return n, j
		}
	}
	return nil, -1
}

// forTargetInvalid is CPython's _PyPegen_get_invalid_target for a for
// target: the first part no assignment can have, nil if none. A
// comparison whose first operator is 'in' ("f() in y", how the target
// and the 'in' read as one expression) is judged by its left operand;
// any other comparison is no error of this rule.
func forTargetInvalid(n *Node) *Node {
	switch n.Class {
	case "Name", "Attribute", "Subscript":
		return nil
	case "Starred":
		return forTargetInvalid(n.Fn)
	case "Tuple", "List":
		for _, e := range n.Elts {
			if bad := forTargetInvalid(e); bad != nil {
				return bad
			}
		}
		return nil
	case "Compare":
		if n.Name == "in" && n.Fn != nil {
			return forTargetInvalid(n.Fn)
		}
		return nil
	}
	return n
}

func (p *parser) comprehension() error {
	for p.isKw("for") || p.isKw("async") {
		if p.isKw("async") {
			p.next()
		}
		if !p.isKw("for") {
			return p.fail(p.peek(), "invalid syntax")
		}
		p.next()
		targets := p.i
		bad := false // a target no assignment can have
		for {
			if p.isOp("*") {
				p.next()
			}
			t, err := p.bitOr()
			var se *SyntaxError
			if errors.As(err, &se) && se.Msg == "invalid syntax" && !se.action && !se.noHint {
				return p.forTargetError(targets, se) // no star_targets ("for lambda: 1 in")
			}
			if err != nil {
				return err
			}
			bad = bad || p.checkTarget(t, "assign to") != nil
			if !p.isOp(",") {
				break
			}
			p.next()
			if p.isKw("in") {
				break
			}
		}
		if !p.isKw("in") || bad {
			return p.forTargetError(targets, p.fail(p.peek(), "invalid syntax"))
		}
		p.next()
		if _, err := p.disjunction(); err != nil {
			return err
		}
		for p.isKw("if") {
			p.next()
			if _, err := p.disjunction(); err != nil {
				return err
			}
		}
	}
	return nil
}

func (p *parser) atom() (*Node, error) {
	t := p.peek()
	switch t.kind {
	case tkName:
		switch t.text {
		case "True", "False":
			p.next()
			n := p.mk("Constant", t)
			n.Type, n.Bool = "bool", t.text == "True"
			if n.Bool {
				n.Num = 1
			}
			return n, nil
		case "None":
			p.next()
			n := p.mk("Constant", t)
			n.Type = "NoneType"
			return n, nil
		}
		if isKeyword(t.text) {
			return nil, p.fail(t, "invalid syntax")
		}
		p.next()
		n := p.mk("Name", t)
		n.Name = t.text
		return n, nil
	case tkNumber:
		p.next()
		if p.check {
			return p.mk("Constant", t), nil // validated by the lexer
		}
		kind, v, ok := parseNumber(t.text)
		if !ok {
			return nil, p.fail(t, "invalid decimal literal")
		}
		n := p.mk("Constant", t)
		n.Type, n.Num = kind, v
		return n, nil
	case tkString:
		return p.strings()
	case tkOp:
		switch t.text {
		case "...":
			p.next()
			n := p.mk("Constant", t)
			n.Type = "ellipsis"
			return n, nil
		case "(":
			return p.group()
		case "[":
			return p.list()
		case "{":
			return p.dict()
		}
	}
	if t.kind == tkNewline {
		return nil, p.fail(t, "invalid syntax")
	}
	return nil, p.fail(t, "invalid syntax")
}

func (p *parser) strings() (*Node, error) {
	first := p.peek()
	n := p.mk("Constant", first)
	var sb strings.Builder
	joined, template, bytes, text := false, false, false, false
	for p.peek().kind == tkString {
		t := p.next()
		prefix, body := t.strParts()
		switch {
		case strings.Contains(prefix, "f"):
			joined = true
		case strings.Contains(prefix, "t"):
			template = true
		}
		// Each literal is decoded before the next is looked at, and a
		// decoding error is reported at the token after the last one
		// (CPython raises it in the action of its strings rule).
		isBytes, raw := strings.Contains(prefix, "b"), strings.Contains(prefix, "r")
		msg := ""
		switch {
		case isBytes:
			if msg = bytesLiteralError(body, raw); strings.HasPrefix(msg, "bytes") {
				se := p.fail(t, msg)
				p.actionAt(se)
				return nil, se
			}
		case !raw && !strings.ContainsAny(prefix, "ft"):
			msg = unicodeEscapeError(body)
		}
		if msg != "" {
			for p.peek().kind == tkString {
				p.next()
			}
			se := p.fail(p.peek(), msg)
			p.actionAt(se)
			return nil, se
		}
		if isBytes {
			bytes = true
		} else {
			text = true
		}
		if bytes && text {
			for p.peek().kind == tkString {
				p.next()
			}
			se := p.fail(p.peek(), "cannot mix bytes and nonbytes literals")
			p.actionAt(se)
			return nil, se
		}
		if p.minor == 11 && strings.Contains(prefix, "f") {
			save := p.i
			for p.peek().kind == tkString {
				p.next()
			}
			after := p.peek()
			p.i = save
			if se := p.fstringError311(t, body, raw, after); se != nil {
				p.actionAt(se)
				return nil, se
			}
		}
		if p.check {
			continue // the value is not needed
		}
		if strings.Contains(prefix, "r") {
			sb.WriteString(body)
		} else {
			sb.WriteString(unescape(body, strings.Contains(prefix, "b")))
		}
	}
	switch {
	case template:
		n.Class = "TemplateStr"
	case joined:
		n.Class = "JoinedStr"
	case bytes:
		n.Type, n.Str = "bytes", sb.String()
	default:
		n.Type, n.Str = "str", sb.String()
	}
	return n, nil
}

// actionAt marks se as raised in the action of the strings rule, which
// runs once the parser has fetched the token after the last adjacent
// string: se.after is that token's index, so that a tokenizer error
// further on the line loses to it (quietErr).
func (p *parser) actionAt(se *SyntaxError) {
	se.action = true
	j := p.i
	for j < len(p.toks) && p.toks[j].kind == tkString {
		j++
	}
	se.after = j
}

func (p *parser) group() (*Node, error) {
	open := p.next()
	if p.isOp(")") {
		p.next()
		n := p.mk("Tuple", open)
		n.paren = true
		return n, nil
	}
	if p.isKw("yield") {
		yt := p.next() // the node's position, as CPython's (inside the parentheses)
		if p.isKw("from") {
			p.next()
		}
		for !p.atEnd() && !p.isOp(")") {
			if _, err := p.starExpressions(); err != nil {
				return nil, err
			}
		}
		if err := p.expectOp(")"); err != nil {
			return nil, err
		}
		n := p.mk("Yield", yt)
		n.paren = true
		return n, nil
	}
	if p.isOp("**") {
		// invalid_group: "'(' '**' expression ')'" has its own message.
		star := p.next()
		if _, err := p.expression(); err == nil && p.isOp(")") {
			return nil, p.fail(star, "cannot use double starred expression here")
		}
		return nil, p.fail(star, "invalid syntax")
	}
	first, err := p.starExpression()
	if err != nil {
		return nil, err
	}
	if p.isKw("for") || p.isKw("async") {
		return p.comprehensionTail(first, p.peek(), open, ")", "GeneratorExp")
	}
	if p.isOp(")") {
		p.next()
		if first.Class == "Starred" {
			return nil, &SyntaxError{Line: first.Line, Col: first.Col, Msg: "cannot use starred expression here"}
		}
		first.paren = true
		return first, nil
	}
	tup := p.mk("Tuple", open)
	tup.Elts, tup.paren = []*Node{first}, true
	if err := p.seq(tup, ")"); err != nil {
		return nil, err
	}
	return tup, nil
}

// forClausesAhead reports for_if_clauses at the current token, which
// invalid_comprehension needs whole ("[a, async b]" is plain invalid).
func (p *parser) forClausesAhead() (bool, error) {
	if !p.isKw("for") && !p.isKw("async") {
		return false, nil
	}
	save := p.i
	err := p.comprehension()
	p.i = save
	var se *SyntaxError
	if errors.As(err, &se) {
		p.furthest = max(p.furthest, se.Line) // it read there
	}
	if errors.As(err, &se) && se.Msg != "invalid syntax" {
		return false, err // raised inside them ("[a, for f() in x]": invalid_for_target)
	}
	if se != nil && atLineEnd(se, p.toks) {
		return false, err // reading them ran into the end of the file in the bracket
	}
	return err == nil, nil
}

// comprehensionTarget is invalid_comprehension's error, over the display's
// elements from the first.
func comprehensionTarget(n *Node) *SyntaxError {
	line, col := n.Line, n.Col+1
	if len(n.Elts) > 0 && n.Elts[0] != nil {
		line, col = n.Elts[0].Line, n.Elts[0].Col
	}
	return &SyntaxError{Line: line, Col: col, Msg: "did you forget parentheses around the comprehension target?"}
}

// seq parses ", elt, elt [,]" up to and including the closing bracket.
func (p *parser) seq(n *Node, closer string) error {
	for p.isOp(",") {
		p.next()
		if p.isOp(closer) {
			break
		}
		// invalid_comprehension also matches a trailing comma before
		// the for_if_clauses ("[a, for x in y]", "[a, b, for x in y]").
		if closer == "]" || closer == "}" {
			if ok, err := p.forClausesAhead(); err != nil {
				return err
			} else if ok {
				return comprehensionTarget(n)
			}
		}
		e, err := p.starExpression()
		if err != nil {
			return err
		}
		n.Elts = append(n.Elts, e)
		if closer == "]" || closer == "}" {
			if ok, err := p.forClausesAhead(); err != nil {
				return err
			} else if ok {
				return comprehensionTarget(n)
			}
		}
	}
	return p.expectOp(closer)
}

func (p *parser) list() (*Node, error) {
	open := p.next()
	n := p.mk("List", open)
	if p.isOp("]") {
		p.next()
		return n, nil
	}
	first, err := p.starExpression()
	if err != nil {
		return nil, err
	}
	if p.isKw("for") || p.isKw("async") {
		return p.comprehensionTail(first, p.peek(), open, "]", "ListComp")
	}
	n.Elts = []*Node{first}
	return n, p.seq(n, "]")
}

func (p *parser) dict() (*Node, error) {
	open := p.next()
	if p.isOp("}") {
		p.next()
		return p.mk("Dict", open), nil
	}
	isDict := p.isOp("**")
	var first *Node
	var err error
	if isDict {
		star := p.next()
		if _, err = p.bitOr(); err != nil {
			return nil, err
		}
		if p.isKw("for") || p.isKw("async") {
			return nil, p.fail(star, "dict unpacking cannot be used in dict comprehension")
		}
	} else {
		if first, err = p.starExpression(); err != nil {
			return nil, err
		}
		// A starred item is never a dict key: "{*a: b}" is a set
		// display that fails at the ':'.
		isDict = p.isOp(":") && first.Class != "Starred"
	}
	if !isDict {
		if p.isKw("for") || p.isKw("async") {
			return p.comprehensionTail(first, p.toks[p.i-1], open, "}", "SetComp")
		}
		n := p.mk("Set", open)
		n.Elts = []*Node{first}
		return n, p.seq(n, "}")
	}
	n := p.mk("Dict", open)
	if first == nil {
		n.Keys, n.Elts = append(n.Keys, nil), append(n.Elts, nil)
	} else {
		if err := p.dictValueStart(); err != nil {
			return nil, err
		}
		v, err := p.expression()
		if err != nil {
			return nil, err
		}
		if p.isKw("for") || p.isKw("async") {
			if err := p.comprehension(); err != nil {
				return nil, err
			}
			if err := p.expectOp("}"); err != nil {
				return nil, err
			}
			return p.mk("DictComp", open), nil
		}
		n.Keys, n.Elts = append(n.Keys, first), append(n.Elts, v)
	}
	for p.isOp(",") {
		p.next()
		if p.isOp("}") {
			break
		}
		if p.isOp("**") {
			p.next()
			if _, err := p.bitOr(); err != nil {
				return nil, err
			}
			n.Keys, n.Elts = append(n.Keys, nil), append(n.Elts, nil)
			continue
		}
		k, err := p.expression()
		if err != nil {
			return nil, err
		}
		if !p.isOp(":") {
			// CPython points at the key's last character, on the line
			// the key starts on.
			last := p.toks[p.i-1]
			end := last.col + len(last.text) - 1
			if nl := strings.LastIndexByte(last.text, '\n'); nl >= 0 {
				end = len(last.text) - nl - 1
			}
			return nil, p.fail(token{line: k.Line, col: end}, "':' expected after dictionary key")
		}
		if err := p.dictValueStart(); err != nil {
			return nil, err
		}
		v, err := p.expression()
		if err != nil {
			return nil, err
		}
		if !p.check {
			n.Keys, n.Elts = append(n.Keys, k), append(n.Elts, v)
		}
	}
	return n, p.expectOp("}")
}

// dictValueStart consumes the ':' after a dict key, with CPython's messages
// for a starred or missing value.
func (p *parser) dictValueStart() error {
	colon := p.next()
	switch {
	case p.isOp("*") && p.i+1 < len(p.toks) && startsExpr(p.toks[p.i+1]):
		// invalid_double_starred_kvpairs: "':' '*' bitwise_or".
		return p.fail(p.peek(), "cannot use a starred expression in a dictionary value")
	case p.isOp("*"):
		p.next()
		return p.fail(p.peek(), "invalid syntax") // read past the '*', which starts no value
	case p.isOp("}") || p.isOp(","):
		return p.fail(colon, "expression expected after dictionary key and ':'")
	}
	return nil
}

// at moves an error to a node's position.
func (se *SyntaxError) at(n *Node) *SyntaxError {
	se.Line, se.Col = n.Line, n.Col
	return se
}

const digitPart = `[0-9](?:_?[0-9])*`

var (
	reInt   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(?:[1-9](?:_?[0-9])*|0(?:_?0)*)$`) })
	reFloat = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^(?:(?:` + digitPart + `)?\.` + digitPart + `|` + digitPart + `\.?)(?:[eE][+-]?` + digitPart + `)?$`)
	})
	reHex = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^0[xX](?:_?[0-9a-fA-F])+$`) })
	reOct = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^0[oO](?:_?[0-7])+$`) })
	reBin = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^0[bB](?:_?[01])+$`) })
)

// parseNumber validates a Python number literal and returns its type
// (int, float or complex) and value (0 for complex).
func parseNumber(s string) (kind string, v float64, ok bool) {
	if s == "" {
		return "", 0, false
	}
	if simpleInt(s) {
		f, _ := strconv.ParseFloat(s, 64)
		return "int", f, true
	}
	if last := s[len(s)-1]; last == 'j' || last == 'J' {
		body := s[:len(s)-1]
		if reFloat().MatchString(body) {
			return "complex", 0, true
		}
		return "", 0, false
	}
	clean := strings.ReplaceAll(s, "_", "")
	for _, r := range []struct {
		re   *regexp.Regexp
		base int
	}{{reHex(), 16}, {reOct(), 8}, {reBin(), 2}} {
		if r.re.MatchString(s) {
			i, ok := new(big.Int).SetString(clean[2:], r.base)
			if !ok {
				return "", 0, false
			}
			f, _ := new(big.Float).SetInt(i).Float64()
			return "int", f, true
		}
	}
	if reInt().MatchString(s) {
		f, _ := strconv.ParseFloat(clean, 64)
		return "int", f, true
	}
	if reFloat().MatchString(s) && strings.ContainsAny(s, ".eE") {
		f, err := strconv.ParseFloat(clean, 64)
		if err != nil && !math.IsInf(f, 0) {
			return "", 0, false
		}
		return "float", f, true
	}
	return "", 0, false
}

func simpleInt(s string) bool {
	if len(s) > 15 || len(s) > 1 && s[0] == '0' {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return false
		}
	}
	return true
}

// unescape decodes the backslash escapes of a non-raw string body. \N{name}
// is resolved with lookupName.
func unescape(s string, bytes bool) string {
	if !strings.Contains(s, "\\") {
		return s
	}
	var sb strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 >= len(s) {
			sb.WriteByte(c)
			continue
		}
		i++
		switch e := s[i]; e {
		case '\n':
		case '\r':
			if i+1 < len(s) && s[i+1] == '\n' {
				i++
			}
		case '\\', '\'', '"':
			sb.WriteByte(e)
		case 'a':
			sb.WriteByte('\a')
		case 'b':
			sb.WriteByte('\b')
		case 'f':
			sb.WriteByte('\f')
		case 'n':
			sb.WriteByte('\n')
		case 'r':
			sb.WriteByte('\r')
		case 't':
			sb.WriteByte('\t')
		case 'v':
			sb.WriteByte('\v')
		case '0', '1', '2', '3', '4', '5', '6', '7':
			j := i
			for j < len(s) && j < i+3 && s[j] >= '0' && s[j] <= '7' {
				j++
			}
			v, _ := strconv.ParseUint(s[i:j], 8, 32)
			writeCode(&sb, rune(v), bytes)
			i = j - 1
		case 'N':
			end := strings.IndexByte(s[i:], '}')
			if bytes || i+1 >= len(s) || s[i+1] != '{' || end < 0 {
				sb.WriteString("\\N")
				continue
			}
			if r, ok := lookupName(s[i+2 : i+end]); ok {
				sb.WriteRune(r)
			} else {
				sb.WriteString(s[i-1 : i+end+1]) // a syntax error elsewhere
			}
			i += end
		case 'x', 'u', 'U':
			n := map[byte]int{'x': 2, 'u': 4, 'U': 8}[e]
			if bytes && e != 'x' || i+1+n > len(s) {
				sb.WriteByte('\\')
				sb.WriteByte(e)
				continue
			}
			v, err := strconv.ParseUint(s[i+1:i+1+n], 16, 32)
			if err != nil {
				sb.WriteByte('\\')
				sb.WriteByte(e)
				continue
			}
			writeCode(&sb, rune(v), bytes)
			i += n
		default:
			sb.WriteByte('\\')
			sb.WriteByte(e)
		}
	}
	return sb.String()
}

func writeCode(sb *strings.Builder, r rune, bytes bool) {
	if bytes || r < 0x80 {
		sb.WriteByte(byte(r))
		return
	}
	if r >= 0xd800 && r <= 0xdfff {
		// A lone surrogate stays in a Python str ("\udaa9"): kept as
		// its generalized UTF-8 bytes, which pyRepr shows as Python does.
		sb.WriteByte(byte(0xe0 | r>>12))
		sb.WriteByte(byte(0x80 | r>>6&0x3f))
		sb.WriteByte(byte(0x80 | r&0x3f))
		return
	}
	if !utf8.ValidRune(r) {
		r = utf8.RuneError
	}
	sb.WriteRune(r)
}

// DecodeRune is utf8.DecodeRuneInString that also reads the lone
// surrogates writeCode keeps.
func DecodeRune(s string) (rune, int) {
	if len(s) >= 3 && s[0] == 0xed && s[1]&0xe0 == 0xa0 && s[2]&0xc0 == 0x80 {
		return 0xd000 | rune(s[1]&0x3f)<<6 | rune(s[2]&0x3f), 3
	}
	return utf8.DecodeRuneInString(s)
}

// comprehensionTail reads the for clauses after a display's first element
// and the display's closer, and makes the comprehension's node of class;
// a starred first element is CPython's error, placed at first (at is the
// token its range ends on).
func (p *parser) comprehensionTail(first *Node, at, open token, closer, class string) (*Node, error) {
	if first.Class == "Starred" {
		return nil, p.fail(at, "iterable unpacking cannot be used in comprehension").at(first)
	}
	if err := p.comprehension(); err != nil {
		return nil, err
	}
	if err := p.expectOp(closer); err != nil {
		return nil, err
	}
	return p.mk(class, open), nil
}
