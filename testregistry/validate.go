package testregistry

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/cicheck/cicheck/finding"
)

// baseParams are the parameters every marker accepts (spec §4).
var baseParams = map[string]bool{"est_time": true, "suite": true, "labels": true, "nightly": true, "disabled": true}

// pytype is the Python type name of a constant, as type(v).__name__ prints it.
func (n *node) pytype() string { return n.ctype }

// validateCall evaluates one marker call's literal arguments. Errors come out
// in the order of spec §5 (the reference reports only the first); unlike the
// reference, every independent error is reported. A call with any error
// yields no registration.
func (s *scanner) validateCall(file string, c call) (Registration, bool, []finding.Finding) {
	fn := c.fn
	n := c.node
	marker := s.cfg.Markers[fn]
	extra := s.cfg.ExtraParams[fn]
	var out []finding.Finding
	bad := false
	add := func(rule string, line, col int, format string, a ...any) {
		f := newFinding(rule, file, line, col, fmt.Sprintf(format, a...))
		if f.Severity == finding.Error {
			bad = true
		}
		out = append(out, f)
	}

	set := map[string]bool{}   // given, validly or not
	vals := map[string]*node{} // given as an acceptable literal
	unpacked := false          // *args or **kwargs: required checks are moot
	var labels []*node         // label elements when labels is a list of str
	labelsGiven, labelsOK := false, true
	var labelsNode *node

	// 1. starred arguments
	var pos []*node
	for _, a := range n.elts {
		if a.class == "Starred" {
			add(RuleStarredArgs, a.line, a.col, "starred arguments are not supported in %s()", fn)
			unpacked = true
			continue
		}
		pos = append(pos, a)
	}
	// 2. too many positionals
	if len(pos) > 2 {
		add(RuleTooManyPos, pos[2].line, pos[2].col,
			"too many positional arguments in %s(); only ['est_time', 'suite'] may be positional (labels and later are keyword-only)", fn)
		pos = pos[:2]
		unpacked = true // the extra positional was probably meant as labels
	}
	// 3. positional literals
	for i, a := range pos {
		name := []string{"est_time", "suite"}[i]
		set[name] = true
		if a.class != "Constant" {
			add(RuleNotLiteral, a.line, a.col, "%s in %s() must be a literal constant", name, fn)
			continue
		}
		vals[name] = a
	}
	// 4. keywords in source order
	for _, kw := range n.kws {
		v := kw.value
		switch {
		case kw.name == "":
			add(RuleKwargs, kw.line, kw.col, "**kwargs are not supported in %s()", fn)
			unpacked = true
			continue
		case set[kw.name]:
			add(RuleDuplicateArg, kw.line, kw.col, "duplicated argument '%s' in %s()", kw.name, fn)
			continue
		case !baseParams[kw.name] && extra[kw.name].Type == "":
			add(RuleUnknownArg, kw.line, kw.col, "unknown argument '%s' in %s()", kw.name, fn)
			continue
		}
		set[kw.name] = true
		switch {
		case kw.name == "labels":
			labelsGiven, labelsNode = true, v
			switch {
			case v.class == "Constant" && v.ctype == "NoneType":
			case v.class == "List":
				for _, e := range v.elts {
					switch {
					case e.class != "Constant":
						add(RuleLabelsType, e.line, e.col, "labels in %s() must be a list of string literals (non-literal element)", fn)
						labelsOK = false
					case e.ctype != "str":
						add(RuleLabelsType, e.line, e.col, "labels in %s() must be a list of string literals (got %s element)", fn, e.pytype())
						labelsOK = false
					default:
						labels = append(labels, e)
					}
				}
			default:
				add(RuleLabelsType, v.line, v.col, "labels in %s() must be a list of string literals or None (got %s)", fn, v.class)
				labelsOK = false
			}
		case extra[kw.name].Type == "str_list":
			if v.class != "List" {
				add(RuleNotLiteral, v.line, v.col, "%s in %s() must be a list of string literals (got %s)", kw.name, fn, v.class)
				continue
			}
			ok := true
			for _, e := range v.elts {
				if e.class != "Constant" || e.ctype != "str" {
					add(RuleNotLiteral, e.line, e.col, "%s in %s() must be a list of string literals", kw.name, fn)
					ok = false
				}
			}
			if ok {
				vals[kw.name] = v
			}
		case v.class != "Constant":
			add(RuleNotLiteral, v.line, v.col, "%s in %s() must be a literal constant", kw.name, fn)
		default:
			vals[kw.name] = v
		}
	}
	// 5. required
	extraNames := sortedKeys(extra)
	if !unpacked {
		for _, name := range []string{"est_time", "suite"} {
			if !set[name] {
				add(RuleMissingArg, n.line, n.col, "%s is required in %s()", name, fn)
			}
		}
		for _, kw := range extraNames {
			if extra[kw].Required && !set[kw] {
				add(RuleMissingArg, n.line, n.col, "%s is required in %s()", kw, fn)
			}
		}
	}
	// 6. types of est_time and suite
	if v := vals["est_time"]; v != nil {
		switch v.ctype {
		case "int", "float":
		case "bool":
			out = append(out, newFinding(RuleEstTimeBool, file, v.line, v.col,
				fmt.Sprintf("est_time in %s() is a bool (%s counts as %d second)", fn, pyBool(v.b), int(v.num))))
		default:
			add(RuleWrongType, v.line, v.col, "est_time must be a number in %s()", fn)
		}
	}
	if v := vals["suite"]; v != nil && v.ctype != "str" {
		add(RuleWrongType, v.line, v.col, "suite must be a string in %s()", fn)
	}
	// 8. GPU markers need a domain label
	if marker.LabelsRequired && labelsOK && !unpacked && len(labels) == 0 {
		line, col := n.line, n.col
		if labelsGiven {
			line, col = labelsNode.line, labelsNode.col
		}
		add(RuleNoDomainLabel, line, col, "labels in %s() must contain at least one domain label", fn)
	}
	// 9. nightly, disabled, then the configured parameters
	if v := vals["nightly"]; v != nil && v.ctype != "bool" {
		add(RuleWrongType, v.line, v.col, "nightly must be a boolean in %s()", fn)
	}
	if v := vals["disabled"]; v != nil && v.ctype != "str" && v.ctype != "NoneType" {
		add(RuleWrongType, v.line, v.col, "disabled must be a string or None in %s()", fn)
	}
	var extraVals map[string]any // made at its first value: most calls have none
	putExtra := func(k string, v any) {
		if extraVals == nil {
			extraVals = map[string]any{}
		}
		extraVals[k] = v
	}
	for _, kw := range extraNames {
		v := vals[kw]
		if v == nil {
			continue
		}
		p := extra[kw]
		var got []string
		switch p.Type {
		case "str":
			if v.ctype != "str" {
				add(RuleWrongType, v.line, v.col, "%s must be a string in %s()", kw, fn)
				continue
			}
			putExtra(kw, v.str)
			got = []string{v.str}
		case "bool":
			if v.ctype != "bool" {
				add(RuleWrongType, v.line, v.col, "%s must be a boolean in %s()", kw, fn)
				continue
			}
			putExtra(kw, v.b)
		case "number":
			if v.ctype != "int" && v.ctype != "float" && v.ctype != "bool" {
				add(RuleWrongType, v.line, v.col, "%s must be a number in %s()", kw, fn)
				continue
			}
			putExtra(kw, v.num)
		case "str_list":
			for _, e := range v.elts {
				got = append(got, e.str)
			}
			putExtra(kw, got)
		}
		if len(p.Allowed) > 0 {
			for i, g := range got {
				if !slices.Contains(p.Allowed, g) {
					at := v
					if p.Type == "str_list" {
						at = v.elts[i]
					}
					add(RuleBadValue, at.line, at.col, "%s value %s in %s() is not one of [%s]", kw, pyRepr(g), fn, strings.Join(p.Allowed, ", "))
				}
			}
		}
	}
	// 10. unknown labels (skipped when KNOWN_LABELS could not be loaded)
	var labelStrs []string
	for _, e := range labels {
		labelStrs = append(labelStrs, e.str)
	}
	if s.knownOK {
		var unknown []string
		var first *node
		for _, e := range labels {
			if !s.known[e.str] {
				unknown = append(unknown, e.str)
				if first == nil {
					first = e
				}
			}
		}
		if len(unknown) > 0 {
			add(RuleUnknownLabel, first.line, first.col,
				"unknown labels %s in %s(); valid labels: [%s]. To add a new label: edit %s + create matching `%s<label>` in GitHub repo Settings -> Labels.",
				pyList(unknown), fn, strings.Join(s.knownList, ", "), s.cfg.Labels.File, s.cfg.Policy.LabelPrefix)
		}
	}
	seen := map[string]bool{}
	for _, e := range labels {
		if seen[e.str] {
			out = append(out, newFinding(RuleDuplicateLabel, file, e.line, e.col,
				fmt.Sprintf("label %s is repeated in %s()", pyRepr(e.str), fn)))
		}
		seen[e.str] = true
	}
	if bad {
		return Registration{}, false, out
	}
	reg := Registration{File: file, Line: n.line, Column: n.col, Func: fn, Backend: marker.Backend,
		EstTime: vals["est_time"].num, Suite: vals["suite"].str, Labels: labelStrs}
	if reg.Labels == nil {
		reg.Labels = []string{}
	}
	if v := vals["nightly"]; v != nil {
		reg.Nightly = v.b
	}
	if v := vals["disabled"]; v != nil && v.ctype == "str" {
		reason := v.str
		reg.Disabled = &reason
	}
	if len(extraVals) > 0 {
		reg.Extra = extraVals
	}
	ir := s.cfg.ImplicitRoot
	if ir.Prefix != "" && strings.HasPrefix(file, ir.Prefix) && marker.Backend == ir.Backend && len(pos) == 0 &&
		reg.EstTime == semanticDefaultEstTime && reg.Suite == ir.Suite && len(reg.Labels) == 0 && !reg.Nightly && reg.Disabled == nil {
		out = append(out, newFinding(RuleSemanticDefault, file, n.line, n.col,
			fmt.Sprintf("%s() repeats the implicit default of %s; delete the call", fn, ir.Prefix)))
	}
	return reg, true, out
}

// semanticDefaultEstTime is the est_time the reference repository's lint
// treats as "the default" for an explicit CPU registration (spec §13).
const semanticDefaultEstTime = 10

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

func pyBool(b bool) string {
	if b {
		return "True"
	}
	return "False"
}

// pyRepr renders a str the way Python's repr does.
func pyRepr(s string) string {
	q := byte('\'')
	if strings.Contains(s, "'") && !strings.Contains(s, "\"") {
		q = '"'
	}
	var sb strings.Builder
	sb.WriteByte(q)
	for i := 0; i < len(s); {
		r, n := decodePyRune(s[i:])
		i += n
		switch {
		case r == '\\':
			sb.WriteString(`\\`)
		case r == rune(q):
			sb.WriteByte('\\')
			sb.WriteRune(r)
		case r == '\n':
			sb.WriteString(`\n`)
		case r == '\r':
			sb.WriteString(`\r`)
		case r == '\t':
			sb.WriteString(`\t`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&sb, `\x%02x`, r)
		case r > 0x7f && !strconv.IsPrint(r):
			if r <= 0xff {
				fmt.Fprintf(&sb, `\x%02x`, r)
			} else if r <= 0xffff {
				fmt.Fprintf(&sb, `\u%04x`, r)
			} else {
				fmt.Fprintf(&sb, `\U%08x`, r)
			}
		default:
			sb.WriteRune(r)
		}
	}
	sb.WriteByte(q)
	return sb.String()
}

// pyList renders a list of str the way Python's repr does.
func pyList(items []string) string {
	parts := make([]string, len(items))
	for i, s := range items {
		parts[i] = pyRepr(s)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}
