package pathsfilter

import "bytes"

// quoteFlowQuestions rewrites the plain scalars inside flow collections
// that contain '?' as single-quoted scalars. libyaml (yaml.v3) ends a plain
// scalar at '?' in flow context; js-yaml, like YAML 1.2, reads `[src/?.js]`
// as one string. ParseFilters uses the rewrite only on text yaml.v3
// rejected, and only when it is unambiguous: followed is false when a
// scalar might continue on the next line or the text has constructs this
// scanner does not follow (block scalars); changed is false when no flow
// plain scalar holds a '?', so yaml.v3's error stands.
func quoteFlowQuestions(src []byte) (out []byte, changed, followed bool) {
	var b bytes.Buffer
	depth := 0
	atStart := true // at the start of a block node: a '[', '{' or quote opens one
	isSpace := func(c byte) bool { return c == ' ' || c == '\t' }
	isFlowInd := func(c byte) bool { return c == ',' || c == '[' || c == ']' || c == '{' || c == '}' }
	i := 0
	for i < len(src) {
		c := src[i]
		prevSpace := i == 0 || isSpace(src[i-1]) || src[i-1] == '\n'
		switch {
		case c == '\n':
			b.WriteByte(c)
			i++
			if depth == 0 {
				atStart = true
			}
			continue
		case c == '#' && prevSpace:
			j := bytes.IndexByte(src[i:], '\n')
			if j < 0 {
				j = len(src) - i
			}
			b.Write(src[i : i+j])
			i += j
			continue
		case c == '\'' || c == '"':
			if depth == 0 && !atStart {
				break
			}
			j := skipQuoted(src, i)
			if j < 0 {
				return nil, false, false
			}
			b.Write(src[i:j])
			i = j
			atStart = false
			continue
		case depth == 0:
			switch {
			case isSpace(c):
			case atStart && (c == '[' || c == '{'):
				depth = 1
			case atStart && (c == '|' || c == '>'):
				return nil, false, false // a block scalar: not followed here
			case atStart && (c == '-' || c == '?') && (i+1 == len(src) || isSpace(src[i+1]) || src[i+1] == '\n'):
			case atStart && (c == '&' || c == '!' || c == '*'):
				j := i
				for j < len(src) && !isSpace(src[j]) && src[j] != '\n' {
					j++
				}
				b.Write(src[i:j])
				i = j
				continue
			case c == ':' && (i+1 == len(src) || isSpace(src[i+1]) || src[i+1] == '\n'):
				atStart = true
			default:
				atStart = false
			}
			b.WriteByte(c)
			i++
			continue
		}
		// Flow context.
		switch {
		case isSpace(c):
		case c == '[' || c == '{':
			depth++
		case c == ']' || c == '}':
			depth--
			if depth == 0 {
				atStart = false
			}
		case c == ',':
		case (c == '?' || c == ':') && (i+1 == len(src) || isSpace(src[i+1]) || src[i+1] == '\n' || isFlowInd(src[i+1])):
		case c == '&' || c == '!' || c == '*':
			j := i
			for j < len(src) && !isSpace(src[j]) && src[j] != '\n' && !isFlowInd(src[j]) {
				j++
			}
			b.Write(src[i:j])
			i = j
			continue
		default:
			j := i
			for j < len(src) {
				d := src[j]
				if d == '\n' || isFlowInd(d) || d == '#' && isSpace(src[j-1]) {
					break
				}
				if d == ':' && (j+1 == len(src) || isSpace(src[j+1]) || src[j+1] == '\n' || isFlowInd(src[j+1])) {
					break
				}
				j++
			}
			end := j
			for end > i && isSpace(src[end-1]) {
				end--
			}
			scalar := src[i:end]
			if j < len(src) && src[j] == '\n' && continues(src[j:]) {
				return nil, false, false // a multi-line plain scalar
			}
			if bytes.IndexByte(scalar, '?') >= 0 {
				b.WriteByte('\'')
				b.Write(bytes.ReplaceAll(scalar, []byte("'"), []byte("''")))
				b.WriteByte('\'')
				changed = true
			} else {
				b.Write(scalar)
			}
			b.Write(src[end:j])
			i = j
			continue
		}
		b.WriteByte(c)
		i++
	}
	if depth != 0 {
		return nil, false, false
	}
	return b.Bytes(), changed, true
}

// continues reports whether the text after a newline (rest starts with it)
// carries on a flow plain scalar: its next non-blank character is not a
// flow indicator, ':' or a comment.
func continues(rest []byte) bool {
	for _, c := range rest {
		switch c {
		case ' ', '\t', '\n', '\r':
			continue
		case ',', ']', '}', ':', '#':
			return false
		}
		return true
	}
	return false
}

// skipQuoted returns the index after the quoted scalar starting at i, or
// -1 when it is not closed.
func skipQuoted(src []byte, i int) int {
	q := src[i]
	for j := i + 1; j < len(src); j++ {
		switch {
		case q == '"' && src[j] == '\\':
			j++
		case src[j] == q:
			if q == '\'' && j+1 < len(src) && src[j+1] == '\'' {
				j++
				continue
			}
			return j + 1
		}
	}
	return -1
}
