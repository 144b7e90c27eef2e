package pathsfilter

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
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
	// Unmodelled: the text is valid but uses a construct cicheck does not
	// reproduce; the step's outcome is unknown, not a failure.
	Unmodelled bool
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
	// JSYAML is the js-yaml major version the release loads filters with
	// (3 for dorny/paths-filter v2, 4 from v3); 0 means 4.
	JSYAML int
}

func (o Origin) jsYAML() int {
	if o.JSYAML == 3 {
		return 3
	}
	return 4
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
	if len(src) == 0 {
		return &Filters{}, nil
	}
	// The release's own js-yaml reads the text (jsyamlload.go); yaml.v3
	// differs from it in tabs, '?' in flow scalars, directives and errors.
	root, noMerge, jerr := jsLoad(src, o.jsYAML())
	if jerr != nil {
		e := &Error{Pos: o.at(jerr.line, jerr.col), Msg: "invalid filter YAML: " + jerr.msg}
		if jerr.unmodelled {
			e.Msg, e.Unmodelled = fmt.Sprintf("js-yaml %d %s: whether the filters load is unknown", o.jsYAML(), jerr.msg), true
		}
		return nil, e
	}
	if root == nil {
		// An empty stream: load returns undefined.
		return nil, &Error{Pos: o.at(1, 1), Msg: invalidFormat + "Root element is not an object."}
	}
	return filtersFromRoot(root, noMerge, o)
}

// filtersFromRoot reads the filters from the loaded document's root.
func filtersFromRoot(top *yaml.Node, noMerge map[*yaml.Node]bool, o Origin) (*Filters, error) {
	out := &Filters{}
	p := &parser{o: o, noMerge: noMerge, built: map[*yaml.Node][]kv{}, building: map[*yaml.Node]*partialMapping{}}
	if err := p.checkTags(top, 0); err != nil {
		return nil, err
	}
	if err := p.construct(top); err != nil {
		return nil, err
	}
	root := deref(top)
	var named []*Filter
	switch root.Kind {
	case yaml.MappingNode:
		pairs, err := p.pairs(root)
		if err != nil {
			return nil, err
		}
		for _, e := range pairs {
			f := &Filter{Name: e.name, Pos: p.pos(e.k)}
			rules, err := p.filterItem(e.v)
			if err != nil {
				return nil, err
			}
			if e.name == "__proto__" {
				// filter.ts's this.rules['__proto__'] = [...] sets the
				// object's prototype: the filter has no output.
				continue
			}
			f.Rules = rules
			f.index = buildIndex(f)
			named = append(named, f)
		}
	case yaml.SequenceNode:
		// A root sequence yields filters named "0", "1", ... (spec §2 quirk);
		// a !!pairs root is the array of its [key, value] pairs.
		root = p.asPairs(root)
		for i, n := range root.Content {
			f := &Filter{Name: strconv.Itoa(i), Pos: p.pos(n)}
			rules, err := p.filterItem(n)
			if err != nil {
				return nil, err
			}
			f.Rules = rules
			f.index = buildIndex(f)
			named = append(named, f)
		}
	default:
		switch jsReadScalar(root, o.jsYAML()).kind {
		case jsNull:
			return nil, &Error{Pos: p.pos(root), Msg: "TypeError: Cannot convert undefined or null to object (the step crashes)"}
		case jsDate:
			return out, nil // typeof Date is 'object' and it has no own keys
		case jsUnmodelled:
			return nil, p.unmodelled(root, "a tagged root value")
		}
		return nil, &Error{Pos: p.pos(root), Msg: invalidFormat + "Root element is not an object."}
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

type parser struct {
	o Origin
	// noMerge: "<<" keys js-yaml does not merge (jsLoad).
	noMerge map[*yaml.Node]bool
	// expanded counts the patterns the filters read so far expand to.
	expanded int
	// built: constructed mappings' entries; building: those under
	// construction (construct).
	built    map[*yaml.Node][]kv
	building map[*yaml.Node]*partialMapping
}

func (p *parser) pos(n *yaml.Node) Pos { return p.o.at(n.Line, n.Column) }

func deref(n *yaml.Node) *yaml.Node {
	for i := 0; n.Kind == yaml.AliasNode && n.Alias != nil && i < 100; i++ {
		n = n.Alias
	}
	return n
}

// construct builds the document as js-yaml's load does, in its order: a
// mapping's key, then its value, then storeMappingPair (merges, duplicate
// keys), so the errors load throws are raised everywhere, also where
// filter.ts never looks (a __proto__ value in js-yaml 3, a merged value an
// explicit key overrides, a collection used as a key), and a merge of a
// mapping still being built sees the keys it has so far. Collection tags
// are constructed, and checked, once a collection is read.
func (p *parser) construct(n *yaml.Node) error {
	if n.Kind == yaml.AliasNode {
		return nil // its anchor was built before, or is being built
	}
	if n.Kind == yaml.MappingNode {
		p.building[n] = &partialMapping{index: map[string]int{}, overridable: map[string]bool{}}
	}
	for i, c := range n.Content {
		if err := p.construct(c); err != nil {
			return err
		}
		if n.Kind == yaml.MappingNode && i%2 == 1 {
			if err := p.store(n, n.Content[i-1], c); err != nil {
				return err
			}
		}
	}
	if n.Kind == yaml.MappingNode {
		b := p.building[n]
		delete(p.building, n)
		p.built[n] = jsOrder(b.out)
	}
	if n.Kind != yaml.ScalarNode {
		return p.tagCheck(n, n)
	}
	return nil
}

// partialMapping is a mapping under construction: its entries in
// insertion order, where each key sits, and the keys a merge added (which
// an explicit key may override once).
type partialMapping struct {
	out         []kv
	index       map[string]int
	overridable map[string]bool
}

// entries is Object.keys order for a mapping built, or being built.
func (p *parser) entries(m *yaml.Node) []kv {
	if out, ok := p.built[m]; ok {
		return out
	}
	if b, ok := p.building[m]; ok {
		return jsOrder(slices.Clone(b.out))
	}
	return nil
}

// store is storeMappingPair for key kn and value v of mapping m: merge
// keys (`<<`) insert the source's keys unless already present, an
// explicit key may override a merged one, any other repeated key fails.
func (p *parser) store(m, kn, v *yaml.Node) error {
	b := p.building[m]
	k := deref(kn)
	// js-yaml merges on the key's tag: an alias key has none, nor has an
	// explicit key of a block mapping.
	tag, tagged := explicitTag(k)
	if kn.Kind != yaml.AliasNode && !p.noMerge[kn] && k.Kind == yaml.ScalarNode && (tagged && tag == "!!merge" || !tagged && k.Tag == "!!merge") {
		src := deref(v)
		var srcs []*yaml.Node
		switch src.Kind {
		case yaml.MappingNode:
			srcs = []*yaml.Node{src}
		case yaml.SequenceNode:
			for _, s := range src.Content {
				srcs = append(srcs, deref(s))
			}
		default:
			srcs = []*yaml.Node{src}
		}
		for _, sn := range srcs {
			var entries []kv
			switch sn.Kind {
			case yaml.MappingNode:
				entries = p.entries(sn)
			case yaml.SequenceNode:
				// An array is an object too: its indexes are its keys.
				for j, c := range sn.Content {
					entries = append(entries, kv{strconv.Itoa(j), c, c})
				}
			default:
				// A Date is an object with no own keys; a Buffer or
				// Uint8Array (!!binary) has one per byte.
				switch sc := jsReadScalar(sn, p.o.jsYAML()); {
				case sc.kind == jsDate, sc.kind == jsBinary && sc.str == "":
				case sc.kind == jsBinary:
					return p.unmodelled(v, "a merge of !!binary bytes")
				default:
					return &Error{Pos: p.pos(v), Msg: "invalid filter YAML: cannot merge mappings; the provided source object is unacceptable"}
				}
			}
			for _, e := range entries {
				if e.name == "__proto__" {
					// destination[key] = value sets the prototype (or does
					// nothing): never an own key.
					continue
				}
				if _, dup := b.index[e.name]; !dup {
					b.index[e.name] = len(b.out)
					b.overridable[e.name] = true
					b.out = append(b.out, e)
				}
			}
		}
		return nil
	}
	name, err := p.keyName(kn)
	if err != nil {
		return err
	}
	if name == "__proto__" && p.o.jsYAML() < 4 {
		// js-yaml 3 assigns _result['__proto__']: the prototype, not an
		// own key (js-yaml 4 defines the property).
		return nil
	}
	if j, dup := b.index[name]; dup {
		if !b.overridable[name] {
			return &Error{Pos: p.pos(kn), Msg: fmt.Sprintf("invalid filter YAML: duplicated mapping key %q", name)}
		}
		b.out[j].v = v // the merged key keeps its place, the value changes
		delete(b.overridable, name)
		return nil
	}
	b.index[name] = len(b.out)
	b.out = append(b.out, kv{name, kn, v})
	return nil
}

// jsOrder sorts entries as a JavaScript object enumerates its keys:
// array-index keys first, ascending, then the others in insertion order.
func jsOrder(out []kv) []kv {
	slices.SortStableFunc(out, func(a, b kv) int {
		ai, bi := isArrayIndex(a.name), isArrayIndex(b.name)
		switch {
		case ai && bi:
			x, _ := strconv.ParseUint(a.name, 10, 64)
			y, _ := strconv.ParseUint(b.name, 10, 64)
			return cmp.Compare(x, y)
		case ai:
			return -1
		case bi:
			return 1
		}
		return 0
	})
	return out
}

// kv is one entry of a loaded mapping: its key as JavaScript names it
// (String(key)) and the nodes.
type kv struct {
	name string
	k, v *yaml.Node
}

// keyName is String(key) for a mapping key as js-yaml loads it: numbers,
// booleans, nulls and dates converted, a sequence joined with commas, a
// mapping "[object Object]".
func (p *parser) keyName(n *yaml.Node) (string, error) {
	at := n
	n = deref(n)
	if err := p.tagCheck(at, n); err != nil {
		return "", err
	}
	switch n.Kind {
	case yaml.ScalarNode:
		sc := jsReadScalar(n, p.o.jsYAML())
		if sc.kind == jsUnmodelled || sc.kind == jsBinary {
			return "", p.unmodelled(at, "a mapping key with an explicit tag")
		}
		return sc.str, nil
	case yaml.SequenceNode:
		parts := make([]string, len(n.Content))
		for i, c := range n.Content {
			c = deref(c)
			if c.Kind != yaml.ScalarNode {
				return "", p.unmodelled(at, "a collection inside a mapping key")
			}
			sc := jsReadScalar(c, p.o.jsYAML())
			switch sc.kind {
			case jsUnmodelled, jsBadTag, jsBinary:
				return "", p.unmodelled(at, "a tagged value inside a mapping key")
			case jsNull:
				sc.str = "" // Array.prototype.join writes null as nothing
			}
			parts[i] = sc.str
		}
		return strings.Join(parts, ","), nil
	}
	return "[object Object]", nil
}

func (p *parser) unmodelled(n *yaml.Node, what string) error {
	return &Error{Pos: p.pos(n), Msg: "cicheck does not model " + what + " in filter YAML", Unmodelled: true}
}

// tagCheck fails as js-yaml's load does on a tag its schema does not know,
// and stops on collection tags cicheck does not construct (!!set, !!omap).
func (p *parser) tagCheck(at, n *yaml.Node) error {
	tag, ok := explicitTag(n)
	if !ok {
		return nil
	}
	if !jsKnownTags[tag] {
		return &Error{Pos: p.pos(at), Msg: "invalid filter YAML: unknown tag " + n.Tag}
	}
	switch {
	case n.Kind == yaml.ScalarNode:
		return nil // jsReadScalar decides
	case tag == "!!seq" && n.Kind == yaml.SequenceNode, tag == "!!map" && n.Kind == yaml.MappingNode:
		return nil
	case tag == "!!set" && n.Kind == yaml.MappingNode:
		// js-yaml constructs a set as the plain object; its values must
		// all be null.
		if p.allNull(n) {
			return nil
		}
	case tag == "!!omap" && n.Kind == yaml.SequenceNode:
		// An omap is the plain array when every entry is a one-key
		// mapping and no key repeats.
		if p.validOmap(n) {
			return nil
		}
	case tag == "!!pairs" && n.Kind == yaml.SequenceNode:
		if p.pairsAsSeq(n) != nil {
			return nil
		}
	}
	if tag == "!!set" || tag == "!!omap" || tag == "!!pairs" || tag == "!!seq" || tag == "!!map" {
		return &Error{Pos: p.pos(at), Msg: "invalid filter YAML: cannot resolve a node with !<tag:yaml.org,2002:" + strings.TrimPrefix(tag, "!!") + "> explicit tag"}
	}
	return p.unmodelled(at, "the tag "+tag)
}

// pairsAsSeq is constructYamlPairs: [{k: v}, ...] becomes [[k, v], ...],
// the key as its string. nil when an entry is not a one-key mapping.
func (p *parser) pairsAsSeq(seq *yaml.Node) *yaml.Node {
	out := &yaml.Node{Kind: yaml.SequenceNode, Line: seq.Line, Column: seq.Column}
	for _, c := range seq.Content {
		c = deref(c)
		if c.Kind != yaml.MappingNode || len(c.Content) != 2 {
			return nil
		}
		name, err := p.keyName(c.Content[0])
		if err != nil {
			return nil
		}
		k := &yaml.Node{Kind: yaml.ScalarNode, Style: yaml.SingleQuotedStyle, Tag: "!!str", Value: name, Line: c.Content[0].Line, Column: c.Content[0].Column}
		out.Content = append(out.Content, &yaml.Node{Kind: yaml.SequenceNode, Line: c.Line, Column: c.Column, Content: []*yaml.Node{k, c.Content[1]}})
	}
	return out
}

// asPairs returns the constructed form of a valid !!pairs node, else n.
func (p *parser) asPairs(n *yaml.Node) *yaml.Node {
	if tag, ok := explicitTag(n); ok && tag == "!!pairs" && n.Kind == yaml.SequenceNode {
		if s := p.pairsAsSeq(n); s != nil {
			return s
		}
	}
	return n
}

func (p *parser) validOmap(seq *yaml.Node) bool {
	seen := map[string]bool{}
	for _, c := range seq.Content {
		c = deref(c)
		if c.Kind != yaml.MappingNode || len(c.Content) != 2 {
			return false
		}
		k := deref(c.Content[0])
		if k.Kind != yaml.ScalarNode {
			return false
		}
		name := jsReadScalar(k, p.o.jsYAML()).str
		if seen[name] {
			return false
		}
		seen[name] = true
	}
	return true
}

func (p *parser) allNull(m *yaml.Node) bool {
	for i := 1; i < len(m.Content); i += 2 {
		v := deref(m.Content[i])
		if v.Kind != yaml.ScalarNode || jsReadScalar(v, p.o.jsYAML()).kind != jsNull {
			return false
		}
	}
	return true
}

// pairs returns a constructed mapping's entries (construct), in
// JavaScript's key order.
func (p *parser) pairs(m *yaml.Node) ([]kv, error) {
	if out, ok := p.built[m]; ok {
		return out, nil
	}
	// Not reached from the document's root (pairsAsSeq's synthetic nodes):
	// construct it now.
	if err := p.construct(m); err != nil {
		return nil, err
	}
	return p.built[m], nil
}

// jsType is typeof for a loaded node.
func (p *parser) jsType(n *yaml.Node) string {
	n = deref(n)
	if n.Kind == yaml.ScalarNode {
		return jsReadScalar(n, p.o.jsYAML()).kind.typeOf()
	}
	return "object"
}

// jsString is String(value) for a loaded node.
func (p *parser) jsString(n *yaml.Node) string {
	n = deref(n)
	switch n.Kind {
	case yaml.ScalarNode:
		return jsReadScalar(n, p.o.jsYAML()).str
	case yaml.SequenceNode:
		parts := make([]string, len(n.Content))
		for i, c := range n.Content {
			if c = deref(c); c.Kind == yaml.ScalarNode && jsReadScalar(c, p.o.jsYAML()).kind == jsNull {
				continue
			}
			parts[i] = p.jsString(c)
		}
		return strings.Join(parts, ",")
	}
	return "[object Object]"
}

// Bounds on what an alias-shared filter item expands to: filter.ts and
// picomatch walk the arrays js-yaml builds, sharing included, so the work
// (and the JavaScript stack) grows with the expansion, not the text.
const (
	maxExpanded  = 10000 // patterns in all filters, counted with repeats
	maxListDepth = 1000  // lists inside lists; Node's stack is near
)

// listShape is what walking a filter item visits: its scalars counted
// with repeats (capped at maxExpanded+1), how deep its lists nest, and
// whether a list contains itself.
type listShape struct {
	size, depth int
	cyclic      bool
}

func (p *parser) shape(n *yaml.Node, memo map[*yaml.Node]*listShape) listShape {
	n = deref(n)
	if n.Kind != yaml.SequenceNode && n.Kind != yaml.MappingNode {
		return listShape{size: 1}
	}
	if s, ok := memo[n]; ok {
		if s == nil {
			return listShape{cyclic: true} // reached again while walking it
		}
		return *s
	}
	memo[n] = nil
	var out listShape
	children := n.Content
	if n.Kind == yaml.MappingNode {
		// The object js-yaml built: merged values in, keys not walked.
		children = nil
		for _, e := range p.built[n] {
			children = append(children, e.v)
		}
	}
	for _, c := range children {
		cs := p.shape(c, memo)
		out.size = min(out.size+cs.size, maxExpanded+1)
		out.depth = max(out.depth, cs.depth+1)
		out.cyclic = out.cyclic || cs.cyclic
	}
	memo[n] = &out
	return out
}

// filterItem is value for one filter's item, after bounding its walk: a
// list that contains itself overflows JavaScript's stack (the step fails);
// past the bounds the outcome is unknown.
func (p *parser) filterItem(n *yaml.Node) ([]Rule, error) {
	s := p.shape(n, map[*yaml.Node]*listShape{})
	switch {
	case s.cyclic:
		return nil, &Error{Pos: p.pos(n), Msg: "RangeError: Maximum call stack size exceeded (a list contains itself; the step crashes)"}
	case p.expanded+s.size > maxExpanded:
		return nil, p.unmodelled(n, fmt.Sprintf("filters whose aliases expand to more than %d patterns", maxExpanded))
	case s.depth > maxListDepth:
		return nil, p.unmodelled(n, "lists nested this deep")
	}
	p.expanded += s.size
	return p.value(n, 0)
}

// value parses one filter item (spec §2 table).
func (p *parser) value(n *yaml.Node, depth int) ([]Rule, error) {
	if depth > maxListDepth {
		return nil, p.unmodelled(n, "lists nested this deep")
	}
	at := n
	n = deref(n)
	if n.Kind != yaml.ScalarNode {
		if err := p.tagCheck(at, n); err != nil {
			return nil, err
		}
		n = p.asPairs(n)
	}
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
		for _, e := range pairs {
			v := p.asPairs(deref(e.v))
			r := Rule{Status: []string{}, StatusPos: p.pos(e.k)}
			for _, s := range strings.Split(e.name, "|") {
				if s = strings.ToLower(strings.TrimSpace(s)); s != "" {
					r.Status = append(r.Status, s)
				}
			}
			bad := func() error {
				return &Error{Pos: p.pos(e.v), Msg: fmt.Sprintf("%sExpected [key:string]= pattern:string | string[], but [%s:string]= %s:%s found.",
					invalidFormat, e.name, p.jsString(v), p.jsType(v))}
			}
			switch {
			case v.Kind == yaml.ScalarNode && p.jsType(v) == "string":
				pt, err := p.pattern(e.v)
				if err != nil {
					return nil, err
				}
				r.Patterns = []Pattern{pt}
			case v.Kind == yaml.SequenceNode:
				// filter.ts hands the list to picomatch, which recurses into
				// nested arrays (`if (Array.isArray(glob)) … glob.map(…)`): an
				// anchored list reused inside a status list is flattened.
				r.List = true
				var walk func(seq *yaml.Node, depth int) error
				walk = func(seq *yaml.Node, depth int) error {
					if depth > maxListDepth {
						return p.unmodelled(seq, "lists nested this deep")
					}
					for _, c := range seq.Content {
						cc := p.asPairs(deref(c))
						if cc.Kind == yaml.SequenceNode {
							if err := walk(cc, depth+1); err != nil {
								return err
							}
							continue
						}
						if cc.Kind == yaml.ScalarNode && jsReadScalar(cc, p.o.jsYAML()).kind == jsUnmodelled {
							return p.unmodelled(c, "a tagged pattern")
						}
						if cc.Kind != yaml.ScalarNode || p.jsType(cc) != "string" {
							return &Error{Pos: p.pos(c), Msg: "TypeError: Expected pattern to be a non-empty string (the step crashes)"}
						}
						pt, err := p.pattern(c)
						if err != nil {
							return err
						}
						r.Patterns = append(r.Patterns, pt)
					}
					return nil
				}
				if err := walk(v, depth); err != nil {
					return nil, err
				}
			case v.Kind == yaml.ScalarNode && jsReadScalar(v, p.o.jsYAML()).kind == jsUnmodelled:
				return nil, p.unmodelled(e.v, "a tagged pattern")
			default:
				return nil, bad()
			}
			rules = append(rules, r)
		}
		return rules, nil
	}
	sc := jsReadScalar(n, p.o.jsYAML())
	switch sc.kind {
	case jsStr:
		pt, err := p.pattern(at)
		if err != nil {
			return nil, err
		}
		return []Rule{{Patterns: []Pattern{pt}}}, nil
	case jsNull:
		return nil, &Error{Pos: p.pos(at), Msg: "TypeError: Cannot convert undefined or null to object (the step crashes)"}
	case jsDate:
		// typeof a Date is 'object' and Object.entries(date) is empty: the
		// item adds no rule.
		return nil, nil
	case jsBinary:
		switch sc.str {
		case "":
			return nil, nil // an empty byte array has no entries
		}
		// Its entries are index -> byte number: not a pattern.
		return nil, &Error{Pos: p.pos(at), Msg: invalidFormat + "Expected [key:string]= pattern:string | string[], but [0:string]= (a byte):number found."}
	case jsUnmodelled:
		return nil, p.unmodelled(at, "a tagged filter item")
	default:
		return nil, &Error{Pos: p.pos(at), Msg: fmt.Sprintf("%sUnexpected element type '%s'.", invalidFormat, sc.kind.typeOf())}
	}
}

// checkTags fails as js-yaml's load does when any node carries a tag its
// schema does not know, used or not.
func (p *parser) checkTags(n *yaml.Node, depth int) error {
	if n == nil || n.Kind == yaml.AliasNode || depth > 10000 {
		return nil
	}
	if tag, ok := explicitTag(n); ok && !jsKnownTags[tag] {
		return &Error{Pos: p.pos(n), Msg: "invalid filter YAML: unknown tag " + n.Tag}
	}
	if n.Kind == yaml.ScalarNode {
		if sc := jsReadScalar(n, p.o.jsYAML()); sc.kind == jsBadResolve {
			return &Error{Pos: p.pos(n), Msg: "invalid filter YAML: cannot resolve a node with !<tag:yaml.org,2002:" + strings.TrimPrefix(sc.str, "!!") + "> explicit tag"}
		}
	}
	for _, c := range n.Content {
		if err := p.checkTags(c, depth+1); err != nil {
			return err
		}
	}
	return nil
}

func (p *parser) pattern(at *yaml.Node) (Pattern, error) {
	n := deref(at)
	pos := p.pos(at)
	if at.Style&(yaml.SingleQuotedStyle|yaml.DoubleQuotedStyle) != 0 {
		pos.Col++ // point at the pattern text, not the quote
	}
	if n.Value == "" {
		return Pattern{}, &Error{Pos: pos, Msg: "TypeError: Expected pattern to be a non-empty string (the step crashes)"}
	}
	pt := Pattern{Text: n.Value, Pos: pos, Negated: IsNegated(n.Value)}
	pt.setGlob()
	if ue := (*UnsupportedError)(nil); errors.As(pt.Err, &ue) && ue.Hangs {
		// filter.ts compiles every pattern in the Filter constructor.
		return Pattern{}, &Error{Pos: pos, Msg: "picomatch 2.3.1 never returns on " + strconv.Quote(n.Value) + ": the step runs until the job times out", Unmodelled: true}
	}
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
