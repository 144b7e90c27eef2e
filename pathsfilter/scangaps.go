package pathsfilter

import (
	"bytes"
	"strings"
)

// libyaml (yaml.v3) rejects some text that js-yaml loads. scanError maps
// each known gap to what the release's loader does: the text rewritten
// once into a form both read alike, the load failing, or, where cicheck
// cannot follow the text, unknown; any other yaml.v3 error fails the load.
//   - libyaml ends a plain scalar at '?' inside a flow collection
//     (`[src/?.js]`); js-yaml reads on (quoteFlowQuestions).
//
// Releases on js-yaml 3 (dorny v2) never get here: parseFilters loads the
// text libyaml refuses with the port of js-yaml 3's loader (jsyaml3load.go).
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

// questionInFlow reports a '?' after a '[' or '{' on some line.
func questionInFlow(src []byte) bool {
	for _, l := range bytes.Split(src, []byte("\n")) {
		if i := bytes.IndexAny(l, "[{"); i >= 0 && bytes.IndexByte(l[i:], '?') >= 0 {
			return true
		}
	}
	return false
}
