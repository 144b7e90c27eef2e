package pathsfilter

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// TestFilterOrderIntegerNamesFirst: filters come out in JavaScript's key
// order, array-index names ascending (each one smaller than all before
// it, too) and then the rest as written; node: Object.keys(safeLoad(…))
// is [0, 1, 2, 10, x].
func TestFilterOrderIntegerNamesFirst(t *testing.T) {
	fs, err := ParseFilters([]byte("2: a\nx: b\n10: c\n1: d\n0: e\n"), Origin{File: "f.yml"})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range fs.List {
		got = append(got, f.Name)
	}
	if want := []string{"0", "1", "2", "10", "x"}; !slices.Equal(got, want) {
		t.Errorf("order %q, want %q", got, want)
	}
}

// TestWitnessIsFirstMatchingPattern: a filter's witness names the first
// pattern that matched the file, not an earlier one under the same first
// segment that did not, under `some` and `some-with-excludes` alike; under
// `every` it is the first pattern that is not negated.
func TestWitnessIsFirstMatchingPattern(t *testing.T) {
	fs, err := ParseFilters([]byte("app: ['docs/*.txt', 'docs/**', 'docs/*.md', '!docs/gen/**']"), Origin{File: "f.yml"})
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []Quantifier{QuantSome, QuantSomeWithExcludes} {
		rs := fs.Evaluate([]ChangedFile{{Path: "docs/a.md", Status: "modified"}}, q)
		if len(rs) != 1 || rs[0].Match != True || rs[0].Witness == nil {
			t.Fatalf("%v: %+v, want a match with a witness", q, rs)
		}
		if w := *rs[0].Witness; w.File != "docs/a.md" || w.Pattern != "docs/**" {
			t.Errorf("%v: witness %+v, want docs/a.md by docs/**", q, w)
		}
	}
	fs, err = ParseFilters([]byte("app: ['!docs/gen/**', 'docs/**']"), Origin{File: "f.yml"})
	if err != nil {
		t.Fatal(err)
	}
	rs := fs.Evaluate([]ChangedFile{{Path: "docs/a.md", Status: "modified"}}, QuantEvery)
	if len(rs) != 1 || rs[0].Match != True || rs[0].Witness == nil || rs[0].Witness.Pattern != "docs/**" {
		t.Errorf("every: %+v, want a match by docs/**", rs)
	}
}

// TestSuffixNeedsBothBraces: only `*.{a,b}` (both braces, literal
// alternatives) forces an ending on a path; `*.ab,cd}` is literal text, which picomatch matches
// as such (picomatch("*.ab,cd}", {dot: true})("x.ab,cd}") is true).
func TestSuffixNeedsBothBraces(t *testing.T) {
	for _, c := range []struct {
		pattern, path string
		want          Tri
	}{
		{"*.ab,cd}", "x.ab,cd}", True},
		{"*.ab,cd}", "x.b", False},
		{"*.{ab,cd}", "x.cd", True},
		{"*.{ab,cd}", "x.b", False},
		// an alternative that is not literal text (picomatch: "*.{js,*}"
		// matches "x.ts", not "x")
		{"*.{js,*}", "x.ts", True},
		{"*.{js,*}", "x", False},
	} {
		fs, err := ParseFilters([]byte(fmt.Sprintf("f: ['%s']", c.pattern)), Origin{File: "f.yml"})
		if err != nil {
			t.Fatal(err)
		}
		if rs := fs.Evaluate([]ChangedFile{{Path: c.path, Status: "added"}}, QuantSome); rs[0].Match != c.want {
			t.Errorf("%q on %q: %v, want %v", c.pattern, c.path, rs[0].Match, c.want)
		}
	}
}

// TestAliasNestingBound: a list nested through a chain of aliases is
// walked up to 1000 levels (dorny v2.11.1-v4.0.2 match f999 of a
// 1000-anchor chain, tools/dorny-golden/oracle.js); one level more is past
// the modelled bound: unknown, never a verdict.
func TestAliasNestingBound(t *testing.T) {
	chain := func(n int) string {
		var b strings.Builder
		b.WriteString("f0: &a0 [x]\n")
		for i := 1; i < n; i++ {
			fmt.Fprintf(&b, "f%d: &a%d [*a%d]\n", i, i, i-1)
		}
		return b.String()
	}
	fs, err := ParseFilters([]byte(chain(1000)), Origin{File: "f.yml"})
	if err != nil {
		t.Fatalf("1000 levels: %v", err)
	}
	rs := fs.Evaluate([]ChangedFile{{Path: "x", Status: "added"}}, QuantSome)
	if last := rs[len(rs)-1]; last.Name != "f999" || last.Match != True {
		t.Errorf("1000 levels: %s %v, want f999 true", last.Name, last.Match)
	}
	_, err = ParseFilters([]byte(chain(1001)), Origin{File: "f.yml"})
	var e *Error
	if !errors.As(err, &e) || !e.Unmodelled {
		t.Errorf("1001 levels: %v, want an unmodelled error", err)
	}
}
