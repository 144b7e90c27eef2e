package pyparse

import (
	"reflect"
	"testing"
)

// FindBindings answers for each symbol what FindBinding answers alone,
// whatever the other symbols' lines between.
func TestFindBindingsAgrees(t *testing.T) {
	syms := []string{"A", "B", "C", "D"}
	for _, src := range []string{
		"A = {1: 2}\nB = [A]\nC = (1,)\n",
		"A = 1\nB = 2\nA, B = B, A\n",               // rebinding both
		"A = {}\nB = {}\nA.update(B)\nB['k'] = 1\n", // mutations
		"A = [1]\nfor A in B:\n    pass\nC = 3\ndel C\n",
		"A = [1]; B = A\nC: dict[str, int] = {'a': 1}\nimport D\n",
		"A = (\n  B,\n)\nB = 1\n",
		"A = 1 +\n", // a syntax error: both fail alike
	} {
		got, err := FindBindings(src, syms, NewestMinor)
		for _, sym := range syms {
			want, werr := FindBinding(src, sym, NewestMinor)
			if (err != nil) != (werr != nil) {
				t.Fatalf("%q %s: error %v, alone %v", src, sym, err, werr)
			}
			if err != nil {
				continue
			}
			if !reflect.DeepEqual(got[sym], want) {
				t.Errorf("%q %s: %+v, alone %+v", src, sym, got[sym], want)
			}
		}
	}
}
