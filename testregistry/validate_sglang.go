package testregistry

import (
	"fmt"
	"math"

	"github.com/cicheck/cicheck/finding"
	"github.com/cicheck/cicheck/pyparse"
)

// The sglang argument grammar (Config.Arguments = sglang), as
// python/sglang/test/ci/ci_register.py's RegistryVisitor._parse_call_args
// reads a call: est_time, suite, nightly and disabled may be positional,
// stage, runner_config and in_process_group are keyword-only, and an
// argument that is not an ast.Constant counts as not given.
var (
	sglangPositional = []string{"est_time", "suite", "nightly", "disabled"}
	sglangParams     = map[string]bool{"est_time": true, "suite": true, "nightly": true, "disabled": true,
		"stage": true, "runner_config": true, "in_process_group": true}
)

// validateSglangCall evaluates one marker call under the sglang grammar.
// Errors come out in the order _parse_call_args raises them, so the first
// is the reference's message; unlike the reference, every independent
// error is reported. A call with any error yields no registration.
func (s *scanner) validateSglangCall(file string, c pyparse.Call) (Registration, bool, []finding.Finding) {
	fn, n := c.Fn, c.Node
	var out []finding.Finding
	bad := false
	add := func(rule string, at *pyparse.Node, format string, a ...any) {
		f := newFinding(rule, file, at.Line, at.Col, fmt.Sprintf(format, a...))
		if f.Severity == finding.Error {
			bad = true
		}
		out = append(out, f)
	}
	given := map[string]*pyparse.Node{} // given as an ast.Constant
	named := map[string]*pyparse.Node{} // given at all (for positions)
	unpacked := false
	var pos []*pyparse.Node
	for _, a := range n.Elts {
		if a.Class == "Starred" {
			add(RuleStarredArgs, a, "starred arguments are not supported in %s()", fn)
			unpacked = true
			continue
		}
		pos = append(pos, a)
	}
	if len(pos) > len(sglangPositional) {
		add(RuleTooManyPos, pos[len(sglangPositional)], "too many positional arguments in %s()", fn)
		pos = pos[:len(sglangPositional)]
		unpacked = true // what the extra one meant is anybody's guess
	}
	seen := map[string]bool{}
	for i, a := range pos {
		name := sglangPositional[i]
		seen[name], named[name] = true, a
		if a.Class == "Constant" {
			given[name] = a
		}
	}
	for _, kw := range n.Kws {
		at := &pyparse.Node{Line: kw.Line, Col: kw.Col}
		switch {
		case kw.Name == "":
			add(RuleKwargs, at, "**kwargs are not supported in %s()", fn)
			unpacked = true
			continue
		case !sglangParams[kw.Name]:
			add(RuleUnknownArg, at, "unknown argument '%s' in %s()", kw.Name, fn)
			continue
		case seen[kw.Name]:
			add(RuleDuplicateArg, at, "duplicated argument '%s' in %s()", kw.Name, fn)
			continue
		}
		seen[kw.Name], named[kw.Name] = true, kw.Value
		if kw.Value.Class == "Constant" {
			given[kw.Name] = kw.Value
		}
	}
	if !unpacked {
		if given["est_time"] == nil {
			at := n
			if v := named["est_time"]; v != nil {
				at = v
			}
			add(RuleMissingArg, at, "est_time is a required constant in %s()", fn)
		}
		stage, runner, suite := given["stage"] != nil, given["runner_config"] != nil, given["suite"] != nil
		if !(stage && runner && !suite || !stage && !runner && suite) {
			add(RuleSuiteShape, n, "%s() must specify exactly one of (stage, runner_config) pair or suite; got stage=%s, runner_config=%s, suite=%s",
				fn, pyBool(stage), pyBool(runner), pyBool(suite))
		}
	}
	if v := given["est_time"]; v != nil {
		switch v.Type {
		case "float":
		case "int":
			if math.IsInf(v.Num, 0) {
				// float(est_time) raises OverflowError, which collect_tests
				// does not catch either.
				add(RuleWrongType, v, "int too large to convert to float (est_time in %s())", fn)
			}
		case "bool":
			out = append(out, newFinding(RuleEstTimeBool, file, v.Line, v.Col,
				fmt.Sprintf("est_time in %s() is a bool (%s counts as %d second)", fn, pyBool(v.Bool), int(v.Num))))
		default:
			add(RuleWrongType, v, "est_time must be a number in %s()", fn)
		}
	}
	for _, name := range []string{"suite", "stage", "runner_config"} {
		if v := given[name]; v != nil && v.Type != "str" && v.Type != "NoneType" {
			add(RuleWrongType, v, "%s must be a string in %s()", name, fn)
		}
	}
	if v := given["nightly"]; v != nil && v.Type != "bool" {
		add(RuleWrongType, v, "nightly must be a boolean in %s()", fn)
	}
	for _, name := range []string{"disabled", "in_process_group"} {
		if v := given[name]; v != nil && v.Type != "str" && v.Type != "NoneType" {
			add(RuleWrongType, v, "%s must be a string in %s()", name, fn)
		}
	}
	if bad {
		return Registration{}, false, out
	}
	str := func(name string) (string, bool) {
		if v := given[name]; v != nil && v.Type == "str" {
			return v.Str, true
		}
		return "", false
	}
	reg := Registration{File: file, Line: n.Line, Column: n.Col, Func: fn, Backend: s.cfg.Markers[fn].Backend,
		EstTime: given["est_time"].Num, Labels: []string{}}
	reg.Stage, _ = str("stage")
	reg.RunnerConfig, _ = str("runner_config")
	if given["stage"] != nil && given["runner_config"] != nil {
		// effective_suite: f"{stage}-test-{runner_config}" when neither is None.
		st, ok1 := str("stage")
		rc, ok2 := str("runner_config")
		if ok1 && ok2 {
			reg.Suite = st + "-test-" + rc
		} else {
			reg.NoSuite = true
		}
	} else if v, ok := str("suite"); ok {
		reg.Suite = v
	} else {
		reg.NoSuite = true // suite=None
	}
	if v := given["nightly"]; v != nil {
		reg.Nightly = v.Bool
	}
	if v, ok := str("disabled"); ok {
		reg.Disabled = &v
	}
	reg.Group, _ = str("in_process_group")
	return reg, true, out
}

// suiteRepr is a registration's effective suite as Python's str() of it
// prints: None when there is none.
func (r Registration) suiteRepr() string {
	if r.NoSuite {
		return "None"
	}
	return r.Suite
}
