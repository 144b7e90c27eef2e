package pyparse

import "strings"

// Binding is the last module-level assignment of a symbol.
type Binding struct {
	Value     *Node // the assigned value; nil when Err is set
	Line, Col int   // the bound name
	Mutated   *Pos  // a later module-level mutation
	Rebound   *Pos  // a later module-level rebinding other than "sym = v"
	Err       error // the value does not parse
	tok       token
}

// Pos is a 1-based line and byte column.
type Pos struct{ Line, Col int }

func tokPos(t token) *Pos { return &Pos{t.line, t.col} }

var mutators = map[string]bool{"update": true, "add": true, "pop": true, "clear": true, "setdefault": true,
	"discard": true, "remove": true, "append": true, "extend": true, "insert": true, "popitem": true, "__setitem__": true, "__delitem__": true}

// FindBinding returns the last module-level binding "sym = v" or
// "sym: T = v" in src, noting any later mutation.
func FindBinding(src, sym string, minor int) (*Binding, error) {
	lines, err := lexLinesFor(src, minor, false, func(line []token) bool { return mentions(line, sym) })
	if err != nil {
		return nil, err
	}
	return bindingIn(lines, sym, minor), nil
}

// FindBindings is FindBinding for several symbols from one reading of
// src: a nil entry is a symbol never bound.
func FindBindings(src string, syms []string, minor int) (map[string]*Binding, error) {
	lines, err := lexLinesFor(src, minor, false, func(line []token) bool {
		for _, sym := range syms {
			if mentions(line, sym) {
				return true
			}
		}
		return false
	})
	if err != nil {
		return nil, err
	}
	// The other symbols' lines change nothing: bindingIn only acts on
	// statements that name sym.
	out := make(map[string]*Binding, len(syms))
	for _, sym := range syms {
		out[sym] = bindingIn(lines, sym, minor)
	}
	return out, nil
}

// mentions reports a name token sym in line.
func mentions(line []token, sym string) bool {
	for _, t := range line {
		if t.kind == tkName && t.text == sym {
			return true
		}
	}
	return false
}

// bindingIn is FindBinding over lexed logical lines (those that mention
// sym, and any others).
func bindingIn(lines []logicalLine, sym string, minor int) *Binding {
	var b *Binding
	for _, st := range topStatements(lines, nil) {
		if st[0].kind != tkName || st[0].text != sym {
			// "del X[k]" also mutates.
			if b != nil && len(st) > 2 && st[0].text == "del" && st[1].text == sym {
				t := st[0]
				b.Mutated = tokPos(t)
			}
			continue
		}
		if len(st) < 2 {
			continue
		}
		op := st[1]
		switch {
		case op.kind == tkOp && (op.text == "=" || op.text == ":"):
			// Find the value after the last top-level '=' (handles
			// "A = B = {...}" and "A: dict[str, str] = {...}").
			eq := -1
			depth := 0
			for i, t := range st {
				if t.kind != tkOp {
					continue
				}
				depth += bracketDelta(t.text)
				if t.text == "=" && depth == 0 {
					eq = i
				}
			}
			if eq < 0 {
				continue // a bare annotation binds nothing
			}
			p := &parser{toks: st[eq+1:], minor: minor}
			v, err := p.starExpressions()
			if err == nil && !p.atEnd() {
				err = p.fail(p.peek(), "invalid syntax")
			}
			b = &Binding{Value: v, Line: st[0].line, Col: st[0].col, Err: err, tok: st[0]}
		case b != nil && op.kind == tkOp && strings.HasSuffix(op.text, "=") && op.text != "==":
			t := op
			b.Mutated = tokPos(t)
		case b != nil && op.kind == tkOp && op.text == "." && len(st) > 2 && mutators[st[2].text]:
			t := st[2]
			b.Mutated = tokPos(t)
		case b != nil && op.kind == tkOp && (op.text == "[" || op.text == "."):
			// X[k] = v or X.attr = v
			depth := 0
			for _, t := range st {
				if t.kind == tkOp {
					depth += bracketDelta(t.text)
					if depth == 0 && t.text != "==" && strings.HasSuffix(t.text, "=") && t.text != "<=" && t.text != ">=" && t.text != "!=" {
						tt := op
						b.Mutated = tokPos(tt)
						break
					}
				}
			}
		}
	}
	if b != nil && b.Mutated == nil {
		if t := findRebinding(lines, sym, b.tok); t != nil {
			b.Rebound = tokPos(*t)
		}
	}
	return b
}

// findRebinding returns the first module-level token after the
// statement of the assignment at tok that binds sym other than by
// "sym = literal": tuple unpacking, del, for, import, "as" or ":=". After
// one of those the literal no longer tells what the symbol holds, so the
// labels are unknown rather than the literal's. The statements after the
// assignment's on its own line count ("X = [...]; del X").
func findRebinding(lines []logicalLine, sym string, tok token) *token {
	for _, l := range lines {
		if l.depth != 0 || len(l.toks) == 0 || !tokBefore(tok, l.toks[len(l.toks)-1]) {
			continue
		}
		toks := l.toks
		if !tokBefore(tok, toks[0]) {
			toks = toks[statementAfter(toks, tok):]
			if len(toks) == 0 {
				continue
			}
		}
		first := toks[0].text
		if first == "async" && len(toks) > 1 {
			first = toks[1].text
		}
		inTarget := first == "for" || first == "del" // until "in", or the whole del
		imports := false
		depth := 0
		for i, t := range toks {
			if t.kind == tkOp {
				switch t.text {
				case "(", "[", "{":
					depth++
				case ")", "]", "}":
					depth--
				case ";":
					// a new simple statement on the same line
					inTarget, imports, first = false, false, ""
					if i+1 < len(toks) {
						first = toks[i+1].text
						inTarget = first == "del"
					}
				}
				continue
			}
			if t.kind != tkName {
				continue
			}
			switch t.text {
			case "in":
				if first == "for" && depth == 0 {
					inTarget = false
				}
				continue
			case "import":
				imports = first == "import" || first == "from"
				continue
			}
			if t.text != sym {
				continue
			}
			prev, next := "", ""
			if i > 0 {
				prev = toks[i-1].text
			}
			if i+1 < len(toks) {
				next = toks[i+1].text
			}
			tok := t
			switch {
			case prev == "as", next == ":=":
				return &tok
			case imports && next != "as" && next != ".":
				return &tok
			case inTarget && next != "[" && next != ".":
				return &tok
			case unpackTarget(toks, i):
				return &tok
			}
		}
	}
	return nil
}

// tokBefore reports whether a comes before b in the source.
func tokBefore(a, b token) bool { return a.line < b.line || a.line == b.line && a.col < b.col }

// statementAfter is the index of the first token of the simple statement
// after the one holding tok (len(toks) when that is the line's last): the
// token after the first bracket-level-0 ';' past tok.
func statementAfter(toks []token, tok token) int {
	depth := 0
	for i, t := range toks {
		if t.kind != tkOp {
			continue
		}
		depth += bracketDelta(t.text)
		if t.text == ";" && depth == 0 && tokBefore(tok, t) {
			return i + 1
		}
	}
	return len(toks)
}

// unpackTarget reports whether toks[i] is a name inside the target list of
// a tuple or list unpacking ("A, B = ...", "(A, B) = ...", "X, *A = ..."):
// a target separator on both sides and a bracket-level-0 "=" after it in
// the same simple statement. A call or subscript bracket ("f(A, b=1)",
// "d[A, 1] = 2") is not a target list.
func unpackTarget(toks []token, i int) bool {
	// Absolute bracket depth of every token, and whether each open bracket
	// is a target list (not a call or subscript).
	start := 0
	for j := i - 1; j >= 0; j-- {
		if toks[j].kind == tkOp && toks[j].text == ";" {
			start = j + 1
			break
		}
	}
	targetList := []bool{true} // depth 0 is the statement itself
	for j := start; j < i; j++ {
		t := toks[j]
		if t.kind != tkOp {
			continue
		}
		switch t.text {
		case "(", "[", "{":
			call := j > start && (toks[j-1].kind == tkName && !keywordBeforeBracket[toks[j-1].text] || toks[j-1].text == ")" || toks[j-1].text == "]")
			targetList = append(targetList, t.text != "{" && !call && targetList[len(targetList)-1])
		case ")", "]", "}":
			if len(targetList) > 1 {
				targetList = targetList[:len(targetList)-1]
			}
		}
	}
	if !targetList[len(targetList)-1] {
		return false
	}
	prev, next := "", ""
	if i > start {
		prev = toks[i-1].text
	}
	if i+1 < len(toks) {
		next = toks[i+1].text
	}
	switch prev {
	case "", ",", "*", "(", "[":
	default:
		return false
	}
	switch next {
	case ",", ")", "]":
	case "=":
		if prev == "" {
			return false // the plain "sym = v" binding
		}
	default:
		return false
	}
	depth := len(targetList) - 1
	for _, t := range toks[i+1:] {
		if t.kind != tkOp {
			continue
		}
		switch t.text {
		case "(", "[", "{":
			depth++
		case ")", "]", "}":
			depth--
		case ";":
			return false
		case "=":
			if depth == 0 {
				return true
			}
		}
	}
	return false
}

// keywordBeforeBracket are names after which a bracket opens a new
// expression, not a call or subscript.
var keywordBeforeBracket = map[string]bool{"in": true, "not": true, "and": true, "or": true, "is": true,
	"if": true, "else": true, "return": true, "yield": true, "del": true, "for": true, "lambda": true, "await": true}
