package pyparse

import (
	"errors"
	"testing"
)

// CPython rejects an unparenthesized generator expression unless it is a
// call's only argument, wherever it stands among the arguments; a
// parenthesized one, or the only argument, is fine.
func TestGeneratorArgumentNearMiss(t *testing.T) {
	for src, bad := range map[string]bool{
		"f(x for x in y)":         false,
		"f((x for x in y), 1)":    false,
		"f(1, (x for x in y))":    false,
		"f(x for x in y, 1)":      true,
		"f(1, x for x in y)":      true,
		"f(1, 2, x for x in y)":   true,
		"f(a=1, x for x in y)":    true,
		"f(*a, x for x in y)":     true,
		"f(**k, x for x in y)":    true,
		"f(1, [x for x in y])":    false,
		"f(1, {x for x in y})":    false,
		"f(1, {x: 1 for x in y})": false,
	} {
		_, err := lexLines(src+"\n", true, nil)
		var se *SyntaxError
		got := errors.As(err, &se) && se.Msg == "Generator expression must be parenthesized"
		if got != bad {
			t.Errorf("%q: err = %v, want the generator error: %v", src, err, bad)
		}
	}
}

// A module-level binding is mutated by `del NAME[k]`, not by deleting an
// item of another name that merely uses it as a key.
func TestBindingDelNearMiss(t *testing.T) {
	for src, mutated := range map[string]bool{
		"LABELS = ['a', 'b']\ndel LABELS[0]\n":                    true,
		"LABELS = ['a', 'b']\nCACHE = {}\ndel CACHE[LABELS[0]]\n": false,
		"LABELS = ['a', 'b']\nLABELS.append('c')\n":               true,
		"LABELS = ['a', 'b']\nOTHER = list(LABELS)\n":             false,
	} {
		b, err := FindBinding(src, "LABELS", 14)
		if err != nil || b == nil {
			t.Fatalf("%q: %v, %v", src, b, err)
		}
		if (b.Mutated != nil) != mutated {
			t.Errorf("%q: mutated %v, want %v", src, b.Mutated != nil, mutated)
		}
	}
}

// A class with type parameters (PEP 695) parses through its bases and
// body; an unclosed parameter list is an error.
func TestClassTypeParamsNearMiss(t *testing.T) {
	for src, ok := range map[string]bool{
		"class C[T]:\n    x = 1\n":            true,
		"class C[T](Base):\n    pass\n":       true,
		"class C[T: (int, str)]:\n    pass\n": true,
		"class C[T:\n    pass\n":              false,
		"class C[T] x:\n    pass\n":           false,
	} {
		_, err := lexLines(src, true, nil)
		if (err == nil) != ok {
			t.Errorf("%q: err = %v, want ok=%v", src, err, ok)
		}
	}
}

// Old Mac (CR) and Windows (CRLF) line ends, including a file that ends
// in a lone CR, lex like LF.
func TestCarriageReturnEndsNearMiss(t *testing.T) {
	for _, src := range []string{"x = 1\r", "x = 1\r\ny = 2\r", "x = 1\ry = 2\r\n", "x = (1,\r 2)\r", "x = 1\n# note\r", "x = 1\n   \r"} {
		if _, err := lexLines(src, true, nil); err != nil {
			t.Errorf("%q: %v", src, err)
		}
	}
}
