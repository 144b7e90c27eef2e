package fix

import (
	"strconv"
	"unicode/utf8"

	"gopkg.in/yaml.v3"
)

// scalar is a YAML scalar as the source spells it: its decoded text and,
// for every decoded byte, where in the source an insertion before that
// byte goes. The decoder follows YAML's folding and escaping closely
// enough for the common forms; its result is always compared with
// yaml.v3's own decoding, and a difference refuses the edit, so a form it
// gets wrong is left alone rather than damaged.
type scalar struct {
	style yaml.Style
	text  []byte
	// at[i] is the source offset an insertion before decoded byte i goes
	// to; at[len(text)] is the end of the content. -1: inside a character
	// that an escape produced (no insertion there).
	at []int
	// indent is a block scalar's content indentation, in spaces.
	indent int
}

func (s *scalar) add(b byte, at int) {
	s.text = append(s.text, b)
	s.at = append(s.at, at)
}

// addSynthetic appends a byte YAML produced from a line break: an
// insertion before it goes to the end of the previous content, lineEnd.
func (s *scalar) addSynthetic(b byte, lineEnd int) { s.add(b, lineEnd) }

// trimTrailing drops the literal spaces and tabs at the end of the decoded
// text that a fold removes, back to mark.
func (s *scalar) trimTrailing(mark int) {
	n := len(s.text)
	for n > mark && (s.text[n-1] == ' ' || s.text[n-1] == '\t') {
		n--
	}
	s.text, s.at = s.text[:n], s.at[:n]
}

func isWS(b byte) bool { return b == ' ' || b == '\t' }

// lineEnd is the offset of the line break (or the end) from i on, and the
// offset after the break.
func lineEnd(src []byte, i int) (end, next int) {
	for j := i; j < len(src); j++ {
		if src[j] == '\n' {
			if j > i && src[j-1] == '\r' {
				return j - 1, j + 1
			}
			return j, j + 1
		}
	}
	return len(src), len(src)
}

// readScalar decodes the scalar starting at source offset off, written in
// style, inside a mapping indented parentIndent spaces. why is set when the
// form is one the decoder does not follow.
func readScalar(src []byte, off int, style yaml.Style, parentIndent int) (*scalar, string) {
	s := &scalar{style: style}
	var why string
	if off < 0 || off >= len(src) {
		return nil, "the if:'s position is unknown"
	}
	want := map[yaml.Style]string{yaml.SingleQuotedStyle: "'", yaml.DoubleQuotedStyle: `"`, yaml.LiteralStyle: "|", yaml.FoldedStyle: ">"}[style]
	if want != "" && string(src[off]) != want {
		return nil, "the if: is not where the YAML tree has it"
	}
	switch style {
	case 0:
		why = s.plain(src, off, parentIndent)
	case yaml.SingleQuotedStyle, yaml.DoubleQuotedStyle:
		why = s.quoted(src, off)
	case yaml.LiteralStyle, yaml.FoldedStyle:
		why = s.block(src, off, parentIndent)
	default:
		why = "the if: value has an unusual style"
	}
	if why != "" {
		return nil, why
	}
	return s, ""
}

// segment appends a plain scalar's line content from i: up to a comment
// or the line's end, without trailing white space. It returns the offset
// after the last byte kept.
func (s *scalar) segment(src []byte, i int) int {
	end, _ := lineEnd(src, i)
	last := i
	for j := i; j < end; j++ {
		if src[j] == '#' && j > i && isWS(src[j-1]) {
			break
		}
		s.add(src[j], j)
		if !isWS(src[j]) {
			last = j + 1
		}
	}
	s.trimTrailing(0)
	return last
}

func (s *scalar) plain(src []byte, off, parentIndent int) string {
	last := s.segment(src, off)
	_, next := lineEnd(src, off)
	for next < len(src) {
		blanks, i := 0, next
		var content int
		for {
			if i >= len(src) {
				content = -1
				break
			}
			end, nx := lineEnd(src, i)
			j := i
			for j < end && isWS(src[j]) {
				j++
			}
			if j < end {
				content = i
				break
			}
			blanks++
			i = nx
		}
		if content < 0 {
			break
		}
		sp := 0
		for content+sp < len(src) && src[content+sp] == ' ' {
			sp++
		}
		j := content
		for j < len(src) && isWS(src[j]) {
			j++
		}
		if sp <= parentIndent || src[j] == '#' {
			break
		}
		if blanks == 0 {
			s.addSynthetic(' ', last)
		}
		for range blanks {
			s.addSynthetic('\n', last)
		}
		mark := len(s.text)
		last = s.segment(src, j)
		if len(s.text) == mark {
			break
		}
		_, next = lineEnd(src, j)
	}
	s.at = append(s.at, last)
	return ""
}

// simpleEscapes are the one-character escapes of a double-quoted scalar.
var simpleEscapes = map[byte]string{
	'0': "\x00", 'a': "\a", 'b': "\b", 't': "\t", '\t': "\t", 'n': "\n", 'v': "\v", 'f': "\f",
	'r': "\r", 'e': "\x1b", ' ': " ", '"': "\"", '/': "/", '\\': "\\",
	'N': "\u0085", '_': "\u00a0", 'L': "\u2028", 'P': "\u2029",
}

func (s *scalar) quoted(src []byte, off int) string {
	q := src[off]
	i := off + 1
	kept := 0 // decoded bytes a fold must not trim (escapes)
	lastEnd := i
	for i < len(src) {
		c := src[i]
		switch {
		case c == q && q == '\'' && i+1 < len(src) && src[i+1] == '\'':
			s.add('\'', i)
			i += 2
			kept, lastEnd = len(s.text), i
		case c == q:
			s.at = append(s.at, i)
			return ""
		case c == '\\' && q == '"':
			if i+1 >= len(src) {
				return "the if: value ends inside an escape"
			}
			e := src[i+1]
			if e == '\n' || e == '\r' {
				// An escaped line break joins the lines without a space.
				_, next := lineEnd(src, i+1)
				i = next
				for i < len(src) && isWS(src[i]) {
					i++
				}
				kept, lastEnd = len(s.text), i
				continue
			}
			var out string
			n := 2
			if v, ok := simpleEscapes[e]; ok {
				out = v
			} else if w := map[byte]int{'x': 2, 'u': 4, 'U': 8}[e]; w > 0 && i+2+w <= len(src) {
				r, err := strconv.ParseUint(string(src[i+2:i+2+w]), 16, 32)
				if err != nil || !utf8.ValidRune(rune(r)) {
					return "the if: value has an escape the fix does not follow"
				}
				out, n = string(rune(r)), 2+w
			} else {
				return "the if: value has an escape the fix does not follow"
			}
			for k := range len(out) {
				at := -1
				if k == 0 {
					at = i
				}
				s.add(out[k], at)
			}
			i += n
			kept, lastEnd = len(s.text), i
		case c == '\n' || c == '\r':
			s.trimTrailing(kept)
			blanks := 0
			_, next := lineEnd(src, i)
			i = next
			for {
				j := i
				for j < len(src) && isWS(src[j]) {
					j++
				}
				if j < len(src) && (src[j] == '\n' || src[j] == '\r') {
					blanks++
					_, i = lineEnd(src, j)
					continue
				}
				i = j
				break
			}
			if blanks == 0 {
				s.addSynthetic(' ', lastEnd)
			}
			for range blanks {
				s.addSynthetic('\n', lastEnd)
			}
			kept = len(s.text)
		default:
			s.add(c, i)
			i++
			if !isWS(c) {
				lastEnd = i
			}
		}
	}
	return "the if: value has no closing quote"
}

func (s *scalar) block(src []byte, off, parentIndent int) string {
	i := off + 1
	chomp, explicit := byte(0), 0
	for k := 0; k < 2 && i < len(src); k++ {
		switch c := src[i]; {
		case c == '-' || c == '+':
			chomp = c
			i++
		case c >= '1' && c <= '9':
			explicit = int(c - '0')
			i++
		}
	}
	end, next := lineEnd(src, i)
	for j := i; j < end; j++ {
		if src[j] == '#' {
			break
		}
		if !isWS(src[j]) {
			return "the if:'s block scalar header is unusual; edit it by hand"
		}
	}
	type line struct{ start, end int }
	var lines []line
	indent := 0
	if explicit > 0 {
		indent = parentIndent + explicit
	}
	for i = next; i < len(src); {
		e, nx := lineEnd(src, i)
		sp := 0
		for i+sp < e && src[i+sp] == ' ' {
			sp++
		}
		empty := i+sp == e
		if !empty && indent == 0 {
			if sp <= parentIndent {
				break
			}
			indent = sp
		}
		if !empty && sp < indent {
			break
		}
		lines = append(lines, line{i, e})
		i = nx
	}
	if indent == 0 {
		return "the if:'s block scalar is empty"
	}
	s.indent = indent
	lastEnd := off
	seen, prevMore, empties := false, false, 0
	for _, l := range lines {
		text := min(l.start+indent, l.end)
		if text == l.end {
			empties++
			continue
		}
		more := isWS(src[text])
		n := empties
		switch {
		case !seen:
		case s.style == yaml.LiteralStyle || more || prevMore:
			n++
		case empties == 0:
			s.addSynthetic(' ', lastEnd)
		}
		for range n {
			s.addSynthetic('\n', lastEnd)
		}
		for j := text; j < l.end; j++ {
			s.add(src[j], j)
		}
		seen, prevMore, empties, lastEnd = true, more, 0, l.end
	}
	if !seen {
		return "the if:'s block scalar is empty"
	}
	switch chomp {
	case '-':
	case '+':
		for range empties + 1 {
			s.addSynthetic('\n', lastEnd)
		}
	default:
		s.addSynthetic('\n', lastEnd)
	}
	s.at = append(s.at, lastEnd)
	return ""
}
