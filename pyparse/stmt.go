package pyparse

import (
	"errors"
	"fmt"
	"iter"
	"strings"
)

// Statement-level syntax check. ast.parse rejects a whole file on any syntax
// error, and the reference collector then crashes, so a file the scanner
// accepts must parse. checkLine validates one logical line against Python's
// statement grammar (the newest grammar: type aliases, generic parameter
// lists and unparenthesised except groups are accepted). Block structure
// is followed by the lexer (blockState).

func isAugOp(s string) bool {
	switch s {
	case "+=", "-=", "*=", "/=", "//=", "%=", "@=", "&=", "|=", "^=", ">>=", "<<=", "**=":
		return true
	}
	return false
}

// checkLine returns the first syntax error of one logical line. p is reused
// across lines: its node slab is recycled, as no node outlives the check.
func checkLine(p *parser, toks []token) *SyntaxError {
	p.toks, p.i, p.slab, p.depth, p.softKw, p.furthest, p.line, p.ranOut = toks, 0, p.slab[:0], 0, "", 0, toks, false
	if err := p.statement(); err != nil {
		var se *SyntaxError
		if !errors.As(err, &se) {
			se = p.fail(p.peek(), "invalid syntax")
		}
		p.furthest = max(p.furthest, se.Line) // a rule may have read further (invalidNamed)
		p.failTok = token{line: se.Line, col: se.Col}
		if se.read != nil {
			p.failTok = *se.read
		}
		for _, t := range toks {
			if t.line > p.failTok.line || t.line == p.failTok.line && t.col >= p.failTok.col {
				p.furthest = max(p.furthest, t.line)
				break
			}
		}
		return p.hint(toks, se)
	}
	return nil
}

// hint turns a generic "invalid syntax" into the message of the CPython
// rule that would have matched in its second, error-hunting pass:
// invalid_legacy_expression ("print x") and invalid_expression's missing
// comma between two expressions inside brackets.
func (p *parser) hint(toks []token, se *SyntaxError) *SyntaxError {
	minor := p.minor
	if se.Msg != "invalid syntax" || se.noHint {
		return se
	}
	if len(toks) > 0 && (toks[0].text == "import" || toks[0].text == "from") && toks[0].kind == tkName {
		return se // an import holds no expression for these rules to parse
	}
	// A line that starts with the soft keyword match is tried as a match
	// statement first (compound statements come before simple ones): an
	// invalid_* rule its subject_expr raises wins ("match x = 1").
	if len(toks) > 1 && toks[0].kind == tkName && toks[0].text == "match" && softKeywordToken("match", minor) &&
		(startsExpr(toks[1]) || toks[1].isOp("*")) {
		sub := parser{toks: toks[1:], check: true, minor: minor, named: true, subject: true}
		var se2 *SyntaxError
		if _, err := sub.starExpressions(); errors.As(err, &se2) && se2.Msg != "invalid syntax" && !se2.action {
			return se2
		}
	}
	k := len(toks)
	for i, t := range toks {
		if t.line > se.Line || t.line == se.Line && t.col >= se.Col {
			k = i
			break
		}
	}
	// In a match block a line is only ever parsed as a case block, and
	// its patterns are no expressions: the second pass's expression
	// rules meet its guard alone ("case [a b]:" is invalid syntax at b,
	// "case x if [a b]:" a missing comma).
	if p.inMatch && toks[0].kind == tkName && toks[0].text == "case" {
		if g := guardAt(toks); g < 0 || k <= g {
			return se
		}
	}
	// reached notes how far a rule of the second pass read: the line of
	// the token after toks[end-1], past the last line at the end.
	reached := func(end int) {
		if end < len(toks) {
			p.furthest = max(p.furthest, toks[end].line)
		} else if len(toks) > 0 {
			p.furthest = max(p.furthest, toks[len(toks)-1].line+1)
		}
	}
	// parses parses an expression (star_expressions) from toks[from] and
	// returns its end, or -1. A string literal that fails to decode in it
	// fails the whole parse, as CPython's actions do (action).
	var action *SyntaxError
	parses := func(from int, star bool) int {
		sub := parser{toks: toks[from:], check: true, minor: minor}
		var err error
		if star {
			_, err = sub.starExpressions()
		} else {
			_, err = sub.expression()
		}
		// An invalid_* rule raising on the way ("expected 'else' after
		// 'if' expression") ends the second pass like a failing action;
		// the missing-comma rule reads its right side without them
		// (expression_without_invalid), the legacy rule with them.
		var se *SyntaxError
		if errors.As(err, &se) && (se.action || star && se.Msg == expectedElse) && action == nil {
			action = se
		}
		if err != nil {
			// A PEG parse keeps the longest prefix that parses: an
			// operand followed by a broken trailer or operator is still
			// an expression ("f(1if" reads as "f").
			if se == nil || se.action {
				return -1
			}
			// It read up to where the whole parse failed: past the
			// end of an unclosed bracket's line, the end of the file.
			fail := token{line: se.Line, col: se.Col}
			if se.read != nil {
				fail = *se.read
			}
			end := len(toks)
			for i := from; i < len(toks); i++ {
				if t := toks[i]; t.line > fail.line || t.line == fail.line && t.col >= fail.col {
					end = i
					break
				}
			}
			reached(end)
			pre := parser{toks: toks, check: true, minor: minor}
			at := from
			if star && at < len(toks) && toks[at].isOp("*") {
				at++
			}
			if !pre.exprStartsAt(at) {
				return -1
			}
			return max(end, at+1)
		}
		return from + sub.i
	}
	depthAt := func(k int) int {
		depth := 0
		for _, t := range toks[:k] {
			if t.kind == tkOp {
				depth += bracketDelta(t.text)
			}
		}
		return depth
	}
	// comma: the missing-comma rule between toks[k-1] and toks[k]. Its
	// "NAME STRING" exclusion looks at the start of the left expression.
	comma := func(k int) *SyntaxError {
		if k == 0 || k >= len(toks) {
			return nil
		}
		a, b := toks[k-1], toks[k]
		start := exprStart(toks, k-1)
		// A comprehension's disjunctions have no expression rule; an if
		// statement's condition (a named_expression) does. Its 'for'
		// clause does when its targets are no star_targets followed by
		// 'in': CPython's invalid_for_target then reads star_expressions
		// after the 'for' ("[x for i j]"), whose starred form has no
		// such rule; once they are, the 'in' cuts the other
		// alternatives off.
		if start > 0 && toks[start-1].text == "if" && start > 1 {
			return action
		}
		if clause := forClause(toks, start); clause >= 0 {
			if toks[start].isOp("*") || hasKeyword(toks[start:k], "in") && p.forTarget != clause+1 {
				return action
			}
		}
		if endsExpr(a) && startsExpr(b) && b.text != "-" && b.text != "+" &&
			!(toks[start].kind == tkName && !isKeyword(toks[start].text) && start+1 < len(toks) && toks[start+1].kind == tkString) &&
			!(toks[start].kind == tkName && softKeywordToken(toks[start].text, minor)) {
			// The right side is parsed (its strings built) before the
			// rule checks that it is inside brackets.
			if end := parses(k, false); end >= 0 && depthAt(k) > 0 {
				reached(end)
				// Reported from the start of the left expression
				// (RAISE_SYNTAX_ERROR_KNOWN_RANGE(a, b)).
				return &SyntaxError{Line: toks[start].line, Col: toks[start].col, Msg: "invalid syntax. Perhaps you forgot a comma?"}
			}
		}
		return action
	}
	for i := 0; i+1 < len(toks); i++ {
		t := toks[i]
		if t.kind == tkName && (t.text == "print" || t.text == "exec") && (i < k && (i == 0 || expressionSlot(toks[i-1]) || p.forTarget == i+1) || legacyChain(toks, i, p.forTarget)) &&
			toks[i+1].text != "(" && (startsExpr(toks[i+1]) || toks[i+1].text == "*") {
			end := parses(i+1, true)
			if action != nil {
				return action
			}
			if end < 0 {
				continue
			}
			// A missing comma inside what follows is found while the
			// legacy rule parses it, so it wins; unless it follows the
			// else branch of a conditional, whose expression
			// invalid_expression memoised without invalid rules before
			// ("print 1 if x else 2 b").
			if se := comma(end); se != nil && !topLevelElse(toks[i+1:end]) {
				if se.action {
					return se
				}
				se.Line, se.Col = toks[i+1].line, toks[i+1].col
				return se
			}
			reached(end)
			return &SyntaxError{Line: t.line, Col: t.col, Msg: fmt.Sprintf("Missing parentheses in call to '%s'. Did you mean %s(...)?", t.text, t.text)}
		}
	}
	if hint := comma(k); hint != nil {
		return hint
	}
	// A call or subscript trailer that fails inside is dropped by the
	// PEG parse, which then sees its bracket as the next operand: the
	// comma rule between "x" and "(yield)" in "x (yield)".
	for depth, o := 0, k-1; o > 0; o-- {
		if t := toks[o]; t.kind == tkOp {
			depth += bracketDelta(t.text)
		}
		if depth > 0 {
			if (toks[o].isOp("(") || toks[o].isOp("[")) && endsExpr(toks[o-1]) {
				if hint := comma(o); hint != nil {
					return hint
				}
			}
			break
		}
	}
	// invalid_legacy_expression ("NAME !'(' star_expressions") is tried
	// at every name an expression starts with, print or not: the
	// star_expressions it parses after a lone name can meet the
	// missing-comma rule further on ("f(x = u 'a' e=3)").
	if k > 0 && k < len(toks) && toks[k-1].kind == tkName && !isKeyword(toks[k-1].text) && exprStart(toks, k-1) == k-1 &&
		!toks[k].isOp("(") && (k == 1 || expressionSlot(toks[k-2]) || p.forTarget == k) {
		sub := parser{toks: toks[k:], check: true, minor: minor}
		_, err := sub.starExpressions()
		k2 := -1
		var se2 *SyntaxError
		switch {
		case err == nil:
			k2 = k + sub.i // it stops where the next operand starts
		case errors.As(err, &se2) && se2.Msg != "invalid syntax" && readPastOpen(toks, &sub):
			// The rule read past the line of a bracket the file leaves
			// open (its lookahead): CPython then reports the bracket.
			reached(len(toks))
		case errors.As(err, &se2) && se2.Msg != "invalid syntax":
			return se2 // an invalid_* rule raised on the way
		case errors.As(err, &se2) && !se2.action:
			k2 = len(toks)
			for i := k; i < len(toks); i++ {
				if t := toks[i]; t.line > se2.Line || t.line == se2.Line && t.col >= se2.Col {
					k2 = i
					break
				}
			}
		}
		if k2 > k {
			reached(k2) // it read there: into an unclosed bracket, to the end
			// A lambda's parameters hold no expression for the rule
			// ("lambda range(3)" fails at the '(').
			if hint := comma(k2); hint != nil && !hint.action && !inLambdaParams(toks[k:k2]) {
				return hint
			}
		}
	}
	if action != nil {
		return action
	}
	return se
}

// inLambdaParams reports whether the end of toks is inside the parameter
// list of a lambda in toks (after the keyword, before its ':').
func inLambdaParams(toks []token) bool {
	for j := range sameLevelBack(toks, len(toks)) {
		switch t := toks[j]; {
		case t.isOp(":"):
			return false
		case t.kind == tkName && t.text == "lambda":
			return true
		}
	}
	return false
}

// sameLevelBack yields, from toks[from-1] back, the indexes of the tokens
// in the bracket level of toks[from] (skipping what nested brackets hold),
// stopping at the bracket that opens the level.
func sameLevelBack(toks []token, from int) iter.Seq[int] {
	return func(yield func(int) bool) {
		depth := 0
		for j := from - 1; j >= 0; j-- {
			t := toks[j]
			switch {
			case t.kind == tkOp && (t.text == ")" || t.text == "]" || t.text == "}"):
				depth++
			case t.kind == tkOp && (t.text == "(" || t.text == "[" || t.text == "{"):
				if depth == 0 {
					return
				}
				depth--
			case depth == 0 && !yield(j):
				return
			}
		}
	}
}

// legacyChain reports whether toks[i] follows names juxtaposed from an
// expression's start outside brackets ("x = a b print c"):
// invalid_legacy_expression,
// tried at every name an expression starts with, parses star_expressions
// after the name, where the next name starts an expression in turn.
func legacyChain(toks []token, i, forTarget int) bool {
	depth := 0
	for _, t := range toks[:i] {
		if t.kind == tkOp {
			depth += bracketDelta(t.text)
		}
	}
	if depth > 0 {
		return false // in brackets the missing-comma rule, tried first, raises
	}
	for j := i - 1; j >= 0; j-- {
		t := toks[j]
		if t.kind != tkName || isKeyword(t.text) || j+1 < len(toks) && toks[j+1].isOp("(") {
			return false
		}
		if j == 0 || expressionSlot(toks[j-1]) || forTarget == j+1 {
			return true
		}
	}
	return false
}

// expectedElse is invalid_expression's error for a conditional without
// its else, which any expression the second pass reads can raise.
const expectedElse = "expected 'else' after 'if' expression"

// readPastOpen reports whether sub, parsing part of toks, read past the
// line of the innermost bracket toks leave open (or past their end).
func readPastOpen(toks []token, sub *parser) bool {
	open := lastOpenLine(toks)
	return open > 0 && (sub.ranOut || sub.furthest > open)
}

// lastOpenLine is the line of the innermost bracket toks leave open (0
// if none).
func lastOpenLine(toks []token) int {
	var open []int
	for _, t := range toks {
		switch {
		case t.kind == tkOp && (t.text == "(" || t.text == "[" || t.text == "{"):
			open = append(open, t.line)
		case t.kind == tkOp && (t.text == ")" || t.text == "]" || t.text == "}") && len(open) > 0:
			open = open[:len(open)-1]
		}
	}
	if len(open) == 0 {
		return 0
	}
	return open[len(open)-1]
}

// hasKeyword reports the keyword kw outside brackets in toks.
func hasKeyword(toks []token, kw string) bool {
	depth := 0
	for _, t := range toks {
		switch {
		case t.kind == tkOp:
			depth += bracketDelta(t.text)
		case depth == 0 && t.kind == tkName && t.text == kw:
			return true
		}
	}
	return false
}

// forClause is the index of the first target of the 'for' clause whose
// target list toks[i] is in (after the 'for', before its 'in'), or -1.
func forClause(toks []token, i int) int {
	for j := range sameLevelBack(toks, i) {
		if t := toks[j]; t.kind == tkName {
			switch t.text {
			case "in", "if":
				return -1
			case "for":
				return j + 1
			}
		}
	}
	return -1
}

// topLevelElse reports an "else" outside brackets in toks.
func topLevelElse(toks []token) bool {
	depth := 0
	for _, t := range toks {
		switch {
		case t.kind == tkOp:
			depth += bracketDelta(t.text)
		case depth == 0 && t.kind == tkName && t.text == "else":
			return true
		}
	}
	return false
}

// exprStart walks back from toks[i], the last token of an expression, to
// its first token: over brackets, trailers, dots, operators and adjacent
// strings, stopping where two operands meet without an operator, or at an
// opening bracket, a comma, an '=', a ':' or a keyword.
func exprStart(toks []token, i int) int {
	j := i
	for j > 0 {
		// Skip a bracketed group backwards: j lands on its opener.
		if t := toks[j]; t.kind == tkOp && (t.text == ")" || t.text == "]" || t.text == "}") {
			depth := 0
			for ; j >= 0; j-- {
				if toks[j].kind == tkOp {
					depth += bracketDelta(toks[j].text)
				}
				if depth == 0 {
					break
				}
			}
			if j <= 0 {
				return 0
			}
		}
		q := toks[j-1]
		cur := toks[j]
		switch {
		case cur.kind == tkOp && (cur.text == "(" || cur.text == "[") && endsExpr(q):
			j-- // a call or subscript trailer: its primary is part of it
		case cur.kind == tkString && q.kind == tkString:
			j-- // implicit concatenation
		case q.kind == tkOp && q.text != "(" && q.text != "[" && q.text != "{" && q.text != "," && q.text != "=" &&
			q.text != ":" && q.text != ";" && q.text != ":=" && !isAugOp(q.text):
			if j < 2 || !endsExpr(toks[j-2]) {
				j-- // a unary operator: what precedes it decides
				continue
			}
			j -= 2 // an operator and its left operand
			if j < 0 {
				return 0
			}
		case q.kind == tkName && (q.text == "not" || q.text == "and" || q.text == "or" || q.text == "in" || q.text == "is"):
			if q.text == "not" && (j < 2 || !endsExpr(toks[j-2])) {
				j--
				continue
			}
			if q.text == "in" && j >= 3 && toks[j-2].text == "not" {
				j-- // "not in": the loop steps over "not" next
			}
			j -= 2
			if j < 0 {
				return 0
			}
		case q.kind == tkName && q.text == "await":
			j-- // await binds to its primary
		default:
			return j
		}
	}
	return max(j, 0)
}

// expressionSlot reports a token after which the grammar expects an
// expression (where CPython's invalid_legacy_expression can match).
func expressionSlot(t token) bool {
	switch t.kind {
	case tkOp:
		switch t.text {
		case "(", "[", "{", ",", "=", ":", ";", "+=", "-=", "*=", "/=", "//=", "%=", "@=", "&=", "|=", "^=", ">>=", "<<=", "**=", ":=":
			return true
		}
	case tkName:
		switch t.text {
		case "return", "if", "elif", "while", "else", "assert", "yield", "in", "del", "await":
			return true
		}
	}
	return false
}

// startsExpr reports a token that can begin an expression (no '*').
func startsExpr(t token) bool {
	switch t.kind {
	case tkNumber, tkString:
		return true
	case tkName:
		switch t.text {
		case "True", "False", "None", "not", "lambda", "await":
			return true
		}
		return !isKeyword(t.text)
	case tkOp:
		switch t.text {
		case "(", "[", "{", "-", "+", "~", "...":
			return true
		}
	}
	return false
}

// endsExpr reports a token that can end an expression.
func endsExpr(t token) bool {
	switch t.kind {
	case tkNumber, tkString:
		return true
	case tkName:
		return t.text == "True" || t.text == "False" || t.text == "None" || !isKeyword(t.text)
	case tkOp:
		return t.text == ")" || t.text == "]" || t.text == "}" || t.text == "..."
	}
	return false
}

// isSoftKeyword reports Python's soft keywords (type from 3.12 on).
func isSoftKeyword(s string, minor int) bool {
	return s == "match" || s == "case" || s == "_" || s == "type" && (minor == 0 || minor >= 12)
}

// softKeywordToken is the grammar's SOFT_KEYWORD token test, which until
// 3.13 compares only the name's length of each soft keyword (strncmp in
// _PyPegen_soft_keyword_token), so that "c", "ma" or "ty" count too: "[c d]"
// gets no missing-comma hint under 3.11 (checked with python3.11). CPython
// fixed it in 2025 (gh-130077), so 3.14 compares whole names; 3.12 and
// 3.13 shipped with the prefix test, and whether their later patch
// releases took the fix is not known here.
func softKeywordToken(s string, minor int) bool {
	if minor == 0 || minor >= 14 {
		return isSoftKeyword(s, minor)
	}
	for _, kw := range []string{"match", "case", "_", "type"} {
		if kw == "type" && minor < 12 {
			continue
		}
		if s != "" && strings.HasPrefix(kw, s) {
			return true
		}
	}
	return false
}

func (p *parser) statement() error {
	t := p.peek()
	if t.kind == tkOp && t.text == "@" {
		p.next()
		if _, err := p.namedCondition(); err != nil {
			return err
		}
		return p.end()
	}
	if t.kind == tkName {
		switch t.text {
		case "async":
			p.next()
			switch {
			case p.isKw("def"):
				return p.funcDef()
			case p.isKw("for"):
				return p.forStmt()
			case p.isKw("with"):
				return p.withStmt()
			}
			return p.fail(p.peek(), "invalid syntax")
		case "def":
			return p.funcDef()
		case "class":
			return p.classDef()
		case "if", "elif", "while":
			p.next()
			if _, err := p.namedCondition(); err != nil {
				return err
			}
			return p.block()
		case "else", "try", "finally":
			p.next()
			return p.blockColon(true)
		case "for":
			return p.forStmt()
		case "with":
			return p.withStmt()
		case "except":
			p.next()
			if p.isOp("*") {
				p.next()
				if p.isOp(":") {
					return p.fail(p.peek(), "expected one or more exception types")
				}
			}
			if p.atEnd() {
				return p.fail(p.peek(), "expected ':'")
			}
			if !p.isOp(":") {
				n, err := p.starExpressions()
				if err != nil {
					return err
				}
				// Unparenthesised exception groups are Python 3.14's
				// (PEP 758), and never with "as".
				if n.Class == "Tuple" && !n.paren {
					if p.minor < 14 {
						return &SyntaxError{Line: n.Line, Col: n.Col, Msg: "multiple exception types must be parenthesized"}
					}
					if p.isKw("as") {
						return &SyntaxError{Line: n.Line, Col: n.Col, Msg: "multiple exception types must be parenthesized when using 'as'"}
					}
				}
				if p.isKw("as") {
					p.next()
					if n := p.next(); n.kind != tkName || isKeyword(n.text) {
						return p.fail(n, "invalid syntax")
					}
				}
			}
			return p.block()
		case "match", "case":
			// In a match block a line is only ever a case block (its
			// bracket left open or not).
			if t.text == "case" && p.inMatch {
				p.i = 1
				p.softKw = t.text
				return p.caseHeader()
			}
			// Soft keywords. A line that parses as a plain statement
			// ("match = 1", "case[1]: int = 2") is one; otherwise a line
			// with a top-level ':' is a match or case header.
			err := p.simpleStmts()
			if err == nil {
				return nil
			}
			if colonAtDepth0(p.toks) < 0 {
				if t.text == "case" && !p.inMatch {
					return err // a case block only inside a match statement
				}
				// A header that ends the line without its ':'.
				p.i = 1
				herr := p.caseHeader()
				if t.text == "match" {
					p.i = 1
					herr = p.matchHeader()
				}
				var se *SyntaxError
				if errors.As(herr, &se) && se.Msg == "expected ':'" {
					return se
				}
				return err
			}
			p.i = 1
			p.softKw = t.text
			if t.text == "match" {
				return p.matchHeader()
			}
			return p.caseHeader()
		}
	}
	return p.simpleStmts()
}

// guardAt is the index of a case line's guard keyword (the first 'if'
// outside brackets; patterns hold none), or -1.
func guardAt(toks []token) int {
	depth := 0
	for i, t := range toks {
		if t.kind == tkOp {
			depth += bracketDelta(t.text)
		} else if depth == 0 && t.kind == tkName && t.text == "if" {
			return i
		}
	}
	return -1
}

// colonAtDepth0 is the index of the first ':' outside brackets, or -1.
func colonAtDepth0(toks []token) int {
	depth := 0
	for i, t := range toks {
		if t.kind != tkOp {
			continue
		}
		depth += bracketDelta(t.text)
		if t.text == ":" && depth == 0 {
			return i
		}
	}
	return -1
}

// bracketDelta is how an operator token changes the bracket depth.
func bracketDelta(op string) int {
	switch op {
	case "(", "[", "{":
		return 1
	case ")", "]", "}":
		return -1
	}
	return 0
}

// end requires the end of the line.
func (p *parser) end() error {
	if !p.atEnd() {
		return p.fail(p.peek(), "invalid syntax")
	}
	return nil
}

// block parses ':' and an optional same-line body.
func (p *parser) block() error { return p.blockColon(false) }

// blockColon parses ": [simple statements]". CPython says "expected ':'"
// where its grammar forces the colon (def, try, else, finally: forced) or
// where the header ends the line; otherwise it is invalid syntax.
func (p *parser) blockColon(forced bool) error {
	if !p.isOp(":") {
		if forced || p.atEnd() {
			return p.fail(p.peek(), "expected ':'")
		}
		return p.fail(p.peek(), "invalid syntax")
	}
	p.next()
	if p.atEnd() {
		return nil
	}
	return p.simpleStmts()
}

// skipBracket skips a balanced bracket group starting at the current token.
func (p *parser) skipBracket() error {
	depth := 0
	for !p.atEnd() {
		t := p.next()
		if t.kind != tkOp {
			continue
		}
		switch t.text {
		case "(", "[", "{":
			depth++
		case ")", "]", "}":
			depth--
			if depth == 0 {
				return nil
			}
		}
	}
	return p.fail(p.peek(), "invalid syntax")
}

func (p *parser) name() error {
	t := p.next()
	if t.kind != tkName || isKeyword(t.text) {
		return p.fail(t, "invalid syntax")
	}
	return nil
}

func (p *parser) funcDef() error {
	p.next() // def
	if err := p.name(); err != nil {
		return err
	}
	if p.isOp("[") {
		if err := p.typeParams(); err != nil {
			return err
		}
		if err := p.skipBracket(); err != nil { // type parameters
			return err
		}
	}
	if !p.isOp("(") {
		return p.fail(p.peek(), "expected '('")
	}
	p.next()
	if err := p.params(")", true); err != nil {
		return err
	}
	if p.isOp("->") {
		arrow := p.next()
		start := p.i
		if _, err := p.expression(); err != nil {
			var se *SyntaxError
			if errors.As(err, &se) && se.action {
				return err
			}
			// The optional "'->' expression" keeps the longest
			// expression that parses, or is skipped; the forced ':'
			// then fails (at once, in the first pass) where it stops.
			at := arrow
			if _, j := p.longestPrefix(start, len(p.toks), (*parser).expression); j >= 0 {
				p.i = j
				at = p.peek() // the NEWLINE when it reaches the end
			}
			return p.fail(at, "expected ':'")
		}
	}
	return p.blockColon(true)
}

// paramItem is one comma-separated item of a parameter list: kind is P
// (name), D (name=default), / , S (bare *), V (*name), K (**name), ( (a
// parenthesised name); V and K with a default keep their kind and eq.
type paramItem struct {
	kind  byte
	tok   token // the item's first token
	eq    token // the '=' of a default (line 0: none)
	noVal bool  // '=' with no expression after it
	comma bool  // followed by ','
	names bool  // for (: parameters without defaults inside
}

// parenthesisedParams reads, after a '(' in a parameter list, what
// invalid_parameters calls parenthesised parameters: one or more names
// (with annotations in a def), separated by commas, one more allowed
// before the ')'. It returns nil past the ')', or the token that breaks
// the pattern (the end of the line when it runs out).
func (p *parser) parenthesisedParams(annotations bool) *token {
	for {
		if t := p.peek(); t.kind != tkName || isKeyword(t.text) {
			return &t
		}
		p.next()
		if annotations && p.isOp(":") {
			p.next()
			if _, err := p.expression(); err != nil {
				t := p.peek()
				return &t
			}
		}
		if p.isOp(",") {
			p.next()
			if p.isOp(")") {
				p.next()
				return nil
			}
			continue
		}
		if p.isOp(")") {
			p.next()
			return nil
		}
		t := p.peek()
		return &t
	}
}

// params parses a parameter list up to and including closer, then checks
// the order of its items with the invalid_parameters, invalid_star_etc
// and invalid_kwds rules of CPython's grammar, in their order, so that a
// misordered list gets CPython's message.
func (p *parser) params(closer string, annotations bool) error {
	// The items live on p.paramStack, a stack a nested list (a lambda in a
	// default) pushes onto and pops: one array for a whole scan worker.
	base := len(p.paramStack)
	defer func() { p.paramStack = p.paramStack[:base] }()
	items := p.paramStack[base:]
	for !p.isOp(closer) {
		it := paramItem{tok: p.peek()}
		// expr: the item ends with an annotation or default, where a
		// missing comma is an expression's (hinted) error.
		expr := false
		switch {
		case p.isOp("/"):
			p.next()
			it.kind = '/'
			if p.isOp("*") && len(items) > 0 {
				return p.fail(p.peek(), "expected comma between / and *")
			}
		case p.isOp("*") || p.isOp("**"):
			star := p.next()
			if star.text == "*" && (p.isOp(",") || p.isOp(closer)) {
				it.kind = 'S'
				break
			}
			if err := p.name(); err != nil {
				return noHint(err)
			}
			it.kind = 'V'
			if star.text == "**" {
				it.kind = 'K'
			}
			if annotations && p.isOp(":") {
				p.next()
				if star.text == "*" && p.isOp("*") {
					p.next() // *args: *Ts
				}
				if _, err := p.expression(); err != nil {
					return err
				}
			}
			if p.isOp("=") {
				eq := p.next()
				it.eq = eq
				if !p.isOp(",") && !p.isOp(closer) {
					if _, err := p.expression(); err != nil {
						return err
					}
				}
			}
		case p.isOp("(") && !onlyNoDefault(items):
			// No rule reads past a '(' after a default, a '/' or a
			// star ("def f(a=1, (b)):" fails at the '('), so a
			// bracket it leaves open is no error of CPython's; a rule
			// the parameters before it match still raises.
			it.kind = '('
			if se := p.checkParams(append(items[:len(items):len(items)], it), annotations); se != nil {
				return se
			}
			return noHint(p.fail(p.peek(), "invalid syntax"))
		case p.isOp("("):
			// No parameter starts with '(': the first pass fails here.
			// invalid_parameters reads "'(' param_no_default+ ','? ')'"
			// from it, and fails (with the first pass's error) at the
			// first token that breaks that.
			it.kind, it.names = '(', true
			open := p.next()
			if stop := p.parenthesisedParams(annotations); stop != nil {
				p.furthest = max(p.furthest, stop.line)
				se := p.fail(open, "invalid syntax")
				se.read, se.noHint = stop, true
				return se
			}
			// The rule raises once it has matched, whatever follows (the
			// end of the file too).
			if se := p.checkParams(append(items[:len(items):len(items)], it), annotations); se != nil {
				return se
			}
		default:
			if err := p.name(); err != nil {
				return noHint(err)
			}
			it.kind = 'P'
			if annotations && p.isOp(":") {
				p.next()
				if _, err := p.expression(); err != nil {
					return err
				}
				expr = true
			}
			if p.isOp("=") {
				eq := p.next()
				it.kind, it.eq = 'D', eq
				if p.isOp(",") || p.isOp(closer) {
					it.noVal = true
				} else if _, err := p.expression(); err != nil {
					return err
				}
				expr = true
			}
		}
		it.comma = p.isOp(",")
		if !it.comma && !p.isOp(closer) {
			if se := p.checkParams(items, annotations); se != nil {
				return se
			}
			if expr {
				return p.fail(p.peek(), "invalid syntax")
			}
			return noHint(p.fail(p.peek(), "invalid syntax"))
		}
		p.paramStack = append(p.paramStack, it)
		items = p.paramStack[base:]
		if !it.comma {
			break
		}
		p.next()
	}
	if se := p.checkParams(items, annotations); se != nil {
		return se
	}
	return p.expectOp(closer)
}

// onlyNoDefault reports a list of plain parameters without defaults
// (CPython's param_no_default*), after which invalid_parameters reads a
// parenthesised group ("'(' param_no_default+ ','? ')'").
func onlyNoDefault(items []paramItem) bool {
	for _, it := range items {
		if it.kind != 'P' {
			return false
		}
	}
	return true
}

// plainParams reports the common list, plain parameters and then ones with
// a default, which no rule of checkParams rejects: checking it first skips
// building those rules for nearly every def and lambda.
func plainParams(items []paramItem) bool {
	seenDefault := false
	for _, it := range items {
		switch {
		case it.kind == 'D' && !it.noVal:
			seenDefault = true
		case it.kind == 'P' && !seenDefault:
		default:
			return false
		}
	}
	return true
}

// newer is the error for grammar the target Python version does not
// have yet; it names the construct and the version that introduced it.
func (p *parser) newer(t token, what string, minor int, pep string) *SyntaxError {
	return &SyntaxError{Line: t.line, Col: t.col, noHint: true,
		Msg: fmt.Sprintf("%s requires Python 3.%d or newer (%s); registry.python is 3.%d", what, minor, pep, p.minor)}
}

// typeParams gates a type parameter list ("[T]" after a def, class or
// type name) by the target version: 3.12, defaults 3.13.
func (p *parser) typeParams() error {
	if p.minor < 12 {
		return p.newer(p.peek(), "a type parameter list", 12, "PEP 695")
	}
	if p.minor < 13 {
		depth := 0
		for _, t := range p.toks[p.i:] {
			if t.kind != tkOp {
				continue
			}
			depth += bracketDelta(t.text)
			if depth == 0 {
				break
			}
			if depth == 1 && t.text == "=" {
				return p.newer(t, "a type parameter default", 13, "PEP 696")
			}
		}
	}
	return nil
}

// noHint marks an error the missing-comma hint must leave alone (a
// parameter name is not an expression).
func noHint(err error) error {
	var se *SyntaxError
	if errors.As(err, &se) {
		se.noHint = true
	}
	return err
}

func (p *parser) checkParams(items []paramItem, annotations bool) *SyntaxError {
	if plainParams(items) {
		return nil
	}
	n := len(items)
	kind := func(i int) byte {
		if i < n {
			return items[i].kind
		}
		return 0
	}
	at := func(i int, msg string) *SyntaxError {
		return &SyntaxError{Line: items[i].tok.line, Col: items[i].tok.col, Msg: msg}
	}
	pd := func(i int) int { // skip param_maybe_default*
		for kind(i) == 'P' || kind(i) == 'D' {
			i++
		}
		return i
	}
	// The end of a leading slash group (P+ / or P* D+ /), 0 if none.
	slash := 0
	if m := pd(0); m > 0 && kind(m) == '/' {
		slash = m + 1
	}
	noDefaultSlash := 0 // slash_no_default: P+ /
	if m := func() int {
		i := 0
		for kind(i) == 'P' {
			i++
		}
		return i
	}(); m > 0 && kind(m) == '/' {
		noDefaultSlash = m + 1
	}
	nonDefault := func(from int, msg string) *SyntaxError {
		i := from
		for kind(i) == 'P' {
			i++
		}
		j := i
		for kind(j) == 'D' {
			j++
		}
		if j == i {
			return nil
		}
		if kind(j) == '/' {
			j++
		}
		if kind(j) == 'P' {
			return at(j, msg)
		}
		return nil
	}
	paren := func() *SyntaxError {
		i := 0
		for kind(i) == 'P' {
			i++
		}
		if kind(i) == '(' && items[i].names {
			what := "Function"
			if !annotations {
				what = "Lambda expression"
			}
			return at(i, what+" parameters cannot be parenthesized")
		}
		return nil
	}
	// A '=' without its value fails as soon as a rule reads it as a
	// default, which the first rules do for the leading parameters.
	for i := 0; i < n && (kind(i) == 'P' || kind(i) == 'D'); i++ {
		if items[i].noVal {
			return &SyntaxError{Line: items[i].eq.line, Col: items[i].eq.col, Msg: "expected default value expression"}
		}
	}
	rules := []func() *SyntaxError{
		func() *SyntaxError { // "/" ','
			if kind(0) == '/' && items[0].comma {
				return at(0, "at least one argument must precede /")
			}
			return nil
		},
		func() *SyntaxError {
			if slash > 0 {
				if m := pd(slash); kind(m) == '/' {
					return at(m, "/ may appear only once")
				}
			}
			return nil
		},
		func() *SyntaxError {
			if m := pd(slash); kind(m) == 'S' && items[m].comma || kind(m) == 'V' && items[m].eq.line == 0 {
				if m2 := pd(m + 1); kind(m2) == '/' {
					return at(m2, "/ must be ahead of *")
				}
			}
			return nil
		},
	}
	var order []func() *SyntaxError
	if p.minor == 11 {
		order = []func() *SyntaxError{func() *SyntaxError { return nonDefault(0, "non-default argument follows default argument") }, paren}
		order = append(order, rules...)
	} else {
		order = append(order, rules[0], rules[1], func() *SyntaxError {
			return nonDefault(noDefaultSlash, "parameter without a default follows parameter with a default")
		}, paren, rules[2])
	}
	for _, r := range order {
		if se := r(); se != nil {
			return se
		}
	}
	// The valid grammar: [slash group] P* D* [star_etc] [kwds].
	m := slash
	for kind(m) == 'P' {
		m++
	}
	for kind(m) == 'D' {
		m++
	}
	for i := 0; i < m; i++ {
		if items[i].noVal {
			return &SyntaxError{Line: items[i].eq.line, Col: items[i].eq.col, Msg: "expected default value expression"}
		}
	}
	if k := kind(m); k == 'S' || k == 'V' {
		st := items[m]
		switch {
		case k == 'S' && (!st.comma || m+1 == n || kind(m+1) == 'K'):
			return at(m, "named arguments must follow bare *")
		case k == 'V' && st.eq.line != 0:
			return &SyntaxError{Line: st.eq.line, Col: st.eq.col, Msg: "var-positional argument cannot have default value"}
		}
		m2 := pd(m + 1)
		if kind(m2) == 'V' && items[m2].eq.line == 0 || kind(m2) == 'S' && items[m2].comma {
			return at(m2, "* argument may appear only once")
		}
		for i := m + 1; i < m2; i++ {
			if items[i].noVal {
				return &SyntaxError{Line: items[i].eq.line, Col: items[i].eq.col, Msg: "expected default value expression"}
			}
		}
		m = m2
	}
	if kind(m) == 'K' {
		kw := items[m]
		if kw.eq.line != 0 {
			return &SyntaxError{Line: kw.eq.line, Col: kw.eq.col, Msg: "var-keyword argument cannot have default value"}
		}
		if kw.comma && m+1 < n && kind(m+1) != '(' {
			return at(m+1, "arguments cannot follow var-keyword argument")
		}
		m++
	}
	if m < n {
		return &SyntaxError{Line: items[m].tok.line, Col: items[m].tok.col, Msg: "invalid syntax", noHint: true}
	}
	return nil
}

func (p *parser) classDef() error {
	p.next() // class
	if err := p.name(); err != nil {
		return err
	}
	if p.isOp("[") {
		if err := p.typeParams(); err != nil {
			return err
		}
		if err := p.skipBracket(); err != nil {
			return err
		}
	}
	if p.isOp("(") {
		if _, err := p.call(p.peek(), p.alloc(Node{Class: "Name"})); err != nil {
			return err
		}
	}
	return p.block()
}

func (p *parser) forStmt() error {
	p.next() // for
	start := p.i
	targets, err := p.targetList()
	var se *SyntaxError
	if errors.As(err, &se) && se.Msg == "invalid syntax" && !se.action && !se.noHint {
		return p.forTargetError(start, se) // no star_targets ("for lambda: 1 in")
	}
	if err != nil {
		return err
	}
	bad := false
	for _, t := range targets {
		bad = bad || p.checkTarget(t, "assign to") != nil
	}
	if !p.isKw("in") || bad {
		// As in a comprehension: invalid_for_target.
		return p.forTargetError(start, p.fail(p.peek(), "invalid syntax"))
	}
	p.next()
	if _, err := p.starExpressions(); err != nil {
		return err
	}
	return p.block()
}

// targetList parses for-loop targets (stopping before 'in').
func (p *parser) targetList() ([]*Node, error) {
	var out []*Node
	for {
		start := p.peek()
		var n *Node
		var err error
		if p.isOp("*") {
			p.next()
			n, err = p.bitOr()
			if err == nil {
				n = p.alloc(Node{Class: "Starred", Line: start.line, Col: start.col, Fn: n})
			}
		} else {
			n, err = p.bitOr()
		}
		if err != nil {
			return nil, err
		}
		out = append(out, n)
		if !p.isOp(",") {
			return out, nil
		}
		p.next()
		if p.isKw("in") {
			return out, nil
		}
	}
}

func (p *parser) withStmt() error {
	p.next() // with
	if p.isOp("(") {
		save := p.i
		p.next()
		if err := p.withItems(")"); err == nil && p.isOp(")") {
			p.next()
			if p.isOp(":") {
				return p.block()
			}
		}
		p.i = save
	}
	if err := p.withItems(":"); err != nil {
		return err
	}
	return p.block()
}

func (p *parser) withItems(closer string) error {
	for {
		if _, err := p.expression(); err != nil {
			return err
		}
		if p.isKw("as") {
			p.next()
			t, err := p.starExpression()
			if err != nil {
				return err
			}
			// invalid_with_item names the target only when a ',', ')'
			// or ':' follows it.
			if err := p.checkTarget(t, "assign to"); err != nil && (p.isOp(",") || p.isOp(")") || p.isOp(":")) {
				return err
			}
		}
		if !p.isOp(",") {
			return nil
		}
		p.next()
		if p.isOp(closer) {
			return nil
		}
	}
}

// describeTarget names a node the way CPython's "cannot assign to" does.
func describeTarget(n *Node) string {
	switch n.Class {
	case "Attribute":
		return "attribute"
	case "Subscript":
		return "subscript"
	case "Starred":
		return "starred"
	case "Name":
		return "name"
	case "List":
		return "list"
	case "Tuple":
		return "tuple"
	case "Call":
		return "function call"
	case "Constant":
		switch n.Type {
		case "bool", "NoneType":
			return pyBoolOrNone(n)
		case "ellipsis":
			return "ellipsis"
		}
		return "literal"
	case "JoinedStr":
		return "f-string expression"
	case "BinOp", "UnaryOp", "BoolOp":
		return "expression"
	case "Compare":
		return "comparison"
	case "Lambda":
		return "lambda"
	case "IfExp":
		return "conditional expression"
	case "NamedExpr":
		return "named expression"
	case "GeneratorExp":
		return "generator expression"
	case "ListComp":
		return "list comprehension"
	case "SetComp":
		return "set comprehension"
	case "DictComp":
		return "dict comprehension"
	case "Dict":
		return "dict literal"
	case "Set":
		return "set display"
	case "Await":
		return "await expression"
	case "Yield":
		return "yield expression"
	}
	return "expression"
}

// bitwiseOr reports a node CPython's bitwise_or rule derives: no
// comparison, boolean operator, lambda, conditional, starred or bare
// yield or tuple unless parenthesised.
func bitwiseOr(n *Node) bool {
	if n.paren {
		return true
	}
	switch n.Class {
	case "Compare", "BoolOp", "Lambda", "IfExp", "Starred", "Yield", "NamedExpr":
		return false
	case "Tuple":
		return false
	case "UnaryOp":
		return n.Name != "not"
	}
	return true
}

func pyBoolOrNone(n *Node) string {
	if n.Type == "NoneType" {
		return "None"
	}
	return pyBool(n.Bool)
}

// checkTarget reports a node that cannot be assigned (or deleted).
func (p *parser) checkTarget(n *Node, verb string) error {
	switch n.Class {
	case "Name", "Attribute", "Subscript":
		return nil
	case "Starred":
		return p.checkTarget(n.Fn, verb)
	case "Tuple", "List":
		for _, e := range n.Elts {
			if err := p.checkTarget(e, verb); err != nil {
				return err
			}
		}
		return nil
	}
	return &SyntaxError{Line: n.Line, Col: n.Col, Msg: "cannot " + verb + " " + describeTarget(n)}
}

func (p *parser) simpleStmts() error {
	for {
		if err := p.simpleStmt(); err != nil {
			return err
		}
		if p.atEnd() {
			return nil
		}
		if !p.isOp(";") {
			return p.fail(p.peek(), "invalid syntax")
		}
		p.next()
		if p.atEnd() {
			return nil
		}
	}
}

// stmtEnd reports whether the current simple statement has ended.
func (p *parser) stmtEnd() bool { return p.atEnd() || p.isOp(";") }

func (p *parser) yieldOrStar() (*Node, error) {
	if p.isKw("yield") {
		t := p.next()
		if p.isKw("from") {
			p.next()
			if _, err := p.expression(); err != nil {
				return nil, err
			}
		} else if !p.stmtEnd() && !p.isOp("=") && !p.isOp(")") {
			named := p.named
			p.named = false // a yield's value is star_expressions
			_, err := p.starExpressions()
			p.named = named
			if err != nil {
				return nil, err
			}
		}
		return p.mk("Yield", t), nil
	}
	return p.starExpressions()
}

func (p *parser) simpleStmt() error {
	t := p.peek()
	if t.kind == tkName {
		switch t.text {
		case "pass", "break", "continue":
			p.next()
			return nil
		case "return":
			p.next()
			if !p.stmtEnd() {
				_, err := p.starExpressions()
				return err
			}
			return nil
		case "raise":
			p.next()
			if !p.stmtEnd() {
				if _, err := p.expression(); err != nil {
					return err
				}
				if p.isKw("from") {
					p.next()
					_, err := p.expression()
					return err
				}
			}
			return nil
		case "global", "nonlocal":
			p.next()
			for {
				if err := p.name(); err != nil {
					return err
				}
				if !p.isOp(",") {
					return nil
				}
				p.next()
			}
		case "del":
			p.next()
			n, err := p.starExpressions()
			if err != nil {
				return err
			}
			return p.checkTarget(n, "delete")
		case "assert":
			p.next()
			if _, err := p.expression(); err != nil {
				return err
			}
			if p.isOp(",") {
				p.next()
				_, err := p.expression()
				return err
			}
			return nil
		case "import":
			p.next()
			for {
				if err := p.dottedName(); err != nil {
					return err
				}
				if p.isKw("as") {
					p.next()
					if err := p.name(); err != nil {
						return err
					}
				}
				if !p.isOp(",") {
					return nil
				}
				p.next()
			}
		case "from":
			return p.fromImport()
		case "type":
			// Soft keyword: "type X = ..." and "type X[T] = ...".
			if len(p.toks) > p.i+2 && p.toks[p.i+1].kind == tkName && (p.toks[p.i+2].text == "=" || p.toks[p.i+2].text == "[") {
				if p.minor < 12 {
					return p.newer(p.peek(), "a type alias statement", 12, "PEP 695")
				}
				p.next()
				p.next()
				if p.isOp("[") {
					if err := p.typeParams(); err != nil {
						return err
					}
					if err := p.skipBracket(); err != nil {
						return err
					}
				}
				if err := p.expectOp("="); err != nil {
					return err
				}
				_, err := p.expression()
				return err
			}
		}
	}
	// The expressions an expression statement starts with are
	// star_named_expressions to invalid_assignment; what follows an '='
	// is not.
	p.named = true
	first, err := p.yieldOrStar()
	p.named = false
	if err != nil {
		return err
	}
	switch {
	case p.stmtEnd():
		return nil
	case p.isOp(":"):
		if first.Class != "Name" && first.Class != "Attribute" && first.Class != "Subscript" {
			// No annotated assignment has this target, so CPython's
			// first pass reads no further than the ':', where a plain
			// syntax error points. Its second pass names the target
			// when an expression follows (invalid_assignment), whatever
			// comes after that expression.
			colon := p.peek()
			ok, read := p.expressionFollows()
			if !ok || first.Class == "Yield" && !first.paren {
				// A bare yield is no expression: the rule that names the
				// target does not match it.
				return &SyntaxError{Line: colon.line, Col: colon.col, Msg: "invalid syntax", read: &read}
			}
			if first.Class == "Tuple" || first.Class == "List" {
				kind := "tuple"
				if first.Class == "List" {
					kind = "list"
				}
				return &SyntaxError{Line: first.Line, Col: first.Col, Msg: "only single target (not " + kind + ") can be annotated"}
			}
			return &SyntaxError{Line: first.Line, Col: first.Col, Msg: "illegal target for annotation"}
		}
		p.next()
		if _, err := p.expression(); err != nil {
			return err
		}
		if p.isOp("=") {
			p.next()
			_, err := p.yieldOrStar()
			return err
		}
		return nil
	case p.peek().kind == tkOp && isAugOp(p.peek().text):
		if first.Class != "Name" && first.Class != "Attribute" && first.Class != "Subscript" {
			what := describeTarget(first)
			switch first.Class {
			case "Tuple":
				what = "tuple"
			case "List":
				what = "list"
			}
			return &SyntaxError{Line: first.Line, Col: first.Col, Msg: "'" + what + "' is an illegal expression for augmented assignment"}
		}
		p.next()
		_, err := p.yieldOrStar()
		return err
	case p.isOp("="):
		target := first
		firstEq := p.i
		for i := 0; p.isOp("="); i++ {
			if err := p.checkTarget(target, "assign to"); err != nil {
				var se *SyntaxError
				if !errors.As(err, &se) {
					return err
				}
				if i > 0 && p.check {
					// A later target fails the assignment, and
					// invalid_assignment's star_named_expression tries
					// invalid_named_expression on "first = value"
					// before naming that target ("v = x if y else z = 1").
					save := p.i
					p.i = firstEq
					named := p.invalidNamed(first)
					p.i = save
					if named != nil {
						return named
					}
				}
				if target.Class == "Yield" && !target.paren {
					se.Msg = "assignment to yield expression not possible"
					return se
				}
				// CPython's invalid_named_expression comes first for a
				// first target "a = b" with nothing after b: the
				// "here. Maybe" form, unless a is a tuple, list,
				// generator, True, False or None.
				p.next()
				v, verr := p.yieldOrStar()
				if i == 0 && verr == nil && !p.isOp("=") && bitwiseOr(target) && bitwiseOr(v) &&
					target.Class != "Tuple" && target.Class != "List" && target.Class != "GeneratorExp" &&
					!(target.Class == "Constant" && (target.Type == "bool" || target.Type == "NoneType")) {
					se.Msg += " here. Maybe you meant '==' instead of '='?"
				}
				return se
			}
			p.next()
			if target, err = p.yieldOrStar(); err != nil {
				return err
			}
		}
		return nil
	}
	return p.fail(p.peek(), "invalid syntax")
}

func (p *parser) dottedName() error {
	for {
		if err := p.name(); err != nil {
			return err
		}
		if !p.isOp(".") {
			return nil
		}
		p.next()
	}
}

func (p *parser) fromImport() error {
	p.next() // from
	dots := 0
	for p.isOp(".") || p.isOp("...") {
		dots++
		p.next()
	}
	if !p.isKw("import") || dots == 0 {
		if err := p.dottedName(); err != nil {
			return err
		}
	}
	if !p.isKw("import") {
		return p.fail(p.peek(), "invalid syntax")
	}
	p.next()
	if p.isOp("*") {
		p.next()
		return nil
	}
	paren := p.isOp("(")
	if paren {
		p.next()
	}
	for {
		if err := p.name(); err != nil {
			return err
		}
		if p.isKw("as") {
			p.next()
			if err := p.name(); err != nil {
				return err
			}
		}
		if !p.isOp(",") {
			break
		}
		p.next()
		if paren && p.isOp(")") {
			break
		}
		// invalid_import_from_targets wants the NEWLINE right after
		// the comma ("b,; c" is plain invalid syntax at the ';'), and
		// reports at it.
		if !paren && p.atEnd() {
			return p.fail(p.peek(), "trailing comma not allowed without surrounding parentheses")
		}
	}
	if paren {
		return p.expectOp(")")
	}
	return nil
}

// namedCondition parses a named_expression outside brackets: a condition,
// a guard, a decorator.
func (p *parser) namedCondition() (*Node, error) {
	p.named = true
	defer func() { p.named = false }()
	return p.namedExpression()
}

// matchHeader parses "match subject:" after the keyword.
func (p *parser) matchHeader() error {
	p.named = true
	defer func() { p.named = false }()
	if _, err := p.namedExpression(); err != nil {
		return err
	}
	for p.isOp(",") {
		p.next()
		if p.isOp(":") {
			break
		}
		if _, err := p.starExpression(); err != nil {
			return err
		}
	}
	p.named = false
	if !p.isOp(":") {
		if p.atEnd() {
			return p.fail(p.peek(), "expected ':'")
		}
		return p.fail(p.peek(), "invalid syntax")
	}
	p.next()
	return p.end() // a match body is always a block
}

// caseHeader parses "case patterns [if guard]: [body]" after the keyword.
func (p *parser) caseHeader() error {
	if err := p.openSequencePattern(); err != nil {
		return err
	}
	if p.isKw("if") {
		p.next()
		if _, err := p.namedCondition(); err != nil {
			return err
		}
	}
	if !p.isOp(":") {
		if p.atEnd() {
			return p.fail(p.peek(), "expected ':'")
		}
		return p.fail(p.peek(), "invalid syntax") // CPython's word for a bad case line
	}
	return p.block()
}

// openSequencePattern: pattern, or "p, q, *r" without brackets.
func (p *parser) openSequencePattern() error {
	for {
		if err := p.maybeStarPattern(); err != nil {
			return err
		}
		if !p.isOp(",") {
			return nil
		}
		p.next()
		if p.isOp(":") || p.isKw("if") {
			return nil
		}
	}
}

func (p *parser) maybeStarPattern() error {
	if p.isOp("*") {
		p.next()
		return p.name()
	}
	return p.pattern()
}

// pattern: or_pattern ["as" NAME].
func (p *parser) pattern() error {
	for {
		if err := p.closedPattern(); err != nil {
			return err
		}
		if !p.isOp("|") {
			break
		}
		p.next()
	}
	if p.isKw("as") {
		p.next()
		// invalid_as_pattern: "_" and non-names get their own messages.
		t := p.peek()
		if t.kind == tkName && t.text == "_" {
			return p.fail(t, "cannot use '_' as a target")
		}
		if t.kind == tkName && !isKeyword(t.text) {
			p.next()
			return nil
		}
		if _, err := p.expression(); err == nil {
			return p.fail(t, "invalid pattern target")
		}
		return p.fail(t, "invalid syntax")
	}
	return nil
}

// patternList parses patterns up to closer (sequence and class patterns);
// keyword patterns ("x=p") are allowed when keywords is set.
func (p *parser) patternList(closer string, keywords bool) error {
	var sawKw *token
	for !p.isOp(closer) {
		t := p.peek()
		if keywords && t.kind == tkName && p.i+1 < len(p.toks) && p.toks[p.i+1].text == "=" && p.toks[p.i+1].kind == tkOp {
			p.i += 2
			if err := p.pattern(); err != nil {
				return err
			}
			if sawKw == nil {
				sawKw = &t
			}
		} else {
			if err := p.maybeStarPattern(); err != nil {
				return err
			}
			if sawKw != nil {
				// invalid_class_pattern: reported from the first keyword.
				return p.fail(*sawKw, "positional patterns follow keyword patterns")
			}
		}
		if !p.isOp(",") {
			break
		}
		p.next()
	}
	return p.expectOp(closer)
}

func (p *parser) closedPattern() error {
	t := p.peek()
	switch {
	case t.kind == tkOp && (t.text == "(" || t.text == "["):
		p.next()
		closer := ")"
		if t.text == "[" {
			closer = "]"
		}
		return p.patternList(closer, false)
	case t.kind == tkOp && t.text == "{":
		p.next()
		for !p.isOp("}") {
			if p.isOp("**") {
				p.next()
				// double_star_pattern: a capture name, not "_", and last.
				if t := p.peek(); t.kind == tkName && t.text == "_" {
					return p.fail(t, "invalid syntax")
				}
				if err := p.name(); err != nil {
					return err
				}
				if p.isOp(",") && p.i+1 < len(p.toks) && !p.toks[p.i+1].isOp("}") {
					return p.fail(p.toks[p.i+1], "invalid syntax")
				}
			} else {
				if err := p.valuePattern(); err != nil {
					return err
				}
				if err := p.expectOp(":"); err != nil {
					return err
				}
				if err := p.pattern(); err != nil {
					return err
				}
			}
			if !p.isOp(",") {
				break
			}
			p.next()
		}
		return p.expectOp("}")
	case t.kind == tkName && !isKeyword(t.text):
		p.next()
		for p.isOp(".") {
			p.next()
			if err := p.name(); err != nil {
				return err
			}
		}
		if p.isOp("(") { // a class pattern
			p.next()
			return p.patternList(")", true)
		}
		return nil
	}
	return p.valuePattern()
}

// valuePattern: a literal (signed number, complex, strings, None, True,
// False) or a dotted name, as mapping keys and literal patterns allow.
func (p *parser) valuePattern() error {
	t := p.peek()
	switch {
	case t.kind == tkString:
		_, err := p.strings()
		return err
	case t.kind == tkName && (t.text == "None" || t.text == "True" || t.text == "False"):
		p.next()
		return nil
	case t.kind == tkName && !isKeyword(t.text):
		p.next()
		for p.isOp(".") {
			p.next()
			if err := p.name(); err != nil {
				return err
			}
		}
		return nil
	}
	if p.isOp("-") {
		p.next()
	}
	if p.peek().kind != tkNumber {
		return p.fail(p.peek(), "invalid syntax")
	}
	p.next()
	if p.isOp("+") || p.isOp("-") {
		p.next()
		if p.peek().kind != tkNumber {
			return p.fail(p.peek(), "invalid syntax")
		}
		p.next()
	}
	return nil
}

// expressionFollows reports whether an expression parses after the
// operator (an annotation's ':', a ':=') at the parser's position, as
// CPython's second pass reads it. PEG
// alternatives fall back to a shorter operand, so "1 +" or "1 if" is the
// expression 1 followed by something else: an expression parses as soon
// as its first operand does. But a parse that reads past the last token
// of a line left inside an open bracket (the end of the file) meets the
// tokenizer's error first. read is the token the attempt stopped at; the
// parser's position is left as it was.
func (p *parser) expressionFollows() (ok bool, read token) {
	if p.i+1 >= len(p.toks) {
		return false, p.peek()
	}
	i, depth := p.i, p.depth
	defer func() { p.i, p.depth = i, depth }()
	p.next()
	start := p.i
	if _, err := p.expression(); err == nil {
		// An expression right after it ("x y (") is tried as well, by
		// invalid_expression and invalid_legacy_expression, one after
		// another: one that runs into a bracket left open at the end of
		// the file meets the tokenizer's error first.
		for !p.atEnd() && startsExpr(p.peek()) {
			if _, err := p.expression(); err != nil {
				if p.atEnd() && openAtEnd(p.toks[start:]) {
					return false, p.peek()
				}
				break
			}
		}
		return true, p.peek()
	}
	if p.atEnd() && openAtEnd(p.toks[start:]) {
		return false, p.peek()
	}
	p.i = start
	if p.isKw("lambda") {
		return false, p.peek() // a lambda that did not parse
	}
	for p.isKw("not") || p.isKw("await") || p.isOp("-") || p.isOp("+") || p.isOp("~") {
		p.next()
	}
	_, err := p.atom()
	return err == nil, p.peek()
}

// openAtEnd reports whether toks leave a bracket open.
func openAtEnd(toks []token) bool {
	depth := 0
	for _, t := range toks {
		if t.kind == tkOp {
			depth += bracketDelta(t.text)
		}
	}
	return depth > 0
}

// pyBool is a bool as Python prints it.
func pyBool(b bool) string {
	if b {
		return "True"
	}
	return "False"
}
