package testregistry

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/cicheck/cicheck/finding"
)

// labelSet is KNOWN_LABELS as read statically, keys in source order.
type labelSet struct {
	keys []labelKey
}

type labelKey struct {
	name      string
	line, col int
	dup       bool
	bad       bool // reserved or malformed: already reported
}

// reservedLabels are workflow-only scopes that must not be domain labels.
var reservedLabels = []string{"all", "image", "nightly"}

// labelKeyRe is the shape the workflow adapter keeps for run-ci-<key>.
var labelKeyRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.-]*$`) })

// binding is the last module-level assignment of a symbol.
type binding struct {
	value   *node
	tok     token
	mutated *token // a later module-level mutation
	rebound *token // a later module-level rebinding other than "sym = v"
	err     error
}

var mutators = map[string]bool{"update": true, "add": true, "pop": true, "clear": true, "setdefault": true,
	"discard": true, "remove": true, "append": true, "extend": true, "insert": true, "popitem": true, "__setitem__": true, "__delitem__": true}

// findBinding returns the last module-level binding "sym = v" or
// "sym: T = v" in src, noting any later mutation.
func findBinding(src, sym string, minor int) (*binding, error) {
	lines, err := lexLinesFor(src, minor, false, func(line []token) bool {
		for _, t := range line {
			if t.kind == tkName && t.text == sym {
				return true
			}
		}
		return false
	})
	if err != nil {
		return nil, err
	}
	var b *binding
	for _, st := range topStatements(lines, nil) {
		if st[0].kind != tkName || st[0].text != sym {
			// "del X[k]" also mutates.
			if b != nil && len(st) > 2 && st[0].text == "del" && st[1].text == sym {
				t := st[0]
				b.mutated = &t
			}
			continue
		}
		if len(st) < 2 {
			continue
		}
		op := st[1]
		switch {
		case op.kind == tkOp && (op.text == "=" || op.text == ":"):
			// Find the value after the last top-level '=' (handles
			// "A = B = {...}" and "A: dict[str, str] = {...}").
			eq := -1
			depth := 0
			for i, t := range st {
				if t.kind != tkOp {
					continue
				}
				depth += bracketDelta(t.text)
				if t.text == "=" && depth == 0 {
					eq = i
				}
			}
			if eq < 0 {
				continue // a bare annotation binds nothing
			}
			p := &parser{toks: st[eq+1:], minor: minor}
			v, err := p.starExpressions()
			if err == nil && !p.atEnd() {
				err = p.fail(p.peek(), "invalid syntax")
			}
			b = &binding{value: v, tok: st[0], err: err}
		case b != nil && op.kind == tkOp && strings.HasSuffix(op.text, "=") && op.text != "==":
			t := op
			b.mutated = &t
		case b != nil && op.kind == tkOp && op.text == "." && len(st) > 2 && mutators[st[2].text]:
			t := st[2]
			b.mutated = &t
		case b != nil && op.kind == tkOp && (op.text == "[" || op.text == "."):
			// X[k] = v or X.attr = v
			depth := 0
			for _, t := range st {
				if t.kind == tkOp {
					depth += bracketDelta(t.text)
					if depth == 0 && t.text != "==" && strings.HasSuffix(t.text, "=") && t.text != "<=" && t.text != ">=" && t.text != "!=" {
						tt := op
						b.mutated = &tt
						break
					}
				}
			}
		}
	}
	if b != nil && b.mutated == nil {
		b.rebound = findRebinding(lines, sym, b.tok)
	}
	return b, nil
}

// findRebinding returns the first module-level token after the
// statement of the assignment at tok that binds sym other than by
// "sym = literal": tuple unpacking, del, for, import, "as" or ":=". After
// one of those the literal no longer tells what the symbol holds, so the
// labels are unknown rather than the literal's. The statements after the
// assignment's on its own line count ("X = [...]; del X").
func findRebinding(lines []logicalLine, sym string, tok token) *token {
	for _, l := range lines {
		if l.depth != 0 || len(l.toks) == 0 || !tokBefore(tok, l.toks[len(l.toks)-1]) {
			continue
		}
		toks := l.toks
		if !tokBefore(tok, toks[0]) {
			toks = toks[statementAfter(toks, tok):]
			if len(toks) == 0 {
				continue
			}
		}
		first := toks[0].text
		if first == "async" && len(toks) > 1 {
			first = toks[1].text
		}
		inTarget := first == "for" || first == "del" // until "in", or the whole del
		imports := false
		depth := 0
		for i, t := range toks {
			if t.kind == tkOp {
				switch t.text {
				case "(", "[", "{":
					depth++
				case ")", "]", "}":
					depth--
				case ";":
					// a new simple statement on the same line
					inTarget, imports, first = false, false, ""
					if i+1 < len(toks) {
						first = toks[i+1].text
						inTarget = first == "del"
					}
				}
				continue
			}
			if t.kind != tkName {
				continue
			}
			switch t.text {
			case "in":
				if first == "for" && depth == 0 {
					inTarget = false
				}
				continue
			case "import":
				imports = first == "import" || first == "from"
				continue
			}
			if t.text != sym {
				continue
			}
			prev, next := "", ""
			if i > 0 {
				prev = toks[i-1].text
			}
			if i+1 < len(toks) {
				next = toks[i+1].text
			}
			tok := t
			switch {
			case prev == "as", next == ":=":
				return &tok
			case imports && next != "as" && next != ".":
				return &tok
			case inTarget && next != "[" && next != ".":
				return &tok
			case unpackTarget(toks, i):
				return &tok
			}
		}
	}
	return nil
}

// tokBefore reports whether a comes before b in the source.
func tokBefore(a, b token) bool { return a.line < b.line || a.line == b.line && a.col < b.col }

// statementAfter is the index of the first token of the simple statement
// after the one holding tok (len(toks) when that is the line's last): the
// token after the first bracket-level-0 ';' past tok.
func statementAfter(toks []token, tok token) int {
	depth := 0
	for i, t := range toks {
		if t.kind != tkOp {
			continue
		}
		depth += bracketDelta(t.text)
		if t.text == ";" && depth == 0 && tokBefore(tok, t) {
			return i + 1
		}
	}
	return len(toks)
}

// unpackTarget reports whether toks[i] is a name inside the target list of
// a tuple or list unpacking ("A, B = ...", "(A, B) = ...", "X, *A = ..."):
// a target separator on both sides and a bracket-level-0 "=" after it in
// the same simple statement. A call or subscript bracket ("f(A, b=1)",
// "d[A, 1] = 2") is not a target list.
func unpackTarget(toks []token, i int) bool {
	// Absolute bracket depth of every token, and whether each open bracket
	// is a target list (not a call or subscript).
	start := 0
	for j := i - 1; j >= 0; j-- {
		if toks[j].kind == tkOp && toks[j].text == ";" {
			start = j + 1
			break
		}
	}
	targetList := []bool{true} // depth 0 is the statement itself
	for j := start; j < i; j++ {
		t := toks[j]
		if t.kind != tkOp {
			continue
		}
		switch t.text {
		case "(", "[", "{":
			call := j > start && (toks[j-1].kind == tkName && !keywordBeforeBracket[toks[j-1].text] || toks[j-1].text == ")" || toks[j-1].text == "]")
			targetList = append(targetList, t.text != "{" && !call && targetList[len(targetList)-1])
		case ")", "]", "}":
			if len(targetList) > 1 {
				targetList = targetList[:len(targetList)-1]
			}
		}
	}
	if !targetList[len(targetList)-1] {
		return false
	}
	prev, next := "", ""
	if i > start {
		prev = toks[i-1].text
	}
	if i+1 < len(toks) {
		next = toks[i+1].text
	}
	switch prev {
	case "", ",", "*", "(", "[":
	default:
		return false
	}
	switch next {
	case ",", ")", "]":
	case "=":
		if prev == "" {
			return false // the plain "sym = v" binding
		}
	default:
		return false
	}
	depth := len(targetList) - 1
	for _, t := range toks[i+1:] {
		if t.kind != tkOp {
			continue
		}
		switch t.text {
		case "(", "[", "{":
			depth++
		case ")", "]", "}":
			depth--
		case ";":
			return false
		case "=":
			if depth == 0 {
				return true
			}
		}
	}
	return false
}

// keywordBeforeBracket are names after which a bracket opens a new
// expression, not a call or subscript.
var keywordBeforeBracket = map[string]bool{"in": true, "not": true, "and": true, "or": true, "is": true,
	"if": true, "else": true, "return": true, "yield": true, "del": true, "for": true, "lambda": true, "await": true}

// stringItems extracts the string constants of a dict (keys), set, list or
// tuple literal, or set(...)/frozenset(...) of one. why explains a failure.
func stringItems(v *node) (items []*node, why string) {
	switch v.class {
	case "Dict":
		for _, k := range v.keys {
			if k == nil {
				return nil, "it uses **spread"
			}
			if k.class != "Constant" || k.ctype != "str" {
				return nil, fmt.Sprintf("a key is a %s, not a string literal", describe(k))
			}
			items = append(items, k)
		}
		return items, ""
	case "Set", "List", "Tuple":
		for _, e := range v.elts {
			if e.class != "Constant" || e.ctype != "str" {
				return nil, fmt.Sprintf("an element is a %s, not a string literal", describe(e))
			}
			items = append(items, e)
		}
		return items, ""
	case "Call":
		if v.fn.class == "Name" && (v.fn.name == "set" || v.fn.name == "frozenset") && len(v.kws) == 0 {
			if len(v.elts) == 0 {
				return nil, ""
			}
			if len(v.elts) == 1 && v.elts[0].class != "Call" {
				return stringItems(v.elts[0])
			}
		}
	}
	return nil, fmt.Sprintf("the value is a %s, not a literal", describe(v))
}

func describe(n *node) string {
	if n.class == "Constant" {
		return n.ctype + " constant"
	}
	return n.class
}

// loadLabels reads KNOWN_LABELS statically and checks its keys.
func loadLabels(fsys fs.FS, cfg Config) (*labelSet, []finding.Finding) {
	file, sym := cfg.Labels.File, cfg.Labels.Symbol
	if file == "" {
		return nil, nil
	}
	notLiteral := func(line, col int, why string) []finding.Finding {
		return []finding.Finding{newFinding(RuleLabelsNotLiteral, file, line, col,
			fmt.Sprintf("cannot load %s statically: %s; label checks are skipped", sym, why))}
	}
	src, err := readBounded(fsys, file, kindModule, typeUnknown, nil)
	if err != nil {
		var ue *UnreadableError
		switch {
		case errors.As(err, &ue):
			return nil, notLiteral(1, 1, ue.File+" "+ue.Why)
		case errors.Is(err, fs.ErrNotExist):
			return nil, notLiteral(1, 1, file+" does not exist")
		}
		return nil, notLiteral(1, 1, err.Error())
	}
	minor := targetMinor(cfg.Python)
	b, err := findBinding(string(src), sym, minor)
	if err != nil {
		var se *SyntaxError
		if errors.As(err, &se) {
			return nil, notLiteral(se.Line, se.Col, "syntax error: "+se.Msg)
		}
		return nil, notLiteral(1, 1, err.Error())
	}
	switch {
	case b == nil:
		return nil, notLiteral(1, 1, "no module-level assignment of "+sym)
	case b.err != nil:
		return nil, notLiteral(b.tok.line, b.tok.col, "the value does not parse")
	case b.mutated != nil:
		return nil, notLiteral(b.mutated.line, b.mutated.col, fmt.Sprintf("it is modified after its assignment on line %d", b.tok.line))
	case b.rebound != nil:
		return nil, notLiteral(b.rebound.line, b.rebound.col, fmt.Sprintf("it is rebound after its assignment on line %d", b.tok.line))
	}
	items, why := stringItems(b.value)
	if why != "" {
		return nil, notLiteral(b.value.line, b.value.col, why)
	}
	ls := &labelSet{}
	var out []finding.Finding
	seen := map[string]bool{}
	for _, it := range items {
		k := labelKey{name: it.str, line: it.line, col: it.col}
		switch {
		case seen[k.name]:
			k.dup = true
			out = append(out, newFinding(RuleLabelsDupKey, file, k.line, k.col, fmt.Sprintf("label %s is listed twice in %s", pyRepr(k.name), sym)))
		case slices.Contains(reservedLabels, k.name):
			k.bad = true
			out = append(out, newFinding(RuleLabelsReserved, file, k.line, k.col,
				fmt.Sprintf("%s must not contain %s: it is a workflow-only scope, not a domain label", sym, pyRepr(k.name))))
		case !labelKeyRe().MatchString(k.name):
			k.bad = true
			out = append(out, newFinding(RuleLabelsBadKey, file, k.line, k.col,
				fmt.Sprintf("label %s does not match %s, so the workflow adapter silently drops %s", pyRepr(k.name), labelKeyRe(), pyRepr(cfg.Policy.LabelPrefix+k.name))))
		}
		seen[k.name] = true
		ls.keys = append(ls.keys, k)
	}
	return ls, out
}

// KnownLabels reads KNOWN_LABELS statically (sorted, deduplicated); ok is
// false when it cannot be loaded.
func KnownLabels(fsys fs.FS, cfg Config) (labels []string, ok bool) {
	ls, _ := loadLabels(fsys, cfg)
	if ls == nil {
		return nil, false
	}
	for _, k := range ls.keys {
		if !k.dup {
			labels = append(labels, k.name)
		}
	}
	slices.Sort(labels)
	return slices.Compact(labels), true
}

var backendAttr = map[string]string{"CPU": "cpu", "CUDA": "cuda", "ROCM": "rocm", "cpu": "cpu", "cuda": "cuda", "rocm": "rocm"}

// suitePos records where each suite name is written in the suites file.
type suitePos map[string][2]int

// loadSuites reads CI_SUITES statically, falling back to the explicit map.
func loadSuites(fsys fs.FS, cfg Config) (map[string][]string, []finding.Finding) {
	m, _, f := loadSuitesPos(fsys, cfg)
	return m, f
}

func loadSuitesPos(fsys fs.FS, cfg Config) (map[string][]string, suitePos, []finding.Finding) {
	pos := suitePos{}
	fallback := func() map[string][]string {
		if len(cfg.Suites.Map) == 0 {
			return nil
		}
		m := map[string][]string{}
		for k, v := range cfg.Suites.Map {
			m[strings.ToLower(k)] = slices.Clone(v)
		}
		return m
	}
	if cfg.Suites.File == "" {
		return fallback(), pos, nil
	}
	src, err := readBounded(fsys, cfg.Suites.File, kindModule, typeUnknown, nil)
	if err != nil {
		var ue *UnreadableError
		if errors.As(err, &ue) {
			return fallback(), pos, []finding.Finding{unreadableFinding(ue)}
		}
		return fallback(), pos, nil
	}
	minor := targetMinor(cfg.Python)
	b, err := findBinding(string(src), cfg.Suites.Symbol, minor)
	if err != nil || b == nil || b.err != nil || b.mutated != nil || b.rebound != nil || b.value.class != "Dict" {
		return fallback(), pos, nil
	}
	m := map[string][]string{}
	for i, k := range b.value.keys {
		var backend string
		switch {
		case k == nil:
			return fallback(), suitePos{}, nil
		case k.class == "Attribute":
			backend = backendAttr[k.name]
		case k.class == "Constant" && k.ctype == "str":
			backend = backendAttr[strings.ToLower(k.str)]
		}
		if backend == "" {
			return fallback(), suitePos{}, nil
		}
		v := b.value.elts[i]
		if v.class != "List" && v.class != "Tuple" {
			return fallback(), suitePos{}, nil
		}
		for _, e := range v.elts {
			if e.class != "Constant" || e.ctype != "str" {
				return fallback(), suitePos{}, nil
			}
			m[backend] = append(m[backend], e.str)
			if _, ok := pos[e.str]; !ok {
				pos[e.str] = [2]int{e.line, e.col}
			}
		}
		if m[backend] == nil {
			m[backend] = []string{}
		}
	}
	return m, pos, nil
}

// checkAccessPolicy compares the comment-command label allowlist with
// KNOWN_LABELS (spec §7).
func checkAccessPolicy(fsys fs.FS, cfg Config, labels *labelSet) []finding.Finding {
	file := cfg.AccessPolicy
	if file == "" || labels == nil {
		return nil
	}
	src, err := readBounded(fsys, file, kindPolicy, typeUnknown, nil)
	if err != nil {
		var ue *UnreadableError
		if errors.As(err, &ue) {
			return []finding.Finding{unreadableFinding(ue)}
		}
		return nil
	}
	var doc struct {
		Commands struct {
			AddLabel struct {
				AllowedLabels []string `json:"allowed_labels"`
			} `json:"add_label"`
		} `json:"commands"`
	}
	if err := json.Unmarshal(src, &doc); err != nil {
		return []finding.Finding{newFinding(RuleAllowlistDrift, file, 1, 1, "cannot read commands.add_label.allowed_labels: "+err.Error())}
	}
	prefix := cfg.Policy.LabelPrefix
	want := map[string]bool{prefix + "image": true, "bypass-fastfail": true}
	for _, k := range labels.keys {
		want[prefix+k.name] = true
	}
	have := map[string]bool{}
	for _, l := range doc.Commands.AddLabel.AllowedLabels {
		have[l] = true
	}
	var missing, extra []string
	for l := range want {
		if !have[l] {
			missing = append(missing, l)
		}
	}
	for l := range have {
		if !want[l] {
			extra = append(extra, l)
		}
	}
	slices.Sort(missing)
	slices.Sort(extra)
	line, col := 1, 1
	if i := strings.Index(string(src), `"allowed_labels"`); i >= 0 {
		line, col = lineCol(string(src), i)
	}
	var out []finding.Finding
	if len(missing) > 0 {
		out = append(out, newFinding(RuleAllowlistDrift, file, line, col,
			fmt.Sprintf("commands.add_label.allowed_labels is missing %s (every %s key needs its %s<key> entry)", pyList(missing), cfg.Labels.Symbol, prefix)))
	}
	if len(extra) > 0 {
		out = append(out, newFinding(RuleAllowlistDrift, file, line, col,
			fmt.Sprintf("commands.add_label.allowed_labels has entries that are not %s<key> for a %s key, %simage or bypass-fastfail: %s", prefix, cfg.Labels.Symbol, prefix, pyList(extra))))
	}
	return out
}

func lineCol(src string, off int) (int, int) {
	line := 1 + strings.Count(src[:off], "\n")
	return line, off - strings.LastIndex(src[:off], "\n")
}
