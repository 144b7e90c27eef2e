package pybench

import (
	"os"
	"path/filepath"
)

// FuzzSeeds are short sources that reach the Python front-end's special
// paths (string prefixes and escapes, f-string nesting, parameter order,
// grammar newer than 3.11, CPython's second-pass messages), shared by the
// fuzz targets of pyparse and testregistry.
var FuzzSeeds = []string{"", "\\", "'", "'''", "f'{", "f'{x:{y}}'", "rb'\\''", "(\n", ")", "if x:\n", "\tif x:\n  y\n", "1e", "0x", "\ufeff", "a\r\nb\rc", "f'\\N{DASH}'", "x = f'''{\n'''",
	// Paths added for the target version and CPython's messages.
	"x = \x00", "f'{x:{y:{z}}}'", "f'{f\"{1}\"}'", "f\"{'a' if x else \"b\"}\"", "f'{a b}'", "f'''{\nx y}'''", "f'\\x4{x}'",
	"def f(a=1, b, /, *, c, **k, d): pass", "lambda (a), *, *: 0", "x = \"\\N{BOGUS}\" b'\\x4'", "b'\xc3\xa9'",
	"type X[T=int] = list[T]", "class C[T]: pass", "t'{x}'", "try:\n pass\nexcept A, B as e:\n pass", "print x, y",
	"f(a=1, b c)", "[a.b = 1]", "if x = 1: pass", "x = [1, 2\ny = 3\n", "x = a + \\\nb c \\d", "0777 0b2 0o8 0xg 4J6 1_",
	"@dec\n", "if x:\n  y\n  @dec", "match x:\n  pass\n", "case 1:\n  pass\n", "x = 1\n  y\n'abc"}

// SeedFiles returns the contents of the Python files glob matches (the
// registry's cross-check repository seeds both fuzz targets).
func SeedFiles(glob string) []string {
	paths, _ := filepath.Glob(glob)
	var out []string
	for _, p := range paths {
		if b, err := os.ReadFile(p); err == nil {
			out = append(out, string(b))
		}
	}
	return out
}
