// Package pathsfilter decides which changed files wake which workflows and
// jobs. It holds two glob matchers that answer exactly like the engines
// they imitate, plus the dorny/paths-filter step model built on them.
//
// # picomatch 2.3.1 ({dot: true}), what dorny/paths-filter runs
//
// CompilePicomatch ports picomatch's lib/parse.js to Go and emits the same
// ECMAScript regex source (the golden test compares it byte for byte with
// picomatch.makeRe), then runs it on a small backtracking-free engine that
// supports the lookaheads picomatch relies on (RE2 has none). So every quirk
// comes along: the equality shortcut, `./` stripping, odd-`!` negation,
// globstar only as a whole segment, the `**.ext` fast path, braces with
// ranges, extglobs, `[!a]` as a literal-`!` class, POSIX classes, and the
// /$^/ fallback when V8 rejects the regex. Regex syntax the engine does not
// implement (raw lookbehind, backreferences, characters outside the BMP)
// is an error matching ErrUnsupportedGlob, never a guess.
//
// For speed, literal prefix, suffix and substring checks derived from the
// regex reject most paths first, and common shapes (`src/**`, `**/*.md`,
// `{a,b}/**`, literal paths) use a segment matcher proven equal to the
// regex on clean git paths. PreparePath/MatchPath amortise the path-only
// checks when one file meets many rules. A compiled *Picomatch is safe for
// concurrent use.
//
// Conformance: testdata/picomatch-golden.jsonl (59,737 pattern/path/result
// rows from the real picomatch via tools/picomatch-golden) must agree 100%.
//
// # GitHub on.<push|pull_request|pull_request_target>.paths
//
// CompileGitHubPaths and CompileGitHubPathsIgnore implement GitHub's own
// dialect (`?` and `+` quantify the previous character, `**` crosses `/`
// anywhere, no braces or extglobs, no dotfile rule), ordered evaluation
// where the last matching pattern wins, and the 300-file window.
package pathsfilter
