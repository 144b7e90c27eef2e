package pathsfilter

import (
	"errors"
	"strings"
	"testing"
)

// TestJSRegexNearMisses: the regex engine beside its one-token changes,
// against V8 (node: new RegExp(src).test(s), or the SyntaxError it
// throws): quantifier braces, assertions that take no quantifier, \c
// escapes inside and outside classes at each end of the letter and digit
// ranges, lookaheads, groups counted for \1.
func TestJSRegexNearMisses(t *testing.T) {
	for _, c := range []struct {
		src            string
		syntax         bool
		match, nomatch []string
	}{
		// `{,n}` is no quantifier: the brace is literal text
		{"a{,3}", false, []string{"a{,3}"}, []string{"a", "aaa"}},
		{"\\8{,3}", false, []string{"8{,3}"}, []string{"8"}},
		// {n,n} is a quantifier; {1,0} is out of order
		{"^a{2,2}$", false, []string{"aa"}, []string{"a", "aaa"}},
		{"a{1,0}", true, nil, nil},
		// legacy octal escapes: up to \377, one digit after \4-\7, and 8 is
		// no octal digit; \x and \u without enough hex digits are letters
		{"\\411", false, []string{"!1"}, nil},
		{"\\377", false, []string{"\u00ff"}, nil},
		{"\\17", false, []string{"\x0f"}, []string{"\x017"}},
		{"\\38", false, []string{"\x038"}, nil},
		{"\\x4g", false, []string{"x4g"}, nil},
		{"\\u00g0", false, []string{"u00g0"}, nil},
		// a negated class reaches U+FFFF
		{"[^\ufffe]", false, []string{"\uffff"}, []string{"\ufffe"}},
		{"[\\d-z]", false, []string{"-", "5", "z"}, []string{"a"}},
		// an assertion takes no quantifier (a lookahead does: Annex B)
		{"$+", true, nil, nil},
		{"\\b+", true, nil, nil},
		{"\\B*", true, nil, nil},
		{"^*", true, nil, nil},
		{"$*", true, nil, nil},
		{"a\\b?", true, nil, nil},
		// \c and a digit or '_' is a control character only inside a class;
		// elsewhere, and before anything but a letter, the backslash is literal
		{"\\c1", false, []string{"\\c1"}, []string{"\x11"}},
		{"[\\c1]", false, []string{"\x11"}, []string{"1", "\\", "c"}},
		{"[\\c_]", false, []string{"\x1f"}, []string{"_", "c"}},
		{"[\\c0]", false, []string{"\x10"}, []string{"0"}},
		{"[\\c9]", false, []string{"\x19"}, []string{"9"}},
		{"[\\c/]", false, []string{"\\", "c", "/"}, []string{"\x0f"}},
		{"[\\c:]", false, []string{"\\", ":"}, []string{"\x1a"}},
		{"[\\c^]", false, []string{"\\", "^"}, []string{"\x1e"}},
		{"[\\c`]", false, []string{"\\", "`"}, []string{"\x00"}},
		{"[\\c@]", false, []string{"\\", "@"}, []string{"\x00"}},
		{"[\\c[]", false, []string{"\\", "["}, []string{"\x1b"}},
		{"[\\c{]", false, []string{"\\", "{"}, []string{"\x1b"}},
		{"[\\ca]", false, []string{"\x01"}, []string{"a"}},
		{"[\\cz]", false, []string{"\x1a"}, []string{"z"}},
		{"[\\cA]", false, []string{"\x01"}, []string{"A"}},
		{"[\\cZ]", false, []string{"\x1a"}, []string{"Z"}},
		{"\\ca", false, []string{"\x01"}, []string{"\\ca"}},
		{"\\cz", false, []string{"\x1a"}, nil},
		{"\\cA", false, []string{"\x01"}, nil},
		{"\\cZ", false, []string{"\x1a"}, nil},
		{"\\c@", false, []string{"\\c@"}, nil},
		{"\\c{", false, []string{"\\c{"}, nil},
		{"\\c`", false, []string{"\\c`"}, nil},
		{"\\c[", true, nil, nil},
		// a negative lookahead whose body matches the empty string never holds
		{"(?!\\s?)", false, nil, []string{"a", "", "_]\x01", "b\n_"}},
		// a '(' inside a class opens no group: \1 is an octal escape
		{"[(]\\1", false, []string{"(\x01"}, []string{"(1"}},
		{"[\\c(]\\1", false, []string{"c\x01", "(\x01"}, nil},
		// empty bodies
		{"(?=)a", false, []string{"a"}, []string{"b"}},
		{"(?:)", false, []string{"", "a"}, nil},
	} {
		re, err := compileJSRegex(c.src)
		if c.syntax {
			if !errors.Is(err, errJSSyntax) {
				t.Errorf("/%s/: %v, want a syntax error", c.src, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("/%s/: %v", c.src, err)
			continue
		}
		expectMatches(t, "/"+c.src+"/", func(s string) bool { return re.match([]rune(s)) }, c.match, c.nomatch)
	}
}

// TestJSRegexNestingBound: the engine parses groups nested 500 deep and
// reports deeper ones as unsupported (V8 accepts both), never a guess.
func TestJSRegexNestingBound(t *testing.T) {
	nest := func(n int) string { return strings.Repeat("(?:", n) + "a" + strings.Repeat(")", n) }
	re, err := compileJSRegex(nest(500))
	if err != nil || !re.match([]rune("a")) {
		t.Errorf("500 groups: %v, want a regex matching a", err)
	}
	var u errUnsupportedRegex
	if _, err := compileJSRegex(nest(501)); !errors.As(err, &u) {
		t.Errorf("501 groups: %v, want unsupported", err)
	}
}

// expectMatches checks that match accepts every string of yes and none of
// no; name is how a failure names the pattern.
func expectMatches(t *testing.T, name string, match func(string) bool, yes, no []string) {
	t.Helper()
	for _, s := range yes {
		if !match(s) {
			t.Errorf("%s does not match %q", name, s)
		}
	}
	for _, s := range no {
		if match(s) {
			t.Errorf("%s matches %q", name, s)
		}
	}
}
