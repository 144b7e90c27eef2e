package pathsfilter

import "testing"

// TestPicomatchMoreRows: patterns where a one-token change in the port
// (a brace range next to a stray `}`, a `+` after a class or a group, the
// `(?=.)` before a star, `./` before a non-ASCII name) changes the regex
// or the answer. Regex sources and results are picomatch 2.3.1's
// (makeRe(p, {dot: true}).source and picomatch(p, {dot: true})(path)).
func TestPicomatchMoreRows(t *testing.T) {
	for _, c := range []struct {
		pattern, re, path string
		want              bool
	}{
		{"!!}_{1..3}", `^(?:}_[1-3])$`, "}_2", true},
		{`!!{1..3}/#/}@\.`, `^(?:[1-3]\/#\/}@.)$`, "2/#/}@x", true},
		{"!![+", `^(?:\[+)$`, "[+", false},
		{"./[^b]+", `^(?:[^b/]+)$`, "a", true},
		{"@(a|b)+", `^(?:(a|b)+)$`, "b+", false},
		{"*{1..3}", `^(?:(?!\.{1,2}(?:\/|$))(?=.)[^/]*?[1-3])$`, "x2", true},
		{"!)é", `^(?!^(?:\)é)$).*$`, ")é", false},
		{"./_é", `^(?:^(?:_\é)$)$`, "_é", true},
		// an escaped slash is a slash, and the star after it still keeps
		// off dot segments
		{`\/*`, `^(?:\/(?!\.{1,2}(?:\/|$))(?=.)[^/]*?\/?)$`, "/a", true},
		// with no group to refer to, \1 and \12 are octal escapes; \18 is
		// \1 then 8
		{`a\1`, `^(?:^(?:a\1)$)$`, "a\x01", true},
		{`a\1`, `^(?:^(?:a\1)$)$`, "a1", false},
		{`a\12`, `^(?:^(?:a\12)$)$`, "a\n", true},
		{`a\18`, `^(?:^(?:a\18)$)$`, "a\x018", true},
		// word boundaries and word characters at the ends of A-Z
		{`!!!(a)\b`, `^(?:(?=.)(?:(?!(?:a))[^/]*?)\b)$`, "AA", true},
		{`!\b*/\w`, `^(?!^(?:\b[^/]*?\/\w)$).*$`, "A/_", false},
		// Z is a word character: no escape, and `*.Z` takes the fast path
		// with its optional trailing slash
		{"aZ", `^(?:^(?:aZ)$)$`, "aZ", true},
		{"*.Z", `^(?:(?!(?:^|\/)\.{1,2}(?:\/|$))(?=.)[^/]*?\.Z\/?)$`, "a.Z/", true},
		// a negated pattern's `.*` stops at a line break, also at the start
		{"!x", `^(?!^(?:x)$).*$`, "\na", false},
		// U+FFFF is the last character kept as itself beside a character
		// outside the BMP (which is read as its two surrogates)
		{"*\uffff\U00010000", "^(?:(?!\\.{1,2}(?:\\/|$))(?=.)[^/]*?\uffff\U00010000)$", "x\uffff\U00010000", true},
		{"[\uffff]\U00010000", "^(?:(?:\\[\uffff\\]|[\uffff])\U00010000)$", "\uffff\U00010000", true},
	} {
		m, err := CompilePicomatch(c.pattern)
		if err != nil {
			t.Errorf("%q: %v", c.pattern, err)
			continue
		}
		if m.Regexp() != c.re {
			t.Errorf("%q: regex %s, want %s", c.pattern, m.Regexp(), c.re)
		}
		if got := m.Match(c.path); got != c.want {
			t.Errorf("%q matches %q: %v, want %v", c.pattern, c.path, got, c.want)
		}
	}
}

// TestPicomatchRejectedRegexMatchesNothing: `,/{/~\1` leaves an unclosed
// group, so V8 rejects picomatch's regex and it falls back to /$^/: the
// pattern compiles and matches nothing, not even the octal escape's
// character (the near miss `a\1` above matches it).
func TestPicomatchRejectedRegexMatchesNothing(t *testing.T) {
	m, err := CompilePicomatch(`,/{/~\1`)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{",/{/~\x01", ",/{/~1", ",/(/~\x01"} {
		if m.Match(p) {
			t.Errorf("matches %q", p)
		}
	}
}

// TestLiteralPrefilters: the literal text the pre-filters require of a
// regex (prefix, suffix with the optional trailing slash, longest required
// run), each beside a regex one construct away: a class, an alternation,
// an optional group, a repeat, a lookahead, non-ASCII text, no anchors.
func TestLiteralPrefilters(t *testing.T) {
	for _, c := range []struct {
		src, prefix, suffix string
		optSlash            bool
		longest             string
	}{
		{`^(?:a[^/]*b)$`, "a", "b", false, "a"},
		{`^(?:ab(?:c|d)e)$`, "ab", "e", false, "ab"},
		{`^(?:a\/?)$`, "a", "a", true, "a"},
		{`^(?:x(?:y)?z)$`, "x", "z", false, "x"},
		{`^(?:(?:abc)+d)$`, "abc", "d", false, "abc"},
		{`^(?:é)$`, "", "", false, ""},
		{`a`, "", "", false, "a"},
		{`^(?:ab\/?c)$`, "ab", "c", false, "ab"},
		{`^(?:a(?=b)bc\b)$`, "abc", "abc", false, "abc"},
		{`^(?:\/?)$`, "", "", true, ""},
		{`^(?:a(?:\/)?\/?)$`, "a", "", true, "a"},
		{`^(?:a|b)$`, "", "", false, ""},
		{`^(?:abc)`, "abc", "", false, "abc"},
		{`^(?:a.b)$`, "a", "b", false, "a"},
		{`^(?:aé)$`, "a", "", false, "a"},
		{`^(?:éa)$`, "", "a", false, "a"},
		{`^(?:a*b)$`, "", "b", false, "b"},
		{`^(?:a{2}b)$`, "a", "b", false, "a"},
		// unanchored at the start, two nodes; the empty regex
		{`a$`, "", "a", false, "a"},
		{``, "", "", false, ""},
	} {
		suffix, opt := anchoredLiteralSuffix(c.src)
		if p, l := anchoredLiteralPrefix(c.src), longestRequiredLiteral(c.src); p != c.prefix || suffix != c.suffix || opt != c.optSlash || l != c.longest {
			t.Errorf("%s: prefix %q suffix %q (slash %v) longest %q, want %q %q (%v) %q", c.src, p, suffix, opt, l, c.prefix, c.suffix, c.optSlash, c.longest)
		}
	}
}
