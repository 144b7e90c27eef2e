// Package testregistry scans Python test files for CI registrations, validates
// them against KNOWN_LABELS and the configured suites, and resolves which tests
// a CI run selects, without running Python. It follows
// ../shared/specs/test-registry.md, written for radixark/miles' tests/ci.
//
// # Profiles
//
// That repository's conventions are the miles profile (Miles), not
// everybody's default: the neutral profile (Neutral) assumes no registry, and
// the auto profile (DefaultConfig, the default) settles on miles for a
// repository with the miles layout and on neutral otherwise (DetectProfile,
// Config.Resolve). Scan and Present resolve the configuration they are
// given against the repository.
//
// # Scanning
//
// A small CPython-compatible tokenizer (tokenize.go) splits each file into
// logical lines: string prefixes (r, u, b, f, t and their combinations),
// triple quotes, f-string replacement fields with nested quotes and format
// specs, comments, backslash continuations, bracket nesting and indentation
// are honoured, so a register_*_ci call inside a string, a comment, a
// function, a class or an if/with/try block is never collected. Only
// module-level lines are kept. An expression parser (expr.go) covers Python's
// expression grammar far enough to name the AST class of any argument
// ("got Tuple") and to evaluate literal constants exactly as ast.parse does
// (implicit concatenation, escapes, number literals with underscores, bytes
// vs str). Every logical line is also checked against Python's statement
// grammar (stmt.go), f-string replacement fields included, because
// ast.parse rejects the whole file on any syntax error and the reference
// collector then fails. Files are read as the reference reads them (a NUL
// byte fails the file, a BOM is a character).
//
// The grammar and the messages are those of the Python version in
// Config.Python (registry.python, 3.11 to 3.14, default the newest): a
// construct newer than the target is an error naming it and its version,
// and a 3.11 target takes f-strings apart as CPython 3.11's string parser
// does (fstring311.go). Messages follow CPython's two-pass parser: the
// tokenizer's own errors, string decoding errors (escapes.go, with the
// Unicode names of unicode_names.gz), the invalid_* rules of its second
// pass ("Perhaps you forgot a comma?", "Missing parentheses in call to
// 'print'", parameter order), and its rule that a later tokenizer error
// replaces a parser error. Block structure (an else without its if, a try
// without a handler, a match block without case blocks) and match/case
// patterns are checked. Run over 49,000 Python files that ast.parse
// accepts, CPython's own grammar tests included, the checker reports no
// error.
//
// The result is checked against Python's own ast module by a golden test
// (bench/registry/collect.py writes testdata/golden.json) and by a
// differential test on generated mutants of real-looking test files
// (tools/registry-diff/gen.py writes testdata/differential.json, replayed
// by TestDifferentialCPython; REGISTRY_PYTHON runs it live).
//
// # Findings
//
// Every reference error (spec §5, §6) keeps the reference's wording, minus
// the "{f}: " prefix that finding.Finding's file:line:col replaces. Unlike the
// reference collector, which stops at the first error, Scan reports every
// independent error of every call and file; within one call errors are
// produced in the spec's order, so the first one is the reference's message.
// Columns are 1-based byte offsets (Python's col_offset + 1). Rule ids are
// listed in Rules: reg-* for registrations, labels-* for KNOWN_LABELS,
// policy-* for the label policy and the comment-command allowlist.
//
// # Policy and selection
//
// ResolvePolicy, ResolveWorkflowInputs, (*Registry).Select, Shard,
// (*Registry).SkippedStages and (*Registry).ResolveFile implement spec §8-§12
// with the reference's error messages.
package testregistry
