package pathsfilter

import (
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"unicode/utf16"
	"unicode/utf8"

	"gopkg.in/yaml.v3"
)

// dorny/paths-filter loads its filters with js-yaml, whose syntax is not
// libyaml's (yaml.v3): js-yaml 3 (v2 releases) skips a tab in indentation
// but indents a block node after it by its column; both versions read on
// past '?' in a flow scalar, take any %YAML 1.x, and differ in many error
// cases. So the filter text is loaded by this port of js-yaml's
// loader.js (3.14.0's lib/js-yaml/loader.js and 4.1.0's lib/loader.js,
// which differ only where major is tested): the same functions, in the same
// order, building the yaml.Node tree the rest of the parser reads. Scalars
// keep their text and style; resolving them (implicit types, explicit tags,
// merges, duplicate keys) is left to jsyaml.go and filter.go. Positions
// count UTF-16 code units, as JavaScript's do.

const (
	jslFlowIn = iota + 1
	jslFlowOut
	jslBlockIn
	jslBlockOut
)

const (
	jslChompClip = iota + 1
	jslChompStrip
	jslChompKeep
)

// jslError is a YAMLException; jsLoad recovers only this type.
type jslError struct {
	msg       string
	line, col int
	// unmodelled: where JavaScript's own limits decide (stack depth).
	unmodelled bool
}

type jslState struct {
	in                           []uint16 // input + a 0 terminator, as loader.js appends '\0'
	length                       int      // state.length: the input without the terminator
	pos, line, lineStart, indent int
	tagMap                       map[string]string
	anchors                      map[string]*yaml.Node
	version                      bool
	tag, anchor                  string
	hasTag, hasAnchor            bool
	kind                         string // "", "scalar", "sequence" or "mapping"
	result                       *yaml.Node
	docs                         []*yaml.Node
	depth                        int
	major                        int // js-yaml 3 or 4
	// firstTab (js-yaml 4's firstTabInLine): where the first tab of the
	// current line's separation space is, -1 for none; a block collection
	// may not start after it.
	firstTab int
	// noMerge: keys that js-yaml stores with a null keyTag although they
	// read as "<<" (explicit keys of a block mapping).
	noMerge map[*yaml.Node]bool
}

func (s *jslState) ch(i int) uint16 {
	if i < 0 || i >= len(s.in) {
		return 0 // charCodeAt out of range is NaN: equal to nothing
	}
	return s.in[i]
}

func (s *jslState) fail(msg string) {
	panic(&jslError{msg: msg, line: s.line + 1, col: s.pos - s.lineStart + 1})
}

func jslEOL(c uint16) bool     { return c == '\n' || c == '\r' }
func jslWhite(c uint16) bool   { return c == '\t' || c == ' ' }
func jslWSOrEOL(c uint16) bool { return jslWhite(c) || jslEOL(c) }
func jslFlowIndicator(c uint16) bool {
	return c == ',' || c == '[' || c == ']' || c == '{' || c == '}'
}

func jslHex(c uint16) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c|0x20 >= 'a' && c|0x20 <= 'f':
		return int(c|0x20-'a') + 10
	}
	return -1
}

var jslSimpleEscape = map[uint16]string{
	'0': "\x00", 'a': "\x07", 'b': "\x08", 't': "\t", '\t': "\t", 'n': "\n", 'v': "\x0b", 'f': "\x0c",
	'r': "\r", 'e': "\x1b", ' ': " ", '"': "\"", '/': "/", '\\': "\\", 'N': "\u0085", '_': "\u00a0",
	'L': "\u2028", 'P': "\u2029",
}

var (
	jslTagHandle = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)^(?:!|!!|![a-z\-]+!)$`) })
	jslTagURI    = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)^(?:!|[^,\[\]\{\}])(?:%[0-9a-f]{2}|[0-9a-z\-#;/\?:@&=\+\$,_\.!~\*'\(\)\[\]])*$`)
	})
	jslVersion = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^([0-9]+)\.([0-9]+)$`) })
)

// jsLoad is js-yaml 3's safeLoad: the one document's root node, nil for
// an empty input (undefined), or the error load throws.
func jsLoad(src []byte, major int) (root *yaml.Node, noMerge map[*yaml.Node]bool, err *jslError) {
	in := utf16.Encode([]rune(string(src)))
	if n := len(in); n != 0 && in[n-1] != '\n' && in[n-1] != '\r' {
		in = append(in, '\n')
	}
	if len(in) > 0 && in[0] == 0xFEFF {
		in = in[1:]
	}
	s := &jslState{in: append(in, 0), length: len(in), major: major, firstTab: -1, noMerge: map[*yaml.Node]bool{}}
	defer func() {
		if r := recover(); r != nil {
			e, ok := r.(*jslError)
			if !ok {
				panic(r)
			}
			root, noMerge, err = nil, nil, e
		}
	}()
	for i, c := range in {
		if c == 0 {
			s.pos = i
			s.fail("null byte is not allowed in input")
		}
	}
	for s.ch(s.pos) == ' ' {
		s.indent++
		s.pos++
	}
	for s.pos < s.length-1 {
		s.readDocument()
	}
	switch len(s.docs) {
	case 0:
		return nil, nil, nil
	case 1:
		return s.docs[0], s.noMerge, nil
	}
	return nil, nil, &jslError{msg: "expected a single document in the stream, but found more", line: 1, col: 1}
}

func (s *jslState) str(from, to int) string { return string(utf16.Decode(s.in[from:to])) }

func jslNonPrintable(seg []uint16) bool {
	for i, c := range seg {
		switch {
		case c <= 0x08, c == 0x0b, c == 0x0c, c >= 0x0e && c <= 0x1f, c >= 0x7f && c <= 0x84,
			c >= 0x86 && c <= 0x9f, c == 0xfffe, c == 0xffff:
			return true
		case c >= 0xd800 && c <= 0xdbff:
			if i+1 >= len(seg) || seg[i+1] < 0xdc00 || seg[i+1] > 0xdfff {
				return true
			}
		case c >= 0xdc00 && c <= 0xdfff:
			if i == 0 || seg[i-1] < 0xd800 || seg[i-1] > 0xdbff {
				return true
			}
		}
	}
	return false
}

func (s *jslState) capture(buf *[]uint16, start, end int, json bool) {
	if start >= end {
		return
	}
	seg := s.in[start:end]
	if json {
		for _, c := range seg {
			if c != '\t' && c < 0x20 {
				s.fail("expected valid JSON character")
			}
		}
	} else if jslNonPrintable(seg) {
		s.fail("the stream contains non-printable characters")
	}
	*buf = append(*buf, seg...)
}

func foldLines(buf *[]uint16, count int) {
	if count == 1 {
		*buf = append(*buf, ' ')
	}
	for i := 1; i < count; i++ {
		*buf = append(*buf, '\n')
	}
}

func (s *jslState) readLineBreak() {
	switch s.ch(s.pos) {
	case '\n':
		s.pos++
	case '\r':
		s.pos++
		if s.ch(s.pos) == '\n' {
			s.pos++
		}
	default:
		s.fail("a line break is expected")
	}
	s.line++
	s.lineStart = s.pos
	s.firstTab = -1
}

// skipSpace is skipSeparationSpace; its checkIndent only warns.
func (s *jslState) skipSpace(comments bool) int {
	breaks := 0
	c := s.ch(s.pos)
	for c != 0 {
		for jslWhite(c) {
			if c == '\t' && s.firstTab == -1 && s.major >= 4 {
				s.firstTab = s.pos
			}
			s.pos++
			c = s.ch(s.pos)
		}
		if comments && c == '#' {
			for {
				s.pos++
				c = s.ch(s.pos)
				if c == '\n' || c == '\r' || c == 0 {
					break
				}
			}
		}
		if !jslEOL(c) {
			break
		}
		s.readLineBreak()
		c = s.ch(s.pos)
		breaks++
		s.indent = 0
		for c == ' ' {
			s.indent++
			s.pos++
			c = s.ch(s.pos)
		}
	}
	return breaks
}

func (s *jslState) documentSeparator() bool {
	p := s.pos
	c := s.ch(p)
	if (c == '-' || c == '.') && c == s.ch(p+1) && c == s.ch(p+2) {
		c = s.ch(p + 3)
		return c == 0 || jslWSOrEOL(c)
	}
	return false
}

func (s *jslState) node(k yaml.Kind, line, col int) *yaml.Node {
	return &yaml.Node{Kind: k, Line: line + 1, Column: col + 1}
}

// null is the value of a node with no content.
func (s *jslState) null() *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null", Line: s.line + 1, Column: s.pos - s.lineStart + 1}
}

func (s *jslState) setScalar(buf []uint16, style yaml.Style, line, col int) {
	n := s.node(yaml.ScalarNode, line, col)
	n.Value = string(utf16.Decode(buf))
	n.Style = style
	if style == 0 && n.Value == "<<" {
		n.Tag = "!!merge" // as yaml.v3 tags it; parser.pairs looks for it
	}
	s.kind, s.result = "scalar", n
}

func (s *jslState) readPlainScalar(nodeIndent int, inFlow bool) bool {
	c := s.ch(s.pos)
	if jslWSOrEOL(c) || jslFlowIndicator(c) || strings.ContainsRune("#&*!|>'\"%@`", rune(c)) {
		return false
	}
	if c == '?' || c == '-' {
		f := s.ch(s.pos + 1)
		if jslWSOrEOL(f) || inFlow && jslFlowIndicator(f) {
			return false
		}
	}
	line, col := s.line, s.pos-s.lineStart
	var buf []uint16
	start, end := s.pos, s.pos
	pending := false
	var _line int
	for c != 0 {
		if c == ':' {
			f := s.ch(s.pos + 1)
			if jslWSOrEOL(f) || inFlow && jslFlowIndicator(f) {
				break
			}
		} else if c == '#' {
			if jslWSOrEOL(s.ch(s.pos - 1)) {
				break
			}
		} else if s.pos == s.lineStart && s.documentSeparator() || inFlow && jslFlowIndicator(c) {
			break
		} else if jslEOL(c) {
			_line = s.line
			lineStart, indent := s.lineStart, s.indent
			s.skipSpace(false)
			if s.indent >= nodeIndent {
				pending = true
				c = s.ch(s.pos)
				continue
			}
			s.pos, s.line, s.lineStart, s.indent = end, _line, lineStart, indent
			break
		}
		if pending {
			s.capture(&buf, start, end, false)
			foldLines(&buf, s.line-_line)
			start, end = s.pos, s.pos
			pending = false
		}
		if !jslWhite(c) {
			end = s.pos + 1
		}
		s.pos++
		c = s.ch(s.pos)
	}
	s.capture(&buf, start, end, false)
	if len(buf) == 0 {
		return false
	}
	s.setScalar(buf, 0, line, col)
	return true
}

func (s *jslState) readSingleQuoted() bool {
	if s.ch(s.pos) != '\'' {
		return false
	}
	line, col := s.line, s.pos-s.lineStart
	var buf []uint16
	s.pos++
	start, end := s.pos, s.pos
	for c := s.ch(s.pos); c != 0; c = s.ch(s.pos) {
		switch {
		case c == '\'':
			s.capture(&buf, start, s.pos, true)
			s.pos++
			if s.ch(s.pos) != '\'' {
				s.setScalar(buf, yaml.SingleQuotedStyle, line, col)
				return true
			}
			start = s.pos
			s.pos++
			end = s.pos
		case jslEOL(c):
			s.capture(&buf, start, end, true)
			foldLines(&buf, s.skipSpace(false))
			start, end = s.pos, s.pos
		case s.pos == s.lineStart && s.documentSeparator():
			s.fail("unexpected end of the document within a single quoted scalar")
		default:
			s.pos++
			end = s.pos
		}
	}
	s.fail("unexpected end of the stream within a single quoted scalar")
	return false
}

func (s *jslState) readDoubleQuoted() bool {
	if s.ch(s.pos) != '"' {
		return false
	}
	line, col := s.line, s.pos-s.lineStart
	var buf []uint16
	s.pos++
	start, end := s.pos, s.pos
	for c := s.ch(s.pos); c != 0; c = s.ch(s.pos) {
		switch {
		case c == '"':
			s.capture(&buf, start, s.pos, true)
			s.pos++
			s.setScalar(buf, yaml.DoubleQuotedStyle, line, col)
			return true
		case c == '\\':
			s.capture(&buf, start, s.pos, true)
			s.pos++
			c = s.ch(s.pos)
			if jslEOL(c) {
				s.skipSpace(false)
			} else if e, ok := jslSimpleEscape[c]; ok {
				buf = append(buf, utf16.Encode([]rune(e))...)
				s.pos++
			} else if n := map[uint16]int{'x': 2, 'u': 4, 'U': 8}[c]; n > 0 {
				v := 0
				for ; n > 0; n-- {
					s.pos++
					h := jslHex(s.ch(s.pos))
					if h < 0 {
						s.fail("expected hexadecimal character")
					}
					v = v<<4 + h
				}
				// charFromCodepoint: a surrogate pair above 0xFFFF.
				if v <= 0xffff {
					buf = append(buf, uint16(v))
				} else {
					buf = append(buf, uint16((v-0x10000)>>10+0xd800), uint16((v-0x10000)&0x3ff+0xdc00))
				}
				s.pos++
			} else {
				s.fail("unknown escape sequence")
			}
			start, end = s.pos, s.pos
		case jslEOL(c):
			s.capture(&buf, start, end, true)
			foldLines(&buf, s.skipSpace(false))
			start, end = s.pos, s.pos
		case s.pos == s.lineStart && s.documentSeparator():
			s.fail("unexpected end of the document within a double quoted scalar")
		default:
			s.pos++
			end = s.pos
		}
	}
	s.fail("unexpected end of the stream within a double quoted scalar")
	return false
}

// storePair adds a pair to a mapping node; merges, duplicates and
// String(key) are resolved later, by parser.pairs.
func storePair(m, k, v *yaml.Node) {
	m.Content = append(m.Content, k, v)
}

func (s *jslState) readFlowCollection(nodeIndent int) bool {
	tag, anchor, hasTag, hasAnchor := s.tag, s.anchor, s.hasTag, s.hasAnchor
	var coll *yaml.Node
	var term uint16
	switch s.ch(s.pos) {
	case '[':
		term, coll = ']', s.node(yaml.SequenceNode, s.line, s.pos-s.lineStart)
		coll.Style = yaml.FlowStyle
	case '{':
		term, coll = '}', s.node(yaml.MappingNode, s.line, s.pos-s.lineStart)
		coll.Style = yaml.FlowStyle
	default:
		return false
	}
	isMapping := term == '}'
	if s.hasAnchor {
		s.anchors[s.anchor] = coll
	}
	readNext := true
	s.pos++
	for c := s.ch(s.pos); c != 0; {
		s.skipSpace(true)
		c = s.ch(s.pos)
		if c == term {
			s.pos++
			s.tag, s.anchor, s.hasTag, s.hasAnchor = tag, anchor, hasTag, hasAnchor
			s.kind = "sequence"
			if isMapping {
				s.kind = "mapping"
			}
			s.result = coll
			return true
		} else if !readNext {
			s.fail("missed comma between flow collection entries")
		}
		if c == ',' && s.major >= 4 {
			// Flow entries may never be completely empty (YAML 1.2 §7.4).
			s.fail("expected the node content, but found ','")
		}
		isPair, explicit := false, false
		if c == '?' && jslWSOrEOL(s.ch(s.pos+1)) {
			isPair, explicit = true, true
			s.pos++
			s.skipSpace(true)
		}
		line := s.line
		s.compose(nodeIndent, jslFlowIn, false, true)
		key := s.value()
		var val *yaml.Node
		s.skipSpace(true)
		c = s.ch(s.pos)
		if (explicit || s.line == line) && c == ':' {
			isPair = true
			s.pos++
			s.skipSpace(true)
			s.compose(nodeIndent, jslFlowIn, false, true)
			val = s.value()
		}
		if val == nil {
			val = s.null()
		}
		switch {
		case isMapping:
			storePair(coll, key, val)
		case isPair:
			m := &yaml.Node{Kind: yaml.MappingNode, Style: yaml.FlowStyle, Line: key.Line, Column: key.Column}
			storePair(m, key, val)
			coll.Content = append(coll.Content, m)
		default:
			coll.Content = append(coll.Content, key)
		}
		s.skipSpace(true)
		c = s.ch(s.pos)
		if c == ',' {
			readNext = true
			s.pos++
			c = s.ch(s.pos)
		} else {
			readNext = false
		}
	}
	s.fail("unexpected end of the stream within a flow collection")
	return false
}

// value is state.result after compose: the node read, or null.
func (s *jslState) value() *yaml.Node {
	if s.result == nil {
		return s.null()
	}
	return s.result
}

func (s *jslState) readBlockScalar(nodeIndent int) bool {
	c := s.ch(s.pos)
	var style yaml.Style
	switch c {
	case '|':
		style = yaml.LiteralStyle
	case '>':
		style = yaml.FoldedStyle
	default:
		return false
	}
	folding := c == '>'
	line, col := s.line, s.pos-s.lineStart
	var buf []uint16
	chomp, didRead, detected, textIndent, empty, moreIndented := jslChompClip, false, false, nodeIndent, 0, false
	for c != 0 {
		s.pos++
		c = s.ch(s.pos)
		if c == '+' || c == '-' {
			if chomp != jslChompClip {
				s.fail("repeat of a chomping mode identifier")
			}
			chomp = jslChompStrip
			if c == '+' {
				chomp = jslChompKeep
			}
		} else if c >= '0' && c <= '9' {
			switch {
			case c == '0':
				s.fail("bad explicit indentation width of a block scalar; it cannot be less than one")
			case detected:
				s.fail("repeat of an indentation width identifier")
			}
			textIndent = nodeIndent + int(c-'0') - 1
			detected = true
		} else {
			break
		}
	}
	if jslWhite(c) {
		for jslWhite(c) {
			s.pos++
			c = s.ch(s.pos)
		}
		if c == '#' {
			for !jslEOL(c) && c != 0 {
				s.pos++
				c = s.ch(s.pos)
			}
		}
	}
	newlines := func(n int) {
		for ; n > 0; n-- {
			buf = append(buf, '\n')
		}
	}
	lead := func() int { // 1 + emptyLines after content, else emptyLines
		if didRead {
			return 1 + empty
		}
		return empty
	}
	for c != 0 {
		s.readLineBreak()
		s.indent = 0
		c = s.ch(s.pos)
		for (!detected || s.indent < textIndent) && c == ' ' {
			s.indent++
			s.pos++
			c = s.ch(s.pos)
		}
		if !detected && s.indent > textIndent {
			textIndent = s.indent
		}
		if jslEOL(c) {
			empty++
			continue
		}
		if s.indent < textIndent {
			switch {
			case chomp == jslChompKeep:
				newlines(lead())
			case chomp == jslChompClip && didRead:
				newlines(1)
			}
			break
		}
		switch {
		case !folding:
			newlines(lead())
		case jslWhite(c):
			moreIndented = true
			newlines(lead())
		case moreIndented:
			moreIndented = false
			newlines(empty + 1)
		case empty == 0:
			if didRead {
				buf = append(buf, ' ')
			}
		default:
			newlines(empty)
		}
		didRead, detected, empty = true, true, 0
		start := s.pos
		for !jslEOL(c) && c != 0 {
			s.pos++
			c = s.ch(s.pos)
		}
		s.capture(&buf, start, s.pos, false)
	}
	s.setScalar(buf, style, line, col)
	return true
}

func (s *jslState) readBlockSequence(nodeIndent int) bool {
	if s.firstTab != -1 {
		return false // after a tab: a flow collection or a scalar at most
	}
	tag, anchor, hasTag, hasAnchor := s.tag, s.anchor, s.hasTag, s.hasAnchor
	seq := s.node(yaml.SequenceNode, s.line, s.pos-s.lineStart)
	if s.hasAnchor {
		s.anchors[s.anchor] = seq
	}
	detected := false
	for c := s.ch(s.pos); c != 0; {
		if s.firstTab != -1 {
			s.pos = s.firstTab
			s.fail("tab characters must not be used in indentation")
		}
		if c != '-' || !jslWSOrEOL(s.ch(s.pos+1)) {
			break
		}
		detected = true
		s.pos++
		if s.skipSpace(true) != 0 && s.indent <= nodeIndent {
			seq.Content = append(seq.Content, s.null())
			c = s.ch(s.pos)
			continue
		}
		line := s.line
		s.compose(nodeIndent, jslBlockIn, false, true)
		seq.Content = append(seq.Content, s.value())
		s.skipSpace(true)
		c = s.ch(s.pos)
		if (s.line == line || s.indent > nodeIndent) && c != 0 {
			s.fail("bad indentation of a sequence entry")
		} else if s.indent < nodeIndent {
			break
		}
	}
	if !detected {
		return false
	}
	s.tag, s.anchor, s.hasTag, s.hasAnchor = tag, anchor, hasTag, hasAnchor
	s.kind, s.result = "sequence", seq
	return true
}

func (s *jslState) readBlockMapping(nodeIndent, flowIndent int) bool {
	if s.firstTab != -1 {
		return false
	}
	tag, anchor, hasTag, hasAnchor := s.tag, s.anchor, s.hasTag, s.hasAnchor
	m := s.node(yaml.MappingNode, s.line, s.pos-s.lineStart)
	if s.hasAnchor {
		s.anchors[s.anchor] = m
	}
	var key, val *yaml.Node
	valLine, valCol := s.line, s.pos-s.lineStart
	atExplicitKey, detected, allowCompact := false, false, false
	flush := func() { // an explicit key without a value
		if key == nil {
			key = s.null()
		}
		storePair(m, key, s.null())
		key, val = nil, nil
	}
	for c := s.ch(s.pos); c != 0; {
		if !atExplicitKey && s.firstTab != -1 {
			s.pos = s.firstTab
			s.fail("tab characters must not be used in indentation")
		}
		f := s.ch(s.pos + 1)
		line := s.line
		if (c == '?' || c == ':') && jslWSOrEOL(f) {
			if c == '?' {
				if atExplicitKey {
					flush()
				}
				detected, atExplicitKey, allowCompact = true, true, true
			} else if atExplicitKey {
				atExplicitKey, allowCompact = false, true
			} else {
				s.fail("incomplete explicit mapping pair; a key node is missed; or followed by a non-tabulated empty line")
			}
			s.pos++
		} else if s.compose(flowIndent, jslFlowOut, false, true) {
			if s.line != line {
				if detected {
					s.fail("can not read a block mapping entry; a multiline key may not be an implicit key")
				}
				s.tag, s.anchor, s.hasTag, s.hasAnchor = tag, anchor, hasTag, hasAnchor
				return true // keep the result of compose
			}
			c = s.ch(s.pos)
			for jslWhite(c) {
				s.pos++
				c = s.ch(s.pos)
			}
			if c != ':' {
				if detected {
					s.fail("can not read an implicit mapping pair; a colon is missed")
				}
				s.tag, s.anchor, s.hasTag, s.hasAnchor = tag, anchor, hasTag, hasAnchor
				return true
			}
			s.pos++
			if !jslWSOrEOL(s.ch(s.pos)) {
				s.fail("a whitespace character is expected after the key-value separator within a block mapping")
			}
			if atExplicitKey {
				flush()
			}
			detected, atExplicitKey, allowCompact = true, false, false
			key = s.value()
			// An empty value is reported where it would be, after the ':'.
			valLine, valCol = s.line, s.pos-s.lineStart
		} else {
			break
		}
		if s.line == line || s.indent > nodeIndent {
			if s.compose(nodeIndent, jslBlockOut, true, allowCompact) {
				if atExplicitKey {
					key = s.value()
					// An explicit key's keyTag stays null: never a merge.
					s.noMerge[key] = true
				} else {
					val = s.value()
				}
			}
			if !atExplicitKey {
				if key == nil {
					key = s.null()
				}
				if val == nil {
					val = s.node(yaml.ScalarNode, valLine, valCol)
					val.Tag = "!!null"
				}
				storePair(m, key, val)
				key, val = nil, nil
			}
			s.skipSpace(true)
			c = s.ch(s.pos)
		}
		if (s.indent > nodeIndent || s.major >= 4 && s.line == line) && c != 0 {
			s.fail("bad indentation of a mapping entry")
		} else if s.indent < nodeIndent {
			break
		}
	}
	if atExplicitKey {
		flush()
	}
	if detected {
		s.tag, s.anchor, s.hasTag, s.hasAnchor = tag, anchor, hasTag, hasAnchor
		s.kind, s.result = "mapping", m
	}
	return detected
}

func (s *jslState) readTagProperty() bool {
	c := s.ch(s.pos)
	if c != '!' {
		return false
	}
	if s.hasTag {
		s.fail("duplication of a tag property")
	}
	s.pos++
	c = s.ch(s.pos)
	verbatim, named, handle := false, false, "!"
	switch c {
	case '<':
		verbatim = true
		s.pos++
		c = s.ch(s.pos)
	case '!':
		named, handle = true, "!!"
		s.pos++
		c = s.ch(s.pos)
	}
	start := s.pos
	var name string
	if verbatim {
		for {
			s.pos++
			c = s.ch(s.pos)
			if c == 0 || c == '>' {
				break
			}
		}
		if s.pos >= s.length {
			s.fail("unexpected end of the stream within a verbatim tag")
		}
		name = s.str(start, s.pos)
		s.pos++
	} else {
		for c != 0 && !jslWSOrEOL(c) {
			if c == '!' {
				if named {
					s.fail("tag suffix cannot contain exclamation marks")
				}
				handle = s.str(start-1, s.pos+1)
				if !jslTagHandle().MatchString(handle) {
					s.fail("named tag handle cannot contain such characters")
				}
				named = true
				start = s.pos + 1
			}
			s.pos++
			c = s.ch(s.pos)
		}
		name = s.str(start, s.pos)
		if strings.ContainsAny(name, ",[]{}") {
			s.fail("tag suffix cannot contain flow indicator characters")
		}
	}
	if name != "" && !jslTagURI().MatchString(name) {
		s.fail("tag name cannot contain such characters: " + name)
	}
	if s.major >= 4 {
		var ok bool
		if name, ok = decodeURIComponent(name); !ok {
			s.fail("tag name is malformed: " + name)
		}
	}
	switch prefix, ok := s.tagMap[handle]; {
	case verbatim:
		s.tag = name
	case ok:
		s.tag = prefix + name
	case handle == "!":
		s.tag = "!" + name
	case handle == "!!":
		s.tag = "tag:yaml.org,2002:" + name
	default:
		s.fail(`undeclared tag handle "` + handle + `"`)
	}
	s.hasTag = true
	return true
}

func (s *jslState) readAnchorProperty() bool {
	if s.ch(s.pos) != '&' {
		return false
	}
	if s.hasAnchor {
		s.fail("duplication of an anchor property")
	}
	s.pos++
	start := s.pos
	for c := s.ch(s.pos); c != 0 && !jslWSOrEOL(c) && !jslFlowIndicator(c); c = s.ch(s.pos) {
		s.pos++
	}
	if s.pos == start {
		s.fail("name of an anchor node must contain at least one character")
	}
	s.anchor, s.hasAnchor = s.str(start, s.pos), true
	return true
}

func (s *jslState) readAlias() bool {
	if s.ch(s.pos) != '*' {
		return false
	}
	line, col := s.line, s.pos-s.lineStart
	s.pos++
	start := s.pos
	for c := s.ch(s.pos); c != 0 && !jslWSOrEOL(c) && !jslFlowIndicator(c); c = s.ch(s.pos) {
		s.pos++
	}
	if s.pos == start {
		s.fail("name of an alias node must contain at least one character")
	}
	name := s.str(start, s.pos)
	target, ok := s.anchors[name]
	if s.major < 4 {
		// js-yaml 3's anchorMap is a plain object: an anchor named
		// hasOwnProperty shadows the method it calls here, and one named
		// __proto__ is never its own property.
		if _, shadowed := s.anchors["hasOwnProperty"]; shadowed {
			s.fail("state.anchorMap.hasOwnProperty is not a function")
		}
		ok = ok && name != "__proto__"
	}
	if !ok {
		s.fail(`unidentified alias "` + name + `"`)
	}
	a := s.node(yaml.AliasNode, line, col)
	a.Value, a.Alias = name, target
	s.result = a
	s.skipSpace(true)
	return true
}

// indentStatus compares the current line's indent with the parent's.
func (s *jslState) indentStatus(parent int) int {
	switch {
	case s.indent > parent:
		return 1
	case s.indent == parent:
		return 0
	}
	return -1
}

// compose is composeNode. An explicit tag is kept on the node for
// jsyaml.go to resolve; only the load errors that depend on the node's
// kind are raised here.
func (s *jslState) compose(parentIndent, ctx int, allowToSeek, allowCompact bool) bool {
	s.depth++
	defer func() { s.depth-- }()
	if s.depth > 1000 {
		// Node's stack overflows somewhere near here: whether the load
		// throws is not known.
		panic(&jslError{msg: "nesting too deep", line: s.line + 1, col: s.pos - s.lineStart + 1, unmodelled: true})
	}
	s.tag, s.anchor, s.hasTag, s.hasAnchor = "", "", false, false
	s.kind, s.result = "", nil
	status, atNewLine, hasContent := 1, false, false
	blockStyles := ctx == jslBlockOut || ctx == jslBlockIn
	blockScalars, blockCollections := blockStyles, blockStyles
	if allowToSeek && s.skipSpace(true) != 0 {
		atNewLine = true
		status = s.indentStatus(parentIndent)
	}
	if status == 1 {
		for s.readTagProperty() || s.readAnchorProperty() {
			if s.skipSpace(true) != 0 {
				atNewLine = true
				blockCollections = blockStyles
				status = s.indentStatus(parentIndent)
			} else {
				blockCollections = false
			}
		}
	}
	if blockCollections {
		blockCollections = atNewLine || allowCompact
	}
	if status == 1 || ctx == jslBlockOut {
		flowIndent := parentIndent + 1
		if ctx == jslFlowIn || ctx == jslFlowOut {
			flowIndent = parentIndent
		}
		blockIndent := s.pos - s.lineStart
		switch status {
		case 1:
			if blockCollections && (s.readBlockSequence(blockIndent) || s.readBlockMapping(blockIndent, flowIndent)) ||
				s.readFlowCollection(flowIndent) {
				hasContent = true
			} else {
				if blockScalars && s.readBlockScalar(flowIndent) || s.readSingleQuoted() || s.readDoubleQuoted() {
					hasContent = true
				} else if s.readAlias() {
					hasContent = true
					if s.hasTag || s.hasAnchor {
						s.fail("alias node should not have any properties")
					}
				} else if s.readPlainScalar(flowIndent, ctx == jslFlowIn) {
					hasContent = true
				}
				if s.hasAnchor {
					if s.result == nil {
						s.result = s.null()
					}
					s.anchors[s.anchor] = s.result
				}
			}
		case 0:
			// Block sequences may share their parent's indentation.
			hasContent = blockCollections && s.readBlockSequence(blockIndent)
		}
	}
	if !s.hasTag && s.hasAnchor && s.major >= 4 {
		// js-yaml 4 points the anchor at the node read, also where a block
		// mapping gave way to a scalar key (js-yaml 3 keeps the empty
		// mapping it registered first).
		if s.result == nil {
			s.result = s.null()
		}
		s.anchors[s.anchor] = s.result
	}
	if s.hasTag && s.tag != "!" {
		if s.result == nil {
			s.result = s.null()
			s.result.Tag = ""
		}
		if s.tag == "?" {
			// !<?>: implicit resolution, for scalars only.
			if s.kind != "" && s.kind != "scalar" {
				s.fail(`unacceptable node kind for !<?> tag; it should be "scalar", not "` + s.kind + `"`)
			}
			s.result.Style &^= yaml.SingleQuotedStyle | yaml.DoubleQuotedStyle | yaml.LiteralStyle | yaml.FoldedStyle
		} else {
			if jslKindOf(s.tag) != "" && s.kind != "" && jslKindOf(s.tag) != s.kind {
				// js-yaml 3 looks the tag up by the node's kind.
				s.fail("unknown tag !<" + s.tag + ">")
			}
			s.result.Tag = strings.Replace(s.tag, "tag:yaml.org,2002:", "!!", 1)
			s.result.Style |= yaml.TaggedStyle
			if s.hasAnchor {
				s.anchors[s.anchor] = s.result
			}
		}
	} else if s.hasTag && s.result != nil && s.kind == "scalar" {
		// The non-specific tag '!' leaves a plain scalar a string.
		s.result.Tag, s.result.Style = "!!str", s.result.Style|yaml.DoubleQuotedStyle
	}
	if s.result != nil && s.hasAnchor {
		s.result.Anchor = s.anchor
	}
	return s.hasTag || s.hasAnchor || hasContent
}

// jslKindOf is the kind of a core tag's type in js-yaml 3's safe schema.
func jslKindOf(tag string) string {
	switch strings.TrimPrefix(tag, "tag:yaml.org,2002:") {
	case "str", "null", "bool", "int", "float", "timestamp", "merge", "binary":
		return "scalar"
	case "seq", "omap", "pairs":
		return "sequence"
	case "map", "set":
		return "mapping"
	}
	return ""
}

func (s *jslState) readDocument() {
	s.version = false
	s.tagMap = map[string]string{}
	s.anchors = map[string]*yaml.Node{}
	hasDirectives := false
	for c := s.ch(s.pos); c != 0; c = s.ch(s.pos) {
		s.skipSpace(true)
		c = s.ch(s.pos)
		if s.indent > 0 || c != '%' {
			break
		}
		hasDirectives = true
		s.pos++
		c = s.ch(s.pos)
		p := s.pos
		for c != 0 && !jslWSOrEOL(c) {
			s.pos++
			c = s.ch(s.pos)
		}
		name := s.str(p, s.pos)
		var args []string
		if name == "" {
			s.fail("directive name must not be less than one character in length")
		}
		for c != 0 {
			for jslWhite(c) {
				s.pos++
				c = s.ch(s.pos)
			}
			if c == '#' {
				for c != 0 && !jslEOL(c) {
					s.pos++
					c = s.ch(s.pos)
				}
				break
			}
			if jslEOL(c) {
				break
			}
			p = s.pos
			for c != 0 && !jslWSOrEOL(c) {
				s.pos++
				c = s.ch(s.pos)
			}
			args = append(args, s.str(p, s.pos))
		}
		if c != 0 {
			s.readLineBreak()
		}
		s.directive(name, args)
	}
	s.skipSpace(true)
	if s.indent == 0 && s.ch(s.pos) == '-' && s.ch(s.pos+1) == '-' && s.ch(s.pos+2) == '-' {
		s.pos += 3
		s.skipSpace(true)
	} else if hasDirectives {
		s.fail("directives end mark is expected")
	}
	s.compose(s.indent-1, jslBlockOut, false, true)
	s.skipSpace(true)
	s.docs = append(s.docs, s.result) // nil: the document is null
	if s.pos == s.lineStart && s.documentSeparator() {
		if s.ch(s.pos) == '.' {
			s.pos += 3
			s.skipSpace(true)
		}
		return
	}
	if s.pos < s.length-1 {
		s.fail("end of the stream or a document separator is expected")
	}
}

func (s *jslState) directive(name string, args []string) {
	switch name {
	case "YAML":
		if s.version {
			s.fail("duplication of %YAML directive")
		}
		if len(args) != 1 {
			s.fail("YAML directive accepts exactly one argument")
		}
		m := jslVersion().FindStringSubmatch(args[0])
		if m == nil {
			s.fail("ill-formed argument of the YAML directive")
		}
		if major, _ := strconv.Atoi(m[1]); major != 1 {
			s.fail("unacceptable YAML version of the document")
		}
		s.version = true
	case "TAG":
		if len(args) != 2 {
			s.fail("TAG directive accepts exactly two arguments")
		}
		if !jslTagHandle().MatchString(args[0]) {
			s.fail("ill-formed tag handle (first argument) of the TAG directive")
		}
		if _, dup := s.tagMap[args[0]]; dup {
			s.fail(`there is a previously declared suffix for "` + args[0] + `" tag handle`)
		}
		if !jslTagURI().MatchString(args[1]) {
			s.fail("ill-formed tag prefix (second argument) of the TAG directive")
		}
		prefix := args[1]
		if s.major >= 4 {
			var ok bool
			if prefix, ok = decodeURIComponent(prefix); !ok {
				s.fail("tag prefix is malformed: " + args[1])
			}
		}
		s.tagMap[args[0]] = prefix
	}
}

// decodeURIComponent is JavaScript's: %XX escapes decoded, false where an
// escape is malformed or the bytes are not UTF-8.
func decodeURIComponent(v string) (string, bool) {
	if !strings.Contains(v, "%") {
		return v, true
	}
	d, err := url.PathUnescape(v)
	if err != nil || !utf8.ValidString(d) {
		return v, false
	}
	return d, true
}
