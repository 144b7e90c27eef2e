package testregistry

import (
	"testing"

	"github.com/cicheck/cicheck/pyparse"
)

// TestLoneSurrogates: a \u escape of a surrogate stays one code point in a
// Python str, and its repr shows it escaped; U+FFFD in its place changed
// the registration's values.
func TestLoneSurrogates(t *testing.T) {
	tests := []struct{ body, repr string }{
		{`b\udaa9`, `'b\udaa9'`},
		{`\ud83d\ude00`, `'\ud83d\ude00'`}, // two escapes stay two code points
		{`\u00e9\U0001F600`, "'é😀'"},       // near miss: real characters print
		{`\ufffd`, "'\ufffd'"},
	}
	for _, tc := range tests {
		calls, err := pyparse.Calls("f('"+tc.body+"')\n", pyparse.NewestMinor, func(n string) bool { return n == "f" }, nil)
		if err != nil || len(calls) != 1 || len(calls[0].Node.Elts) != 1 {
			t.Fatalf("%s: %v, %v", tc.body, calls, err)
		}
		if got := pyRepr(calls[0].Node.Elts[0].Str); got != tc.repr {
			t.Errorf("%s: repr %s, want %s", tc.body, got, tc.repr)
		}
	}
}
