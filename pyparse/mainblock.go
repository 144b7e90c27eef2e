package pyparse

import "strings"

// Module is what the registry reads of one file: its module-level marker
// calls (as Calls returns them) and whether it has a main entry, a
// module-level `if __name__ == "__main__":` whose body makes a call.
type Module struct {
	Calls []Call
	// MainCall: a module-level if whose test is exactly
	// `__name__ == "__main__"` (a Compare of the Name __name__, one '=='
	// and one str Constant "__main__") has a Call anywhere in its body
	// (not in its elif or else branches); MainLine is the line of the
	// first such if, 0 when none.
	MainCall bool
	MainLine int
	// MainNoCallLine is the line of the first such if whose body makes
	// no call (0 when none), for a message about a main block that runs
	// nothing.
	MainNoCallLine int
}

// Scan is Calls that also answers whether the file has a main entry, from
// the same lex: the rule of sglang's collector (RegistryVisitor
// ._is_main_block_with_call), which reads the if's test as ast does and
// walks the if's body for any ast.Call. A file without a module-level if
// that mentions __name__ costs nothing more than Calls. When err is not
// nil the Module is empty.
func Scan(src string, minor int, isMarker func(string) bool, a *Arena) (Module, error) {
	var m *mainScan
	if a != nil {
		m = &a.main // its memory is the arena's, from file to file
	} else {
		m = &mainScan{}
	}
	*m = mainScan{minor: minor, slab: m.slab[:0], fields: m.fields}
	clear(m.fields)
	calls, err := scanCalls(src, minor, isMarker, a, m)
	if err != nil {
		return Module{}, err
	}
	m.close()
	return Module{Calls: calls, MainCall: m.mainCall, MainLine: m.mainLine, MainNoCallLine: m.noCallLine}, nil
}

// mainScan follows the module-level ifs while the lexer checks each
// logical line: line sees every line that passed the statement check.
type mainScan struct {
	minor int
	open  bool // in the body of an if whose test is the main test
	at    int  // that if's line
	call  bool // its body has made a call so far

	mainCall             bool
	mainLine, noCallLine int
	fields               map[string]bool // f-string fields already judged
	slab                 []Node          // the nodes of the tests parsed
}

// line takes one checked logical line at depth; softKw and inMatch are
// the statement check's reading of it (a match or case header, a line of
// a match block).
func (m *mainScan) line(line []token, depth int, softKw string, inMatch bool) {
	if depth > 0 {
		if m.open && !m.call {
			m.call = m.bodyCall(line, softKw, inMatch)
		}
		return
	}
	m.close() // any module-level line ends the body (elif and else too)
	if line[0].kind != tkName || line[0].text != "if" || !mentionsName(line) {
		return
	}
	body, ok := m.mainTest(line)
	if !ok {
		return
	}
	m.open, m.at, m.call = true, line[0].line, m.callIn(body, -1, true)
}

// close ends the body of the main block being read, if any.
func (m *mainScan) close() {
	if !m.open {
		return
	}
	m.open = false
	switch {
	case m.call && !m.mainCall:
		m.mainCall, m.mainLine = true, m.at
	case !m.call && m.noCallLine == 0:
		m.noCallLine = m.at
	}
}

// mentionsName reports a __name__ token on the line, the cheap filter
// before the test is parsed.
func mentionsName(line []token) bool {
	for _, t := range line {
		if t.kind == tkName && t.text == "__name__" {
			return true
		}
	}
	return false
}

// mainTest parses the test of an if line (which passed the statement
// check) as ast.parse does and reports whether it is the main test:
// Compare(left=Name('__name__'), ops=[Eq()], comparators=[Constant(str
// '__main__')]). body is what follows the ':' on the same line.
func (m *mainScan) mainTest(line []token) (body []token, ok bool) {
	p := parser{minor: m.minor, toks: line[1:], slab: m.slab[:0]}
	n, err := p.namedCondition()
	m.slab = p.slab
	if err != nil || !p.isOp(":") {
		return nil, false
	}
	if n.Class != "Compare" || n.Name != "==" || len(n.Elts) != 1 || n.Fn == nil || n.Fn.Class != "Name" || n.Fn.Name != "__name__" {
		return nil, false
	}
	if c := n.Elts[0]; c.Class != "Constant" || c.Type != "str" || c.Str != "__main__" {
		return nil, false
	}
	return line[1+p.i+1:], true
}

// bodyCall reports a Call in one logical line of a main block's body.
func (m *mainScan) bodyCall(line []token, softKw string, inMatch bool) bool {
	first := line[0]
	switch {
	case inMatch && first.kind == tkName && first.text == "case":
		// A case block: its patterns make no call (a class pattern
		// "Point(x=0)" is a MatchClass); its guard and a same-line
		// body may.
		depth := 0
		for i, t := range line[1:] {
			if t.kind == tkOp {
				depth += bracketDelta(t.text)
			}
			if depth == 0 && (t.kind == tkName && t.text == "if" || t.isOp(":")) {
				return m.callIn(line[1+i:], -1, true)
			}
		}
		return false
	case softKw == "match":
		// "match (x):": the parenthesis after the soft keyword groups
		// the subject.
		return m.callIn(line[1:], -1, true)
	}
	return m.callIn(line, paramsParen(line), true)
}

// paramsParen is the index of the '(' that opens a def's parameters or a
// class's bases on a def or class line (after the name and any type
// parameters), or -1.
func paramsParen(line []token) int {
	i := 0
	if line[0].kind == tkName && line[0].text == "async" {
		i = 1
	}
	if i >= len(line) || line[i].kind != tkName || line[i].text != "def" && line[i].text != "class" {
		return -1
	}
	j := i + 2 // past the name
	if j < len(line) && line[j].isOp("[") {
		depth := 0
		for ; j < len(line); j++ {
			if line[j].kind == tkOp {
				depth += bracketDelta(line[j].text)
			}
			if depth == 0 {
				break
			}
		}
		j++
	}
	if j < len(line) && line[j].isOp("(") {
		return j
	}
	return -1
}

// callIn reports a call among toks, statements that parse: a '(' right
// after an expression (a name that is no keyword, None, True, False, a
// literal, "...", or a closing bracket) opens a call's arguments,
// anything else groups ("if (", "not (", "= ("); skip is the index of a
// '(' that is not a call (-1: none). With fields, the replacement fields
// of the f-strings (and t-strings) among toks count too.
func (m *mainScan) callIn(toks []token, skip int, fields bool) bool {
	for i, t := range toks {
		switch t.kind {
		case tkString:
			if fields && m.fstringCall(t) {
				return true
			}
		case tkOp:
			if t.text == "(" && i > 0 && i != skip && callee(toks[i-1]) {
				return true
			}
		}
	}
	return false
}

// callee reports a token an expression can end with, so that a '('
// after it is a call.
func callee(t token) bool {
	switch t.kind {
	case tkName:
		switch t.text {
		case "None", "True", "False":
			return true
		}
		return !isKeyword(t.text)
	case tkNumber, tkString:
		return true
	case tkOp:
		switch t.text {
		case ")", "]", "}", "...":
			return true
		}
	}
	return false
}

// fstringCall reports a call in a replacement field of an f-string (or
// t-string) token, nested fields included. The string token holds its
// fields whatever the target version; they are read as the 3.12 lexer
// reads them (a string valid for 3.11 reads the same).
func (m *mainScan) fstringCall(t token) bool {
	prefix, _ := t.strParts()
	if !strings.ContainsAny(prefix, "ft") || !strings.Contains(t.text, "(") {
		return false
	}
	if m.fields == nil {
		m.fields = map[string]bool{}
	}
	found := false
	lx := &lexer{src: t.text, minor: NewestMinor, line: 1, memo: exprMemo{}, pos: len(prefix)}
	// The lexer visits every field, nested ones too (a field's f-string
	// is scanned inside its field), so each expression is read without
	// its strings' fields.
	lx.onField = func(expr string) {
		if found {
			return
		}
		call, seen := m.fields[expr]
		if !seen {
			call = exprCall(m, expr)
			m.fields[expr] = call
		}
		found = call
	}
	_, _, _ = lx.strBody(prefix, 1, 1)
	return found
}

// exprCall reports a call in the text of one replacement field, read as
// CPython reads it (parenthesised), its own f-strings aside.
func exprCall(m *mainScan, expr string) bool {
	lines, err := lexArena("("+expr+"\n)", NewestMinor, true, nil, nil, nil)
	if err != nil {
		return false
	}
	for _, l := range lines {
		if m.callIn(l.toks, -1, false) {
			return true
		}
	}
	return false
}
