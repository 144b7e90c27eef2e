package pathsfilter

import (
	"math/rand"
	"strings"
	"testing"
)

// surelyAlphabet is every character surelySupported accepts.
const surelyAlphabet = "abzAZ09/._-*?!{},+@~ "

var surelySeeds = []string{
	"**", "src/**", "!src/**/*.md", "**/*.{js,ts}", "{1..3}.txt", "{a..c}{1..2}", "{1..99999999}",
	"{a..z}", "{,}", "{", "}", "{{{{a}}}}", "a{2,1}", "*.jsx?", "a+b.txt", "@@", "~/x", "a b",
	"!!a", "!{a,b}/**", "**.d.ts", "./src/*.js", "...", "?*?**", "{1..3..2}", "{a,{b,{c,d}}}/**",
	strings.Repeat("{a,", maxSureBraces) + "!**/**/*.{x,y}" + strings.Repeat("}", maxSureBraces-1),
	strings.Repeat("{", maxSureBraces) + "**/**" + strings.Repeat(",}", maxSureBraces),
	strings.Repeat("{", maxPatternLen), strings.Repeat("*", maxPatternLen), strings.Repeat("{a,", 100),
}

// TestSurelySupported checks the claim lazy compilation rests on: a
// pattern surelySupported accepts always compiles, so its Err is nil
// without compiling it.
func TestSurelySupported(t *testing.T) {
	check := func(p string) {
		t.Helper()
		if !surelySupported(p) {
			return
		}
		if _, err := CompilePicomatch(p); err != nil {
			t.Fatalf("surelySupported(%q) but compiling fails: %v", p, err)
		}
	}
	for _, p := range surelySeeds {
		check(p)
	}
	r := rand.New(rand.NewSource(1))
	for range 20000 {
		b := make([]byte, 1+r.Intn(24))
		for i := range b {
			b[i] = surelyAlphabet[r.Intn(len(surelyAlphabet))]
		}
		check(string(b))
	}
	for _, p := range []string{"", "a(b)", `\a`, "[ab]", "é", "a\tb", strings.Repeat("a", maxPatternLen+1), strings.Repeat("{", maxSureBraces+1)} {
		if surelySupported(p) {
			t.Errorf("surelySupported(%q) = true", p)
		}
	}
}

// TestLazyGlob: a pattern parsed from filters reports the same Err and
// matches the same paths as the eagerly compiled pattern.
func TestLazyGlob(t *testing.T) {
	for _, txt := range append(surelySeeds[:len(surelySeeds)-5], "a(?<=b)", `\b`, "[[:alpha:]]", "!(a|b)/**", "src/[a-c]*.go") {
		pt := Pattern{Text: txt}
		pt.setGlob()
		m, err := CompilePicomatch(txt)
		if (err == nil) != (pt.Err == nil) {
			t.Fatalf("%q: Err = %v, compiling gives %v", txt, pt.Err, err)
		}
		if err != nil {
			continue
		}
		cp := pt // copies share the compiled matcher
		for _, path := range []string{"src/a.js", "a", "b", "docs/x.md", "a b", "1.txt", "~/x", "src/b.go", "c/d.ts"} {
			if got, want := cp.matcher().Match(path), m.Match(path); got != want {
				t.Errorf("%q on %q: lazy %v, eager %v", txt, path, got, want)
			}
		}
		if cp.glob != pt.glob || pt.matcher() != cp.matcher() {
			t.Errorf("%q: a copy compiled its own matcher", txt)
		}
	}
}

func FuzzSurelySupported(f *testing.F) {
	for _, s := range surelySeeds[:len(surelySeeds)-5] {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, p string) {
		if len(p) > 256 || !surelySupported(p) {
			return
		}
		if _, err := CompilePicomatch(p); err != nil {
			t.Fatalf("surelySupported(%q) but compiling fails: %v", p, err)
		}
	})
}
