package testregistry

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

// Workflow files are .yml or .yaml (GitHub reads both); anything else in
// the directory, a note that happens to mention --suite, consumes nothing.
func TestWorkflowExtensionsNearMiss(t *testing.T) {
	files := repo(map[string]string{
		"tests/e2e/test_a.py": "register_cpu_ci(1, 'stage-a-cpu')\n",
		".github/workflows/pr-test.yaml": "jobs:\n  a:\n    steps:\n      - run: python tests/ci/run_suite.py --hw cpu --suite stage-a-cpu\n" +
			"      - run: python tests/ci/run_suite.py --hw cuda --suite=stage-c-8-gpu-h100\n",
		".github/workflows/notes.txt": "python tests/ci/run_suite.py --suite stage-b-cpu\n",
	})
	r, err := Scan(files, DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range r.Findings {
		if f.Rule == RuleSuiteNoConsumer {
			got = append(got, strings.SplitN(f.Message, " ", 3)[1])
		}
	}
	slices.Sort(got)
	want := []string{"'stage-b-2-gpu-h200'", "'stage-b-cpu'", "'stage-c-2-gpu-h200'", "'stage-c-4-gpu-h200'", "'stage-c-4-gpu-mi350'", "'stage-c-8-gpu-h200'"}
	if !slices.Equal(got, want) {
		t.Errorf("suites without a consumer: %v, want %v", got, want)
	}
}

func TestHasAnyPrefixSuffix(t *testing.T) {
	ps := []string{"tests/e2e/", "tests/unit/"}
	for s, want := range map[string]bool{"tests/e2e/a.py": true, "tests/unit/b.py": true, "tests/other/c.py": false, "": false} {
		if got := hasAnyPrefix(s, ps); got != want {
			t.Errorf("hasAnyPrefix(%q) = %v", s, got)
		}
	}
	if hasAnyPrefix("tests/e2e/a.py", nil) {
		t.Errorf("no prefixes: nothing matches")
	}
}

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
