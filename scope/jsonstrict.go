package scope

import (
	"errors"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// A small positional JSON parser for the access-policy file. encoding/json
// cannot report duplicate keys or where a value sits, and the reference
// (Python's json with strict hooks) rejects both duplicates and the
// non-standard NaN/Infinity constants with specific messages.

type jkind int

const (
	jNull jkind = iota
	jBool
	jInt
	jFloat
	jString
	jArray
	jObject
)

type jnode struct {
	kind jkind
	off  int      // byte offset of the value
	text string   // literal text of numbers and booleans
	str  string   // decoded string
	keys []string // object keys, in order
	vals []*jnode // array elements or object values
}

func (n *jnode) get(key string) *jnode {
	for i, k := range n.keys {
		if k == key {
			return n.vals[i]
		}
	}
	return nil
}

type jsonError struct {
	off     int
	msg     string
	readErr bool // a syntax error: "cannot read JSON from ..."
}

func (e *jsonError) Error() string { return e.msg }

func asJSONError(err error, target **jsonError) bool { return errors.As(err, target) }

type jparser struct {
	data  []byte
	pos   int
	depth int
}

func parseStrictJSON(data []byte) (*jnode, error) {
	if !utf8.Valid(data) {
		return nil, &jsonError{off: 0, msg: "invalid UTF-8", readErr: true}
	}
	p := &jparser{data: data}
	p.ws()
	n, err := p.value()
	if err != nil {
		return nil, err
	}
	p.ws()
	if p.pos != len(p.data) {
		return nil, p.syntax("extra data")
	}
	return n, nil
}

func (p *jparser) syntax(msg string) error { return &jsonError{off: p.pos, msg: msg, readErr: true} }

func (p *jparser) ws() {
	for p.pos < len(p.data) {
		switch p.data[p.pos] {
		case ' ', '\t', '\n', '\r':
			p.pos++
		default:
			return
		}
	}
}

func (p *jparser) lit(s string) bool {
	if len(p.data)-p.pos >= len(s) && string(p.data[p.pos:p.pos+len(s)]) == s {
		p.pos += len(s)
		return true
	}
	return false
}

func (p *jparser) value() (*jnode, error) {
	if p.pos >= len(p.data) {
		return nil, p.syntax("expecting value")
	}
	start := p.pos
	for _, c := range []string{"NaN", "Infinity", "-Infinity"} {
		if p.lit(c) {
			return nil, &jsonError{off: start, msg: "non-standard JSON number: " + c}
		}
	}
	switch c := p.data[p.pos]; {
	case c == '{':
		return p.object()
	case c == '[':
		return p.array()
	case c == '"':
		s, err := p.string()
		if err != nil {
			return nil, err
		}
		return &jnode{kind: jString, off: start, str: s}, nil
	case p.lit("true"):
		return &jnode{kind: jBool, off: start, text: "true"}, nil
	case p.lit("false"):
		return &jnode{kind: jBool, off: start, text: "false"}, nil
	case p.lit("null"):
		return &jnode{kind: jNull, off: start, text: "null"}, nil
	case c == '-' || c >= '0' && c <= '9':
		return p.number()
	}
	return nil, p.syntax("expecting value")
}

func (p *jparser) enter() error {
	p.depth++
	if p.depth > 500 {
		return p.syntax("nesting too deep")
	}
	return nil
}

func (p *jparser) object() (*jnode, error) {
	if err := p.enter(); err != nil {
		return nil, err
	}
	defer func() { p.depth-- }()
	n := &jnode{kind: jObject, off: p.pos}
	p.pos++
	p.ws()
	if p.lit("}") {
		return n, nil
	}
	for {
		p.ws()
		if p.pos >= len(p.data) || p.data[p.pos] != '"' {
			return nil, p.syntax("expecting property name enclosed in double quotes")
		}
		keyOff := p.pos
		k, err := p.string()
		if err != nil {
			return nil, err
		}
		for _, seen := range n.keys {
			if seen == k {
				return nil, &jsonError{off: keyOff, msg: "duplicate JSON key: " + k}
			}
		}
		p.ws()
		if !p.lit(":") {
			return nil, p.syntax("expecting ':' delimiter")
		}
		p.ws()
		v, err := p.value()
		if err != nil {
			return nil, err
		}
		n.keys = append(n.keys, k)
		n.vals = append(n.vals, v)
		p.ws()
		if p.lit("}") {
			return n, nil
		}
		if !p.lit(",") {
			return nil, p.syntax("expecting ',' delimiter")
		}
	}
}

func (p *jparser) array() (*jnode, error) {
	if err := p.enter(); err != nil {
		return nil, err
	}
	defer func() { p.depth-- }()
	n := &jnode{kind: jArray, off: p.pos}
	p.pos++
	p.ws()
	if p.lit("]") {
		return n, nil
	}
	for {
		p.ws()
		v, err := p.value()
		if err != nil {
			return nil, err
		}
		n.vals = append(n.vals, v)
		p.ws()
		if p.lit("]") {
			return n, nil
		}
		if !p.lit(",") {
			return nil, p.syntax("expecting ',' delimiter")
		}
	}
}

func (p *jparser) number() (*jnode, error) {
	start := p.pos
	digits := func() int {
		s := p.pos
		for p.pos < len(p.data) && p.data[p.pos] >= '0' && p.data[p.pos] <= '9' {
			p.pos++
		}
		return p.pos - s
	}
	p.lit("-")
	if p.lit("0") {
		// no leading zeros
	} else if digits() == 0 {
		return nil, p.syntax("expecting value")
	}
	kind := jInt
	if p.lit(".") {
		kind = jFloat
		if digits() == 0 {
			return nil, p.syntax("invalid number")
		}
	}
	if p.pos < len(p.data) && (p.data[p.pos] == 'e' || p.data[p.pos] == 'E') {
		kind = jFloat
		p.pos++
		if !p.lit("+") {
			p.lit("-")
		}
		if digits() == 0 {
			return nil, p.syntax("invalid number")
		}
	}
	return &jnode{kind: kind, off: start, text: string(p.data[start:p.pos])}, nil
}

func (p *jparser) string() (string, error) {
	p.pos++ // opening quote
	var out []rune
	for {
		if p.pos >= len(p.data) {
			return "", p.syntax("unterminated string")
		}
		r, size := utf8.DecodeRune(p.data[p.pos:])
		switch {
		case r == '"':
			p.pos++
			return string(out), nil
		case r < 0x20:
			return "", p.syntax("invalid control character in string")
		case r == '\\':
			if p.pos+1 >= len(p.data) {
				return "", p.syntax("unterminated string")
			}
			e := p.data[p.pos+1]
			p.pos += 2
			switch e {
			case '"', '\\', '/':
				out = append(out, rune(e))
			case 'b':
				out = append(out, '\b')
			case 'f':
				out = append(out, '\f')
			case 'n':
				out = append(out, '\n')
			case 'r':
				out = append(out, '\r')
			case 't':
				out = append(out, '\t')
			case 'u':
				r1, ok := p.hex4()
				if !ok {
					return "", p.syntax("invalid \\uXXXX escape")
				}
				if utf16.IsSurrogate(r1) && p.lit(`\u`) {
					r2, ok := p.hex4()
					if !ok {
						return "", p.syntax("invalid \\uXXXX escape")
					}
					if d := utf16.DecodeRune(r1, r2); d != utf8.RuneError {
						out = append(out, d)
						continue
					}
					out = append(out, r1, r2)
					continue
				}
				out = append(out, r1)
			default:
				p.pos--
				return "", p.syntax("invalid \\escape")
			}
		default:
			out = append(out, r)
			p.pos += size
		}
	}
}

func (p *jparser) hex4() (rune, bool) {
	if len(p.data)-p.pos < 4 {
		return 0, false
	}
	v, err := strconv.ParseUint(string(p.data[p.pos:p.pos+4]), 16, 32)
	if err != nil {
		return 0, false
	}
	p.pos += 4
	return rune(v), true
}
