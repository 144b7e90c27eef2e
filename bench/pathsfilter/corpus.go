// Package pfbench holds the filter-level benchmark corpus shared by the Go
// benchmark and the Node script that runs dorny/paths-filter's own
// matching loop with the real picomatch (run.sh runs both, in one run).
package pfbench

import (
	"fmt"
	"strings"

	"github.com/cicheck/cicheck/pathsfilter"
)

// Corpus returns a dorny/paths-filter `filters` YAML of 20 filters holding
// 200 patterns in the styles real workflows use (globstars, extensions,
// braces, extglobs, `!` rules, status keys), and n changed files with git
// statuses. Deterministic.
func Corpus(n int) (filtersYAML string, files []pathsfilter.ChangedFile) {
	dirs := []string{"src", "docs", "lib", "crates", "kernels", "csrc", "webui", "mobile", "tests", "scripts",
		"infra", "charts", "cmd", "internal", "pkg", "tools", "examples", "benchmarks", "python", "third_party"}
	exts := []string{"go", "rs", "ts", "tsx", "py", "md", "cu", "cpp", "h", "yml", "json", "toml", "txt", "sh"}
	subs := []string{"core", "api", "util", "ui", "kernels", "patches", "patches-rocm", "patches-cuda", "turbo",
		"vendor", "generated", "fixtures", "v1", "v2", "internal", "common"}
	names := []string{"main", "index", "lib", "mod", "test_utils", "README", "config", "server", "client",
		"handler", "model", "types", "Cargo", "package", "setup", "build"}
	seed := uint32(20261129)
	rnd := func(k int) int {
		seed = seed*1103515245 + 12345
		return int((seed >> 8) % uint32(k))
	}
	pick := func(s []string) string { return s[rnd(len(s))] }
	var b strings.Builder
	for i, d := range dirs {
		fmt.Fprintf(&b, "f%02d_%s:\n", i, d)
		e, s := pick(exts), pick(subs)
		rules := []string{
			fmt.Sprintf("'%s/%s/**/*.%s'", d, s, e),
			fmt.Sprintf("'%s/**/%s.*'", d, pick(names)),
			fmt.Sprintf("'**/%s/**/*.{%s,%s}'", pick(subs), e, pick(exts)),
			fmt.Sprintf("'%s/*.%s'", d, pick(exts)),
			fmt.Sprintf("'%s/%s/**'", pick(dirs), pick(subs)),
			fmt.Sprintf("'@(%s|%s)/%s/**'", d, pick(dirs), pick(subs)),
			fmt.Sprintf("'.github/workflows/%s.yml'", d),
			fmt.Sprintf("added|modified: '%s/**/*.%s'", pick(dirs), pick(exts)),
			fmt.Sprintf("deleted: '%s/%s/*.%s'", d, pick(subs), pick(exts)),
		}
		if i%5 == 0 {
			// One `!` rule: under `some` it widens the filter (on purpose:
			// real repositories do this, see paths-filter-negation-widens).
			rules = append(rules, fmt.Sprintf("'!%s/**'", pick(dirs)))
		} else {
			rules = append(rules, fmt.Sprintf("'%s/%s/!(%s)/**'", d, pick(subs), pick(subs)))
		}
		for _, r := range rules {
			b.WriteString("  - " + r + "\n")
		}
	}
	top := []string{".github/workflows/ci.yml", ".github/dependabot.yml", "README.md", "LICENSE", "Cargo.toml",
		"package.json", "go.mod", ".gitignore", ".env.example", "Makefile"}
	statuses := []string{"modified", "modified", "modified", "added", "deleted"}
	for len(files) < n {
		st := pick(statuses)
		if rnd(20) == 0 {
			files = append(files, pathsfilter.ChangedFile{Path: pick(top), Status: st})
			continue
		}
		var p strings.Builder
		p.WriteString(pick(dirs))
		for depth := rnd(4); depth >= 0; depth-- {
			p.WriteString("/" + pick(subs))
		}
		if rnd(10) == 0 {
			p.WriteString("/.hidden")
		}
		p.WriteString("/" + pick(names) + "." + pick(exts))
		files = append(files, pathsfilter.ChangedFile{Path: p.String(), Status: st})
	}
	return b.String(), files
}
