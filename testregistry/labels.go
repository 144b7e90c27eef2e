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
	"github.com/cicheck/cicheck/pyparse"
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

// stringItems extracts the string constants of a dict (keys), set, list or
// tuple literal, or set(...)/frozenset(...) of one. why explains a failure.
func stringItems(v *pyparse.Node) (items []*pyparse.Node, why string) {
	switch v.Class {
	case "Dict":
		for _, k := range v.Keys {
			if k == nil {
				return nil, "it uses **spread"
			}
			if k.Class != "Constant" || k.Type != "str" {
				return nil, fmt.Sprintf("a key is a %s, not a string literal", describe(k))
			}
			items = append(items, k)
		}
		return items, ""
	case "Set", "List", "Tuple":
		for _, e := range v.Elts {
			if e.Class != "Constant" || e.Type != "str" {
				return nil, fmt.Sprintf("an element is a %s, not a string literal", describe(e))
			}
			items = append(items, e)
		}
		return items, ""
	case "Call":
		if v.Fn.Class == "Name" && (v.Fn.Name == "set" || v.Fn.Name == "frozenset") && len(v.Kws) == 0 {
			if len(v.Elts) == 0 {
				return nil, ""
			}
			if len(v.Elts) == 1 && v.Elts[0].Class != "Call" {
				return stringItems(v.Elts[0])
			}
		}
	}
	return nil, fmt.Sprintf("the value is a %s, not a literal", describe(v))
}

func describe(n *pyparse.Node) string {
	if n.Class == "Constant" {
		return n.Type + " constant"
	}
	return n.Class
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
	b, err := pyparse.FindBinding(string(src), sym, minor)
	if err != nil {
		var se *pyparse.SyntaxError
		if errors.As(err, &se) {
			return nil, notLiteral(se.Line, se.Col, "syntax error: "+se.Msg)
		}
		return nil, notLiteral(1, 1, err.Error())
	}
	switch {
	case b == nil:
		return nil, notLiteral(1, 1, "no module-level assignment of "+sym)
	case b.Err != nil:
		return nil, notLiteral(b.Line, b.Col, "the value does not parse")
	case b.Mutated != nil:
		return nil, notLiteral(b.Mutated.Line, b.Mutated.Col, fmt.Sprintf("it is modified after its assignment on line %d", b.Line))
	case b.Rebound != nil:
		return nil, notLiteral(b.Rebound.Line, b.Rebound.Col, fmt.Sprintf("it is rebound after its assignment on line %d", b.Line))
	}
	items, why := stringItems(b.Value)
	if why != "" {
		return nil, notLiteral(b.Value.Line, b.Value.Col, why)
	}
	ls := &labelSet{}
	var out []finding.Finding
	seen := map[string]bool{}
	for _, it := range items {
		k := labelKey{name: it.Str, line: it.Line, col: it.Col}
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

var backendAttr = map[string]string{"CPU": "cpu", "CUDA": "cuda", "ROCM": "rocm", "cpu": "cpu", "cuda": "cuda", "rocm": "rocm",
	"AMD": "amd", "NPU": "npu", "XPU": "xpu", "MUSA": "musa", "MLX": "mlx"}

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
	b, err := pyparse.FindBinding(string(src), cfg.Suites.Symbol, minor)
	if err != nil || b == nil || b.Err != nil || b.Mutated != nil || b.Rebound != nil || b.Value.Class != "Dict" {
		return fallback(), pos, nil
	}
	m := map[string][]string{}
	for i, k := range b.Value.Keys {
		var backend string
		switch {
		case k == nil:
			return fallback(), suitePos{}, nil
		case k.Class == "Attribute":
			backend = backendAttr[k.Name]
		case k.Class == "Constant" && k.Type == "str":
			backend = backendAttr[strings.ToLower(k.Str)]
		}
		if backend == "" {
			return fallback(), suitePos{}, nil
		}
		v := b.Value.Elts[i]
		if v.Class != "List" && v.Class != "Tuple" {
			return fallback(), suitePos{}, nil
		}
		for _, e := range v.Elts {
			if e.Class != "Constant" || e.Type != "str" {
				return fallback(), suitePos{}, nil
			}
			m[backend] = append(m[backend], e.Str)
			if _, ok := pos[e.Str]; !ok {
				pos[e.Str] = [2]int{e.Line, e.Col}
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
