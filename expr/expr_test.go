package expr

import (
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/rhysd/actionlint"
)

// testEnv: one direct need "x" that was skipped (no outputs), a need "a"
// that succeeded with outputs, a partly known github context, unknown vars.
func testEnv() *Env {
	needs := Object(map[string]Value{
		"x": Object(map[string]Value{"result": String("skipped"), "outputs": Object(nil)}),
		"a": Object(map[string]Value{"result": String("success"), "outputs": Object(map[string]Value{
			"list": String(`["a","b"]`), "flag": String("true"),
		})}),
		"u": Object(map[string]Value{"result": String("success"), "outputs": OpenObject(nil)}),
	})
	gh := OpenObject(nil).Set("event_name", String("schedule"))
	gh = gh.Set("event.pull_request.labels", Array(
		Object(map[string]Value{"name": String("run-gpu")}),
		Object(map[string]Value{"name": String("ci")}),
	))
	return &Env{
		Contexts: map[string]Value{"needs": needs, "github": gh, "vars": OpenObject(nil)},
		Success:  Bool(true), Failure: Bool(false), Cancelled: Bool(false),
	}
}

func eval(t *testing.T, src string, env *Env) Value {
	t.Helper()
	n, err := Parse(src)
	if err != nil {
		t.Fatalf("parse %q: %v", src, err)
	}
	return Eval(n, env)
}

func TestEvalValues(t *testing.T) {
	tests := []struct {
		src  string
		want string // Value.String()
	}{
		// §2 coercion and loose equality.
		{"null == 0", "true"},
		{"null == ''", "true"},
		{"null == false", "true"},
		{"true == 1", "true"},
		{"'' == 0", "true"},
		{"'abc' == 0", "false"},
		{"'abc' != 0", "true"},
		{"'1.0' == 1", "true"},
		{"' 0x10 ' == 16", "true"},
		{"'SUCCESS' == 'success'", "true"},
		{"'a' < 'B'", "true"},
		{"1 < 2", "true"},
		{"'x' < 1", "false"},
		{"'x' >= 1", "false"},
		{"2 >= 2", "true"},
		{"false < true", "true"},
		// && and || return operands.
		{"null || '[]'", "'[]'"},
		{"'a' && 'b'", "'b'"},
		{"0 && 'b'", "0"},
		{"!''", "true"},
		{"!'x'", "false"},
		// §6 missing outputs of a skipped job.
		{"needs.x.outputs.y", "null"},
		{"needs.x.outputs.y == ''", "true"},
		{"needs.x.outputs.y == 0", "true"},
		{"needs.x.outputs.y == false", "true"},
		{"needs.x.outputs.y == 'true'", "false"},
		{"needs.x.outputs.y != 'true'", "true"},
		{"toJSON(fromJSON(needs.x.outputs.y || '[]'))", "'[]'"},
		{"needs.x.result == 'skipped'", "true"},
		{"needs.nope.result", "null"},
		// functions
		{"contains('Hello', 'LL')", "true"},
		{"contains(fromJSON(needs.a.outputs.list), 'B')", "true"},
		{"contains(fromJSON(needs.a.outputs.list), 'c')", "false"},
		{"contains(github.event.pull_request.labels.*.name, 'run-GPU')", "true"},
		{"contains(github.event.pull_request.labels.*.name, 'other')", "false"},
		{"join(github.event.pull_request.labels.*.name, '+')", "'run-gpu+ci'"},
		{"join(github.event.pull_request.labels.*.name)", "'run-gpu,ci'"},
		{"join('abc', '-')", "'abc'"},
		{"startsWith('refs/heads/main', 'REFS/')", "true"},
		{"endsWith('refs/heads/main', 'MAIN')", "true"},
		{"format('{0}-{1} {{x}}', 'a', 1.5)", "'a-1.5 {x}'"},
		{"format('{0}', null)", "''"},
		{"format('{0}', true)", "'true'"},
		{"fromJSON('{\"A\":1}').a", "1"},
		{"fromJSON('[1,2]')[1]", "2"},
		{"fromJSON('[1,2]')[5]", "null"},
		{"toJSON(fromJSON('{\"b\":[1],\"a\":\"x\"}'))", "'{\n  \"a\": \"x\",\n  \"b\": [\n    1\n  ]\n}'"},
		{"fromJSON('0.1') == 0.1", "true"},
		{"github['event_name']", "'schedule'"},
		{"GitHub.Event_Name == 'SCHEDULE'", "true"},
		// status functions from the env
		{"always()", "true"},
		{"Always()", "true"},
		{"success()", "true"},
		{"!cancelled()", "true"},
		{"failure()", "false"},
		// evaluation errors
		{"fromJSON(needs.x.outputs.y)", "error: fromJSON: empty input is not JSON"},
		{"fromJSON('{')", "error: fromJSON: unexpected EOF"},
		{"format('{1}', 'a')", "error: the format string references more arguments than were supplied: {1}"},
		{"format('{x}', 'a')", "error: the format string is invalid: {x}"},
		{"false && fromJSON('')", "false"},
		// unknowns propagate and never get guessed
		{"vars.gpu == 'true'", "unknown"},
		{"github.ref", "unknown"},
		{"needs.u.outputs.y", "unknown"},
		{"inputs.x", "unknown"},
		{"success('a')", "unknown"},
		{"hashFiles('**')", "unknown"},
		{"vars.a && false", "unknown"},
		{"!(vars.a && false)", "true"},
		{"!(vars.a || true)", "false"},
		{"vars.a || 'x'", "unknown"},
		{"false && vars.a", "false"},
		{"true || vars.a", "true"},
		{"contains(vars.list, 'x')", "unknown"},
	}
	for _, tt := range tests {
		got := eval(t, tt.src, testEnv())
		if got.String() != tt.want {
			t.Errorf("%s = %s (%s), want %s", tt.src, got.String(), got.Why, tt.want)
		}
	}
}

func TestUnknownReasonsAndTruth(t *testing.T) {
	env := testEnv()
	v := eval(t, "vars.gpu == 'true' && github.ref == 'x'", env)
	if v.Kind != KindUnknown || v.Why != "vars.gpu is not given" {
		t.Errorf("got %+v", v)
	}
	if got := eval(t, "vars.a && false", env).Truthy(); got != No {
		t.Errorf("vars.a && false truthiness = %v, want false", got)
	}
	if got := eval(t, "vars.a || true", env).Truthy(); got != Yes {
		t.Errorf("vars.a || true truthiness = %v, want true", got)
	}
	if got := eval(t, "vars.a && fromJSON('')", env); got.Kind != KindUnknown || got.MayErr == "" {
		t.Errorf("vars.a && fromJSON('') = %+v, want unknown that may raise", got)
	}
	if got := eval(t, "success()", &Env{}); got.Kind != KindUnknown || got.Why != "success() is not known" {
		t.Errorf("success() with empty env = %+v", got)
	}
}

func TestNaN(t *testing.T) {
	if !math.IsNaN(parseNumber("abc")) || !math.IsNaN(parseNumber("inf")) || parseNumber("") != 0 || parseNumber("1e3") != 1000 {
		t.Error("parseNumber mismatch")
	}
	for _, s := range []string{"'abc' == 'abc' && 'x' == 1", "fromJSON('1') == 'NaN'"} {
		_ = eval(t, s, nil)
	}
	if got := eval(t, "'abc' < 1 || 'abc' > 1 || 'abc' == 1", nil); got.String() != "false" {
		t.Errorf("NaN comparisons: %s", got)
	}
}

// Spec §3 table: whether GitHub adds the implicit success().
func TestConditionImplicit(t *testing.T) {
	tests := []struct {
		raw       string
		status    []string
		effective string
	}{
		{"", nil, "success()"},
		{"  ", nil, "success()"},
		{"github.event_name == 'push'", nil, "success() && github.event_name == 'push'"},
		{"${{ !cancelled() }}", []string{"cancelled"}, "!cancelled()"},
		{"failure() || github.ref == 'refs/heads/main'", []string{"failure"}, "failure() || github.ref == 'refs/heads/main'"},
		{"needs.a.result == 'success' || always()", []string{"always"}, "needs.a.result == 'success' || always()"},
		{"contains(format('{0}', Always()), 'x')", []string{"always"}, "contains(format('{0}', Always()), 'x')"},
		{"'always()' == 'x'", nil, "success() && 'always()' == 'x'"},
		{"needs.a.result == 'failure'", nil, "success() && needs.a.result == 'failure'"},
		{"${{ false }}\n", nil, "success()"},
		{"x ${{ always() }}", []string{"always"}, "true"},
		{"a || b", nil, "success() && (a || b)"},
		{"SUCCESS() && !Cancelled()", []string{"cancelled", "success"}, "SUCCESS() && !Cancelled()"},
	}
	for _, tt := range tests {
		c := ParseCondition(tt.raw)
		if c.Err != nil {
			t.Errorf("%q: %v", tt.raw, c.Err)
			continue
		}
		if !reflect.DeepEqual(c.Status, tt.status) && (len(c.Status) != 0 || len(tt.status) != 0) {
			t.Errorf("%q: status %v, want %v", tt.raw, c.Status, tt.status)
		}
		if got := Render(c.Effective()); got != tt.effective {
			t.Errorf("%q: effective %q, want %q", tt.raw, got, tt.effective)
		}
	}
	if c := ParseCondition("${{ a == }}"); c.Err == nil || c.Effective() != nil || c.Eval(nil).Kind != KindError {
		t.Errorf("parse error not reported: %+v", c)
	}
}

func TestIsTemplated(t *testing.T) {
	for raw, want := range map[string]bool{
		"${{ a }}":          false,
		"a":                 false,
		" ${{ a }}":         true,
		"${{ a }}\n":        true,
		"${{ a }}${{ b }}":  true,
		"x == ${{ a }}":     true,
		"${{ a }} && ${{b}": true,
	} {
		if got := IsTemplated(raw); got != want {
			t.Errorf("IsTemplated(%q) = %v, want %v", raw, got, want)
		}
	}
}

// Spec §12: the seed-003 incident, evaluated for docker-build with the
// nightly policy outputs.
func TestSeed003DockerBuild(t *testing.T) {
	raw := "always() && !cancelled() && needs.resolve-ci-policy.result == 'success' && (needs.stage-a-cpu.result == 'success' || needs.resolve-ci-policy.outputs.bypass_fastfail == 'true')"
	needs := Object(map[string]Value{
		"resolve-ci-policy": Object(map[string]Value{"result": String("success"), "outputs": Object(map[string]Value{"bypass_fastfail": String("true"), "skipped_stages": String("[]")})}),
		"stage-a-cpu":       Object(map[string]Value{"result": String("failure"), "outputs": Object(nil)}),
	})
	env := &Env{Contexts: map[string]Value{"needs": needs}, Success: Bool(false), Failure: Bool(true), Cancelled: Bool(false)}
	if got := ParseCondition(raw).Eval(env); got.Truthy() != Yes {
		t.Errorf("docker-build condition = %s, want truthy", got)
	}
	// resolve-ci-image has no if: success() over a closure containing the failure.
	if got := ParseCondition("").Eval(env); got.Truthy() != No {
		t.Errorf("resolve-ci-image condition = %s, want false", got)
	}
}

func TestRender(t *testing.T) {
	for _, src := range []string{
		"!(a && b) || c == 'x''y'",
		"a && (b || c)",
		"(a || b) && c",
		"github.event.labels.*.name[0]",
		"f(1, 2.5, null, true)",
	} {
		n, err := Parse(src)
		if err != nil {
			t.Fatal(err)
		}
		if got := Render(n); got != src {
			t.Errorf("Render(%q) = %q", src, got)
		}
	}
}

func TestSet(t *testing.T) {
	base := OpenObject(nil)
	a := base.Set("x.y", String("1"))
	b := a.Set("x.z", String("2"))
	if a.Get("x").Get("z").Kind != KindUnknown || b.Get("X").Get("Y").Str != "1" {
		t.Error("Set must copy and keep earlier keys")
	}
	if len(base.Fields) != 0 {
		t.Error("Set mutated its receiver")
	}
}

func FuzzEval(f *testing.F) {
	for _, s := range []string{
		"always() && !cancelled() && needs.a.result == 'success'",
		"contains(fromJSON(needs.a.outputs.list || '[]'), 'x')",
		"format('{0}{{}}', github.event.pull_request.labels.*.name)",
		"fromJSON('[[1],[2]]').*[0]",
		"!(vars.a || success('x')) <= 0x1F",
		"toJSON(github)", "join(needs.*.result, ', ')", "needs['a'].outputs['flag'] != 'TRUE'",
		"1e400 == -0", "'a' < 'b' > 'c'",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		if len(src) > 2000 {
			return
		}
		n, err := Parse(src)
		if err == nil {
			v := Eval(n, testEnv())
			_ = v.String()
			_ = v.Truthy()
			_ = Render(n)
			_ = StatusCalls(n)
		}
		c := ParseCondition(src)
		_ = c.Eval(testEnv())
		if strings.Contains(src, "${{") {
			_ = IsTemplated(src)
		}
	})
}

func TestRenderReplace(t *testing.T) {
	n, _ := Parse("always() && needs.a.result == 'success' || ALWAYS()")
	got := RenderReplace(n, func(x actionlint.ExprNode) (string, bool) {
		if c, ok := x.(*actionlint.FuncCallNode); ok && strings.EqualFold(c.Callee, "always") {
			return "!cancelled()", true
		}
		return "", false
	})
	if want := "!cancelled() && needs.a.result == 'success' || !cancelled()"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// A OneOf value (a result that is cancelled or skipped) decides the
// comparisons every alternative agrees on and nothing else.
func TestOneOf(t *testing.T) {
	env := testEnv()
	env.Contexts["x"] = Object(map[string]Value{"r": OneOf("cancelled or skipped", String("cancelled"), String("skipped"))})
	for _, r := range []struct {
		src  string
		want Tri
	}{
		{"x.r == 'success'", No},
		{"x.r != 'success'", Yes},
		{"x.r == 'SKIPPED'", Maybe},
		{"x.r != 'cancelled'", Maybe},
		{"x.r", Yes},
		{"!x.r", No},
		{"x.r == x.r", Maybe},
		{"contains(x.r, 'x')", Maybe},
	} {
		if got := eval(t, r.src, env).Truthy(); got != r.want {
			t.Errorf("%s = %v, want %v", r.src, got, r.want)
		}
	}
}

// TestParseNumberAsRunner: the runner's ExpressionUtility.ParseNumber
// (actions/runner src/Sdk/DTExpressions2/Expressions2/Sdk/ExpressionUtility.cs),
// case by case: lower-case 0x and 0o only, no 0b, 32-bit two's complement,
// a decimal with sign, point and exponent, nothing else.
func TestParseNumberAsRunner(t *testing.T) {
	nan := math.NaN()
	for _, c := range []struct {
		in   string
		want float64
	}{
		{"", 0}, {"  ", 0}, {" 12 ", 12}, {"+1", 1}, {"-1.5", -1.5}, {"1.", 1}, {".5", 0.5}, {"1e3", 1000},
		{"1E-2", 0.01}, {"1e", nan}, {".", nan}, {"+", nan}, {"1_000", nan}, {"1,000", nan}, {"0x10", 16},
		{"0X10", nan}, {"0o17", 15}, {"0O17", nan}, {"0b101", nan}, {"0x", nan}, {"0xg", nan}, {"0o8", nan},
		{"0xffffffff", -1}, {"0x7fffffff", 2147483647}, {"0x100000000", nan}, {"0o37777777777", -1},
		{"-0x10", nan}, {"Infinity", math.Inf(1)}, {"-Infinity", math.Inf(-1)}, {"1e999", math.Inf(1)},
		{"abc", nan}, {"0x0000000f", 15}, {"010", 10},
	} {
		got := parseNumber(c.in)
		if got != c.want && !(math.IsNaN(got) && math.IsNaN(c.want)) {
			t.Errorf("parseNumber(%q) = %v, want %v", c.in, got, c.want)
		}
	}
}

func FuzzParseNumber(f *testing.F) {
	for _, s := range []string{"", "1", "-1.5e3", "0x1f", "0o17", "0b1", "Infinity", " 7 ", "1e999"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		a, b := parseNumber(s), parseNumber(s)
		if a != b && !(math.IsNaN(a) && math.IsNaN(b)) {
			t.Fatalf("parseNumber(%q) not deterministic", s)
		}
		// Hex and octal are 32-bit integers: never beyond that range.
		if t := strings.TrimSpace(s); (strings.HasPrefix(t, "0x") || strings.HasPrefix(t, "0o")) && !math.IsNaN(a) && (a > math.MaxInt32 || a < math.MinInt32) {
			panic(fmt.Sprintf("parseNumber(%q) = %v out of 32 bits", s, a))
		}
	})
}

// evalText parses and evaluates src and renders the result, naming an
// error and an unknown by their kind.
func evalText(t *testing.T, src string, env *Env) (string, Value) {
	t.Helper()
	n, err := Parse(src)
	if err != nil {
		t.Fatalf("%s: %v", src, err)
	}
	v := Eval(n, env)
	switch v.Kind {
	case KindError:
		return "error", v
	case KindUnknown:
		return "unknown", v
	}
	return v.Text(), v
}

// TestCase: case() as the runner's Functions/Case.cs evaluates it.
func TestCase(t *testing.T) {
	env := &Env{Contexts: map[string]Value{"github": OpenObject(map[string]Value{"ref": String("refs/heads/main")})}}
	for src, want := range map[string]string{
		"case(github.ref == 'refs/heads/main', 'prod', 'dev')":               "prod",
		"case(github.ref == 'refs/heads/x', 'prod', 'dev')":                  "dev",
		"case(false, fromJSON(''), true, 'second', 'default')":               "second",
		"case(github.ref == 'refs/heads/main', 'a', fromJSON(''), 'b', 'c')": "a",
		"case('yes', 'a', 'b')":                                              "error",
		"case(true, 'a')":                                                    "error",
		"case(github.event_name == 'push', 'a', 'b')":                        "unknown",
	} {
		got, v := evalText(t, src, env)
		if got != want {
			t.Errorf("%s = %s (%+v), want %s", src, got, v, want)
		}
	}
}

// TestRunnerIndexAndCollections pins behaviour read off the runner's code
// (Operators/Index.cs, Functions/FromJson.cs, Contains.cs, Join.cs,
// ToJson.cs): array indexes converted to numbers and capped at Int32, the
// index not evaluated on a non-collection, string indexes on objects,
// unknown elements keeping collection functions undecided, fromJSON key
// collisions resolved by document order, numeric overflow infinite.
func TestRunnerIndexAndCollections(t *testing.T) {
	env := &Env{Contexts: map[string]Value{
		"needs": Object(map[string]Value{"a": Object(map[string]Value{"result": Unknown("a may or may not run")})}),
		"arr":   Array(String("x"), Unknown("not given")),
	}}
	for src, want := range map[string]string{
		"fromJSON('[1]')[1e19]":               "null",
		"fromJSON('[[1,2],[3,4]]').*[9.3e18]": "[]",
		"fromJSON('[\"a\",\"b\"]')['1']":      "b",
		"fromJSON('[\"a\",\"b\"]')[true]":     "b",
		"fromJSON('[\"a\",\"b\"]')[1.9]":      "b",
		"fromJSON('[\"a\",\"b\"]')[-1]":       "null",
		"fromJSON('{\"1\": \"x\"}')[1]":       "x",
		"fromJSON('[[1,2],[3,4]]').*['1']":    "[2, 4]",
		"fromJSON('[{\"1\": \"x\"}]').*[1]":   "[x]",
		"fromJSON('null')[fromJSON('')]":      "null",
		"contains(toJSON(needs), 'failure')":  "unknown",
		"join(arr)":                           "unknown",
		"contains(arr, 'y')":                  "unknown",
		"contains(arr, 'x')":                  "true",
		"fromJSON('{\"a\": 1, \"A\": 2}').a":  "2",
		"fromJSON('1e400') > 0":               "true",
		"fromJSON('{')":                       "error",
	} {
		got, v := evalText(t, src, env)
		switch v.Kind {
		case KindNull:
			got = "null"
		case KindArray:
			parts := make([]string, len(v.Elems))
			for i, el := range v.Elems {
				parts[i] = el.Text()
			}
			got = "[" + strings.Join(parts, ", ") + "]"
		}
		if got != want {
			t.Errorf("%s = %s, want %s", src, got, want)
		}
	}
}

// TestFormatAsRunner: format() as Functions/Format.cs evaluates it: the
// format string first, then only the arguments it uses.
func TestFormatAsRunner(t *testing.T) {
	env := &Env{Contexts: map[string]Value{"vars": OpenObject(nil)}}
	for src, want := range map[string]string{
		"format('{0}-{1}-{0}', 'a', 'b')":  "a-b-a",
		"format('{{{0}}}', 'x')":           "{x}",
		"format('x', fromJSON(''))":        "x",
		"format('static', vars.X)":         "static",
		"format('{1}', fromJSON(''), 'b')": "b",
		"format('{0}', fromJSON(''))":      "error",
		"format('{0:N2}', 1)":              "error",
		"format('{0 }', 'a')":              "error",
		"format('{0abc}', 1)":              "error",
		"format('{1}', 'a')":               "error",
		"format('{256}', 'a')":             "error",
		"format('}', 'a')":                 "error",
		"format('{0}', vars.X)":            "unknown",
	} {
		got, v := evalText(t, src, env)
		if got != want {
			t.Errorf("%s = %s (%s), want %s", src, got, v.Why, want)
		}
	}
}

// TestNumberKeywords: NaN and Infinity are number literals for the runner
// (case-sensitive); nan is a context name.
func TestNumberKeywords(t *testing.T) {
	env := &Env{Contexts: map[string]Value{}}
	for src, want := range map[string]string{
		"NaN == NaN":              "false",
		"Infinity > 1e308":        "true",
		"format('{0}', Infinity)": "Infinity",
		"nan":                     "unknown",
	} {
		got, _ := evalText(t, src, env)
		if got != want {
			t.Errorf("%s = %s, want %s", src, got, want)
		}
	}
}

// TestNumberToString: numbers become strings with .NET's "G15", the
// runner's ExpressionConstants.NumberFormat.
func TestNumberToString(t *testing.T) {
	for in, want := range map[float64]string{
		1e15: "1E+15", 0.00001: "1E-05", 123.456789012345678: "123.456789012346", 1234567890123456: "1.23456789012346E+15",
		1.5e300: "1.5E+300", 100: "100", 0.1: "0.1", 1e14: "100000000000000", 0.0001: "0.0001", -2.5: "-2.5",
		math.Inf(1): "Infinity", math.Inf(-1): "-Infinity",
	} {
		if got := formatNumber(in); got != want {
			t.Errorf("formatNumber(%v) = %s, want %s", in, got, want)
		}
	}
	if formatNumber(math.NaN()) != "NaN" {
		t.Error("NaN")
	}
}

func TestToJSONEscaping(t *testing.T) {
	n, _ := Parse("toJSON('a<b>&c')")
	if got := Eval(n, &Env{}).Text(); got != `"a<b>&c"` {
		t.Errorf("toJSON('a<b>&c') = %s", got)
	}
	n, _ = Parse("contains(toJSON(fromJSON('[\"run & test\"]')), 'run & test')")
	if got := Eval(n, &Env{}).Text(); got != "true" {
		t.Errorf("contains over toJSON with & = %s", got)
	}
}
