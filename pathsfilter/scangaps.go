package pathsfilter

import (
	"bytes"
	"regexp"
	"strings"
)

// libyaml (yaml.v3) rejects some text that js-yaml loads. scanError maps
// each known gap to what the release's loader does: the text rewritten
// once into a form both read alike, the load failing, or, where cicheck
// cannot follow the text, unknown; any other yaml.v3 error fails the load.
//   - libyaml ends a plain scalar at '?' inside a flow collection
//     (`[src/?.js]`); js-yaml reads on (quoteFlowQuestions).
//   - js-yaml 3 (dorny v2) skips a tab in indentation (jsYAML3Indentation).
//
// rewritten says src is already a rewrite, which is tried once.
func scanError(src []byte, o Origin, line int, msg string, rewritten bool) (*Filters, error) {
	if msg == "EOF" {
		// Only comments or blanks: js-yaml returns undefined.
		return nil, &Error{Pos: o.at(1, 1), Msg: invalidFormat + "Root element is not an object."}
	}
	at := o.at(line, 1)
	plain := &Error{Pos: at, Msg: "invalid filter YAML: " + msg}
	switch {
	case o.jsYAML() == 3 && tabError(msg):
		if !rewritten {
			switch fixed, fails, ok := jsYAML3Indentation(src); {
			case fails:
				return nil, &Error{Pos: at, Msg: "invalid filter YAML: end of the stream or a document separator is expected (js-yaml 3 ends a sequence indented by a tab after its first entry)"}
			case ok:
				return parseFilters(fixed, o, true)
			}
		}
		if bytes.ContainsRune(src, '\t') {
			return nil, &Error{Pos: at, Msg: "js-yaml 3 accepts tabs that cicheck's YAML parser refuses; whether the filters load is unknown", Unmodelled: true}
		}
	case strings.HasPrefix(msg, "did not find expected ','"):
		if !rewritten {
			fixed, changed, followed := quoteFlowQuestions(src)
			switch {
			case changed:
				return parseFilters(fixed, o, true)
			case followed:
				return nil, plain // no '?' in a flow plain scalar
			}
		}
		// libyaml gives no reliable line for flow errors: the whole text
		// is searched.
		if questionInFlow(src) {
			return nil, &Error{Pos: at, Msg: "cicheck's YAML parser stops at '?' inside a flow collection where js-yaml reads on; whether the filters load is unknown", Unmodelled: true}
		}
	}
	return nil, plain
}

// jsYAML3Indentation rewrites indentation as js-yaml 3 reads it: a line's
// indent (lineIndent) is the count of spaces before its first other
// character and a tab there is skipped as separation, but a block node
// that starts after the tab takes its column, where the tab counts as one
// character. js-yaml 4 and libyaml reject such tabs. The rewrite drops the
// tab run, which reads the same only when the next content line is either
// less indented, or indented at least to that column; a sequence entry
// followed by another at the same indent ends the sequence in js-yaml 3 and
// fails the load (fails is set). ok is false when the text is not followed:
// no tab in indentation, a block scalar, a compact mapping after a tab, or
// a next line between the two indents.
func jsYAML3Indentation(src []byte) (out []byte, fails, ok bool) {
	lines := bytes.Split(src, []byte("\n"))
	indent := func(l []byte) int {
		n := 0
		for n < len(l) && l[n] == ' ' {
			n++
		}
		return n
	}
	content := func(l []byte) []byte { return bytes.TrimLeft(l, " \t") }
	next := func(i int) []byte {
		for j := i + 1; j < len(lines); j++ {
			if c := content(lines[j]); len(c) > 0 && c[0] != '#' {
				return lines[j]
			}
		}
		return nil
	}
	changed := false
	out = bytes.Clone(src)
	rewritten := bytes.Split(out, []byte("\n"))
	for i, l := range lines {
		if blockScalarHead.Match(l) {
			return nil, false, false
		}
		sp := indent(l)
		if sp == len(l) || l[sp] != '\t' {
			continue
		}
		rest := content(l)
		col := len(l) - len(rest)
		if bytes.HasPrefix(rest, []byte("- ")) && (bytes.Contains(rest, []byte(": ")) || bytes.HasSuffix(rest, []byte(":"))) || bytes.HasPrefix(rest, []byte("? ")) {
			return nil, false, false // a compact mapping is indented by its own column
		}
		if m := next(i); m != nil {
			mi := indent(m)
			switch {
			case mi < sp, mi > col:
				// Above the tab line's own indent both read a new entry;
				// beyond its column both read a value inside it. At the
				// column itself js-yaml 3 reads a sibling, libyaml a child.
			case mi == sp && bytes.HasPrefix(rest, []byte("- ")) && bytes.HasPrefix(content(m), []byte("- ")):
				return nil, true, true
			case mi == sp && bytes.HasPrefix(rest, []byte("- ")):
				// The sequence ends; the parent mapping reads the next key.
			default:
				return nil, false, false
			}
		}
		rewritten[i] = append(l[:sp:sp], rest...)
		changed = true
	}
	if !changed {
		return nil, false, false
	}
	return bytes.Join(rewritten, []byte("\n")), false, true
}

var blockScalarHead = regexp.MustCompile(`(^|[\s:-])[|>][-+0-9]*\s*(#.*)?$`)

// tabError reports the libyaml errors a tab in indentation causes.
func tabError(msg string) bool {
	return strings.HasPrefix(msg, "found character that cannot start any token") ||
		strings.HasPrefix(msg, "found a tab character that violates indentation")
}

// questionInFlow reports a '?' after a '[' or '{' on some line.
func questionInFlow(src []byte) bool {
	for _, l := range bytes.Split(src, []byte("\n")) {
		if i := bytes.IndexAny(l, "[{"); i >= 0 && bytes.IndexByte(l[i:], '?') >= 0 {
			return true
		}
	}
	return false
}
