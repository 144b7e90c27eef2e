package pathsfilter

import "testing"

// joins returns every "/"-join of 1..max elements of parts.
func joins(parts []string, max int) []string {
	out := append([]string(nil), parts...)
	prev := parts
	for n := 2; n <= max; n++ {
		var next []string
		for _, p := range prev {
			for _, s := range parts {
				next = append(next, p+"/"+s)
			}
		}
		out = append(out, next...)
		prev = next
	}
	return out
}

// TestFastGlobAgreesWithRegex checks the fast path against the regex engine
// (itself checked against picomatch by the golden test) on every small
// pattern and path built from the shapes the fast path accepts.
func TestFastGlobAgreesWithRegex(t *testing.T) {
	segs := []string{"a", "b", "*", "**", "a*", "*a", ".a", ".*", "*.a", "a*b*", "*-*", "*.*", ".*a"}
	groups := append(segs, "{a,b}", "*.{a,b}", "@(a|b)", "{a,}b", "@(a.a|b)*", "{a,b}-{a,}", "{.a,b*}")
	patterns := append(joins(segs, 3), joins(groups, 2)...)
	paths := joins([]string{"a", "b", "ab", ".a", "a.a", "b-a", "a.", "..a"}, 3)
	paths = append(paths, "a/./b", "a//b", "/a", "a/", ".", "..", "a/..", "a\nb", "x\u2028", "é/a", ".a.a")
	checked, eligible := 0, 0
	for _, body := range patterns {
		for _, p := range []string{body, "!" + body} {
			m, err := CompilePicomatch(p)
			if err != nil {
				t.Fatalf("%q: %v", p, err)
			}
			if m.fast == nil {
				continue
			}
			eligible++
			for _, path := range paths {
				got, ok := m.fast.match(path)
				if !ok {
					continue
				}
				checked++
				if want := m.matchRegex(path) || path == p; got != want {
					t.Errorf("fast(%q)(%q) = %v, regex says %v", p, path, got, want)
				}
			}
		}
	}
	if eligible < 1000 || checked < 100000 {
		t.Fatalf("only %d eligible patterns, %d comparisons", eligible, checked)
	}
}

func TestFastGlobEligibility(t *testing.T) {
	for p, want := range map[string]bool{
		"src/**": true, "**/*.md": true, "*.md": true, "!docs/**": true, "a/**/b": true, ".github/workflows/*.yml": true,
		"*/**": false, "**/**": false, "**.js": false, "a**": false, "{a,b}": true, "a?": false, "./a": false,
		"a/": false, "/a": false, "!!a": false, "@(a)": true, "[ab]": false, "a/../b": false,
		"{a,b}/**": true, "src/**/*.{ts,tsx}": true, "{a}": false, "{1..3}": false, "{a/**,b}": false, "!(a)": false,
		"+(a|b)": false, "(a|b)": false, "{a,{b,c}}": false, "@(a|*)": false,
	} {
		if got := newFastGlob(p) != nil; got != want {
			t.Errorf("newFastGlob(%q) eligible = %v, want %v", p, got, want)
		}
	}
	for p, want := range map[string]bool{"a/b": true, "a": true, ".env": true, "a/.b/c": true, "..a": true,
		"a/": false, "/a": false, "a//b": false, "a/./b": false, "../a": false, "a\nb": false, "": false, "x\u2029": false} {
		if cleanPath(p) != want {
			t.Errorf("cleanPath(%q) != %v", p, want)
		}
	}
}
