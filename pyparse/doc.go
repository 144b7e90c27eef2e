// Package pyparse is cicheck's Python front-end: it reads Python source
// without running Python, for a target Python 3.11 to 3.14, and answers
// the two questions the test registry asks of a file, or gives the
// SyntaxError CPython's compile would raise for it.
//
//   - Calls: the module-level expression statements that call a bare
//     name (the registry's markers), each a Node tree of the call with its
//     literal arguments evaluated as ast.parse does.
//   - FindBinding: the last module-level "X = literal" (or "X: T =
//     literal") of a symbol, and whether the module later mutates or
//     rebinds it.
//
// Node, Keyword and Call carry the part of Python's AST those answers need
// (the AST class name, the position, a constant's Python type and value);
// Pos is a position; SyntaxError is the error, with CPython's line, column
// and message; Arena (GetArena, PutArena) lends the memory of one file's
// parse; NewestMinor is the newest version followed; DecodeRune reads the
// lone surrogates a Python str keeps.
//
// # What it holds
//
// A CPython-compatible tokenizer (tokenize.go) splits each file into
// logical lines: string prefixes (r, u, b, f, t and their combinations),
// triple quotes, f-string replacement fields with nested quotes and format
// specs, comments, backslash continuations, bracket nesting and
// indentation are honoured, so a call inside a string, a comment, a
// function, a class or an if/with/try block is never taken for a
// module-level statement. An expression parser (expr.go) covers Python's
// expression grammar far enough to name the AST class of any argument and
// to evaluate literal constants exactly as ast.parse does (implicit
// concatenation, escapes, number literals with underscores, bytes vs
// str). Every logical line is also checked against Python's statement
// grammar (stmt.go), f-string replacement fields included, because
// ast.parse rejects the whole file on any syntax error. Files are read as
// CPython reads them (a NUL byte fails the file, a BOM is a character).
//
// The grammar and the messages are those of the target version: a
// construct newer than the target is an error naming it and its version,
// and a 3.11 target takes f-strings apart as CPython 3.11's string parser
// does (fstring311.go). Messages follow CPython's two-pass parser: the
// tokenizer's own errors, string decoding errors (escapes.go, with the
// Unicode names of unicode_names.gz, written by
// tools/registry-diff/unicode_names.py), the invalid_* rules of its second
// pass ("Perhaps you forgot a comma?", "Missing parentheses in call to
// 'print'", parameter order), and its rule that a later tokenizer error
// replaces a parser error. Block structure (an else without its if, a try
// without a handler, a match block without case blocks) and match/case
// patterns are checked. Run over 49,000 Python files that ast.parse
// accepts, CPython's own grammar tests included, the checker reports no
// error.
//
// # What it does not hold
//
// Nothing of the registry: which names are markers, what a registration's
// arguments mean, their validation and messages, labels, suites, the CI
// policy, selection, workflows and profiles are package testregistry's,
// which calls this one. pyparse reads no files (its callers pass the
// bytes), keeps no state between calls other than pooled memory, and
// builds no AST beyond the literals and call shapes above.
//
// Its tests hold the CPython near-miss tables (testdata/syntax-nearmiss.json
// and the 3.11 tables, replayed against a live interpreter when
// REGISTRY_PYTHON names one) and the fuzz targets FuzzTokenize and
// FuzzParseNumber; the differentials that judge whole files against the
// reference collector (TestDifferentialCPython and the golden test) run
// through testregistry.
package pyparse
