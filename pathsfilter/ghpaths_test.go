package pathsfilter

import (
	"errors"
	"fmt"
	"testing"
)

// Spec §9: same text, different answers (GH column), plus the documented
// cheat-sheet examples.
func TestGitHubPatternRows(t *testing.T) {
	rows := []struct {
		pattern, path string
		want          bool
	}{
		{"*.jsx?", "page.js", true},
		{"*.jsx?", "page.jsx", true},
		{"*.jsx?", "page.jsxx", false},
		{"src/**.js", "src/a/b.js", true},
		{"*.{js,ts}", "a.ts", false},
		{"*.{js,ts}", "*.{js,ts}", true},
		{"a+b.txt", "aab.txt", true},
		{"a+b.txt", "ab.txt", true},
		{"a+b.txt", "a+b.txt", false},
		{"docs/**", "docs", false},
		{"docs/**", "docs/a/b.md", true},
		{"**.js", "a/b.js", true},
		{"**/README.md", "README.md", true},
		{"**/README.md", "a/b/README.md", true},
		{".github/**", ".github/x.yml", true},
		{"*", ".env", true},
		{"*", "a/b", false},
		{"*.md", "docs/hello.md", false},
		{"a/**/b", "a/b", true},
		{"a/**/b", "a/x/y/b", true},
		{"?a", "?a", true},
		{"+a", "+a", true},
		{"[abc].txt", "b.txt", true},
		{"[a-c0-9].txt", "7.txt", true},
		{"[a-c].txt", "d.txt", false},
		{`a\*b`, "a*b", true},
		{`a\*b`, "axb", false},
		{"@(a|b).js", "a.js", false},
		{"README.md", "readme.md", false},
	}
	for _, r := range rows {
		p, err := CompileGitHubPattern(r.pattern)
		if err != nil {
			t.Errorf("%q: %v", r.pattern, err)
			continue
		}
		if got := p.Match(r.path); got != r.want {
			t.Errorf("GitHub %q vs %q = %v, want %v", r.pattern, r.path, got, r.want)
		}
	}
}

func TestGitHubPatternErrors(t *testing.T) {
	for _, p := range []string{"", "!", "[]", "[a", "[a-Z]", "[z-a]", "[.]", `a\`, "[!a]"} {
		if _, err := CompileGitHubPattern(p); err == nil || errors.Is(err, ErrUnsupportedGlob) {
			t.Errorf("%q: got %v, want an invalid-pattern error", p, err)
		}
	}
	for _, p := range []string{"*?", "a**+", "a??", "**/?"} {
		if _, err := CompileGitHubPattern(p); !errors.Is(err, ErrUnsupportedGlob) {
			t.Errorf("%q: got %v, want unsupported", p, err)
		}
	}
}

func TestGitHubPathsOrdering(t *testing.T) {
	g, err := CompileGitHubPaths([]string{"*.md", "!README.md"})
	if err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]bool{"hello.md": true, "README.md": false, "docs/hello.md": false} {
		if got, _ := g.Decide(path); got != want {
			t.Errorf("[*.md !README.md] %q = %v, want %v", path, got, want)
		}
	}
	g, _ = CompileGitHubPaths([]string{"*.md", "!README.md", "README*"})
	if got, by := g.Decide("README.md"); !got || by != "README*" {
		t.Errorf("README* should re-include README.md, got %v by %q", got, by)
	}
}

func TestGitHubPathsTriggers(t *testing.T) {
	many := make([]string, 0, 400)
	for i := 0; i < 350; i++ {
		many = append(many, fmt.Sprintf("docs/%03d.md", i))
	}
	many = append(many, "src/main.go")
	tests := []struct {
		name     string
		ignore   bool
		patterns []string
		files    []string
		want     bool
		known    bool
		trunc    bool
		witness  string
	}{
		{"paths: one file included", false, []string{"src/**"}, []string{"docs/a.md", "src/a.go"}, true, true, false, "src/a.go"},
		{"paths: excluded by later !", false, []string{"src/**", "!src/**/*.md"}, []string{"src/a.md"}, false, true, false, ""},
		{"paths: no files, no run", false, []string{"**"}, nil, false, true, false, ""},
		{"paths-ignore: all ignored", true, []string{"docs/**", "*.md"}, []string{"docs/a", "README.md"}, false, true, false, ""},
		{"paths-ignore: one not ignored", true, []string{"docs/**"}, []string{"docs/a", "src/b"}, true, true, false, "src/b"},
		{"paths-ignore with ! is unknown (act: ignored)", true, []string{"docs/**", "!docs/keep.md"}, []string{"docs/keep.md"}, false, false, false, ""},
		{"paths-ignore with !: act ignores what the ! body misses", true, []string{"!src/**"}, []string{"docs/a", "src/b"}, true, false, false, "src/b"},
		{"paths: match beyond 300 files is invisible", false, []string{"src/**"}, many, false, true, true, ""},
		{"paths-ignore: beyond 300 files is invisible", true, []string{"docs/**"}, many, false, true, true, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			compile := CompileGitHubPaths
			if tt.ignore {
				compile = CompileGitHubPathsIgnore
			}
			g, err := compile(tt.patterns)
			if err != nil {
				t.Fatal(err)
			}
			got, d := g.Triggers(tt.files)
			if got != tt.want || d.Known != tt.known || d.Truncated != tt.trunc || d.Witness != tt.witness {
				t.Errorf("Triggers = %v %+v, want %v known=%v truncated=%v witness=%q", got, d, tt.want, tt.known, tt.trunc, tt.witness)
			}
		})
	}
}

func TestGitHubPathsHelpers(t *testing.T) {
	g, _ := CompileGitHubPaths([]string{"!docs/**"})
	if !g.NegationOnly() || !g.HasNegation() {
		t.Error("NegationOnly/HasNegation")
	}
	if err := CheckPathsKeys("push", true, true); err == nil {
		t.Error("both keys must be an error")
	}
	if !IsPathFilteredEvent("pull_request_target") || IsPathFilteredEvent("merge_group") {
		t.Error("IsPathFilteredEvent")
	}
	for p, want := range map[string]bool{"{a,b}/**": true, "@(a|b)": true, "{1..3}": true, "{a}": false, "src/**": false, "a(b)": false} {
		if PicomatchOnlySyntax(p) != want {
			t.Errorf("PicomatchOnlySyntax(%q) != %v", p, want)
		}
	}
}
