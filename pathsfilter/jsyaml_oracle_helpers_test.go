package pathsfilter

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"gopkg.in/yaml.v3"
)

// jsLoadJSON is what a js-yaml release's load gives for src, rendered as
// the oracle script renders node's answer (JSON.stringify of the value,
// or "ERR reason line:col" with js-yaml's 1-based mark): the load
// errors' reasons and positions, and the value built, merges and key
// order included. Dates, binaries and values nested past 32 levels are
// left out of the rows that use it.
func jsLoadJSON(src string, major int) string {
	root, noMerge, err := jsLoad([]byte(src), major)
	switch {
	case err != nil && err.unmodelled:
		return "UNKNOWN " + err.msg
	case err != nil:
		return fmt.Sprintf("ERR %s %d:%d", err.msg, err.line, err.col)
	case root == nil:
		return "undefined"
	}
	p := &parser{o: Origin{File: "f.yml", JSYAML: major}, noMerge: noMerge, built: map[*yaml.Node][]kv{}, building: map[*yaml.Node]*partialMapping{}}
	for _, step := range []func() error{func() error { return p.checkTags(root, 0) }, func() error { return p.construct(root) }} {
		var e *Error
		if err := step(); errors.As(err, &e) {
			return fmt.Sprintf("ERR %s %d:%d", strings.TrimPrefix(e.Msg, "invalid filter YAML: "), e.Pos.Line, e.Pos.Col)
		} else if err != nil {
			return "ERR " + err.Error()
		}
	}
	return p.jsJSON(root, 0)
}

func (p *parser) jsJSON(n *yaml.Node, depth int) string {
	if depth > 32 {
		return "…"
	}
	n = p.asPairs(deref(n))
	switch n.Kind {
	case yaml.SequenceNode:
		parts := make([]string, len(n.Content))
		for i, c := range n.Content {
			parts[i] = p.jsJSON(c, depth+1)
		}
		return "[" + strings.Join(parts, ",") + "]"
	case yaml.MappingNode:
		pairs, err := p.pairs(n)
		if err != nil {
			return "ERR " + err.Error()
		}
		parts := make([]string, len(pairs))
		for i, e := range pairs {
			parts[i] = jsonString(e.name) + ":" + p.jsJSON(e.v, depth+1)
		}
		return "{" + strings.Join(parts, ",") + "}"
	}
	sc := jsReadScalar(n, p.o.jsYAML())
	switch sc.kind {
	case jsStr:
		return jsonString(sc.str)
	case jsNull:
		return "null"
	case jsBool:
		return sc.str
	case jsNumber:
		if sc.str == "Infinity" || sc.str == "-Infinity" || sc.str == "NaN" {
			return "null" // JSON.stringify
		}
		return sc.str
	}
	return fmt.Sprintf("<%d %s>", sc.kind, sc.str)
}

// jsonString is JSON.stringify of a string (no HTML escaping).
func jsonString(s string) string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	out := strings.TrimSuffix(b.String(), "\n")
	return strings.NewReplacer(`\u2028`, "\u2028", `\u2029`, "\u2029").Replace(out)
}
