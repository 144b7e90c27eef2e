package pathsfilter

import "testing"

func FuzzGitHubPaths(f *testing.F) {
	for _, s := range [][2]string{
		{"*.jsx?", "page.js"}, {"src/**.js", "src/a/b.js"}, {"a+b.txt", "aab.txt"}, {"**/README.md", "README.md"},
		{"!docs/**", "docs/a"}, {"[a-c0-9]*", "b1"}, {`a\*b`, "a*b"}, {"*?", "a"}, {"[", "["}, {"{a,b}", "a"},
	} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, pattern, path string) {
		g, err := CompileGitHubPaths([]string{"src/**", pattern})
		if err != nil {
			return
		}
		inc, by := g.Decide(path)
		if inc && by == "" {
			t.Fatalf("%q included %q without a deciding pattern", pattern, path)
		}
		g.Triggers([]string{path, "src/x"})
		if gi, err := CompileGitHubPathsIgnore([]string{pattern}); err == nil {
			gi.Triggers([]string{path})
		}
	})
}
