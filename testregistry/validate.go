package testregistry

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/cicheck/cicheck/finding"
	"github.com/cicheck/cicheck/pyparse"
)

// baseParams are the parameters every marker accepts (spec §4).
var baseParams = map[string]bool{"est_time": true, "suite": true, "labels": true, "nightly": true, "disabled": true}

// validateCall evaluates one marker call's literal arguments. Errors come out
// in the order of spec §5 (the reference reports only the first); unlike the
// reference, every independent error is reported. A call with any error
// yields no registration.
func (s *scanner) validateCall(file string, c pyparse.Call) (Registration, bool, []finding.Finding) {
	fn := c.Fn
	n := c.Node
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

	set := map[string]bool{}           // given, validly or not
	vals := map[string]*pyparse.Node{} // given as an acceptable literal
	unpacked := false                  // *args or **kwargs: required checks are moot
	var labels []*pyparse.Node         // label elements when labels is a list of str
	labelsGiven, labelsOK := false, true
	var labelsNode *pyparse.Node

	// 1. starred arguments
	var pos []*pyparse.Node
	for _, a := range n.Elts {
		if a.Class == "Starred" {
			add(RuleStarredArgs, a.Line, a.Col, "starred arguments are not supported in %s()", fn)
			unpacked = true
			continue
		}
		pos = append(pos, a)
	}
	// 2. too many positionals
	if len(pos) > 2 {
		add(RuleTooManyPos, pos[2].Line, pos[2].Col,
			"too many positional arguments in %s(); only ['est_time', 'suite'] may be positional (labels and later are keyword-only)", fn)
		pos = pos[:2]
		unpacked = true // the extra positional was probably meant as labels
	}
	// 3. positional literals
	for i, a := range pos {
		name := []string{"est_time", "suite"}[i]
		set[name] = true
		if a.Class != "Constant" {
			add(RuleNotLiteral, a.Line, a.Col, "%s in %s() must be a literal constant", name, fn)
			continue
		}
		vals[name] = a
	}
	// 4. keywords in source order
	for _, kw := range n.Kws {
		v := kw.Value
		switch {
		case kw.Name == "":
			add(RuleKwargs, kw.Line, kw.Col, "**kwargs are not supported in %s()", fn)
			unpacked = true
			continue
		case set[kw.Name]:
			add(RuleDuplicateArg, kw.Line, kw.Col, "duplicated argument '%s' in %s()", kw.Name, fn)
			continue
		case !baseParams[kw.Name] && extra[kw.Name].Type == "":
			add(RuleUnknownArg, kw.Line, kw.Col, "unknown argument '%s' in %s()", kw.Name, fn)
			continue
		}
		set[kw.Name] = true
		switch {
		case kw.Name == "labels":
			labelsGiven, labelsNode = true, v
			switch {
			case v.Class == "Constant" && v.Type == "NoneType":
			case v.Class == "List":
				for _, e := range v.Elts {
					switch {
					case e.Class != "Constant":
						add(RuleLabelsType, e.Line, e.Col, "labels in %s() must be a list of string literals (non-literal element)", fn)
						labelsOK = false
					case e.Type != "str":
						add(RuleLabelsType, e.Line, e.Col, "labels in %s() must be a list of string literals (got %s element)", fn, e.Type)
						labelsOK = false
					default:
						labels = append(labels, e)
					}
				}
			default:
				add(RuleLabelsType, v.Line, v.Col, "labels in %s() must be a list of string literals or None (got %s)", fn, v.Class)
				labelsOK = false
			}
		case extra[kw.Name].Type == "str_list":
			if v.Class != "List" {
				add(RuleNotLiteral, v.Line, v.Col, "%s in %s() must be a list of string literals (got %s)", kw.Name, fn, v.Class)
				continue
			}
			ok := true
			for _, e := range v.Elts {
				if e.Class != "Constant" || e.Type != "str" {
					add(RuleNotLiteral, e.Line, e.Col, "%s in %s() must be a list of string literals", kw.Name, fn)
					ok = false
				}
			}
			if ok {
				vals[kw.Name] = v
			}
		case v.Class != "Constant":
			add(RuleNotLiteral, v.Line, v.Col, "%s in %s() must be a literal constant", kw.Name, fn)
		default:
			vals[kw.Name] = v
		}
	}
	// 5. required
	extraNames := sortedKeys(extra)
	if !unpacked {
		for _, name := range []string{"est_time", "suite"} {
			if !set[name] {
				add(RuleMissingArg, n.Line, n.Col, "%s is required in %s()", name, fn)
			}
		}
		for _, kw := range extraNames {
			if extra[kw].Required && !set[kw] {
				add(RuleMissingArg, n.Line, n.Col, "%s is required in %s()", kw, fn)
			}
		}
	}
	// 6. types of est_time and suite
	if v := vals["est_time"]; v != nil {
		switch v.Type {
		case "int", "float":
		case "bool":
			out = append(out, newFinding(RuleEstTimeBool, file, v.Line, v.Col,
				fmt.Sprintf("est_time in %s() is a bool (%s counts as %d second)", fn, pyBool(v.Bool), int(v.Num))))
		default:
			add(RuleWrongType, v.Line, v.Col, "est_time must be a number in %s()", fn)
		}
	}
	if v := vals["suite"]; v != nil && v.Type != "str" {
		add(RuleWrongType, v.Line, v.Col, "suite must be a string in %s()", fn)
	}
	// 8. GPU markers need a domain label
	if marker.LabelsRequired && labelsOK && !unpacked && len(labels) == 0 {
		line, col := n.Line, n.Col
		if labelsGiven {
			line, col = labelsNode.Line, labelsNode.Col
		}
		add(RuleNoDomainLabel, line, col, "labels in %s() must contain at least one domain label", fn)
	}
	// 9. nightly, disabled, then the configured parameters
	if v := vals["nightly"]; v != nil && v.Type != "bool" {
		add(RuleWrongType, v.Line, v.Col, "nightly must be a boolean in %s()", fn)
	}
	if v := vals["disabled"]; v != nil && v.Type != "str" && v.Type != "NoneType" {
		add(RuleWrongType, v.Line, v.Col, "disabled must be a string or None in %s()", fn)
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
			if v.Type != "str" {
				add(RuleWrongType, v.Line, v.Col, "%s must be a string in %s()", kw, fn)
				continue
			}
			putExtra(kw, v.Str)
			got = []string{v.Str}
		case "bool":
			if v.Type != "bool" {
				add(RuleWrongType, v.Line, v.Col, "%s must be a boolean in %s()", kw, fn)
				continue
			}
			putExtra(kw, v.Bool)
		case "number":
			if v.Type != "int" && v.Type != "float" && v.Type != "bool" {
				add(RuleWrongType, v.Line, v.Col, "%s must be a number in %s()", kw, fn)
				continue
			}
			putExtra(kw, v.Num)
		case "str_list":
			for _, e := range v.Elts {
				got = append(got, e.Str)
			}
			putExtra(kw, got)
		}
		if len(p.Allowed) > 0 {
			for i, g := range got {
				if !slices.Contains(p.Allowed, g) {
					at := v
					if p.Type == "str_list" {
						at = v.Elts[i]
					}
					add(RuleBadValue, at.Line, at.Col, "%s value %s in %s() is not one of [%s]", kw, pyRepr(g), fn, strings.Join(p.Allowed, ", "))
				}
			}
		}
	}
	// 10. unknown labels (skipped when KNOWN_LABELS could not be loaded)
	var labelStrs []string
	for _, e := range labels {
		labelStrs = append(labelStrs, e.Str)
	}
	if s.knownOK {
		var unknown []string
		var first *pyparse.Node
		for _, e := range labels {
			if !s.known[e.Str] {
				unknown = append(unknown, e.Str)
				if first == nil {
					first = e
				}
			}
		}
		if len(unknown) > 0 {
			add(RuleUnknownLabel, first.Line, first.Col,
				"unknown labels %s in %s(); valid labels: [%s]. To add a new label: edit %s + create matching `%s<label>` in GitHub repo Settings -> Labels.",
				pyList(unknown), fn, strings.Join(s.knownList, ", "), s.cfg.Labels.File, s.cfg.Policy.LabelPrefix)
		}
	}
	seen := map[string]bool{}
	for _, e := range labels {
		if seen[e.Str] {
			out = append(out, newFinding(RuleDuplicateLabel, file, e.Line, e.Col,
				fmt.Sprintf("label %s is repeated in %s()", pyRepr(e.Str), fn)))
		}
		seen[e.Str] = true
	}
	if bad {
		return Registration{}, false, out
	}
	reg := Registration{File: file, Line: n.Line, Column: n.Col, Func: fn, Backend: marker.Backend,
		EstTime: vals["est_time"].Num, Suite: vals["suite"].Str, Labels: labelStrs}
	if reg.Labels == nil {
		reg.Labels = []string{}
	}
	if v := vals["nightly"]; v != nil {
		reg.Nightly = v.Bool
	}
	if v := vals["disabled"]; v != nil && v.Type == "str" {
		reason := v.Str
		reg.Disabled = &reason
	}
	if len(extraVals) > 0 {
		reg.Extra = extraVals
	}
	ir := s.cfg.ImplicitRoot
	if ir.Prefix != "" && strings.HasPrefix(file, ir.Prefix) && marker.Backend == ir.Backend && len(pos) == 0 &&
		reg.EstTime == semanticDefaultEstTime && reg.Suite == ir.Suite && len(reg.Labels) == 0 && !reg.Nightly && reg.Disabled == nil {
		out = append(out, newFinding(RuleSemanticDefault, file, n.Line, n.Col,
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
		r, n := pyparse.DecodeRune(s[i:])
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
