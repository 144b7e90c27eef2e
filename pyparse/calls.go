package pyparse

// Call is one module-level marker call found in a file: the called name
// and the Call node (its positional arguments in Elts, keywords in Kws).
type Call struct {
	Fn   string
	Node *Node
}

// topStatements appends to out the simple statements at module level,
// split on ';'. Compound statements (their header line and body) are skipped, so calls in
// if/def/class/with/try blocks are never seen.
func topStatements(lines []logicalLine, out [][]token) [][]token {
	for _, l := range lines {
		if l.depth != 0 || len(l.toks) == 0 || endsWithColon(l.toks) {
			continue
		}
		first := l.toks[0]
		if first.kind == tkOp && first.text == "@" {
			continue
		}
		if first.kind == tkName {
			switch first.text {
			case "if", "elif", "else", "while", "for", "try", "except", "finally", "with", "def", "class", "async":
				continue
			}
		}
		depth, start := 0, 0
		for i, t := range l.toks {
			if t.kind != tkOp {
				continue
			}
			depth += bracketDelta(t.text)
			if t.text == ";" && depth == 0 {
				if i > start {
					out = append(out, l.toks[start:i])
				}
				start = i + 1
			}
		}
		if start < len(l.toks) {
			out = append(out, l.toks[start:])
		}
	}
	return out
}

// findCalls is Calls with fresh memory.
func findCalls(src string, minor int, isMarker func(string) bool) ([]Call, error) {
	return Calls(src, minor, isMarker, nil)
}

// Calls parses src for Python 3.minor and returns its module-level
// expression statements that are a call to a bare name isMarker accepts,
// in source order, or the *SyntaxError CPython's compile would raise for
// the whole file. Calls nested in a compound statement, assigned, or made
// through an attribute are not returned. The nodes live in a (nil: fresh
// memory) and are valid until a is reused.
func Calls(src string, minor int, isMarker func(string) bool, a *Arena) ([]Call, error) {
	return scanCalls(src, minor, isMarker, a, nil)
}

// scanCalls is Calls with main (nil: none) watching for the main block
// in the same lex.
func scanCalls(src string, minor int, isMarker func(string) bool, a *Arena, main *mainScan) ([]Call, error) {
	lines, err := lexMain(src, minor, false, func(line []token) bool {
		for _, t := range line {
			if t.kind == tkName {
				if isMarker(t.text) {
					return true
				}
			}
		}
		return false
	}, nil, a, main)
	if err != nil {
		return nil, err
	}
	var calls []Call
	p := &parser{minor: minor}
	if a != nil {
		p.slab = a.slab[:0]
		defer func() { a.slab = p.slab }()
	}
	var stmts [][]token
	if a != nil {
		defer func() { a.stmts = stmts[:0] }()
		stmts = a.stmts[:0]
	}
	stmts = topStatements(lines, stmts)
	for _, st := range stmts {
		if !mayBeCall(st, isMarker) {
			continue
		}
		p.toks, p.i = st, 0 // the slab is kept: the calls' nodes outlive the loop
		n, err := p.starExpressions()
		if err != nil {
			// Only a statement that starts like a marker call must parse
			// as an expression; other statements (assignments, imports)
			// are not this parser's business.
			if st[0].kind == tkName && len(st) > 1 && st[1].text == "(" {
				return nil, err
			}
			continue
		}
		if !p.atEnd() || n.Class != "Call" || n.Fn.Class != "Name" {
			continue
		}
		if isMarker(n.Fn.Name) {
			calls = append(calls, Call{Fn: n.Fn.Name, Node: n})
		}
	}
	return calls, nil
}

// mayBeCall is a cheap filter: a marker call statement starts with the
// marker name or an opening parenthesis.
func mayBeCall(st []token, isMarker func(string) bool) bool {
	t := st[0]
	if t.kind == tkOp && t.text == "(" {
		return true
	}
	if t.kind != tkName {
		return false
	}
	return isMarker(t.text)
}
