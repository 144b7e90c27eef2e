package pyparse

import (
	"slices"
	"strings"
	"testing"

	"github.com/cicheck/cicheck/internal/pybench"
)

// addSeedFiles seeds a fuzz target with the Python files of the registry's
// cross-check repository (../testregistry/testdata/crosscheck).
func addSeedFiles(f *testing.F) {
	for _, src := range pybench.SeedFiles("../testregistry/testdata/crosscheck/tests/*/*.py") {
		f.Add(src)
	}
}

// FuzzTokenize: the tokenizer and the call finder never panic and always
// terminate; a successful tokenization ends with EOF and the logical lines
// never hold NEWLINE/INDENT/DEDENT tokens.
func FuzzTokenize(f *testing.F) {
	addSeedFiles(f)
	for _, s := range slices.Concat(pybench.FuzzSeeds, []string{
		// Main blocks.
		"if __name__ == '__main__':\n    main()\n", "if __name__ == '__main__': pass\nelse:\n    main()\n",
		"if (__name__) == '__ma' 'in__':\n    x = f'{a:{g()}}'\n", "if __name__ == '__main__':\n    match (x):\n        case P(x=0) if g():\n            pass\n",
		"if __name__ == '__main__':\n    @d(1)\n    class C[T: g()](B):\n        pass\n"}) {
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
