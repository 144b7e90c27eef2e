package textdist

import "testing"

func TestClosest(t *testing.T) {
	cmds := []string{"lint", "simulate", "explain-diff", "graph", "registry", "runners", "rules"}
	for _, c := range []struct{ in, want string }{
		{"lnit", "lint"},         // transposition
		{"simualte", "simulate"}, // transposition
		{"explain-dif", "explain-diff"},
		{"rule", "rules"},
		{"runner", "runners"},
		{"grap", "graph"},
		{"graf", ""},       // two edits in four letters is not a typo
		{"lint", ""},       // exact: nothing to suggest
		{"frobnicate", ""}, // too far from everything
		{"xy", ""},
		{"", ""},
	} {
		if got := Closest(c.in, cmds); got != c.want {
			t.Errorf("Closest(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestDistance(t *testing.T) {
	for _, c := range []struct {
		a, b string
		d    int
	}{{"", "", 0}, {"a", "", 1}, {"abc", "acb", 1}, {"kitten", "sitting", 3}, {"format", "fromat", 1}} {
		if got := OSA(c.a, c.b); got != c.d {
			t.Errorf("distance(%q, %q) = %d, want %d", c.a, c.b, got, c.d)
		}
	}
}

func FuzzClosest(f *testing.F) {
	f.Add("lnit", "lint")
	f.Add("", "x")
	f.Fuzz(func(t *testing.T, s, c string) {
		got := Closest(s, []string{c})
		if got != "" && (got != c || s == c) {
			t.Fatalf("Closest(%q, [%q]) = %q", s, c, got)
		}
		if OSA(s, c) != OSA(c, s) {
			t.Fatalf("distance not symmetric for %q, %q", s, c)
		}
	})
}
