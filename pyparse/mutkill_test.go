package pyparse

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// cpython311Case is a source with CPython 3.11's verdict on it:
// compile(src, "<nearmiss>", "exec") raising "line:col msg" (col is the
// SyntaxError's offset), or "" when it compiles. The file name must name
// no file: CPython 3.11 converts the offset over the line of a file of
// that name when one exists, and clamps it to that line's length.
type cpython311Case struct{ src, want string }

// checkCPython311 compares cicheck's verdict on each source with want and,
// when REGISTRY_PYTHON names an interpreter (CPython 3.11), want with the
// interpreter's, so that the table stays the oracle's.
func checkCPython311(t *testing.T, cases []cpython311Case) {
	t.Helper()
	for _, c := range cases {
		_, err := lexLinesFor(c.src, 11, true, nil)
		got := ""
		var se *SyntaxError
		if errors.As(err, &se) {
			got = fmt.Sprintf("%d:%d %s", se.Line, se.Col, se.Msg)
		} else if err != nil {
			got = "error: " + err.Error()
		}
		if got != c.want {
			t.Errorf("%q:\n  got  %q\n  want %q", c.src, got, c.want)
		}
	}
	py := os.Getenv("REGISTRY_PYTHON")
	if py == "" {
		return
	}
	srcs := make([]string, len(cases))
	for i, c := range cases {
		srcs[i] = c.src
	}
	in, err := json.Marshal(srcs)
	if err != nil {
		t.Fatal(err)
	}
	const script = `import json, sys, warnings
warnings.simplefilter("ignore")
out = []
for s in json.load(sys.stdin):
    try:
        compile(s, "<nearmiss>", "exec")
        out.append("")
    except SyntaxError as e:
        out.append("%d:%d %s" % (e.lineno or 0, e.offset or 0, e.msg))
json.dump(out, sys.stdout)
`
	cmd := exec.Command(py, "-c", script)
	cmd.Stdin = strings.NewReader(string(in))
	b, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s: %v", py, err)
	}
	var want []string
	if err := json.Unmarshal(b, &want); err != nil {
		t.Fatal(err)
	}
	for i, c := range cases {
		if want[i] != c.want {
			t.Errorf("%q: the table says %q, %s says %q", c.src, c.want, py, want[i])
		}
	}
}

// TestEscapesNearMiss: escape decoding at the edges of its ranges.
func TestEscapesNearMiss(t *testing.T) {
	checkCPython311(t, []cpython311Case{
		// The largest code point is legal, one more is not.
		{`x = "\U0010ffff"`, ""},
		{`x = "\U00110000"`, "1:17 (unicode error) 'unicodeescape' codec can't decode bytes in position 0-9: illegal Unicode character"},
		// \N{} names ignore ASCII case, down to a lone 'a' or 'z'.
		{`x = "\N{LATIN SMALL LETTER a}"`, ""},
		{`x = "\N{LATIN SMALL LETTER z}"`, ""},
		{`x = "\N{latin small letter z}"`, ""},
		{`x = "\N{LATIN SMALL LETTEr z}"`, ""},
		{`x = "\N{LATIN SMALL LETTER {}"`, "1:31 (unicode error) 'unicodeescape' codec can't decode bytes in position 0-23: unknown Unicode character name"},
	})
}

// TestArgumentsNearMiss: call arguments and what CPython's
// invalid_arguments rule reads after a keyword argument: a later argument
// that does not parse leaves the bracket unclosed, one that only starts
// an expression is a positional argument after a keyword one; a
// generator argument alone needs no parentheses.
func TestArgumentsNearMiss(t *testing.T) {
	checkCPython311(t, []cpython311Case{
		{"f(b=1,c,*", "1:2 '(' was never closed"},
		{"f(a=1,b,f", "1:2 '(' was never closed"},
		{"i(e=0,u,e=", "1:2 '(' was never closed"},
		{"f(a=1,b,if", "1:9 positional argument follows keyword argument"},
		{"f(a for a in b)", ""},
		{"f(a for a in b, c)", "1:3 Generator expression must be parenthesized"},
		{"(:=", "1:2 invalid syntax"},
		{"i(e=0,u+", "1:2 '(' was never closed"},
		{"f(a=1,b. 1", "1:10 positional argument follows keyword argument"},
		{"f(a=1, b.c)", "1:11 positional argument follows keyword argument"},
		{"{{}=f", "1:1 '{' was never closed"},
	})
}

// TestLegacyAndGroupsNearMiss: the legacy print/exec rule, the operand
// after a unary operator, and the comma hint's placement in groups.
func TestLegacyAndGroupsNearMiss(t *testing.T) {
	checkCPython311(t, []cpython311Case{
		{"print-1^", "1:1 Missing parentheses in call to 'print'. Did you mean print(...)?"},
		{"exec''>", "1:1 Missing parentheses in call to 'exec'. Did you mean exec(...)?"},
		{"(exec e,", "1:1 '(' was never closed"},
		{"x=not a=", "1:3 cannot assign to expression"},
		{"[(+\nb if c)", "1:1 '[' was never closed"},
		{"[x (a +\nb if c)", "1:1 '[' was never closed"},
		{"%{\ny", "1:1 invalid syntax"},
		{`if""{`, "1:5 '{' was never closed"},
		{"[c 1", "1:1 '[' was never closed"},
		{"(()'')", "1:2 invalid syntax. Perhaps you forgot a comma?"},
		{"({}e)", "1:2 invalid syntax. Perhaps you forgot a comma?"},
	})
}

// TestFString311NearMiss: CPython 3.11's f-string scanner
// (fstring_find_literal, fstring_find_expr): \N escapes in literal parts
// and format specs, raw f-strings, unclosed fields and empty ones.
func TestFString311NearMiss(t *testing.T) {
	checkCPython311(t, []cpython311Case{
		{`f'\N'`, `1:6 (unicode error) 'unicodeescape' codec can't decode bytes in position 0-1: malformed \N character escape`},
		{`fr'\N'`, ""},
		{`f'{a:\N'`, `1:9 (unicode error) 'unicodeescape' codec can't decode bytes in position 0-1: malformed \N character escape`},
		{`f"\U"''`, `1:8 (unicode error) 'unicodeescape' codec can't decode bytes in position 0-1: truncated \UXXXXXXXX escape`},
		{`f'{'{\`, "1:5 f-string: expecting '}'"},
		{`f"{<{"`, "1:7 f-string: unmatched '{'"},
		{`f"{b="`, "1:7 f-string: expecting '}'"},
		{`f'{a!'`, "1:7 f-string: expecting '}'"},
		{`f'{ }'`, "1:7 f-string: empty expression not allowed"},
		// A quote near the end of the field: a string that never closes.
		{`f"""{'''a''"""`, "1:15 f-string: unterminated string"},
		{`f"{''"`, "1:7 f-string: expecting '}'"},
		{`f"""{'''a'''}"""`, ""},
		// 200 open brackets are too many for the f-string scanner; 200
		// in all, with the parenthesis compile adds, for the tokenizer.
		{"f'{" + strings.Repeat("(", 201) + "x" + strings.Repeat(")", 201) + "}'", "1:409 f-string: too many nested parenthesis"},
		{"f'{" + strings.Repeat("(", 200) + "x" + strings.Repeat(")", 200) + "}'", "1:201 too many nested parentheses"},
		{"f'{" + strings.Repeat("(", 199) + "x" + strings.Repeat(")", 199) + "}'", ""},
	})
}

// TestTokenizerNearMiss: line continuations, number literals, the legacy
// print rule at the end of a line, and 3.11 f-strings that end their line
// inside a replacement field (unterminated there, not 3.12 grammar).
func TestTokenizerNearMiss(t *testing.T) {
	checkCPython311(t, []cpython311Case{
		{"\\\n ", ""},
		{"\\\n\n", ""},
		{"x 1\n=\\", "1:3 invalid syntax"},
		{`'\x'\`, "1:6 unexpected EOF while parsing"},
		{"...", ""},
		{"0o7", ""},
		{"1z", "1:1 invalid decimal literal"},
		{"print-", "1:7 invalid syntax"},
		{"print-1\n(\n!", "2:1 '(' was never closed"},
		{"match x:\n case[1]if", "2:11 invalid syntax"},
		{"F'{f'' '", "1:9 f-string: expecting '}'"},
		{"f'{a!r", "1:1 unterminated string literal (detected at line 1)"},
		{"f'{\nlambda}'", "1:1 unterminated string literal (detected at line 1)"},
		{"f\"{!=}{\nc}\"", "1:1 unterminated string literal (detected at line 1)"},
		{"f'{#\n}'", "1:1 unterminated string literal (detected at line 1)"},
	})
}

// TestLongFlatExpressions: thousands of sibling expressions are no
// nesting; the depth limit counts only enclosing ones.
func TestLongFlatExpressions(t *testing.T) {
	items := strings.Repeat("1, ", 5000)
	checkCPython311(t, []cpython311Case{
		{"x = [" + items + "]", ""},
		{"f(" + items + ")", ""},
	})
}

// TestUnescapeCodePointEdges: a \x, \u or octal escape's code point at the
// edges of ASCII and of the surrogates (kept as their generalized UTF-8,
// as a Python str keeps a lone surrogate).
func TestUnescapeCodePointEdges(t *testing.T) {
	for _, c := range []struct{ body, want string }{
		{`\x7f`, "\x7f"},
		{`\x80`, "\u0080"},
		{`\200`, "\u0080"},
		{`\ud7ff`, "\ud7ff"},
		{`\ud800`, "\xed\xa0\x80"},
		{`\udfff`, "\xed\xbf\xbf"},
		{`\ue000`, "\ue000"},
	} {
		if got := unescape(c.body, false); got != c.want {
			t.Errorf("unescape(%q) = %q, want %q", c.body, got, c.want)
		}
	}
}

// TestStatementsNearMiss: a 3.11 'type' is a name, whatever follows it;
// the comma hint starts at a 'not'; an unclosed bracket before a later
// error; parameters' defaults and strings that mix bytes.
func TestStatementsNearMiss(t *testing.T) {
	checkCPython311(t, []cpython311Case{
		{"type", ""},
		{"type i", "1:6 invalid syntax"},
		{"type X&", "1:6 invalid syntax"},
		{"[not f x]", "1:2 invalid syntax. Perhaps you forgot a comma?"},
		{"x{{}=f'{'", "1:2 '{' was never closed"},
		{"{{}f'}'{", "1:8 f-string: single '}' is not allowed"},
		{"def f(c=''s", "1:6 '(' was never closed"},
		{"x&p''b''", "1:9 cannot mix bytes and nonbytes literals"},
	})
}

// TestUnclosedLineAfterDecoratorNearMiss: a line whose bracket the file
// leaves open is still a line that cannot stand where it stands: after a
// decorator (a typo in its def), in a match block, an elif or except
// without its statement, after a try block. CPython's parser fails at its
// first token, before the bracket, so neither the missing-comma hint nor
// "'[' was never closed" is raised. The near misses keep both: the same
// lines without the decorator, a decorated def's own brackets and body,
// and the hint across one- and multi-line brackets. CPython 3.12.1 and
// 3.13.0 give every row the same answer (checked by hand), so the rows
// hold for 3.12 and 3.13 targets too; 3.14 is unchecked (no interpreter).
func TestUnclosedLineAfterDecoratorNearMiss(t *testing.T) {
	unittestFile := "import unittest\n\n\nclass TestX(unittest.TestCase):\n    @classmethod\n    d[ef setUpClass(cls):\n        cls.x = 1\n\n" +
		"    def test_a(self):\n        self.assertTrue(True)\n\n\nif __name__ == \"__main__\":\n    unittest.main()\n"
	cases := []cpython311Case{
		{unittestFile, "6:5 invalid syntax"},
		{"@c\nd[ef f(x):\n    y = 1\n", "2:1 invalid syntax"},
		{"@c\nd[ef f\n", "2:1 invalid syntax"},
		{"@c\nd[ef f]\n", "2:1 invalid syntax"},
		{"@c\nx = [a b\n", "2:1 invalid syntax"},
		{"@c\n# x\nd[ef f(a b):\n", "3:1 invalid syntax"},
		{"@c\nd[ef f\n$\n", "2:1 invalid syntax"},
		{"@c\nd[ef f\n'\n", "3:1 unterminated string literal (detected at line 3)"}, // a tokenizer error after it wins
		{"match x:\n    cas[e 1 2:\n        pass\n", "2:5 invalid syntax"},
		{"x = 1\nelif (a b:\n    pass\n", "2:1 invalid syntax"},
		{"x = 1\nexcept (a b:\n    pass\n", "2:1 invalid syntax"},
		{"try:\n    pass\nx = (a b\n", "3:1 expected 'except' or 'finally' block"},
		// Near misses: the hint where the line can stand.
		{"d[ef setUpClass(cls):\n    cls.x = 1\n", "1:3 invalid syntax. Perhaps you forgot a comma?"},
		{"class T:\n    d[ef setUpClass(cls):\n        cls.x = 1\n\n    def test_a(self):\n        self.assertTrue(True)\n", "2:7 invalid syntax. Perhaps you forgot a comma?"},
		{"[a b]\n", "1:2 invalid syntax. Perhaps you forgot a comma?"},
		{"f(a b)\n", "1:3 invalid syntax. Perhaps you forgot a comma?"},
		{"[a\n b]\n", "1:2 invalid syntax. Perhaps you forgot a comma?"},
		{"f(a\n b)\n", "1:3 invalid syntax. Perhaps you forgot a comma?"},
		{"[a b c\n", "1:2 invalid syntax. Perhaps you forgot a comma?"},
		{"[a b:\n    c = 1\n", "1:2 invalid syntax. Perhaps you forgot a comma?"},
		{"[a b\n", "1:1 '[' was never closed"},
		{"f(a b\n", "1:2 '(' was never closed"},
		{"@c\ndef f():\n    [a b:\n        pass\n", "3:6 invalid syntax. Perhaps you forgot a comma?"},
		{"@c\ndef f(a, b\n", "2:6 '(' was never closed"},
		{"@c\n@d[a b\n", "2:3 '[' was never closed"},
		{"@c\n@d[a b:\n", "2:4 invalid syntax. Perhaps you forgot a comma?"},
		{"@c\nasync def f(a b\n", "2:15 invalid syntax"},
		{"if x:\n    pass\nelif (a b:\n    pass\n", "3:7 invalid syntax. Perhaps you forgot a comma?"},
		{"try:\n    pass\nexcept (A B:\n    pass\n", "3:9 invalid syntax. Perhaps you forgot a comma?"},
	}
	checkCPython311(t, cases)
	checkNewerMinors(t, cases)
}

// TestCasePatternCommaNearMiss: in a match block a line is only ever a
// case block, and its patterns are no expressions, so the missing-comma
// hint is CPython's in the guard alone; a bracket the file leaves open in
// the pattern changes nothing. The near misses: the same juxtaposition in
// the guard, in a match subject, in a case block's body, and a "case"
// line outside a match block (an expression statement). CPython 3.12.1
// and 3.13.0 agree on every row (checked by hand); 3.14 is unchecked.
func TestCasePatternCommaNearMiss(t *testing.T) {
	cases := []cpython311Case{
		{"match x:\n    case [a b]:\n        pass\n", "2:13 invalid syntax"},
		{"match x:\n    case (a b):\n        pass\n", "2:13 invalid syntax"},
		{"match x:\n    case [a b:\n        pass\n", "2:13 invalid syntax"},
		{"match x:\n    case [a b\n", "2:13 invalid syntax"},
		{"match x:\n    case [a, b:\n        pass\n", "2:15 invalid syntax"},
		{"match x:\n    case {a b:\n        pass\n", "2:13 invalid syntax"},
		{"match x:\n    case f(a b:\n        pass\n", "2:14 invalid syntax"},
		{"match x:\n    case {'k': (a b:\n        pass\n", "2:19 invalid syntax"},
		{"match x:\n    case 1 | [a b]:\n        pass\n", "2:17 invalid syntax"},
		{"match x:\n    case [a b] if [c d]:\n        pass\n", "2:13 invalid syntax"},
		{"match x:\n    case 1:\n        pass\n    case [a b]:\n        pass\n", "4:13 invalid syntax"},
		{"match x:\n    case = 1\n", "2:10 invalid syntax"},
		{"match x:\n    case[1]: int = 2\n", ""},
		// Near misses: the hint where an expression is parsed.
		{"match x:\n    case 1 if [a b]:\n        pass\n", "2:16 invalid syntax. Perhaps you forgot a comma?"},
		{"match x:\n    case 1 if [a b:\n        pass\n", "2:16 invalid syntax. Perhaps you forgot a comma?"},
		{"match x:\n    case [1] if f(a b):\n        pass\n", "2:19 invalid syntax. Perhaps you forgot a comma?"},
		{"match x:\n    case 1 if print x:\n        pass\n", "2:15 Missing parentheses in call to 'print'. Did you mean print(...)?"},
		{"match [a b:\n    case 1:\n        pass\n", "1:8 invalid syntax. Perhaps you forgot a comma?"},
		{"match x:\n    case 1:\n        [a b]\n", "3:10 invalid syntax. Perhaps you forgot a comma?"},
		{"match x:\n    case 1:\n        case [a b]\n", "3:15 invalid syntax. Perhaps you forgot a comma?"},
		{"case [a b]:\n    pass\n", "1:7 invalid syntax. Perhaps you forgot a comma?"},
	}
	checkCPython311(t, cases)
	checkNewerMinors(t, cases)
}

// checkNewerMinors checks that cicheck gives each 3.11 row's verdict for
// every newer target too, for rows whose answer CPython did not change.
func checkNewerMinors(t *testing.T, cases []cpython311Case) {
	t.Helper()
	for minor := 12; minor <= NewestMinor; minor++ {
		for _, c := range cases {
			_, err := lexLinesFor(c.src, minor, true, nil)
			got := ""
			var se *SyntaxError
			if errors.As(err, &se) {
				got = fmt.Sprintf("%d:%d %s", se.Line, se.Col, se.Msg)
			}
			if got != c.want {
				t.Errorf("3.%d %q:\n  got  %q\n  want %q", minor, c.src, got, c.want)
			}
		}
	}
}

// TestUnclosedAfterKeywordArgNearMiss: a positional argument after a
// keyword one (or a ** unpacking) that no expression starts, a bracket
// the file leaves open in it ("f(a=1,\n(\n" and a class after it, the
// shape of a call whose closing ')' became '('). CPython's first pass
// fails at its first token; its second pass parses an expression there
// (invalid_kwarg, then invalid_arguments' "args ',' args"), reading into
// the bracket, and when that read past the line of the innermost bracket
// left open, CPython reports the bracket. The near misses: the token it
// fails at on the bracket's own line, an innermost bracket opened after
// it, the bracket closed later, no keyword argument before it, a
// tokenizer error after it. CPython 3.12.1 and 3.13.0 agree on every row
// (checked by hand); 3.14 is unchecked.
func TestUnclosedAfterKeywordArgNearMiss(t *testing.T) {
	unittestFile := "import unittest\n\nfrom m import register, Case\n\nregister(\n    est_time=240,\n    suite=\"stress\",\n(\n\n\n" +
		"class TestX(Case):\n    def test_a(self):\n        pass\n\n\nif __name__ == \"__main__\":\n    unittest.main()\n"
	cases := []cpython311Case{
		{unittestFile, "8:1 '(' was never closed"},
		{"f(\n a=1,\n(\n\n\nclass C(B):\n    def m(self):\n        pass\n", "3:1 '(' was never closed"},
		{"f(\n a=1,\n(\n", "3:1 '(' was never closed"},
		{"f(\n a=1,\n(", "3:1 '(' was never closed"},
		{"f(\n a=1,\n(\ndef m(self):\n    pass\n", "3:1 '(' was never closed"},
		{"f(\n a=1,\n(\n@d\ndef m(self):\n    pass\n", "3:1 '(' was never closed"},
		{"f(\n a=1,\n(\nif x:\n    pass\n", "3:1 '(' was never closed"},
		{"f(\n a=1,\n(\nimport os\n", "3:1 '(' was never closed"},
		{"f(\n a=1,\n(\npass\n", "3:1 '(' was never closed"},
		{"f(\n a=1,\n(\nx\n", "3:1 '(' was never closed"},
		{"f(\n **k,\n(\nclass C:\n    pass\n", "3:1 '(' was never closed"},
		{"f(\n *a, b=1,\n(\nclass C:\n    pass\n", "3:1 '(' was never closed"},
		{"f(\n a=1,\n[\nclass C:\n    pass\n", "3:1 '[' was never closed"},
		{"f(\n a=1,\n{\nclass C:\n    pass\n", "3:1 '{' was never closed"},
		{"x = f(\n a=1,\n(\nclass C:\n    pass\n", "3:1 '(' was never closed"},
		{"@f(\n a=1,\n(\nclass C:\n    pass\n", "3:1 '(' was never closed"},
		{"g(f(\n a=1,\n(\nclass C:\n    pass\n", "3:1 '(' was never closed"},
		{"f(a=1, (\nclass C:\n    pass\n", "1:8 '(' was never closed"},
		{"f(a=1,\n-(\nclass C:\n    pass\n", "2:2 '(' was never closed"},
		{"f(a=1,\nnot (\nclass C:\n    pass\n", "2:5 '(' was never closed"},
		{"f(a=1,\nlambda: (\nclass C:\n    pass\n", "2:9 '(' was never closed"},
		{"f(a=1,\n[(\nclass C:\n    pass\n", "2:2 '(' was never closed"},
		{"f(a=1,\n(\n(\nclass C:\n    pass\n", "3:1 '(' was never closed"},
		{"f(a=1,\n(\n[\n", "3:1 '[' was never closed"},
		{"f(a=1,\n(x\nclass\n", "2:1 '(' was never closed"},
		{"f(a=1,\n(\nlambda\n", "2:1 '(' was never closed"},
		{"f(a=1, -\n", "1:2 '(' was never closed"},
		{"f(a=1,\nb := \n(\n", "3:1 '(' was never closed"}, // the value after ':=' read to the end
		// Near misses: what it read stays on the bracket's line, or the
		// error is another bracket's or token's.
		{"f(\n a=1,\n(class C:\n    pass\n", "3:1 invalid syntax"},
		{"f(a=1,\n-(class C:\n    pass\n", "2:1 invalid syntax"},
		{"f(a=1,\n(x class\n", "2:1 invalid syntax"},
		{"f(a=1,\n(class C: pass\n[\n", "2:1 invalid syntax"},
		{"f(a=1,\n(\nclass C:\n    pass\n))\n", "2:1 invalid syntax"},
		{"f(a=1,\n(\nclass C:\n    pass\n)\n", "1:2 '(' was never closed"},
		{"f(a=1,\n(\n]\n", "3:1 closing parenthesis ']' does not match opening parenthesis '(' on line 2"},
		{"f(a=1,\n(\n'\n", "3:1 unterminated string literal (detected at line 3)"},
		{"f(\n a,\n(\nclass C:\n    pass\n", "3:1 '(' was never closed"},
		{"(\nclass C:\n    pass\n", "1:1 '(' was never closed"},
		{"f(a=1,\n)\n(\nclass C:\n    pass\n", "3:1 '(' was never closed"},
	}
	checkCPython311(t, cases)
	checkNewerMinors(t, cases)
}

// TestUnclosedAfterDefaultParamNearMiss: a '(' in a parameter list after
// a default, a '/' or a star, a bracket the file leaves open in it.
// invalid_parameters reads a parenthesised group only after plain
// parameters ("param_no_default* '(' param_no_default+ ','? ')'"), so
// no rule reads past that '(' and CPython reports invalid syntax there,
// not the bracket; nor does a '(' after "**k," match invalid_kwds. The
// near misses: after plain parameters the rule reads on (the bracket,
// "cannot be parenthesized"), and the rules the parameters before it
// match still raise. CPython 3.12.1 and 3.13.0 agree on every row
// (checked by hand); 3.14 is unchecked.
func TestUnclosedAfterDefaultParamNearMiss(t *testing.T) {
	cases := []cpython311Case{
		{"def f(a=1,\n(\n\n\nclass C(B):\n    def m(self):\n        pass\n", "2:1 invalid syntax"},
		{"def f(a=1,\n(\n", "2:1 invalid syntax"},
		{"def f(*,\n(\n", "2:1 invalid syntax"},
		{"def f(a=1, (b, c\n", "1:12 invalid syntax"},
		{"async def f(a=1, (\nclass C:\n    pass\n", "1:18 invalid syntax"},
		{"x = lambda a=1, (\nclass C:\n    pass\n", "1:17 invalid syntax"},
		{"class C:\n    def m(self, a=1,\n(\n\n\n    def n(self):\n        pass\n", "3:1 invalid syntax"},
		{"def f(**a, (b)): pass\n", "1:12 invalid syntax"},
		{"def f(**a, (\nclass C:\n    pass\n", "1:12 invalid syntax"},
		{"lambda **a, (b): 0\n", "1:13 invalid syntax"},
		{"def f(a, /, (\n", "1:13 invalid syntax"},
		// Near misses.
		{"def f(a,\n(\n\n\nclass C(B):\n    def m(self):\n        pass\n", "2:1 '(' was never closed"},
		{"def f(a, (b, c\n", "1:10 '(' was never closed"},
		{"def f(a: int, (\nclass C:\n    pass\n", "1:15 '(' was never closed"},
		{"x = lambda a, (\nclass C:\n    pass\n", "1:15 '(' was never closed"},
		{"def f(a, (b)): pass\n", "1:10 Function parameters cannot be parenthesized"},
		{"def f(a=1, (b)): pass\n", "1:12 invalid syntax"},
		{"def f(**a, b): pass\n", "1:12 arguments cannot follow var-keyword argument"},
		{"def f(**a, *b): pass\n", "1:12 arguments cannot follow var-keyword argument"},
		{"def f(*, **k, (c)): pass\n", "1:7 named arguments must follow bare *"},
		{"def f(a, *, *, (c)): pass\n", "1:13 * argument may appear only once"},
		{"def f(a, /, /, (c)): pass\n", "1:13 / may appear only once"},
		{"def f(*a=1, (c)): pass\n", "1:9 var-positional argument cannot have default value"},
		{"def f(a=, (c)): pass\n", "1:8 expected default value expression"},
	}
	checkCPython311(t, cases)
	checkNewerMinors(t, cases)
	// 3.12 renamed the message.
	renamed := "def f(a=1, b, (c)): pass\n"
	checkCPython311(t, []cpython311Case{{renamed, "1:12 non-default argument follows default argument"}})
	for minor := 12; minor <= NewestMinor; minor++ {
		_, err := lexLinesFor(renamed, minor, true, nil)
		var se *SyntaxError
		if !errors.As(err, &se) || se.Msg != "parameter without a default follows parameter with a default" {
			t.Errorf("3.%d %q: %v", minor, renamed, err)
		}
	}
}

// TestUnclosedAfterGeneratorArgNearMiss: an unparenthesised generator
// argument in a call the file leaves open. Before raising "Generator
// expression must be parenthesized" CPython fetched the token after its
// clauses and, for a first argument, parsed the arguments after its ','
// ("',' [args | expression for_if_clauses]"): reading the end of the
// file in the bracket, or past the line of the innermost open bracket,
// CPython reports the bracket. The near misses: a later generator
// argument, whose rule ("args for_if_clauses") stops at its clauses, and
// calls that close. CPython 3.12.1 and 3.13.0 agree on every row
// (checked by hand); 3.14 is unchecked.
func TestUnclosedAfterGeneratorArgNearMiss(t *testing.T) {
	cases := []cpython311Case{
		{"f(a for a in b,\n(\n\n\nclass C(B):\n    def m(self):\n        pass\n", "2:1 '(' was never closed"},
		{"f(a for a in b,\n(\n", "2:1 '(' was never closed"},
		{"f(a for a in b, (c\n", "1:17 '(' was never closed"},
		{"f(a for a in b, c\n", "1:2 '(' was never closed"},
		{"f(a for a in b, c,\n", "1:2 '(' was never closed"},
		{"f(a for a in b, c\nclass C:\n    pass\n", "1:2 '(' was never closed"},
		{"f(a for a in b, *c\n", "1:2 '(' was never closed"},
		{"f(a for a in b, c=(\nclass C:\n    pass\n", "1:19 '(' was never closed"},
		{"f(a for a in b, -(\nclass C:\n    pass\n", "1:18 '(' was never closed"},
		{"f(x, a for a in b\n", "1:2 '(' was never closed"},
		{"f(x, a for a in b if c\n", "1:2 '(' was never closed"},
		// Near misses.
		{"f(x, a for a in b,\n(\n", "1:6 Generator expression must be parenthesized"},
		{"f(a for a in b, c for c in d\n", "1:3 Generator expression must be parenthesized"},
		{"f(a for a in b, c)\n", "1:3 Generator expression must be parenthesized"},
		{"f(a for a in b, c) (\n", "1:3 Generator expression must be parenthesized"},
		{"f(a for a in b,)\n", "1:3 Generator expression must be parenthesized"},
	}
	checkCPython311(t, cases)
	checkNewerMinors(t, cases)
}

// TestUnclosedAfterMissingElseNearMiss: "expected 'else' after 'if'
// expression" where the condition runs into a bracket the file leaves
// open ("f(1 if x\n(\n" reads "x (" as a call). invalid_expression's
// attempt at the condition read into the bracket before it settled for
// the longest disjunction; past the line of the innermost open bracket,
// CPython reports the bracket. The near misses: the attempt fails on the
// bracket's own line, the bracket closes. CPython 3.12.1 and 3.13.0
// agree on every row (checked by hand); 3.14 is unchecked.
func TestUnclosedAfterMissingElseNearMiss(t *testing.T) {
	cases := []cpython311Case{
		{"f(1 if x\n(\nclass C:\n    pass\n", "2:1 '(' was never closed"},
		{"f(1 if x (\nclass C:\n    pass\n", "1:10 '(' was never closed"},
		{"x = 1 if y (\nclass C:\n    pass\n", "1:12 '(' was never closed"},
		{"(1 if x (\nclass C:\n    pass\n", "1:9 '(' was never closed"},
		{"f(1 if x\n[\ndef f():\n    pass\n", "2:1 '[' was never closed"},
		// Near misses.
		{"f(1 if x (class C:\n    pass\n", "1:3 expected 'else' after 'if' expression"},
		{"x = 1 if y (class C:\n    pass\n", "1:5 expected 'else' after 'if' expression"},
		{"f(1 if x (a) b)\n", "1:3 expected 'else' after 'if' expression"},
		{"f(1 if x (\n", "1:10 '(' was never closed"},
	}
	checkCPython311(t, cases)
	checkNewerMinors(t, cases)
}
