package pathsfilter

import (
	"bufio"
	"encoding/json"
	"maps"
	"os"
	"slices"
	"testing"
)

// TestIndexAgreesWithScan: the first-segment index never changes a
// membership or a witness. Every golden pattern is tried as a rule next to
// a few others, on every golden path, under all three quantifiers.
func TestIndexAgreesWithScan(t *testing.T) {
	f, err := os.Open("testdata/picomatch-golden.jsonl")
	if err != nil {
		t.Skip("golden file absent")
	}
	defer func() { _ = f.Close() }()
	pats, paths := map[string]bool{}, map[string]bool{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var row []any
		if json.Unmarshal(sc.Bytes(), &row) != nil || len(row) < 2 {
			continue
		}
		p, _ := row[0].(string)
		q, _ := row[1].(string)
		pats[p], paths[q] = true, true
	}
	var files []ChangedFile
	// Sorted, so every run checks the same seventh of the patterns (a
	// mutation run needs the same verdict each time).
	for _, p := range slices.Sorted(maps.Keys(paths)) {
		files = append(files, ChangedFile{Path: p, Status: StatusModified})
	}
	others := []string{"src/**", "docs/*.md", "**/*.js", "!lib/**", "@(a|src)/**", "{b,src}/*.js", "**/*.{md,js}"}
	n := 0
	for _, p := range slices.Sorted(maps.Keys(pats)) {
		n++
		if n%7 != 0 { // a sample keeps the test fast
			continue
		}
		var rules []Rule
		for _, txt := range append([]string{p}, others...) {
			pt := Pattern{Text: txt, Negated: IsNegated(txt)}
			pt.setGlob()
			pt.suffixes = literalSuffixes(txt)
			if pt.Err != nil {
				continue
			}
			rules = append(rules, Rule{Patterns: []Pattern{pt}})
		}
		fi := &Filter{Name: "f", Rules: rules}
		fi.index = buildIndex(fi)
		for _, q := range []Quantifier{QuantSome, QuantEvery, QuantSomeWithExcludes} {
			// The batch path (prepared paths, interned keys, extension
			// filter) against a plain scan.
			batch := (&Filters{List: []*Filter{fi}}).Evaluate(files, q)[0]
			count, first := 0, (*Witness)(nil)
			for _, cf := range files {
				if in, pat := fi.scan(cf, q); in == True {
					count++
					if first == nil {
						first = &Witness{cf.Path, pat}
					}
				}
			}
			if batch.Count != count || (q == QuantSome && first != nil && *batch.Witness != *first) {
				t.Fatalf("pattern %q %s: batch count %d witness %v, scan %d %v", p, q, batch.Count, batch.Witness, count, first)
			}
			for _, cf := range files {
				got, gp := fi.belongs(cf, q)
				want, wp := fi.scan(cf, q)
				if got != want || (got == True && gp != wp && q != QuantEvery) {
					t.Fatalf("pattern %q path %q %s: index %v %q, scan %v %q", p, cf.Path, q, got, gp, want, wp)
				}
			}
		}
	}
}

// scan is belongs without the index or the suffix check: every rule, in
// order, through the matcher alone.
func (f *Filter) scan(cf ChangedFile, q Quantifier) (Tri, string) {
	var sufs [][]string
	for i := range f.Rules {
		for j := range f.Rules[i].Patterns {
			sufs = append(sufs, f.Rules[i].Patterns[j].suffixes)
			f.Rules[i].Patterns[j].suffixes = nil
		}
	}
	defer func() {
		k := 0
		for i := range f.Rules {
			for j := range f.Rules[i].Patterns {
				f.Rules[i].Patterns[j].suffixes = sufs[k]
				k++
			}
		}
	}()
	saved := f.index
	f.index = &ruleIndex{heads: make([][]string, len(f.Rules)), by: map[string][]int{}}
	for i := range f.Rules {
		f.index.other = append(f.index.other, i)
	}
	defer func() { f.index = saved }()
	return f.belongs(cf, q)
}

// TestLiteralSuffixBraces: `*.{a}` has no comma, so picomatch reads the
// braces as literal text (picomatch 2.3.1: "x.{a}" matches, "x.a" does
// not); the extension pre-filter must not turn it into the suffix ".a".
// The near miss `*.{a,b}` is an alternation with suffixes ".a" and ".b".
func TestLiteralSuffixBraces(t *testing.T) {
	if got := literalSuffixes("*.{a}"); got != nil {
		t.Errorf("literalSuffixes(*.{a}) = %q, want none", got)
	}
	if got := literalSuffixes("**/*.{a,b}"); len(got) != 2 {
		t.Errorf("literalSuffixes(**/*.{a,b}) = %q, want .a and .b", got)
	}
	for _, c := range []struct {
		pat, path string
		want      Tri
	}{
		{"*.{a}", "x.{a}", True},
		{"*.{a}", "x.a", False},
		{"**/*.{a}", "d/x.{a}", True},
		{"**/*.{a,b}", "d/x.b", True},
	} {
		pt := Pattern{Text: c.pat}
		pt.setGlob()
		pt.suffixes = literalSuffixes(c.pat)
		fi := &Filter{Name: "f", Rules: []Rule{{Patterns: []Pattern{pt}}}}
		fi.index = buildIndex(fi)
		got := (&Filters{List: []*Filter{fi}}).Evaluate([]ChangedFile{{Path: c.path, Status: StatusModified}}, QuantSome)[0]
		if got.Match != c.want {
			t.Errorf("%s on %s: %v, want %v", c.pat, c.path, got.Match, c.want)
		}
	}
}
