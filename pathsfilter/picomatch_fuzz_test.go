package pathsfilter

import (
	"errors"
	"strings"
	"testing"
)

var fuzzSeeds = [][2]string{
	{"**", "src"}, {"src/**", "src/a.js"}, {"**.d.ts", "types/a.d.ts"}, {"{1..3}.txt", "2.txt"},
	{"{a/**,b}", "a"}, {"!(**/*.tsx|**/*.less)", "root.tsx"}, {"!(amplify/**|data/**|deploy/**)**", "amplify/x"},
	{"[!a].txt", "a.txt"}, {"[[:digit:]].txt", "1.txt"}, {"file[1].txt", "file[1].txt"}, {"./src/*.js", "src/a.js"},
	{"!!src/**", "src/x"}, {"!(a)", "!a"}, {`\!a`, "!a"}, {"a(b).txt", "ab.txt"}, {"src/**/!(*.d).ts", "src/a.ts"},
	{"*.{js,ts}", "a.ts"}, {"@(a|b)/**/*.+(js|ts)", "a/x/y.ts"}, {"(?!b)*", "a"}, {"[z-a]", "z"}, {"a{2,1}", "aa"},
	{`\\\\\a`, `\a`}, {"{a..c}{1..2}", "b2"}, {"*(*)", "a"}, {"*.jsx?", "page.js"}, {"a+b.txt", "aab.txt"},
	{"!src/**/*.md", "docs/a.md"}, {"**/*.go", "a.go/"}, {"**/patches/**", "x/patches/y"}, {"!*.md", "a\nb"},
	{"src/**/*.{ts,tsx}", "src/a.tsx"}, {"Cargo.{toml,lock}", "Cargo.lock"}, {"*.md", "a.md/"}, {"!a/**", "a/b\u2028"},
	{`]\\\\`, `]\\`}, {"?😀", "x😀"}, {"[a-😀]", "b"},
}

func FuzzPicomatch(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, pattern, path string) {
		if len(pattern) > 128 || len(path) > 128 {
			return
		}
		m, err := CompilePicomatch(pattern)
		if err != nil {
			if pattern != "" && !errors.Is(err, ErrUnsupportedGlob) {
				t.Fatalf("%q: error is neither unsupported nor empty-pattern: %v", pattern, err)
			}
			if strings.Contains(err.Error(), "parser failure") {
				t.Fatalf("%q: the port panicked: %v", pattern, err)
			}
			return
		}
		got := m.Match(path)
		// Prefilters and the fast path are shortcuts: Match and MatchPath
		// must equal the plain regex engine plus picomatch.test's rules.
		want := path != "" && (path == pattern || m.matchRegex(path))
		if got != want {
			t.Fatalf("Match(%q, %q) = %v, the regex engine says %v (%s)", pattern, path, got, want, m.Regexp())
		}
		pp := PreparePath(path)
		if m.MatchPath(&pp) != want {
			t.Fatalf("MatchPath(%q, %q) != %v", pattern, path, want)
		}
		if path == "" && got {
			t.Fatalf("%q matched the empty path", pattern)
		}
		if path == pattern && path != "" && !got {
			t.Fatalf("%q: equality shortcut failed", pattern)
		}
	})
}
