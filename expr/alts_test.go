package expr

import (
	"strings"
	"testing"
)

// altsOf renders what a value may be: a known value itself, a OneOf
// value its alternatives (an unknown one as ?true / ?false / ?), anything
// else "unknown".
func altsOf(v Value) string {
	if v.Known() {
		return v.String()
	}
	if v.Kind != KindUnknown || len(v.Alts) == 0 || v.MayErr != "" {
		return "unknown"
	}
	parts := make([]string, len(v.Alts))
	for i, a := range v.Alts {
		parts[i] = a.String()
		if a.Kind == KindUnknown {
			parts[i] = "?" + a.Truth.String()
		}
	}
	return strings.Join(parts, " | ")
}

// TestAlternatives: what an expression over unknown facts may be. A
// comparison or test function is a boolean; an undecided guard chooses
// between its sides; each case beside its near miss.
func TestAlternatives(t *testing.T) {
	env := testEnv()
	env.Contexts["m"] = Object(map[string]Value{
		"cfg": OneOf("two rows", Object(map[string]Value{"runner": String("h100")}), Object(map[string]Value{"runner": String("t4")})),
		"os":  OneOf("two rows", String("linux"), String("arm")),
	})
	for _, c := range []struct{ src, want string }{
		{"vars.a == 'x'", "true | false"},
		{"!vars.a", "true | false"},
		{"contains(vars.a, 'x')", "true | false"},
		{"startsWith(vars.a, 'x')", "true | false"},
		{"vars.a == 'x' && 'h100' || 'cpu'", "'h100' | 'cpu'"},
		{"vars.a && 'h100' || 'cpu'", "'h100' | 'cpu'"},
		{"vars.a && 'h100'", "?false | 'h100'"},
		// Near misses: the unknown itself may be the value.
		{"vars.a || 'cpu'", "?true | 'cpu'"},
		{"vars.a && vars.b || 'cpu'", "unknown"},
		// A guard that may raise has no alternatives to offer.
		{"vars.a && fromJSON('') || 'cpu'", "unknown"},
		// Property access over one of several objects.
		{"m.cfg.runner", "'h100' | 't4'"},
		{"m.os == 'linux'", "true | false"},
		{"m.os == 'mac'", "false"},
		// Near miss: a property of one of several strings is null.
		{"m.os.x", "null"},
		// Known operands decide as before.
		{"'a' == 'A' && 'h100' || 'cpu'", "'h100'"},
	} {
		if got := altsOf(eval(t, c.src, env)); got != c.want {
			t.Errorf("%s = %s, want %s", c.src, got, c.want)
		}
	}
}
