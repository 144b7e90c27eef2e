package pathsfilter

import (
	"fmt"
	"testing"
)

// TestGitHubPatternNearMisses: bracket ranges, quantifiers after an
// escape, and brackets cut short, each beside the pattern that differs by
// one character.
func TestGitHubPatternNearMisses(t *testing.T) {
	for _, c := range []struct {
		pattern string
		ok      bool
		match   []string
		nomatch []string
	}{
		// `?` quantifies an escaped character like any other.
		{`a\*?`, true, []string{"a", "a*"}, []string{"a**", "ab"}},
		{`*?`, false, nil, nil},
		// a range and a letter in one class
		{`[a-cx]`, true, []string{"b", "x"}, []string{"d", "-"}},
		{`[xa-c]`, true, []string{"a", "x"}, []string{"y"}},
		// ranges run low to high within one group of a-z, A-Z, 0-9
		{`[c-a]`, false, nil, nil},
		{`[!-a]`, false, nil, nil},
		{`[a-Z]`, false, nil, nil},
		{`[0-9]`, true, []string{"5"}, []string{"a"}},
		{`[a-a]`, true, []string{"a"}, []string{"b"}},
		{`[a-z]`, true, []string{"z"}, []string{"A"}},
		// members are letters and digits: each end of a-z, A-Z and 0-9
		// beside the character just outside it
		{`[az]`, true, []string{"a", "z"}, []string{"b"}},
		{`[AZ]`, true, []string{"A", "Z"}, []string{"B"}},
		{`[09]`, true, []string{"0", "9"}, []string{"5"}},
		{"[`]", false, nil, nil},
		{`[{]`, false, nil, nil},
		{`[@]`, false, nil, nil},
		{`[[]`, false, nil, nil},
		{`[/]`, false, nil, nil},
		{`[:]`, false, nil, nil},
		// cut short after a range's dash, or before any member
		{`[a-`, false, nil, nil},
		{`[a`, false, nil, nil},
		{`[]`, false, nil, nil},
	} {
		p, err := CompileGitHubPattern(c.pattern)
		if (err == nil) != c.ok {
			t.Errorf("%q: err %v, want ok=%v", c.pattern, err, c.ok)
			continue
		}
		expectMatches(t, fmt.Sprintf("%q", c.pattern), p.Match, c.match, c.nomatch)
	}
}

func TestCheckPathsKeys(t *testing.T) {
	for _, c := range []struct{ paths, ignore, err bool }{{true, true, true}, {true, false, false}, {false, true, false}, {false, false, false}} {
		if err := CheckPathsKeys("push", c.paths, c.ignore); (err != nil) != c.err {
			t.Errorf("paths %v, paths-ignore %v: %v", c.paths, c.ignore, err)
		}
	}
}

// TestNegationOnlyNearMiss: only a paths list needs a positive pattern;
// a paths-ignore list of '!' patterns is not reported.
func TestNegationOnlyNearMiss(t *testing.T) {
	for _, c := range []struct {
		ignore   bool
		patterns []string
		want     bool
	}{
		{false, []string{"!a/**"}, true},
		{false, []string{"!a/**", "b/**"}, false},
		{false, nil, false},
		{true, []string{"!a/**"}, false},
	} {
		compile := CompileGitHubPaths
		if c.ignore {
			compile = CompileGitHubPathsIgnore
		}
		g, err := compile(c.patterns)
		if err != nil {
			t.Fatal(err)
		}
		if got := g.NegationOnly(); got != c.want {
			t.Errorf("ignore %v %q: NegationOnly %v", c.ignore, c.patterns, got)
		}
	}
}

// TestTriggersFileLimit: GitHub looks at the first GitHubMaxFiles changed
// files; exactly that many are all considered, one more is truncated.
func TestTriggersFileLimit(t *testing.T) {
	g, err := CompileGitHubPaths([]string{"last"})
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []int{GitHubMaxFiles, GitHubMaxFiles + 1} {
		files := make([]string, n)
		for i := range files {
			files[i] = fmt.Sprintf("f%d", i)
		}
		files[n-1] = "last"
		ok, d := g.Triggers(files)
		trunc := n > GitHubMaxFiles
		if ok == trunc || d.Truncated != trunc || d.Considered != GitHubMaxFiles {
			t.Errorf("%d files: triggers %v, %+v; want triggers %v, truncated %v, %d considered", n, ok, d, !trunc, trunc, GitHubMaxFiles)
		}
	}
}
