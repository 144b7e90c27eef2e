package pyparse

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// addSeedFiles seeds a fuzz target with the Python files of the registry's
// cross-check repository (../testregistry/testdata/crosscheck).
func addSeedFiles(f *testing.F) {
	paths, _ := filepath.Glob("../testregistry/testdata/crosscheck/tests/*/*.py")
	for _, p := range paths {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(string(b))
		}
	}
}

// FuzzTokenize: the tokenizer and the call finder never panic and always
// terminate; a successful tokenization ends with EOF and the logical lines
// never hold NEWLINE/INDENT/DEDENT tokens.
func FuzzTokenize(f *testing.F) {
	addSeedFiles(f)
	for _, s := range []string{"", "\\", "'", "'''", "f'{", "f'{x:{y}}'", "rb'\\''", "(\n", ")", "if x:\n", "\tif x:\n  y\n", "1e", "0x", "\ufeff", "a\r\nb\rc", "f'\\N{DASH}'", "x = f'''{\n'''",
		// Paths added for the target version and CPython's messages.
		"x = \x00", "f'{x:{y:{z}}}'", "f'{f\"{1}\"}'", "f\"{'a' if x else \"b\"}\"", "f'{a b}'", "f'''{\nx y}'''", "f'\\x4{x}'",
		"def f(a=1, b, /, *, c, **k, d): pass", "lambda (a), *, *: 0", "x = \"\\N{BOGUS}\" b'\\x4'", "b'\xc3\xa9'",
		"type X[T=int] = list[T]", "class C[T]: pass", "t'{x}'", "try:\n pass\nexcept A, B as e:\n pass", "print x, y",
		"f(a=1, b c)", "[a.b = 1]", "if x = 1: pass", "x = [1, 2\ny = 3\n", "x = a + \\\nb c \\d", "0777 0b2 0o8 0xg 4J6 1_",
		"@dec\n", "if x:\n  y\n  @dec", "match x:\n  pass\n", "case 1:\n  pass\n", "x = 1\n  y\n'abc",
		// Main blocks.
		"if __name__ == '__main__':\n    main()\n", "if __name__ == '__main__': pass\nelse:\n    main()\n",
		"if (__name__) == '__ma' 'in__':\n    x = f'{a:{g()}}'\n", "if __name__ == '__main__':\n    match (x):\n        case P(x=0) if g():\n            pass\n",
		"if __name__ == '__main__':\n    @d(1)\n    class C[T: g()](B):\n        pass\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		lines, err := lexLines(src, true, nil)
		if err == nil {
			for _, l := range lines {
				if len(l.toks) == 0 {
					t.Fatalf("empty logical line")
				}
				for _, tk := range l.toks {
					if tk.kind == tkNewline || tk.text == "" {
						t.Fatalf("empty or NEWLINE token inside a logical line: %+v", tk)
					}
				}
			}
		}
		for minor := 11; minor <= NewestMinor; minor++ {
			_, _ = lexLinesFor(src, minor, true, nil)
			calls, err := Calls(src, minor, isTestMarker, nil)
			m, err2 := Scan(src, minor, isTestMarker, nil)
			if (err == nil) != (err2 == nil) || len(calls) != len(m.Calls) {
				t.Fatalf("3.%d: Calls %d, %v; Scan %d, %v", minor, len(calls), err, len(m.Calls), err2)
			}
			if err2 != nil && (m.MainCall || m.MainLine != 0 || m.MainNoCallLine != 0) {
				t.Fatalf("3.%d: a main entry in a file with a syntax error: %+v, %v", minor, m, err2)
			}
			if m.MainCall != (m.MainLine > 0) {
				t.Fatalf("3.%d: MainCall %v at line %d", minor, m.MainCall, m.MainLine)
			}
			if again, err3 := Scan(src, minor, isTestMarker, nil); again.MainCall != m.MainCall || again.MainLine != m.MainLine ||
				again.MainNoCallLine != m.MainNoCallLine || (err3 == nil) != (err2 == nil) {
				t.Fatalf("3.%d: Scan is not deterministic: %+v, %+v", minor, m, again)
			}
		}
		_, _ = FindBinding(src, "KNOWN_LABELS", NewestMinor)
	})
}

// FuzzParseNumber: number literals and string escapes never panic.
func FuzzParseNumber(f *testing.F) {
	for _, s := range []string{"0", "00", "01", "1_0", "1__0", "0x_f", "0b2", "1e5", "1.e-3", ".5j", "1_", "9" + strings.Repeat("9", 400),
		`\x4`, `\u12`, `\U00110000`, `\N{BULLET}`, `\N{bogus}`, `\N{`, `\N`, `\`, `é\x4`, `\é`, "HANGUL SYLLABLE GAG", "CJK UNIFIED IDEOGRAPH-4E00"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		parseNumber(s)
		unicodeEscapeError(s)
		bytesLiteralError(s, false)
		lookupName(s)
		unescape(s, false)
		unescape(s, true)
	})
}
