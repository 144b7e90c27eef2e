package pyparse

import (
	"errors"
	"fmt"
	"strings"
)

// Python 3.11 f-strings. Before PEP 701 (3.12) the tokenizer reads an
// f-string as a plain string, and the parser takes its body apart
// (Parser/string_parser.c): literal parts are decoded like str literals,
// each replacement field is scanned for its end (no backslash, no '#',
// balanced brackets, quotes that end at the same quote character), then
// compiled as "(expr)" by a sub-parser whose errors carry an "f-string: "
// prefix. This file ports that scan, so that a 3.11 target accepts and
// rejects exactly what CPython 3.11 does, with its messages.

// fstringError311 checks one f-string token of a 3.11 target. after is the
// token following the string literals: CPython reports errors of the scan
// itself there (the last token its parser has read).
func (p *parser) fstringError311(t token, body string, raw bool, after token) *SyntaxError {
	fs := fscan{p: p, t: t, raw: raw, after: after, src: body}
	// The body's offset in the token's text, for the lines of fields.
	q := strings.IndexAny(t.text, `"'`)
	fs.base = q + (len(t.text)-len(body)-q)/2
	_, se := fs.concat(0, 0)
	return se
}

type fscan struct {
	p     *parser
	t     token
	after token
	raw   bool
	src   string
	base  int
}

func (fs *fscan) fail(msg string) *SyntaxError {
	return &SyntaxError{Line: fs.after.line, Col: fs.after.col, Msg: msg}
}

// concat parses literals and fields from i up to the end of the body, or
// up to the '}' closing a format spec (recurse > 0).
func (fs *fscan) concat(i, recurse int) (int, *SyntaxError) {
	s := fs.src
	for {
		var more bool
		var se *SyntaxError
		i, more, se = fs.literal(i, recurse)
		if se != nil {
			return i, se
		}
		if more {
			continue
		}
		if i >= len(s) || s[i] == '}' {
			break
		}
		if i, se = fs.field(i, recurse); se != nil {
			return i, se
		}
	}
	if recurse == 0 && i < len(s)-1 {
		return i, fs.fail("f-string: unexpected end of string")
	}
	if recurse != 0 && (i >= len(s) || s[i] != '}') {
		return i, fs.fail("f-string: expecting '}'")
	}
	return i, nil
}

// literal is fstring_find_literal: it stops at a '{' or '}' (more: a
// doubled brace was consumed) and decodes the literal text.
func (fs *fscan) literal(i, recurse int) (int, bool, *SyntaxError) {
	s, start := fs.src, i
	more := false
scan:
	for i < len(s) {
		ch := s[i]
		i++
		if !fs.raw && ch == '\\' && i < len(s) {
			ch = s[i]
			i++
			if ch == 'N' {
				if i < len(s) {
					i++
					if s[i-1] == '{' {
						for i < len(s) {
							i++
							if s[i-1] == '}' {
								break
							}
						}
					}
				}
				continue
			}
		}
		if ch == '{' || ch == '}' {
			if recurse == 0 {
				if i < len(s) && s[i] == ch {
					more = true
					break scan
				}
				if ch == '}' {
					return i - 1, false, fs.fail("f-string: single '}' is not allowed")
				}
			}
			i--
			break
		}
	}
	end := i
	if more {
		i++ // skip the second brace
	}
	if !fs.raw && end > start {
		if msg := unicodeEscapeError(s[start:end]); msg != "" {
			return i, false, fs.fail(msg)
		}
	}
	return i, more, nil
}

// field is fstring_find_expr, at the '{' of a replacement field.
func (fs *fscan) field(i, recurse int) (int, *SyntaxError) {
	s := fs.src
	if recurse >= 2 {
		return i, fs.fail("f-string: expressions nested too deeply")
	}
	i++
	exprStart := i
	var quote byte
	strType := 0
	var stack []byte
loop:
	for ; i < len(s); i++ {
		ch := s[i]
		if ch == '\\' {
			return i, fs.fail("f-string expression part cannot include a backslash")
		}
		if quote != 0 {
			if ch == quote {
				if strType == 3 {
					if i+2 < len(s) && s[i+1] == ch && s[i+2] == ch {
						i += 2
						quote, strType = 0, 0
					}
				} else {
					quote, strType = 0, 0
				}
			}
			continue
		}
		switch {
		case ch == '\'' || ch == '"':
			if i+2 < len(s) && s[i+1] == ch && s[i+2] == ch {
				strType = 3
				i += 2
			} else {
				strType = 1
			}
			quote = ch
		case ch == '[' || ch == '{' || ch == '(':
			if len(stack) >= maxNesting {
				return i, fs.fail("f-string: too many nested parenthesis")
			}
			stack = append(stack, ch)
		case ch == '#':
			return i, fs.fail("f-string expression part cannot include '#'")
		case len(stack) == 0 && (ch == '!' || ch == ':' || ch == '}' || ch == '=' || ch == '>' || ch == '<'):
			if i+1 < len(s) {
				next := s[i+1]
				if ch == '!' && next == '=' || ch == '=' && next == '=' || ch == '<' && next == '=' || ch == '>' && next == '=' {
					i++
					continue
				}
			}
			if ch == '>' || ch == '<' {
				continue
			}
			break loop
		case ch == ']' || ch == '}' || ch == ')':
			if len(stack) == 0 {
				return i, fs.fail(fmt.Sprintf("f-string: unmatched '%c'", ch))
			}
			open := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if !(open == '(' && ch == ')' || open == '[' && ch == ']' || open == '{' && ch == '}') {
				return i, fs.fail(fmt.Sprintf("f-string: closing parenthesis '%c' does not match opening parenthesis '%c'", ch, open))
			}
		}
	}
	exprEnd := i
	if quote != 0 {
		return i, fs.fail("f-string: unterminated string")
	}
	if len(stack) > 0 {
		return i, fs.fail(fmt.Sprintf("f-string: unmatched '%c'", stack[len(stack)-1]))
	}
	if i >= len(s) {
		return i, fs.fail("f-string: expecting '}'")
	}
	if se := fs.compile(exprStart, exprEnd); se != nil {
		return i, se
	}
	if s[i] == '=' {
		i++
		for i < len(s) && strings.IndexByte(" \t\n\r\f\v", s[i]) >= 0 {
			i++
		}
		if i >= len(s) {
			return i, fs.fail("f-string: expecting '}'")
		}
	}
	if s[i] == '!' {
		i++
		if i >= len(s) {
			return i, fs.fail("f-string: expecting '}'")
		}
		conv := s[i]
		i++
		if conv != 's' && conv != 'r' && conv != 'a' {
			return i, fs.fail("f-string: invalid conversion character: expected 's', 'r', or 'a'")
		}
	}
	if i < len(s) && s[i] == ':' {
		i++
		if i >= len(s) {
			return i, fs.fail("f-string: expecting '}'")
		}
		var se *SyntaxError
		if i, se = fs.concat(i, recurse+1); se != nil {
			return i, se
		}
	}
	if i >= len(s) || s[i] != '}' {
		return i, fs.fail("f-string: expecting '}'")
	}
	return i + 1, nil
}

// compile is fstring_compile_expr: the field's text, parenthesised, must
// parse as star_expressions.
func (fs *fscan) compile(start, end int) *SyntaxError {
	s := fs.src
	blank := true
	for _, c := range []byte(s[start:end]) {
		if c != ' ' && c != '\t' && c != '\n' && c != '\f' {
			blank = false
			break
		}
	}
	if blank {
		if end < len(s) && (s[end] == '!' || s[end] == ':' || s[end] == '=') {
			return fs.fail(fmt.Sprintf("f-string: expression required before '%c'", s[end]))
		}
		return fs.fail("f-string: empty expression not allowed")
	}
	key := "311:" + s[start:end]
	se, seen := fs.p.memo[key]
	if !seen {
		_, err := lexWith("("+s[start:end]+")", fs.p.minor, false, func([]token) bool { return false }, fs.p.memo)
		if err != nil && !errors.As(err, &se) {
			se = &SyntaxError{Msg: "invalid syntax"}
		}
		if fs.p.memo != nil {
			fs.p.memo[key] = se
		}
	}
	if se == nil {
		return nil
	}
	out := *se
	// Lines of the sub-parser count from the field's line in the token.
	out.Line = fs.t.line + strings.Count(fs.t.text[:fs.base+start], "\n") + se.Line - 1
	if !se.final {
		if !se.tok {
			out.Msg = "f-string: " + se.Msg
		}
		out.final = true
	}
	return &out
}
