// Package pyparse is cicheck's Python front-end: it reads Python source
// without running Python, for a target Python 3.11 to 3.14, and answers
// the three questions the test registry asks of a file, or gives the
// SyntaxError CPython's compile would raise for it.
//
//   - Calls: the module-level expression statements that call a bare
//     name (the registry's markers), each a Node tree of the call with its
//     literal arguments evaluated as ast.parse does.
//   - Scan: those calls and, from the same lex, the file's main entry
//     (Module): whether a module-level `if __name__ == "__main__":` makes
//     a call in its body, by the rule of sglang's collector
//     (RegistryVisitor._is_main_block_with_call). The test must be, as
//     ast.parse reads it, a Compare of the Name __name__, one '==' and
//     one str Constant "__main__" (quotes, implicit concatenation,
//     escapes and parentheses do not matter; bytes, an f-string, a
//     swapped, chained or combined test do); any Call anywhere under the
//     if's body counts (nested defs and their defaults and annotations,
//     decorators, lambdas, comprehensions, f-string fields, a match
//     subject or guard), its elif and else branches do not, and neither
//     do the parentheses of a def's parameters, a class's bases, a
//     keyword's group or a case's class pattern. Calls is Scan without
//     that answer. The lexer hands Scan each checked line: a module-level
//     if whose line names __name__ has its test parsed by the expression
//     parser, and only the lines of a qualifying if's body are read for
//     calls, so a file without one costs what Calls costs.
//   - FindBinding: the last module-level "X = literal" (or "X: T =
//     literal") of a symbol, and whether the module later mutates or
//     rebinds it.
//
// Node, Keyword and Call carry the part of Python's AST those answers need
// (the AST class name, the position, a constant's Python type and value);
// Module is Scan's answer; Pos is a position; SyntaxError is the error,
// with CPython's line, column and message; Arena (GetArena, PutArena)
// lends the memory of one file's parse; NewestMinor is the newest version
// followed; DecodeRune reads the lone surrogates a Python str keeps.
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
// builds no AST beyond the literals and call shapes above. Names are
// compared as written: CPython's NFKC normalisation of non-ASCII
// identifiers (a __name__ spelt with fullwidth letters is __name__ to
// ast) is not applied, to markers or to the main test.
//
// Its tests hold the CPython near-miss tables (testdata/syntax-nearmiss.json
// and the 3.11 tables, replayed against a live interpreter when
// REGISTRY_PYTHON names one), the main-entry tables and their
// differential against sglang's rule over CPython's ast
// (testdata/mainblock.json, written by tools/registry-diff/mainblock.py,
// run live under REGISTRY_PYTHON), and the fuzz targets FuzzTokenize
// (Scan included) and FuzzParseNumber; the differentials that judge whole files against the
// reference collector (TestDifferentialCPython and the golden test) run
// through testregistry.
package pyparse
