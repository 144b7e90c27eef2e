package pathsfilter

import (
	"slices"
	"testing"
)

// TestPatternHeadsNearMiss: the first segments the index files a pattern
// under. A leading group of plain names followed by a safe rest is
// indexed by each name and by the group as written (the equality
// shortcut); one character more (a bracket after it, a `..`, a brace in
// an extglob) and the pattern is filed under "any" (nil).
func TestPatternHeadsNearMiss(t *testing.T) {
	for _, c := range []struct {
		pattern string
		want    []string
	}{
		{"src/**", []string{"src"}},
		{"{a,b}/x", []string{"a", "b", "{a,b}"}},
		{"{a,b}/[x]", nil},
		{"{a}/x", nil},
		{"{..,b}/x", nil},
		{"{a,}/x", nil},
		{"{a,b}x/y", nil},
		{"@(a|b)/x", []string{"a", "b", "@(a|b)"}},
		{"@(a{b,c}|d)/x", nil},
		{"@(a|b)/[x]", nil},
		{"@(a|b)x", nil},
	} {
		if got := patternHeads(c.pattern); !slices.Equal(got, c.want) {
			t.Errorf("patternHeads(%q) = %q, want %q", c.pattern, got, c.want)
		}
	}
}

// TestSuffixFilterEqualityShortcut: a file named exactly like a pattern
// with a brace suffix matches it (picomatch tests input === glob first),
// though it does not end in either extension.
func TestSuffixFilterEqualityShortcut(t *testing.T) {
	fs, err := ParseFilters([]byte("docs: '**/*.{md,txt}'\n"), Origin{File: "f.yml"})
	if err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]Tri{"**/*.{md,txt}": True, "a/b.txt": True, "a/b.mdx": False} {
		if got := fs.Evaluate([]ChangedFile{{path, StatusModified}}, QuantSome)[0].Match; got != want {
			t.Errorf("%q: %v, want %v", path, got, want)
		}
	}
}
