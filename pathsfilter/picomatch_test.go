package pathsfilter

import (
	"errors"
	"strings"
	"testing"
)

// Spec §7 (paths-filter.md): picomatch 2.3.1 with {dot: true}.
func TestPicomatchSpecRows(t *testing.T) {
	rows := []struct {
		want          bool
		pattern, path string
	}{
		{true, "**", "src"},
		{true, "src/**", "src"},
		{false, "src/**/*", "src"},
		{true, "a/**/b", "a/b"},
		{false, "**/*.js", "src"},
		{true, "**.js", "src/x/a.js"},
		{true, "**.d.ts", "types/a.d.ts"},
		{false, "**.{js,ts}", "src/a.js"},
		{true, "src/**.js", "src/a.js"},
		{true, "a**/b", "a/b"},
		{false, "*.md", "docs/a.md"},
		{true, "*.md", ".md"},
		{true, "a/*", "a/.env"},
		{true, ".github/**", ".github/workflows/ci.yml"},
		{false, "**/.*/**", ".env"},
		{false, "{a}", "a"},
		{true, "{a}", "{a}"},
		{true, "{1..3}.txt", "2.txt"},
		{false, "{a/**,b}", "a"},
		{true, "{src,lib}/**", "lib/x.ts"},
		{true, "@(a|b).js", "a.js"},
		{true, "!(a).js", ".js"},
		{true, "(a|b).js", "b.js"},
		{true, "!(**/*.tsx|**/*.less)", "root.tsx"},
		{false, "!(**/*.tsx|**/*.less)", "src/ui.tsx"},
		{true, "!(src)/**", "docs/a"},
		{false, "@(a/**|b)", "a/c/d"},
		{true, "!(amplify/**|data/**|deploy/**)**", "amplify/backend/function/jest.config.ts"},
		{false, "!(deploy/**|data/**|amplify/**)**", "amplify/backend/function/jest.config.ts"},
		{true, "[!a].txt", "a.txt"},
		{false, "[!a].txt", "b.txt"},
		{false, "[^a].txt", "/.txt"},
		{true, "[[:digit:]].txt", "1.txt"},
		{true, "file[1].txt", "file[1].txt"},
		{false, "?.txt", ".txt"},
		{true, "*.jsx?", "page.jsxx"},
		{true, "./src/*.js", "src/a.js"},
		{false, "./src/*.js", "./src/a.js"},
		{false, "src/", "src/a.js"},
		{false, "README.md", "readme.md"},
		{true, "!src/**", "a"},
		{true, "!!src/**", "src/x"},
		{true, "!", "a"},
		{true, "!(a)", "!a"},
		{true, `\!a`, "!a"},
		{false, "a+b.txt", "aab.txt"},
		{true, "a(b).txt", "ab.txt"},
		{true, "**/node_modules/**", "node_modules"},
		// the empty path never matches, not even a negation
		{false, "!x", ""},
	}
	for _, r := range rows {
		m, err := CompilePicomatch(r.pattern)
		if err != nil {
			t.Errorf("%q: %v", r.pattern, err)
			continue
		}
		if got := m.Match(r.path); got != r.want {
			t.Errorf("picomatch(%q)(%q) = %v, want %v (regex %s)", r.pattern, r.path, got, r.want, m.Regexp())
		}
	}
}

func TestPicomatchNegated(t *testing.T) {
	for p, want := range map[string]bool{
		"!a": true, "!!a": false, "!!!a": true, "!(a)": false, "a": false, "!": true, `\!a`: false, "./!a": true,
	} {
		m, err := CompilePicomatch(p)
		if err != nil {
			t.Fatalf("%q: %v", p, err)
		}
		if m.Negated() != want {
			t.Errorf("%q: Negated() = %v, want %v", p, m.Negated(), want)
		}
	}
}

func TestPicomatchErrors(t *testing.T) {
	if _, err := CompilePicomatch(""); err == nil || errors.Is(err, ErrUnsupportedGlob) {
		t.Errorf("empty pattern: got %v, want a plain error", err)
	}
	if _, err := CompilePicomatch(strings.Repeat("a/", 3000)); !errors.Is(err, ErrUnsupportedGlob) {
		t.Errorf("a 6,000-byte pattern: got %v, want unsupported", err)
	}
	for _, p := range []string{"(?<=a)b", "x/😀\ue000", `@(a)\1`} {
		_, err := CompilePicomatch(p)
		if !errors.Is(err, ErrUnsupportedGlob) {
			t.Errorf("%q: got %v, want unsupported", p, err)
			continue
		}
		want := "unsupported glob construct: " + p
		if got := err.Error(); len(got) < len(want) || got[:len(want)] != want {
			t.Errorf("%q: message %q does not start with %q", p, got, want)
		}
	}
}

// A regex V8 rejects makes picomatch fall back to /$^/: only the equality
// shortcut can still match.
func TestPicomatchInvalidRegexMatchesOnlyItself(t *testing.T) {
	m, err := CompilePicomatch("[z-a]")
	if err != nil {
		t.Fatal(err)
	}
	if m.Match("z") || m.Match("a") || !m.Match("[z-a]") {
		t.Errorf("[z-a]: want a match only for the literal pattern")
	}
}

func TestHasLineTerminator(t *testing.T) {
	for s, want := range map[string]bool{"a": false, "a\nb": true, "\r": true, "x\u2028": true, "\u2029y": true,
		"é\u2027": false, "€": false, "\xe2\x80": false, "ab\xe2\x80\xa9": true} {
		if hasLineTerminator(s) != want {
			t.Errorf("hasLineTerminator(%q) != %v", s, want)
		}
	}
}

// TestPicomatchNeverReturns: picomatch 2.3.1 loops forever when a run of
// three or more backslashes ends the pattern outside its fast path (its
// index skips past eos); cicheck reports it unsupported instead of looping.
// Each near miss (the run followed by text, two backslashes, the fast path)
// compiles to the regex source picomatch prints.
func TestPicomatchNeverReturns(t *testing.T) {
	cases := []struct{ pattern, source string }{
		{`]\\\\`, ""}, {`]\\\\\`, ""}, {`src/\\\\`, ""}, {`**/\\\\\\`, ""},
		{`]\\\\a`, `^(?:\]\\a)$`}, {`]\\`, `^(?:\]\\)$`}, {`]\\\`, `^(?:\]\\\\)$`}, {`x\\\\`, `^(?:^(?:x\\)$)$`},
	}
	for _, c := range cases {
		m, err := CompilePicomatch(c.pattern)
		switch {
		case c.source == "" && !errors.Is(err, ErrUnsupportedGlob):
			t.Errorf("%q: got %v, want unsupported", c.pattern, err)
		case c.source != "" && err != nil:
			t.Errorf("%q: %v", c.pattern, err)
		case c.source != "" && m.source != c.source:
			t.Errorf("%q: source %q, want %q", c.pattern, m.source, c.source)
		}
	}
}

// TestPicomatchAstral: characters outside the BMP are two code units to
// picomatch and to the regex; the rows are picomatch 2.3.1's own regex
// source (a lone surrogate shown as U+FFFD) and matches. A private-use
// character beside them is the near miss that stays unsupported.
func TestPicomatchAstral(t *testing.T) {
	paths := []string{"😀", "x😀", "a/😀/b", "😀x", "b", "😁", "a/x.😀", "😀😀"}
	cases := []struct {
		pattern, source string
		match           []string
	}{
		{"😀", "^(?:^(?:\\�\\�)$)$", []string{"😀"}},
		{"*😀", "^(?:(?!\\.{1,2}(?:\\/|$))(?=.)[^/]*?😀)$", []string{"😀", "x😀", "😀😀"}},
		{"?😀", "^(?:^(?:[^/]\\�\\�)$)$", []string{"x😀"}},
		{"??", "^(?:^(?:[^/][^/])$)$", []string{"😀", "😁"}},
		{"a/😀/**", "^(?:a\\/😀(?:\\/(?!\\.{1,2}(?:\\/|$))(?:(?:(?!(?:^|\\/)\\.{1,2}(?:\\/|$)).)*?)|$))$", []string{"a/😀/b"}},
		{"[😀]", "^(?:(?:\\[😀\\]|[😀])\\/?)$", []string{}},
		{"[!😀]", "^(?:(?:\\[!😀\\]|[!😀])\\/?)$", []string{}},
		{"😀?", "^(?:^(?:\\�\\�[^/])$)$", []string{"😀x"}},
		{"+(😀)", "^(?:(?=.)(?:😀)+)$", []string{"😀", "😀😀"}},
		{"{😀,b}", "^(?:(😀|b))$", []string{"😀", "b"}},
		{"\\😀", "^(?:^(?:\\�\\�)$)$", []string{"😀"}},
		{"!😀", "^(?!^(?:😀)$).*$", []string{"x😀", "a/😀/b", "😀x", "b", "😁", "a/x.😀", "😀😀"}},
		{"😀*", "^(?:^(?:\\�\\�[^/]*?)$)$", []string{"😀", "😀x", "😀😀"}},
		{"**/*.😀", "^(?:(?:^|\\/|(?:(?:(?!(?:^|\\/)\\.{1,2}(?:\\/|$)).)*?)\\/)(?!\\.{1,2}(?:\\/|$))(?=.)[^/]*?\\.😀)$", []string{"a/x.😀"}},
		{"[a-😀]", "^(?:[a-😀]\\/?)$", []string{"b"}},
	}
	for _, c := range cases {
		m, err := CompilePicomatch(c.pattern)
		if err != nil {
			t.Errorf("%q: %v", c.pattern, err)
			continue
		}
		if m.Regexp() != c.source {
			t.Errorf("%q: source %q, want %q", c.pattern, m.Regexp(), c.source)
		}
		var got []string
		for _, p := range paths {
			if m.Match(p) {
				got = append(got, p)
			}
		}
		if strings.Join(got, " ") != strings.Join(c.match, " ") {
			t.Errorf("%q: matches %q, want %q", c.pattern, got, c.match)
		}
	}
	if _, err := CompilePicomatch("😀\ue000"); !errors.Is(err, ErrUnsupportedGlob) {
		t.Errorf("a private-use character beside 😀: %v, want unsupported", err)
	}
}
