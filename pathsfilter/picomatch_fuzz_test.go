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
		// The fast path must agree with the regex engine wherever it answers.
		if m.fast != nil && path != "" && path != pattern {
			if fast, ok := m.fast.match(path); ok && fast != m.matchRegex(path) {
				t.Fatalf("fast path and regex disagree on %q vs %q", pattern, path)
			}
		}
		if path == "" && got {
			t.Fatalf("%q matched the empty path", pattern)
		}
		if path == pattern && path != "" && !got {
			t.Fatalf("%q: equality shortcut failed", pattern)
		}
	})
}
