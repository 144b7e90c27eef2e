package pathsfilter

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"gopkg.in/yaml.v3"
)

// Pos is a 1-based position in a file; zero means unknown.
type Pos struct {
	File      string
	Line, Col int
}

func (p Pos) String() string { return fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Col) }

// Error is bad filter input, positioned in the file the user edits. Its
// message reads `<file>:<line>:<col>: <problem>` so the CLI only prefixes
// `cicheck: `.
type Error struct {
	Pos Pos
	Msg string
}

func (e *Error) Error() string { return e.Pos.String() + ": " + e.Msg }

// Origin says where a filters text sits, so positions inside it can be
// reported in the workflow file (inline `filters: |`) or in the filter file.
type Origin struct {
	File string
	// Line and Col locate the first character of the text; zero for a
	// whole file.
	Line, Col int
	// Block: the text is a YAML block scalar whose content starts on the
	// line after Line, indented by Indent columns.
	Block  bool
	Indent int
}

// at maps a 1-based position inside the text to the file.
func (o Origin) at(line, col int) Pos {
	switch {
	case o.Block:
		return Pos{o.File, o.Line + line, o.Indent + col}
	case o.Line == 0:
		return Pos{o.File, line, col}
	case line == 1:
		return Pos{o.File, o.Line, o.Col + col - 1}
	default:
		return Pos{o.File, o.Line + line - 1, col}
	}
}

// Pattern is one picomatch pattern as written.
type Pattern struct {
	Text string
	Pos  Pos
	// Negated: an odd number of leading `!` not followed by `(`: the
	// pattern matches paths that do NOT match the rest (spec §3).
	Negated bool
	// Err is set when the pattern cannot be simulated (an unsupported
	// glob construct); matching it is unknown.
	Err error
	// glob is the compiled matcher, shared by copies of the Pattern and
	// compiled on first use (see setGlob).
	glob *lazyGlob
	// suffixes are the endings the pattern forces (filter_index.go).
	suffixes []string
}

// Rule is one predicate of a filter: an optional status condition and a
// picomatch matcher. A list under a status key is ONE rule matching when
// any of its patterns matches (spec §2).
type Rule struct {
	// Status is nil when the rule has no status condition. Words are
	// trimmed and lower-cased but not validated, as the action does.
	Status    []string
	StatusPos Pos
	Patterns  []Pattern
	// List: the patterns came from a list under a status key.
	List bool
}

// Filter is one top-level key of the filters YAML.
type Filter struct {
	Name  string
	Pos   Pos
	Rules []Rule

	index *ruleIndex // built on first use; see filter_index.go
}

// Filters is the parsed `filters` input of one step, in the action's key
// order (integer-like names first, then YAML order).
type Filters struct {
	List []*Filter
}

// Lookup returns the filter called name, or nil.
func (fs *Filters) Lookup(name string) *Filter {
	for _, f := range fs.List {
		if f.Name == name {
			return f
		}
	}
	return nil
}

// IsFilterPath reports whether a `filters` input value names a file rather
// than holding YAML: a value with no newline and no `:` (spec §2).
func IsFilterPath(v string) bool { return !strings.ContainsAny(v, "\n:") }

const invalidFormat = "Invalid filter YAML format: "

// ParseFilters parses a `filters` input (inline YAML or a filter file's
// content) the way dorny/paths-filter's js-yaml load does: anchors, aliases
// and merge keys resolved, lists flattened at any depth, status keys split
// on `|`. Errors carry the position in o.File.
func ParseFilters(src []byte, o Origin) (*Filters, error) {
	out := &Filters{}
	if len(src) == 0 {
		return out, nil
	}
	var doc yaml.Node
	dec := yaml.NewDecoder(bytes.NewReader(src))
	if err := dec.Decode(&doc); err != nil {
		line, msg := yamlErrLine(err)
		if msg == "EOF" {
			// Only comments or blanks: js-yaml returns undefined.
			return nil, &Error{o.at(1, 1), invalidFormat + "Root element is not an object."}
		}
		return nil, &Error{o.at(line, 1), "invalid filter YAML: " + msg}
	}
	if len(doc.Content) == 0 {
		return nil, &Error{o.at(1, 1), invalidFormat + "Root element is not an object."}
	}
	p := &parser{o: o}
	root := deref(doc.Content[0])
	var named []*Filter
	switch root.Kind {
	case yaml.MappingNode:
		pairs, err := p.pairs(root)
		if err != nil {
			return nil, err
		}
		for _, kv := range pairs {
			f := &Filter{Name: kv[0].Value, Pos: p.pos(kv[0])}
			rules, err := p.value(kv[1], 0)
			if err != nil {
				return nil, err
			}
			f.Rules = rules
			f.index = buildIndex(f)
			named = append(named, f)
		}
	case yaml.SequenceNode:
		// A root sequence yields filters named "0", "1", ... (spec §2 quirk).
		for i, n := range root.Content {
			f := &Filter{Name: strconv.Itoa(i), Pos: p.pos(n)}
			rules, err := p.value(n, 0)
			if err != nil {
				return nil, err
			}
			f.Rules = rules
			f.index = buildIndex(f)
			named = append(named, f)
		}
	default:
		if root.ShortTag() == "!!null" {
			return nil, &Error{p.pos(root), "TypeError: Cannot convert undefined or null to object (the step crashes)"}
		}
		return nil, &Error{p.pos(root), invalidFormat + "Root element is not an object."}
	}
	out.List = jsKeyOrder(named)
	return out, nil
}

// jsKeyOrder reorders filters as a JavaScript object enumerates its keys:
// array-index-like names ascending first, then the rest in insertion order.
func jsKeyOrder(fs []*Filter) []*Filter {
	var ints, rest []*Filter
	for _, f := range fs {
		if isArrayIndex(f.Name) {
			ints = append(ints, f)
		} else {
			rest = append(rest, f)
		}
	}
	// Stable insertion sort: lists are short.
	for i := 1; i < len(ints); i++ {
		for j := i; j > 0; j-- {
			a, _ := strconv.ParseUint(ints[j-1].Name, 10, 64)
			b, _ := strconv.ParseUint(ints[j].Name, 10, 64)
			if a <= b {
				break
			}
			ints[j-1], ints[j] = ints[j], ints[j-1]
		}
	}
	return append(ints, rest...)
}

func isArrayIndex(s string) bool {
	if s == "0" {
		return true
	}
	if s == "" || s[0] == '0' || len(s) > 10 {
		return false
	}
	n, err := strconv.ParseUint(s, 10, 64)
	return err == nil && n < 1<<32-1
}

type parser struct{ o Origin }

func (p *parser) pos(n *yaml.Node) Pos { return p.o.at(n.Line, n.Column) }

func deref(n *yaml.Node) *yaml.Node {
	for i := 0; n.Kind == yaml.AliasNode && n.Alias != nil && i < 100; i++ {
		n = n.Alias
	}
	return n
}

// pairs returns a mapping's key/value pairs with merge keys (`<<`) applied
// and duplicates rejected, as js-yaml does.
func (p *parser) pairs(m *yaml.Node) ([][2]*yaml.Node, error) {
	var out [][2]*yaml.Node
	seen := map[string]bool{}
	var merged [][2]*yaml.Node
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := deref(m.Content[i]), m.Content[i+1]
		if k.Kind != yaml.ScalarNode {
			return nil, &Error{p.pos(m.Content[i]), "invalid filter YAML: a mapping key must be a scalar"}
		}
		if k.ShortTag() == "!!merge" {
			src := deref(v)
			var maps []*yaml.Node
			switch src.Kind {
			case yaml.MappingNode:
				maps = []*yaml.Node{src}
			case yaml.SequenceNode:
				for _, s := range src.Content {
					maps = append(maps, deref(s))
				}
			}
			for _, mm := range maps {
				if mm.Kind != yaml.MappingNode {
					return nil, &Error{p.pos(v), "invalid filter YAML: cannot merge mappings; the provided source object is unacceptable"}
				}
				sub, err := p.pairs(mm)
				if err != nil {
					return nil, err
				}
				merged = append(merged, sub...)
			}
			continue
		}
		if seen[k.Value] {
			return nil, &Error{p.pos(m.Content[i]), fmt.Sprintf("invalid filter YAML: duplicated mapping key %q", k.Value)}
		}
		seen[k.Value] = true
		out = append(out, [2]*yaml.Node{k, v})
	}
	// Merged keys never override explicit ones.
	for _, kv := range merged {
		if !seen[kv[0].Value] {
			seen[kv[0].Value] = true
			out = append(out, kv)
		}
	}
	return out, nil
}

func jsType(n *yaml.Node) string {
	n = deref(n)
	switch n.Kind {
	case yaml.ScalarNode:
		switch n.ShortTag() {
		case "!!int", "!!float":
			return "number"
		case "!!bool":
			return "boolean"
		case "!!null":
			return "object"
		}
		return "string"
	}
	return "object"
}

func jsString(n *yaml.Node) string {
	n = deref(n)
	switch n.Kind {
	case yaml.ScalarNode:
		if n.ShortTag() == "!!null" {
			return "null"
		}
		return n.Value
	case yaml.SequenceNode:
		parts := make([]string, len(n.Content))
		for i, c := range n.Content {
			parts[i] = jsString(c)
		}
		return strings.Join(parts, ",")
	}
	return "[object Object]"
}

// value parses one filter item (spec §2 table).
func (p *parser) value(n *yaml.Node, depth int) ([]Rule, error) {
	if depth > 64 {
		return nil, &Error{p.pos(n), "invalid filter YAML: nesting too deep"}
	}
	at := n
	n = deref(n)
	switch n.Kind {
	case yaml.SequenceNode:
		var rules []Rule
		for _, c := range n.Content {
			r, err := p.value(c, depth+1)
			if err != nil {
				return nil, err
			}
			rules = append(rules, r...)
		}
		return rules, nil
	case yaml.MappingNode:
		pairs, err := p.pairs(n)
		if err != nil {
			return nil, err
		}
		var rules []Rule
		for _, kv := range pairs {
			k, v := kv[0], deref(kv[1])
			r := Rule{Status: []string{}, StatusPos: p.pos(k)}
			for _, s := range strings.Split(k.Value, "|") {
				if s = strings.ToLower(strings.TrimSpace(s)); s != "" {
					r.Status = append(r.Status, s)
				}
			}
			bad := func() error {
				return &Error{p.pos(kv[1]), fmt.Sprintf("%sExpected [key:string]= pattern:string | string[], but [%s:string]= %s:%s found.",
					invalidFormat, k.Value, jsString(v), jsType(v))}
			}
			switch {
			case v.Kind == yaml.ScalarNode && jsType(v) == "string":
				pt, err := p.pattern(kv[1])
				if err != nil {
					return nil, err
				}
				r.Patterns = []Pattern{pt}
			case v.Kind == yaml.SequenceNode:
				// filter.ts hands the list to picomatch, which recurses into
				// nested arrays (`if (Array.isArray(glob)) … glob.map(…)`): an
				// anchored list reused inside a status list is flattened.
				r.List = true
				var walk func(seq *yaml.Node) error
				walk = func(seq *yaml.Node) error {
					for _, c := range seq.Content {
						cc := deref(c)
						if cc.Kind == yaml.SequenceNode {
							if err := walk(cc); err != nil {
								return err
							}
							continue
						}
						if cc.Kind != yaml.ScalarNode || jsType(cc) != "string" {
							return &Error{p.pos(c), "TypeError: Expected pattern to be a non-empty string (the step crashes)"}
						}
						pt, err := p.pattern(c)
						if err != nil {
							return err
						}
						r.Patterns = append(r.Patterns, pt)
					}
					return nil
				}
				if err := walk(v); err != nil {
					return nil, err
				}
			default:
				return nil, bad()
			}
			rules = append(rules, r)
		}
		return rules, nil
	}
	switch jsType(n) {
	case "string":
		pt, err := p.pattern(at)
		if err != nil {
			return nil, err
		}
		return []Rule{{Patterns: []Pattern{pt}}}, nil
	case "object": // null
		return nil, &Error{p.pos(at), "TypeError: Cannot convert undefined or null to object (the step crashes)"}
	default:
		return nil, &Error{p.pos(at), fmt.Sprintf("%sUnexpected element type '%s'.", invalidFormat, jsType(n))}
	}
}

func (p *parser) pattern(at *yaml.Node) (Pattern, error) {
	n := deref(at)
	pos := p.pos(at)
	if at.Style&(yaml.SingleQuotedStyle|yaml.DoubleQuotedStyle) != 0 {
		pos.Col++ // point at the pattern text, not the quote
	}
	if n.Value == "" {
		return Pattern{}, &Error{pos, "TypeError: Expected pattern to be a non-empty string (the step crashes)"}
	}
	pt := Pattern{Text: n.Value, Pos: pos, Negated: IsNegated(n.Value)}
	pt.setGlob()
	pt.suffixes = literalSuffixes(n.Value)
	return pt, nil
}

// lazyGlob compiles a pattern on first use. Compiling every pattern of a
// filter up front (the picomatch port builds and parses a JavaScript
// regex) is most of what parsing filters costs, and lint reads only a few
// patterns' matchers.
type lazyGlob struct {
	once sync.Once
	text string
	m    *Picomatch
}

func (g *lazyGlob) get() *Picomatch {
	g.once.Do(func() { g.m, _ = compileGlob(g.text) })
	return g.m
}

// setGlob prepares the matcher and sets Err exactly as compiling would:
// a pattern made only of characters whose picomatch translation the port
// always supports (surelySupported) is compiled on first match; any other
// is compiled now, so that its error, if any, is known.
func (pt *Pattern) setGlob() {
	g := &lazyGlob{text: pt.Text}
	pt.glob = g
	if !surelySupported(pt.Text) {
		var m *Picomatch
		m, pt.Err = compileGlob(pt.Text)
		g.once.Do(func() { g.m = m })
	}
}

// matcher returns the compiled pattern; nil (never matches) only when
// compiling failed, which Err reports.
func (pt *Pattern) matcher() *Picomatch {
	if pt.glob == nil {
		return nil
	}
	return pt.glob.get()
}

// surelySupported reports a pattern that CompilePicomatch cannot reject:
// non-empty, within the length limit, made of letters, digits and
// `/ . _ - * ? ! { } , + @ ~` and space, with at most maxSureBraces `{`.
// Without `(`, `[`, `\` and non-ASCII text none of the port's unsupported
// regex constructs can be produced, and the brace bound keeps group
// nesting far below the regex parser's depth limit (TestSurelySupported
// and FuzzSurelySupported check this against the compiler).
func surelySupported(p string) bool {
	if p == "" || len(p) > maxPatternLen {
		return false
	}
	braces := 0
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
		case c == '{':
			if braces++; braces > maxSureBraces {
				return false
			}
		case strings.IndexByte("/._-*?!},+@~ ", c) >= 0:
		default:
			return false
		}
	}
	return true
}

// maxSureBraces bounds the braces of a surelySupported pattern: each may
// open a regex group, and the regex parser gives up at 500 nested groups.
const maxSureBraces = 64

// IsNegated reports picomatch's whole-pattern negation: an odd number of
// leading `!` that do not start an extglob `!(`.
func IsNegated(p string) bool {
	p = strings.TrimPrefix(p, "./")
	n := 0
	for n < len(p) && p[n] == '!' {
		if n+1 < len(p) && p[n+1] == '(' {
			break
		}
		n++
	}
	return n%2 == 1
}

func yamlErrLine(err error) (int, string) {
	msg := err.Error()
	if msg == "EOF" {
		return 1, msg
	}
	msg = strings.TrimPrefix(msg, "yaml: ")
	var line int
	if _, e := fmt.Sscanf(msg, "line %d:", &line); e == nil {
		if i := strings.Index(msg, ": "); i >= 0 {
			msg = msg[i+2:]
		}
		return line, msg
	}
	return 1, msg
}
