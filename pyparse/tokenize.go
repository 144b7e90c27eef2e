package pyparse

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// The tokenizer follows CPython's tokenize rules closely enough that a
// register_*_ci call inside a string, a comment, a function body or an if
// block is never mistaken for a module-level statement. It does not build a
// full AST: the scanner only needs logical lines, their indentation depth and
// the tokens of each line. Columns are 1-based byte offsets, like Python's
// ast col_offset + 1.

type tokKind uint8

const (
	tkName tokKind = iota
	tkNumber
	tkString
	tkOp
	tkNewline // only as the parser's end-of-statement sentinel
)

type token struct {
	kind      tokKind
	text      string // raw source text of the token (prefix and quotes included)
	line, col int    // 1-based; col counts bytes
}

// isOp reports an operator token with the given text.
func (t token) isOp(s string) bool { return t.kind == tkOp && t.text == s }

// strParts splits a string token into its lower-cased prefix and its body.
func (t token) strParts() (prefix, body string) {
	i := 0 // the prefix is a few letters: a loop beats IndexAny's set
	for i < len(t.text) && t.text[i] != '"' && t.text[i] != '\'' {
		i++
	}
	q := 1
	if len(t.text)-i >= 6 && t.text[i+1] == t.text[i] && t.text[i+2] == t.text[i] {
		q = 3
	}
	return strings.ToLower(t.text[:i]), t.text[i+q : len(t.text)-q]
}

// SyntaxError is a Python syntax error found while tokenizing or parsing.
type SyntaxError struct {
	Line, Col int
	Msg       string
	// NoLine: CPython reports this error without a line (Line and Col
	// still locate its cause).
	NoLine bool
	noHint bool // not an expression position: no missing-comma hint
	// tok: raised by CPython's tokenizer itself (syntaxerror()), so a
	// 3.11 f-string sub-parser adds no "f-string: " prefix; final: it
	// has crossed such a sub-parser already.
	tok, final bool
	sticky     bool // no later tokenizer error replaces it
	action     bool // raised while a string literal is built (CPython's action)
	after      int  // for action: the index of the token the parser had fetched
	// read: the last token the parser read, when the error is reported
	// at an earlier one (a rule's known range).
	read *token
}

const nulBytes = "source code string cannot contain null bytes"

func (e *SyntaxError) Error() string { return fmt.Sprintf("%d:%d: %s", e.Line, e.Col, e.Msg) }

// logicalLine is one logical line of source: its tokens (without the
// trailing NEWLINE) and the indentation depth it starts at.
type logicalLine struct {
	depth int
	toks  []token
}

type lexer struct {
	src       string
	minor     int // target Python 3.minor
	memo      exprMemo
	pos       int
	line      int
	lineStart int // byte offset of the current physical line
	toks      []token
	brackets  []token // open brackets, for implicit line joining and errors
	indents   []indentLevel
	atBOL     bool // at the beginning of a logical line

	// Logical lines are assembled as the tokens come. Only module-level
	// lines are kept (keepAll keeps every line, for tests); the tokens of
	// deeper lines are dropped as soon as the line ends, which keeps the
	// scan of large function bodies cheap.
	keepAll    bool
	lines      []logicalLine
	first      int  // index in toks of the current logical line's first token
	needIndent bool // the previous logical line ended with ':'
	colonLine  int
	colonWhat  string // what the ':' line opens, for the error message
	// pending is the parser's "expected an indented block": CPython
	// raises it only after the tokenizer has produced the next line's
	// first token, so a tokenizer error on that line wins.
	pending *SyntaxError
	// parseErr is the first parser (not tokenizer) error. CPython then
	// tokenizes the rest of the file, and a tokenizer error anywhere after
	// it wins (_PyPegen_tokenize_full_source_to_check_for_errors), so the
	// lexer goes on without checking statements.
	parseErr *SyntaxError
	// latent: the first valid statement CPython's second pass would
	// still reject ("print -1", see latentPrint), reported in place of
	// a later parser error.
	latent    *SyntaxError
	decorated bool // the previous logical line was a decorator
	decoDepth int  // ... at this indentation depth
	check     parser
	comment   token   // where the last comment started
	keep      []token // arena of the kept lines' tokens
	blocks    blockState
	want      func([]token) bool
	// main, when not nil, watches the module-level ifs for a main
	// block (Scan); nil costs the lexer nothing but a test per line.
	main *mainScan
	// onField, when not nil, receives the expression of each f-string
	// replacement field that is not a plain (dotted) name.
	onField func(expr string)
}

type indentLevel struct{ col, alt int }

func (lx *lexer) errAt(line, col int, format string, a ...any) *SyntaxError {
	return &SyntaxError{Line: line, Col: col, Msg: fmt.Sprintf(format, a...), tok: true}
}

// parserErrAt is an error CPython's parser raises (not its tokenizer).
func (lx *lexer) parserErrAt(line, col int, format string, a ...any) *SyntaxError {
	return &SyntaxError{Line: line, Col: col, Msg: fmt.Sprintf(format, a...)}
}

func (lx *lexer) col() int { return lx.pos - lx.lineStart + 1 }

func (lx *lexer) emit(k tokKind, start, line, col int) {
	lx.toks = append(lx.toks, token{kind: k, text: lx.src[start:lx.pos], line: line, col: col})
}

// lexLines splits Python source into logical lines of tokens (module-level
// lines only, unless keepAll), reporting the first syntax error the way
// CPython's tokenizer would. Comments, NEWLINE, INDENT and DEDENT tokens
// are not returned; a line's depth is its indentation level.
//
// want, when not nil, selects the module-level lines worth keeping (the
// others are checked and dropped).
func lexLines(src string, keepAll bool, want func([]token) bool) ([]logicalLine, error) {
	return lexLinesFor(src, NewestMinor, keepAll, want)
}

// NewestMinor is the newest Python 3 minor version whose grammar and
// messages the front-end follows (3.14); the oldest is 3.11. Callers pass
// a minor in 11..NewestMinor.
const NewestMinor = 14

// lexLinesFor is lexLines for the grammar and messages of Python 3.minor.
func lexLinesFor(src string, minor int, keepAll bool, want func([]token) bool) ([]logicalLine, error) {
	return lexWith(src, minor, keepAll, want, nil)
}

// exprMemo holds the verdicts on f-string replacement fields already
// parsed while lexing one file (nil: fine). A nested f-string is lexed
// again inside every enclosing field; without it, nesting costs 2^depth.
type exprMemo map[string]*SyntaxError

// lexWith is lexLinesFor sharing memo with the lexer of an enclosing
// f-string field (nil: a new file).
func lexWith(src string, minor int, keepAll bool, want func([]token) bool, memo exprMemo) ([]logicalLine, error) {
	return lexArena(src, minor, keepAll, want, memo, nil)
}

// Arena is memory a caller reuses from file to file for what outlives the
// lexer but not the scan of one file: the kept lines and their tokens, the
// top-level statements, the nodes of the registration calls and the
// f-string memo. Growing them from nothing for every file was a third of
// a scan's allocations, and with the collector off each is fresh memory.
type Arena struct {
	keep  []token
	lines []logicalLine
	stmts [][]token
	slab  []Node
	memo  exprMemo
	main  mainScan
}

var arenaPool = sync.Pool{New: func() any { return &Arena{keep: make([]token, 0, 256), slab: make([]Node, 0, 64)} }}

// GetArena returns an Arena from a pool shared by the scans of a process;
// give it back with PutArena once nothing read through it is used.
func GetArena() *Arena { return arenaPool.Get().(*Arena) }

// PutArena returns a to the pool GetArena takes it from.
func PutArena(a *Arena) { arenaPool.Put(a) }

// lexArena is lexWith keeping the lines' tokens in a (nil: fresh memory).
func lexArena(src string, minor int, keepAll bool, want func([]token) bool, memo exprMemo, a *Arena) ([]logicalLine, error) {
	return lexMain(src, minor, keepAll, want, memo, a, nil)
}

// lexMain is lexArena with main (nil: none) watching each checked line
// for the main block.
func lexMain(src string, minor int, keepAll bool, want func([]token) bool, memo exprMemo, a *Arena, main *mainScan) ([]logicalLine, error) {
	switch {
	case memo == nil && a != nil:
		if a.memo == nil {
			a.memo = exprMemo{}
		}
		clear(a.memo)
		memo = a.memo
	case memo == nil:
		memo = exprMemo{}
	}
	if err := checkUTF8(src); err != nil {
		return nil, err
	}
	// The reference reads files with open().read(), which decodes them
	// before ast.parse sees them: a NUL byte fails the whole file (CPython
	// gives no line; the finding points at the byte), and a UTF-8 BOM
	// stays in the text as U+FEFF.
	if i := strings.IndexByte(src, 0); i >= 0 {
		return nil, &SyntaxError{Line: 1 + strings.Count(src[:i], "\n"), Col: i - strings.LastIndexByte(src[:i], '\n'),
			Msg: nulBytes, NoLine: true}
	}
	sc := scratchPool.Get().(*scratch)
	lx := &lexer{src: src, minor: minor, line: 1, atBOL: true, indents: append(sc.indents[:0], indentLevel{0, 0}), keepAll: keepAll, want: want, main: main,
		toks: sc.toks[:0], brackets: sc.brackets[:0], check: parser{check: true, minor: minor, slab: sc.slab[:0], paramStack: sc.params[:0], memo: memo}, memo: memo}
	if a != nil {
		lx.keep, lx.lines = a.keep[:0], a.lines[:0]
	}
	lx.blocks = sc.blocks[:0]
	err := lx.run()
	if a != nil {
		a.keep, a.lines = lx.keep, lx.lines
	}
	var se *SyntaxError
	errors.As(err, &se)
	switch {
	case lx.parseErr != nil && lx.latent != nil && (se == nil || se == lx.parseErr || lx.parseErr.sticky && err == nil):
		// CPython's second pass parses the file again from the start,
		// and its legacy-print rule matches a valid "print -1" before
		// the error: that is the error, unless a tokenizer error after
		// it (se, not the parser's) wins as usual.
		err = lx.latent
	case lx.parseErr != nil && lx.parseErr.sticky && lx.latent == nil:
		// CPython reports an unexpected INDENT or DEDENT without
		// tokenizing the rest of the file for a better error.
		err = lx.parseErr
	}
	sc.toks, sc.slab, sc.brackets, sc.indents, sc.params, sc.blocks = lx.toks[:0], lx.check.slab[:0], lx.brackets[:0], lx.indents[:0], lx.check.paramStack[:0], lx.blocks[:0]
	scratchPool.Put(sc)
	if err != nil {
		return nil, err
	}
	return lx.lines, nil
}

// scratch is the per-file working memory of the lexer: the tokens of the
// current logical line and the node slab of the statement check. Nothing in
// it outlives a line (kept lines are copied out), so it is recycled between
// files; allocating and zeroing it for every file was a fifth of a scan.
type scratch struct {
	toks     []token
	slab     []Node
	brackets []token
	indents  []indentLevel
	params   []paramItem
	blocks   blockState
}

var scratchPool = sync.Pool{New: func() any {
	return &scratch{toks: make([]token, 0, 256), slab: make([]Node, 0, 256),
		brackets: make([]token, 0, 16), indents: make([]indentLevel, 0, 16)}
}}

// endLine closes the current logical line at a NEWLINE and checks its
// statement syntax.
func (lx *lexer) endLine() error {
	n := len(lx.toks)
	if n == lx.first {
		return nil
	}
	depth := len(lx.indents) - 1
	line := lx.toks[lx.first:n:n]
	if lx.parseErr != nil {
		lx.toks = lx.toks[:0]
		lx.first = 0
		return nil
	}
	se, blocked := lx.checkStmt(line, depth)
	if se == nil && lx.latent == nil {
		lx.latent = latentPrint(line)
	}
	lx.decorated, lx.decoDepth = line[0].kind == tkOp && line[0].text == "@", depth
	if se == nil && !blocked {
		se = lx.blocks.next(depth, line, lx.check.softKw)
	}
	if se != nil {
		lx.parseErr = se
		lx.toks = lx.toks[:0]
		lx.first = 0
		return nil
	}
	if lx.main != nil {
		lx.main.line(line, depth, lx.check.softKw, lx.check.inMatch)
	}
	lx.needIndent = endsWithColon(line)
	lx.colonLine = line[0].line
	if lx.needIndent {
		lx.colonWhat = blockName(line)
	}
	if lx.keepAll || depth == 0 && (lx.want == nil || lx.want(line)) {
		// Copy the line out of the scratch buffer into the file's arena.
		start := len(lx.keep)
		lx.keep = append(lx.keep, line...)
		lx.lines = append(lx.lines, logicalLine{depth: depth, toks: lx.keep[start:len(lx.keep):len(lx.keep)]})
	}
	lx.toks = lx.toks[:0]
	lx.first = len(lx.toks)
	return nil
}

// latentPrint finds, in a statement that parses, what
// invalid_legacy_expression ("NAME !'(' star_expressions", print or exec)
// matches: only a name followed by an operator that can also start an
// operand ("print -1", "print [0]") is valid at all.
func latentPrint(line []token) *SyntaxError {
	for i := 0; i+1 < len(line); i++ {
		t, next := line[i], line[i+1]
		if t.kind == tkName && (t.text == "print" || t.text == "exec") && (i == 0 || expressionSlot(line[i-1])) &&
			next.kind == tkOp && (next.text == "-" || next.text == "+" || next.text == "~" || next.text == "[") {
			return &SyntaxError{Line: t.line, Col: t.col, Msg: fmt.Sprintf("Missing parentheses in call to '%s'. Did you mean %s(...)?", t.text, t.text)}
		}
	}
	return nil
}

// checkStmt checks the syntax of one logical line (or the start of one,
// for quietErr) at depth; blocked: its clause was checked against the
// statement it continues.
func (lx *lexer) checkStmt(line []token, depth int) (se *SyntaxError, blocked bool) {
	lx.check.inMatch = depth > 0 && depth <= len(lx.blocks) && lx.blocks[depth-1] == "match"
	// The parser fails at the first token of a line that cannot follow a
	// decorator, or that is not a case block in a match block, before it
	// looks at the rest of the line.
	// So does an elif, else, except or finally without its statement.
	if lx.decorated && (!startsDef(line) || depth < lx.decoDepth) || depth > 0 && depth <= len(lx.blocks) && lx.blocks[depth-1] == "match" && line[0].text != "case" {
		se = &SyntaxError{Line: line[0].line, Col: line[0].col, Msg: "invalid syntax"}
		if lx.decorated && depth < lx.decoDepth {
			se.Msg, se.sticky = "unexpected unindent", true // the parser meets a DEDENT
		}
	} else {
		switch clause(line) {
		case "elif", "else", "except", "finally":
			se, blocked = lx.blocks.next(depth, line, ""), true
		default:
			se = lx.blocks.tryError(depth, line)
		}
		if se == nil {
			return checkLine(&lx.check, line), blocked
		}
	}
	if se != nil {
		// The parser read the line's first token and no further.
		lx.check.failTok = token{line: se.Line, col: se.Col}
		lx.check.furthest, lx.check.ranOut = se.Line, false
	}
	return se, blocked
}

func (lx *lexer) newline() {
	lx.line++
	lx.lineStart = lx.pos
}

func (lx *lexer) run() error {
	for {
		if lx.pending != nil && len(lx.toks) > lx.first {
			if lx.parseErr == nil {
				lx.parseErr = lx.pending
			}
			lx.pending = nil
		}
		if lx.atBOL && len(lx.brackets) == 0 {
			blank, err := lx.indentation()
			if err != nil {
				return err
			}
			if blank {
				continue
			}
			lx.atBOL = false
		}
		if lx.pos >= len(lx.src) {
			return lx.eof()
		}
		c := lx.src[lx.pos]
		switch {
		case c == ' ' || c == '\t' || c == '\f':
			lx.pos++
			for lx.pos < len(lx.src) && (lx.src[lx.pos] == ' ' || lx.src[lx.pos] == '\t' || lx.src[lx.pos] == '\f') {
				lx.pos++
			}
		case c == '#':
			lx.comment = token{line: lx.line, col: lx.col()}
			if i := strings.IndexAny(lx.src[lx.pos:], "\r\n"); i >= 0 {
				lx.pos += i
			} else {
				lx.pos = len(lx.src)
			}
		case c == '\r' || c == '\n':
			// CPython's NEWLINE token starts at a comment before it,
			// else at the line break: where errors at the end of a
			// statement point, on a later line after a continuation.
			nl := token{kind: tkNewline, line: lx.line, col: lx.col()}
			if lx.comment.line == lx.line {
				nl.col = lx.comment.col
			}
			lx.pos++
			if c == '\r' && lx.pos < len(lx.src) && lx.src[lx.pos] == '\n' {
				lx.pos++
			}
			if len(lx.brackets) == 0 {
				lx.check.nl = nl
				err := lx.endLine()
				lx.check.nl = token{}
				if err != nil {
					return err
				}
				lx.atBOL = true
			}
			lx.newline()
		case c == '\\':
			line, col := lx.line, lx.col()
			lx.pos++
			switch {
			case lx.pos >= len(lx.src) && len(lx.brackets) > 0:
				return lx.eof() // the end of the file in a bracket: it was never closed
			case lx.pos >= len(lx.src):
				// CPython points after the backslash, at what it read.
				return lx.quietErr(line, col+1, "unexpected EOF while parsing")
			case lx.src[lx.pos] == '\n':
				lx.pos++
				lx.newline()
			case lx.src[lx.pos] == '\r':
				lx.pos++
				if lx.pos < len(lx.src) && lx.src[lx.pos] == '\n' {
					lx.pos++
				}
				lx.newline()
			default:
				return lx.quietErr(line, col+1, "unexpected character after line continuation character")
			}
			if lx.pos >= len(lx.src) {
				if len(lx.brackets) > 0 {
					return lx.eof()
				}
				return lx.quietErr(line, col+1, "unexpected EOF while parsing")
			}
		case c >= '0' && c <= '9' || c == '.' && lx.pos+1 < len(lx.src) && isDigit(lx.src[lx.pos+1]):
			if err := lx.number(); err != nil {
				return err
			}
		case c == '"' || c == '\'':
			if err := lx.str(lx.pos); err != nil {
				return err
			}
		case isIdentStart(lx.src[lx.pos:]):
			start, line, col := lx.pos, lx.line, lx.col()
			for lx.pos < len(lx.src) {
				if c := lx.src[lx.pos]; c < 0x80 {
					if c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' {
						lx.pos++
						continue
					}
					break
				}
				r, n := utf8.DecodeRuneInString(lx.src[lx.pos:])
				if !isIdentRune(r) {
					break
				}
				lx.pos += n
			}
			if lx.pos < len(lx.src) && (lx.src[lx.pos] == '"' || lx.src[lx.pos] == '\'') && isStringPrefix(lx.src[start:lx.pos]) {
				lx.pos = start
				if err := lx.str(start); err != nil {
					return err
				}
				continue
			}
			lx.emit(tkName, start, line, col)
		default:
			if err := lx.op(); err != nil {
				return err
			}
		}
	}
}

func (lx *lexer) eof() error {
	if len(lx.brackets) > 0 {
		b := lx.brackets[len(lx.brackets)-1]
		furthest := 0
		if lx.parseErr != nil {
			furthest = lx.parseErr.Line
		} else if lx.pending == nil {
			// The unfinished line: the parser fails inside it, or at
			// its end for want of the closing bracket; or at its first
			// token, before the bracket, when the line cannot stand
			// where it stands (after a decorator, in a match block, an
			// elif without its if, after a try block), as checkStmt
			// rules for a finished line.
			n := len(lx.toks)
			line := lx.toks[lx.first:n:n]
			if se, _ := lx.checkStmt(line, len(lx.indents)-1); se != nil && !atLineEnd(se, line) {
				lx.parseErr, furthest = se, lx.check.furthest
			}
		}
		// An unclosed bracket wins over a parser error that read past
		// its line.
		if lx.parseErr != nil && furthest <= b.line {
			return lx.parseErr
		}
		return lx.parserErrAt(b.line, b.col, "'%s' was never closed", b.text)
	}
	// The NEWLINE CPython adds at the end of a last line without one sits
	// where the line break would be: after trailing blanks, or at a
	// comment.
	lx.check.nl = token{kind: tkNewline, line: lx.line, col: lx.col()}
	if lx.comment.line == lx.line {
		lx.check.nl.col = lx.comment.col
	}
	err := lx.endLine()
	lx.check.nl = token{}
	if err != nil {
		return err
	}
	if lx.parseErr != nil {
		return lx.parseErr
	}
	// CPython reports errors at the end of the file on the last line
	// that has text.
	line := lx.line
	if n := len(lx.src); n > 0 && (lx.src[n-1] == '\n' || lx.src[n-1] == '\r') {
		line--
	}
	if lx.decorated {
		// A decorator with nothing to decorate: the parser meets the
		// end of the file, or the DEDENT before it.
		if lx.decoDepth > 0 {
			return lx.parserErrAt(line, lx.col(), "unexpected unindent")
		}
		return lx.parserErrAt(line, lx.col(), "invalid syntax")
	}
	if lx.needIndent {
		return lx.indentErr(line, lx.col())
	}
	if se := lx.blocks.close(0, token{line: line, col: lx.col()}); se != nil {
		return se
	}
	return nil
}

// quietErr is a tokenizer error CPython's tokenizer signals without an
// exception (indentation, line continuation): after a parser error, its
// scan of the rest of the file stops there and keeps the parser's error.
//
// Mid-line, CPython's parser reads tokens one at a time: when it fails on
// a token before the one the tokenizer chokes on, its error wins.
func (lx *lexer) quietErr(line, col int, format string, a ...any) *SyntaxError {
	if lx.parseErr == nil && lx.pending == nil && len(lx.toks) > lx.first {
		partial := lx.toks[lx.first:len(lx.toks):len(lx.toks)]
		// The parser reads one token past where it fails (its lookahead),
		// so the failure must come before the line's last token.
		se, _ := lx.checkStmt(partial, len(lx.indents)-1)
		if se != nil && se.action && se.after < len(partial) {
			return se // the strings' action ran before the bad token was read
		}
		if se != nil && !atLineEnd(se, partial) {
			f, last := lx.check.failTok, partial[len(partial)-1]
			if f.line < last.line || f.line == last.line && f.col < last.col {
				return se
			}
			// Failing at the last token, the parser has read no
			// further unless a rule parses an expression from it
			// (whose trailers it peeks at): never in an import, never
			// from a token no expression starts with ("x =\=").
			if f.line == last.line && f.col == last.col && !lx.check.ranOut && (!startsExpr(last) || partial[0].text == "import" || partial[0].text == "from") {
				return se
			}
		}
	}
	if lx.parseErr != nil {
		return lx.parseErr
	}
	return lx.parserErrAt(line, col, format, a...)
}

// atLineEnd reports an error at the end of line (the parser ran out of
// tokens).
func atLineEnd(se *SyntaxError, line []token) bool {
	if len(line) == 0 {
		return true
	}
	last := line[len(line)-1]
	at := token{line: se.Line, col: se.Col}
	if se.read != nil {
		at = *se.read
	}
	return at.line == last.line && at.col == last.col+len(last.text)
}

// indentErr is the parser's error for a block header without its block.
func (lx *lexer) indentErr(line, col int) *SyntaxError {
	if lx.colonWhat == "" {
		return lx.parserErrAt(line, col, "expected an indented block")
	}
	return lx.parserErrAt(line, col, "expected an indented block after %s on line %d", lx.colonWhat, lx.colonLine)
}

// blockName names the compound statement a header line opens, as
// CPython's "expected an indented block after ..." does ("" if unknown).
func blockName(line []token) string {
	kw := line[0].text
	if kw == "async" && len(line) > 1 {
		kw = line[1].text
	}
	switch kw {
	case "def":
		return "function definition"
	case "class":
		return "class definition"
	case "except":
		if len(line) > 1 && line[1].text == "*" {
			return "'except*' statement"
		}
		return "'except' statement"
	case "if", "elif", "else", "for", "while", "with", "try", "finally", "match", "case":
		return "'" + kw + "' statement"
	}
	return ""
}

// blockState follows, per indentation depth, the compound statement that
// the next sibling line may continue, so that an else, elif, except or
// finally without its statement, and a try without a handler, are the
// syntax errors they are in CPython.
type blockState []string

// clause returns the clause keyword of a logical line ("" for a simple
// statement): if, elif, else, for, while, try, except, finally, or "other".
func clause(line []token) string {
	t := line[0]
	if t.kind != tkName {
		return ""
	}
	kw := t.text
	if kw == "async" && len(line) > 1 {
		kw = line[1].text
	}
	switch kw {
	case "if", "elif", "else", "for", "while", "try", "except", "finally":
		return kw
	case "def", "class", "with":
		return "other"
	}
	return ""
}

// tryError is next's "expected 'except' or 'finally' block" for a line
// that is no clause, without changing the state: CPython's try rule fails
// at the line's first token, before the line is parsed.
func (b blockState) tryError(depth int, line []token) *SyntaxError {
	for d := len(b) - 1; d >= depth; d-- {
		if b[d] == "try" {
			return &SyntaxError{Line: line[0].line, Col: line[0].col, Msg: "expected 'except' or 'finally' block"}
		}
	}
	return nil
}

// close ends the blocks deeper than depth: an open try without a handler
// is an error at the line that ends it (at).
func (b *blockState) close(depth int, at token) *SyntaxError {
	for len(*b) > depth {
		last := (*b)[len(*b)-1]
		*b = (*b)[:len(*b)-1]
		if last == "try" {
			return &SyntaxError{Line: at.line, Col: at.col, Msg: "expected 'except' or 'finally' block"}
		}
	}
	return nil
}

func (b *blockState) next(depth int, line []token, softKw string) *SyntaxError {
	if se := b.close(depth+1, line[0]); se != nil {
		return se
	}
	for len(*b) <= depth {
		*b = append(*b, "")
	}
	prev, kw := (*b)[depth], clause(line)
	bad := func() *SyntaxError { return &SyntaxError{Line: line[0].line, Col: line[0].col, Msg: "invalid syntax"} }
	// A match block holds case blocks only, and a case block lives only
	// there; CPython's parser fails at the first token that breaks this.
	inMatch := depth > 0 && (*b)[depth-1] == "match"
	if softKw == "case" && !inMatch {
		return &SyntaxError{Line: line[1].line, Col: line[1].col, Msg: "invalid syntax"}
	}
	if inMatch && softKw != "case" {
		return bad()
	}
	if softKw != "" {
		(*b)[depth] = softKw
		return nil
	}
	state := kw
	switch kw {
	case "elif":
		if prev == "try" {
			// try_stmt's invalid_try_stmt: anything but an except or
			// finally clause after the try block.
			return &SyntaxError{Line: line[0].line, Col: line[0].col, Msg: "expected 'except' or 'finally' block"}
		}
		if prev != "if" && prev != "elif" {
			return bad()
		}
	case "else":
		switch prev {
		case "if", "elif", "for", "while":
			state = "done"
		case "except", "except*":
			state = "tryelse"
		case "try":
			return &SyntaxError{Line: line[0].line, Col: line[0].col, Msg: "expected 'except' or 'finally' block"}
		default:
			return bad()
		}
	case "except":
		if prev != "try" && prev != "except" && prev != "except*" {
			return bad()
		}
		if len(line) > 1 && line[1].text == "*" {
			state = "except*"
		}
		if prev != "try" && prev != state {
			return &SyntaxError{Line: line[0].line, Col: line[0].col, Msg: "cannot have both 'except' and 'except*' on the same 'try'"}
		}
	case "finally":
		if prev != "try" && prev != "except" && prev != "except*" && prev != "tryelse" {
			return bad()
		}
		state = "done"
	default:
		if prev == "try" {
			return &SyntaxError{Line: line[0].line, Col: line[0].col, Msg: "expected 'except' or 'finally' block"}
		}
	}
	(*b)[depth] = state
	return nil
}

// afterContinuations is the line and column of the first character after
// any line continuations at lx.pos (lx.pos's own when there are none).
func (lx *lexer) afterContinuations() (int, int) {
	pos, line, start := lx.pos, lx.line, lx.lineStart
	for pos < len(lx.src) && lx.src[pos] == '\\' {
		next := pos + 1
		switch {
		case strings.HasPrefix(lx.src[next:], "\r\n"):
			next += 2
		case next < len(lx.src) && (lx.src[next] == '\n' || lx.src[next] == '\r'):
			next++
		default:
			return line, pos - start + 1
		}
		pos, line, start = next, line+1, next
		for pos < len(lx.src) && (lx.src[pos] == ' ' || lx.src[pos] == '\t' || lx.src[pos] == '\f') {
			pos++
		}
	}
	return line, pos - start + 1
}

// indentation measures the leading whitespace of a physical line. Blank and
// comment-only lines produce no tokens (blank == true).
func (lx *lexer) indentation() (blank bool, err error) {
	col, alt := 0, 0
	for lx.pos < len(lx.src) {
		switch lx.src[lx.pos] {
		case ' ':
			col++
			alt++
		case '\t':
			col = (col/8 + 1) * 8
			alt++
		case '\f':
			col, alt = 0, 0
		default:
			goto done
		}
		lx.pos++
	}
done:
	if lx.pos >= len(lx.src) {
		return false, nil // EOF: handled by run
	}
	switch lx.src[lx.pos] {
	case '#':
		for lx.pos < len(lx.src) && lx.src[lx.pos] != '\n' && lx.src[lx.pos] != '\r' {
			lx.pos++
		}
		fallthrough
	case '\n', '\r':
		if lx.pos < len(lx.src) {
			if lx.src[lx.pos] == '\r' {
				lx.pos++
			}
			if lx.pos < len(lx.src) && lx.src[lx.pos] == '\n' {
				lx.pos++
			}
			lx.newline()
		}
		return true, nil
	case '\\':
		// A continuation right after indentation: the line's
		// indentation counts, but CPython applies it once the
		// continuation is read, so its errors carry the next line; any
		// character but a line break after the backslash, or the end of
		// the file, is an error first.
		for lx.pos < len(lx.src) && lx.src[lx.pos] == '\\' {
			line, c := lx.line, lx.col()
			next := lx.pos + 1
			switch {
			case next >= len(lx.src):
				return false, lx.quietErr(line, c+1, "unexpected EOF while parsing")
			case lx.src[next] != '\n' && lx.src[next] != '\r':
				return false, lx.quietErr(line, c+1, "unexpected character after line continuation character")
			}
			lx.pos = next + 1
			if lx.src[next] == '\r' && lx.pos < len(lx.src) && lx.src[lx.pos] == '\n' {
				lx.pos++
			}
			lx.newline()
			if lx.pos >= len(lx.src) {
				return false, lx.quietErr(line, c+1, "unexpected EOF while parsing")
			}
			for lx.pos < len(lx.src) && (lx.src[lx.pos] == ' ' || lx.src[lx.pos] == '\t' || lx.src[lx.pos] == '\f') {
				lx.pos++
			}
		}
		// Continued into a line with nothing on it: the whole is a blank
		// line, which sets no indentation.
		if lx.pos < len(lx.src) && (lx.src[lx.pos] == '#' || lx.src[lx.pos] == '\n' || lx.src[lx.pos] == '\r') {
			return lx.indentation()
		}
	}
	top := lx.indents[len(lx.indents)-1]
	line, c := lx.line, lx.col()
	if lx.needIndent && col <= top.col {
		lx.pending = lx.indentErr(line, c)
		lx.needIndent = false
	}
	switch {
	case col == top.col:
		if alt != top.alt {
			return false, lx.quietErr(line, c, "inconsistent use of tabs and spaces in indentation")
		}
	case col > top.col:
		if alt <= top.alt {
			return false, lx.quietErr(line, c, "inconsistent use of tabs and spaces in indentation")
		}
		if !lx.needIndent && lx.parseErr == nil {
			// The parser's error: an INDENT it did not expect, a token
			// that carries the line of the first token after it.
			// CPython's offset for it is one short of the token's.
			tl, tc := lx.afterContinuations()
			lx.parseErr = lx.parserErrAt(tl, max(tc-1, 1), "unexpected indent")
			lx.parseErr.sticky = true
		}
		lx.needIndent = false
		lx.indents = append(lx.indents, indentLevel{col, alt})
	default:
		for len(lx.indents) > 1 && col < lx.indents[len(lx.indents)-1].col {
			lx.indents = lx.indents[:len(lx.indents)-1]
		}
		top = lx.indents[len(lx.indents)-1]
		if col != top.col {
			// CPython points past the end of the line.
			eol := strings.IndexAny(lx.src[lx.lineStart:], "\r\n")
			if eol < 0 {
				eol = len(lx.src) - lx.lineStart
			}
			return false, lx.quietErr(line, eol+1, "unindent does not match any outer indentation level")
		}
		if alt != top.alt {
			return false, lx.quietErr(line, c, "inconsistent use of tabs and spaces in indentation")
		}
	}
	return false, nil
}

// opening returns the bracket that c closes.
func opening(c byte) string {
	switch c {
	case ')':
		return "("
	case ']':
		return "["
	}
	return "{"
}

// maxNesting is CPython's tokenizer limit on open brackets (MAXLEVEL); it
// also bounds the parser's recursion.
const maxNesting = 200

// opLen returns the length of the operator at the start of s, or 0.
func opLen(s string) int {
	if len(s) >= 3 {
		switch s[:3] {
		case "**=", "//=", ">>=", "<<=", "...":
			return 3
		}
	}
	if len(s) >= 2 {
		switch s[:2] {
		case "->", ":=", "**", "//", "<<", ">>", "<=", ">=", "==", "!=",
			"+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "@=":
			return 2
		}
	}
	switch s[0] {
	case '+', '-', '*', '/', '%', '@', '&', '|', '^', '~', '<', '>', '(', ')', '[', ']', '{', '}', ',', ':', ';', '.', '=':
		return 1
	}
	return 0
}

func (lx *lexer) op() error {
	start, line, col := lx.pos, lx.line, lx.col()
	rest := lx.src[lx.pos:]
	if n := opLen(rest); n > 0 {
		lx.pos += n
		lx.emit(tkOp, start, line, col)
		if n > 1 {
			return nil
		}
		switch o := rest[0]; o {
		case '(', '[', '{':
			if len(lx.brackets) >= maxNesting {
				return lx.errAt(line, col, "too many nested parentheses")
			}
			lx.brackets = append(lx.brackets, lx.toks[len(lx.toks)-1])
		case ')', ']', '}':
			if len(lx.brackets) == 0 {
				return lx.errAt(line, col, "unmatched '%c'", o)
			}
			open := lx.brackets[len(lx.brackets)-1]
			if open.text != opening(o) {
				if open.line != line {
					return lx.errAt(line, col, "closing parenthesis '%c' does not match opening parenthesis '%s' on line %d", o, open.text, open.line)
				}
				return lx.errAt(line, col, "closing parenthesis '%c' does not match opening parenthesis '%s'", o, open.text)
			}
			lx.brackets = lx.brackets[:len(lx.brackets)-1]
		}
		return nil
	}
	r, _ := utf8.DecodeRuneInString(rest)
	switch r {
	case '!', '$', '?', '`':
		// CPython's tokenizer passes these on as operators that no rule
		// accepts: the parser reports "invalid syntax" at them.
		lx.pos++
		lx.emit(tkOp, start, line, col)
		return nil
	}
	if unicode.IsPrint(r) {
		return lx.errAt(line, col, "invalid character '%c' (U+%04X)", r, r)
	}
	return lx.errAt(line, col, "invalid non-printable character U+%04X", r)
}

// isPotentialIdent is CPython's is_potential_identifier_char.
func isPotentialIdent(c byte) bool {
	return c >= 0x80 || c == '_' || isDigit(c) || c|0x20 >= 'a' && c|0x20 <= 'z'
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func isIdentStart(s string) bool {
	if c := s[0]; c < 0x80 {
		return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
	}
	r, _ := utf8.DecodeRuneInString(s)
	return r == '_' || unicode.IsLetter(r) || r >= 0x80 && (unicode.Is(unicode.Nl, r) || unicode.Is(unicode.Other_ID_Start, r))
}

func isIdentRune(r rune) bool {
	return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) ||
		r >= 0x80 && (unicode.In(r, unicode.Mn, unicode.Mc, unicode.Nd, unicode.Pc, unicode.Nl) || unicode.Is(unicode.Other_ID_Continue, r))
}

// isStringPrefix reports whether s is a valid string prefix (any case):
// r, u, f, b, t and the two-letter combinations Python accepts.
func isStringPrefix(s string) bool {
	switch strings.ToLower(s) {
	case "r", "u", "f", "b", "t", "br", "rb", "fr", "rf", "tr", "rt":
		return true
	}
	return false
}

func (lx *lexer) number() error {
	start, line, col := lx.pos, lx.line, lx.col()
	if err := lx.scanNumber(); err != nil {
		return err
	}
	lx.emit(tkNumber, start, line, col)
	return nil
}

// scanNumber is a port of the number branch of CPython's tokenizer (tok_get,
// tok_decimal_tail, verify_end_of_number), so that every malformed literal
// gets CPython's message.
func (lx *lexer) scanNumber() *SyntaxError {
	src := lx.src
	line, startCol := lx.line, lx.col()
	c := func() byte { // the current character, 0 at EOF
		if lx.pos < len(src) {
			return src[lx.pos]
		}
		return 0
	}
	fail := func(format string, a ...any) *SyntaxError {
		col := lx.col()
		if !strings.Contains(format, "digit") {
			col-- // CPython's "invalid ... literal" points at the last character it took
		}
		return lx.errAt(line, col, format, a...)
	}
	decimalTail := func() *SyntaxError {
		for {
			for isDigit(c()) {
				lx.pos++
			}
			if c() != '_' {
				return nil
			}
			lx.pos++
			if !isDigit(c()) {
				return fail("invalid decimal literal")
			}
		}
	}
	verifyEnd := func(kind string) *SyntaxError {
		rest := src[lx.pos:]
		// A keyword glued to a number ("1if x else 2") is only deprecated.
		// CPython checks that the keyword ends, except for if, in, is.
		for _, kw := range []string{"and", "else", "for", "or", "not"} {
			if strings.HasPrefix(rest, kw) && (len(rest) == len(kw) || !isPotentialIdent(rest[len(kw)])) {
				return nil
			}
		}
		if len(rest) >= 2 && rest[0] == 'i' && (rest[1] == 'f' || rest[1] == 'n' || rest[1] == 's') {
			return nil
		}
		if rest != "" && rest[0] < 0x80 && isPotentialIdent(rest[0]) {
			return fail("invalid %s literal", kind)
		}
		return nil
	}
	radix := func(kind string, ok func(byte) bool, digitErr bool) *SyntaxError {
		for {
			if c() == '_' {
				lx.pos++
			}
			if !ok(c()) {
				if digitErr && isDigit(c()) {
					return fail("invalid digit '%c' in %s literal", c(), kind)
				}
				return fail("invalid %s literal", kind)
			}
			for ok(c()) {
				lx.pos++
			}
			if c() != '_' {
				break
			}
		}
		if digitErr && isDigit(c()) {
			return fail("invalid digit '%c' in %s literal", c(), kind)
		}
		return verifyEnd(kind)
	}
	exponentAndRest := func() *SyntaxError {
		if c() == 'e' || c() == 'E' {
			e := lx.pos
			lx.pos++
			if c() == '+' || c() == '-' {
				lx.pos++
				if !isDigit(c()) {
					return fail("invalid decimal literal")
				}
			} else if !isDigit(c()) {
				lx.pos = e
				if err := verifyEnd("decimal"); err != nil {
					return err
				}
				return nil // the number ends before the 'e'
			}
			if err := decimalTail(); err != nil {
				return err
			}
		}
		if c() == 'j' || c() == 'J' {
			lx.pos++
			return verifyEnd("imaginary")
		}
		return verifyEnd("decimal")
	}
	fraction := func() *SyntaxError { // after the '.'
		if isDigit(c()) {
			if err := decimalTail(); err != nil {
				return err
			}
		}
		return exponentAndRest()
	}
	if c() == '.' {
		lx.pos++
		return fraction()
	}
	if c() != '0' {
		if err := decimalTail(); err != nil {
			return err
		}
		if c() == '.' {
			lx.pos++
			return fraction()
		}
		return exponentAndRest()
	}
	lx.pos++
	switch c() {
	case 'x', 'X':
		lx.pos++
		return radix("hexadecimal", isHexDigit, false)
	case 'o', 'O':
		lx.pos++
		return radix("octal", func(b byte) bool { return b >= '0' && b <= '7' }, true)
	case 'b', 'B':
		lx.pos++
		return radix("binary", func(b byte) bool { return b == '0' || b == '1' }, true)
	}
	nonzero := false
	for {
		if c() == '_' {
			lx.pos++
			if !isDigit(c()) {
				return fail("invalid decimal literal")
			}
		}
		if c() != '0' {
			break
		}
		lx.pos++
	}
	if isDigit(c()) {
		nonzero = true
		if err := decimalTail(); err != nil {
			return err
		}
	}
	switch c() {
	case '.':
		lx.pos++
		return fraction()
	case 'e', 'E', 'j', 'J':
		return exponentAndRest()
	}
	if nonzero {
		return lx.errAt(line, startCol, "leading zeros in decimal integer literals are not permitted; use an 0o prefix for octal integers")
	}
	return verifyEnd("decimal")
}

func isHexDigit(c byte) bool {
	return isDigit(c) || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// str scans a string literal starting at start (prefix included) whose
// quote begins at lx.pos after the prefix.
func (lx *lexer) str(start int) error {
	line, col := lx.line, lx.col()
	for lx.pos < len(lx.src) && lx.src[lx.pos] != '"' && lx.src[lx.pos] != '\'' {
		lx.pos++
	}
	prefix := lx.src[start:lx.pos]
	if prefix != "" {
		prefix = strings.ToLower(prefix)
	}
	if strings.Contains(prefix, "t") && lx.minor < 14 && lx.parseErr == nil {
		// Older parsers read the t as a name before a string.
		lx.parseErr = lx.parserErrAt(line, col, "a t-string requires Python 3.14 or newer (PEP 750); registry.python is 3.%d", lx.minor)
	}
	if strings.Contains(prefix, "f") && lx.minor == 11 {
		// A PEP 701 f-string (quotes reused inside a field, a backslash
		// or comment in one) reads differently before 3.12: when the
		// 3.12 reading is valid and the 3.11 one is not, say so.
		save := *lx
		lx.minor = 12
		_, _, err12 := lx.strBody(prefix, line, col)
		end12 := lx.pos
		*lx = save
		if err12 == nil {
			if _, _, err := lx.strBody(prefix, line, col); err != nil || lx.pos != end12 || lx.fstring311Fails(start, prefix) == pep701 {
				lx.pos = end12
				return lx.errAt(line, col, "this f-string requires Python 3.12 or newer (PEP 701: quotes, backslashes or comments inside a replacement field); registry.python is 3.11")
			}
			lx.toks = append(lx.toks, token{kind: tkString, text: lx.src[start:lx.pos], line: line, col: col})
			return nil
		}
	}
	if _, _, err := lx.strBody(prefix, line, col); err != nil {
		return err
	}
	lx.toks = append(lx.toks, token{kind: tkString, text: lx.src[start:lx.pos], line: line, col: col})
	return nil
}

// fstring311Fails reports whether the 3.11 f-string parser rejects the
// string token that ends at lx.pos.
// It returns pep701 when the failure is one PEP 701 lifted (a backslash or
// '#' in a replacement field), and "" when the string is fine.
func (lx *lexer) fstring311Fails(start int, prefix string) string {
	t := token{kind: tkString, text: lx.src[start:lx.pos], line: 1, col: 1}
	_, body := t.strParts()
	if !strings.ContainsAny(body, "\\#") {
		return "" // no backslash or '#': nothing PEP 701 lifted (the parser checks the rest)
	}
	p := parser{minor: 11, check: true, memo: lx.memo}
	se := p.fstringError311(t, body, strings.Contains(prefix, "r"), t)
	switch {
	case se == nil:
		return ""
	case se.Msg == "f-string expression part cannot include a backslash" || se.Msg == "f-string expression part cannot include '#'":
		return pep701
	}
	return "other"
}

const pep701 = "pep701"

// strBody consumes the quotes and body of a string whose opening quote is at
// lx.pos and returns the body's bounds.
func (lx *lexer) strBody(prefix string, line, col int) (int, int, error) {
	q := lx.src[lx.pos]
	qqq := `"""`
	if q == '\'' {
		qqq = "'''"
	}
	triple := strings.HasPrefix(lx.src[lx.pos:], qqq)
	n := 1
	if triple {
		n = 3
	}
	lx.pos += n
	bodyStart := lx.pos
	// Before 3.12 an f-string is read like any string; its parser takes
	// it apart (fstring311.go).
	formatted := strings.ContainsAny(prefix, "ft") && lx.minor != 11
	raw := strings.Contains(prefix, "r")
	chunk := bodyStart // start of the current literal part of an f-string
	// literal checks the escapes of an f-string's literal part up to end,
	// which the 3.12+ parser decodes like a str literal's body.
	literal := func(end int) error {
		if formatted && !raw && end > chunk {
			if msg := unicodeEscapeError(lx.src[chunk:end]); msg != "" {
				return lx.errAt(line, col, "%s", msg)
			}
		}
		return nil
	}
	for {
		if lx.pos >= len(lx.src) {
			return 0, 0, lx.unterminated(triple, line, col)
		}
		c := lx.src[lx.pos]
		switch {
		case c == q && (!triple || strings.HasPrefix(lx.src[lx.pos:], qqq)):
			end := lx.pos
			if err := literal(end); err != nil {
				return 0, 0, err
			}
			lx.pos += n
			return bodyStart, end, nil
		case c == '\\':
			lx.pos++
			switch {
			case lx.pos >= len(lx.src):
			case formatted && (lx.src[lx.pos] == '{' || lx.src[lx.pos] == '}'):
				// In f-strings a backslash does not escape a brace.
			case !raw && !strings.Contains(prefix, "b") && lx.src[lx.pos] == 'N':
				// \N{NAME}: an escape (not a replacement field). A
				// malformed one is the decoder's error, not the
				// tokenizer's (unicodeEscapeError).
				name := lx.src[lx.pos+1:]
				end := strings.IndexAny(name, "}\"'\n")
				switch {
				case strings.HasPrefix(name, "{") && end >= 2 && name[end] == '}':
					lx.pos += 1 + end + 1
				case formatted:
					// The 3.12+ tokenizer takes "\N{" as the start of an
					// escape, never of a field; the decoder then fails.
					if end < 0 {
						end = len(name)
					}
					if msg := unicodeEscapeError(lx.src[chunk : lx.pos+1+end]); msg != "" {
						return 0, 0, lx.errAt(line, col, "%s", msg)
					}
					lx.pos++
				default:
					lx.pos++
				}
			default:
				lx.skipChar()
			}
		case c == '\n' || c == '\r':
			if !triple {
				return 0, 0, lx.unterminated(false, line, col)
			}
			lx.skipChar()
		case formatted && c == '{':
			if strings.HasPrefix(lx.src[lx.pos:], "{{") {
				if err := literal(lx.pos + 1); err != nil {
					return 0, 0, err
				}
				lx.pos += 2
				chunk = lx.pos
				continue
			}
			if err := literal(lx.pos); err != nil {
				return 0, 0, err
			}
			lx.pos++
			if err := lx.replacementField(line, col, triple); err != nil {
				return 0, 0, err
			}
			chunk = lx.pos
		case formatted && c == '}':
			if strings.HasPrefix(lx.src[lx.pos:], "}}") {
				if err := literal(lx.pos + 1); err != nil {
					return 0, 0, err
				}
				lx.pos += 2
				chunk = lx.pos
				continue
			}
			return 0, 0, lx.errAt(lx.line, lx.col(), "f-string: single '}' is not allowed")
		default:
			lx.pos++
		}
	}
}

// skipChar advances over one byte, counting physical lines.
func (lx *lexer) skipChar() {
	c := lx.src[lx.pos]
	lx.pos++
	if c == '\r' && lx.pos < len(lx.src) && lx.src[lx.pos] == '\n' {
		lx.pos++
		lx.newline()
	} else if c == '\n' || c == '\r' {
		lx.newline()
	}
}

func (lx *lexer) unterminated(triple bool, line, col int) error {
	if triple {
		detected := lx.line
		if lx.pos >= len(lx.src) && lx.pos > 0 && (lx.src[lx.pos-1] == '\n' || lx.src[lx.pos-1] == '\r') {
			detected-- // CPython reports the last line that has text
		}
		return lx.errAt(line, col, "unterminated triple-quoted string literal (detected at line %d)", detected)
	}
	return lx.errAt(line, col, "unterminated string literal (detected at line %d)", lx.line)
}

// replacementField consumes an f-string replacement field after its '{' up to
// and including the matching '}'. Nested strings may reuse the outer quote
// (Python 3.12 rules, a superset of 3.11's).
func (lx *lexer) replacementField(line, col int, triple bool) error {
	depth := 0
	start, exprLine, exprCol := lx.pos, lx.line, lx.col()
	for {
		if lx.pos >= len(lx.src) {
			return lx.unterminated(triple, line, col)
		}
		c := lx.src[lx.pos]
		switch {
		case c == '"' || c == '\'':
			if _, _, err := lx.strBody("", lx.line, lx.col()); err != nil {
				return err
			}
		case isIdentStart(lx.src[lx.pos:]):
			s := lx.pos
			for lx.pos < len(lx.src) {
				r, n := utf8.DecodeRuneInString(lx.src[lx.pos:])
				if !isIdentRune(r) {
					break
				}
				lx.pos += n
			}
			if lx.pos < len(lx.src) && (lx.src[lx.pos] == '"' || lx.src[lx.pos] == '\'') && isStringPrefix(lx.src[s:lx.pos]) {
				if _, _, err := lx.strBody(strings.ToLower(lx.src[s:lx.pos]), lx.line, lx.col()); err != nil {
					return err
				}
			}
		case c == '(' || c == '[' || c == '{':
			depth++
			lx.pos++
		case (c == ')' || c == ']') && depth > 0:
			depth--
			lx.pos++
		case c == '}' && depth > 0:
			depth--
			lx.pos++
		case c == '}':
			if err := lx.fieldExpr(lx.src[start:lx.pos], exprLine, exprCol); err != nil {
				return err
			}
			lx.pos++
			return nil
		case c == ':' && depth == 0:
			if err := lx.fieldExpr(lx.src[start:lx.pos], exprLine, exprCol); err != nil {
				return err
			}
			lx.pos++
			return lx.formatSpec(line, col, triple)
		case c == '!' && depth == 0 && !strings.HasPrefix(lx.src[lx.pos:], "!="):
			if err := lx.fieldExpr(lx.src[start:lx.pos], exprLine, exprCol); err != nil {
				return err
			}
			convLine, convCol := lx.line, lx.col()
			lx.pos++
			conv := lx.pos
			for lx.pos < len(lx.src) && lx.src[lx.pos] != ':' && lx.src[lx.pos] != '}' && lx.src[lx.pos] != '\n' {
				lx.pos++
			}
			// Python 3.12+ allows whitespace after the conversion character.
			if k := strings.TrimRight(lx.src[conv:lx.pos], " \t"); k != "s" && k != "r" && k != "a" {
				return lx.errAt(convLine, convCol, "f-string: invalid conversion character: expected 's', 'r', or 'a'")
			}
			if lx.pos < len(lx.src) && lx.src[lx.pos] == ':' {
				lx.pos++
				return lx.formatSpec(line, col, triple)
			}
			if lx.pos >= len(lx.src) || lx.src[lx.pos] != '}' {
				return lx.errAt(convLine, convCol, "f-string: expecting '}'")
			}
			lx.pos++
			return nil
		case c == '\n' || c == '\r':
			lx.skipChar()
		case c == '#':
			// Python 3.12+ (PEP 701): a comment runs to the end of the
			// line, even inside brackets, and may hold quotes or braces.
			for lx.pos < len(lx.src) && lx.src[lx.pos] != '\n' && lx.src[lx.pos] != '\r' {
				lx.pos++
			}
		default:
			lx.pos++
		}
	}
}

// dottedName reports an ASCII name or dotted name without keywords.
func dottedName(s string) bool {
	for part := range strings.SplitSeq(s, ".") {
		if part == "" || isKeyword(part) || isDigit(part[0]) {
			return false
		}
		for i := 0; i < len(part); i++ {
			c := part[i]
			if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || isDigit(c)) {
				return false
			}
		}
	}
	return true
}

// fieldExpr checks the expression of an f-string replacement field (a
// trailing "=" is the self-documenting form) by parsing it parenthesised,
// as CPython does.
func (lx *lexer) fieldExpr(text string, line, col int) error {
	// The comment-free form is used only when it ends in the "="; the
	// full text is what gets parsed otherwise, so a '#' that the simple
	// quote tracking misjudges cannot truncate it.
	expr := strings.TrimRight(text, " \t\r\n")
	if t := trimTrailingComments(text); strings.HasSuffix(t, "=") && !strings.HasSuffix(t, "==") && !strings.HasSuffix(t, "!=") &&
		!strings.HasSuffix(t, "<=") && !strings.HasSuffix(t, ">=") {
		expr = t[:len(t)-1]
	}
	expr = strings.TrimSpace(expr)
	if expr == "" || strings.TrimSpace(trimTrailingComments(text)) == "" {
		return &SyntaxError{Line: line, Col: col, Msg: "f-string: empty expression not allowed"}
	}
	if dottedName(expr) {
		return nil // the common case, f"{name}" or f"{self.attr}", needs no parser
	}
	if lx.onField != nil {
		lx.onField(expr)
	}
	key := "field:" + expr
	se, seen := lx.memo[key]
	if !seen {
		// The newline ends a trailing comment (Python 3.12+) before the ")".
		_, err := lexWith("("+expr+"\n)", NewestMinor, false, func([]token) bool { return false }, lx.memo)
		if err != nil {
			se = &SyntaxError{Msg: "invalid syntax"}
			if !errors.As(err, &se) {
				se = &SyntaxError{Msg: "invalid syntax"}
			}
		}
		lx.memo[key] = se
	}
	if se != nil {
		return &SyntaxError{Line: line, Col: col, Msg: "f-string: " + se.Msg}
	}
	return nil
}

// formatSpec consumes a format spec up to the '}' closing the field; the
// spec may hold nested replacement fields.
func (lx *lexer) formatSpec(line, col int, triple bool) error {
	for {
		if lx.pos >= len(lx.src) {
			return lx.unterminated(triple, line, col)
		}
		switch c := lx.src[lx.pos]; {
		case c == '{':
			lx.pos++
			if err := lx.replacementField(line, col, triple); err != nil {
				return err
			}
		case c == '}':
			lx.pos++
			return nil
		case (c == '\n' || c == '\r') && !triple:
			return lx.unterminated(false, line, col)
		default:
			lx.skipChar()
		}
	}
}

// startsDef reports whether a line may follow a decorator.
func startsDef(line []token) bool {
	t := line[0]
	switch {
	case t.kind == tkOp:
		return t.text == "@"
	case t.text == "def" || t.text == "class":
		return true
	case t.text == "async":
		return len(line) > 1 && line[1].text == "def"
	}
	return false
}

func endsWithColon(toks []token) bool {
	n := len(toks)
	return n > 0 && toks[n-1].kind == tkOp && toks[n-1].text == ":"
}

// codingCookie is PEP 263's encoding declaration, honoured on the first two
// lines only.
var codingCookie = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[ \t\f]*#.*?coding[:=][ \t]*([-\w.]+)`) })

// checkUTF8 rejects source that is not UTF-8 where Python would: without a
// coding cookie naming another encoding, ast.parse fails on the first
// undecodable byte. Reading such a file anyway would collect registrations
// with U+FFFD in their suite or label names.
func checkUTF8(src string) *SyntaxError {
	if utf8.ValidString(src) {
		return nil
	}
	for i, l := range strings.SplitN(src, "\n", 3)[:min(2, strings.Count(src, "\n")+1)] {
		if m := codingCookie().FindStringSubmatch(l); m != nil {
			enc := strings.ReplaceAll(strings.ToLower(m[1]), "_", "-")
			if enc != "utf-8" && enc != "utf8" && !strings.HasPrefix(enc, "utf-8-") {
				return nil // another encoding: its bytes are not ours to judge
			}
			break
		}
		if i == 0 && strings.TrimSpace(l) != "" && !strings.HasPrefix(strings.TrimLeft(l, " \t\f"), "#") {
			break // a cookie on line 2 counts only after a comment or blank line 1
		}
	}
	line, start := 1, 0
	for i := 0; i < len(src); {
		r, n := utf8.DecodeRuneInString(src[i:])
		if r == utf8.RuneError && n == 1 {
			return &SyntaxError{Line: line, Col: i - start + 1,
				Msg: fmt.Sprintf("(unicode error) 'utf-8' codec can't decode byte 0x%02x: invalid UTF-8 (declare the file's encoding with a # coding: comment)", src[i])}
		}
		if r == '\n' {
			line, start = line+1, i+1
		}
		i += n
	}
	return nil
}

// trimTrailingComments drops trailing whitespace and comments (Python
// 3.12+ allows them in a field, as in f"{x = # why\n}") so that a
// self-documenting "=" before them is still seen.
func trimTrailingComments(text string) string {
	for {
		text = strings.TrimRight(text, " \t\r\n\f")
		last := text[strings.LastIndexByte(text, '\n')+1:]
		cut := -1
		var quote byte
		for i := 0; i < len(last) && cut < 0; i++ {
			switch c := last[i]; {
			case quote != 0 && c == '\\':
				i++
			case quote != 0:
				if c == quote {
					quote = 0
				}
			case c == '\'' || c == '"':
				quote = c
			case c == '#':
				cut = i
			}
		}
		if cut < 0 {
			return text
		}
		text = text[:len(text)-len(last)+cut]
	}
}
