// Package globbench holds the glob-matching benchmark corpus shared by the
// Go benchmark and the Node/picomatch timing script (run.sh runs both).
package globbench

import (
	"fmt"
	"strings"
)

// Corpus returns 200 filter patterns in the styles real workflows use and
// n repository paths, both deterministic.
func Corpus(n int) (patterns, paths []string) {
	dirs := []string{"src", "docs", "lib", "crates", "kernels", "csrc", "webui", "mobile", "tests", "scripts",
		"infra", "charts", "cmd", "internal", "pkg", "tools", "examples", "benchmarks", "python", "third_party"}
	exts := []string{"go", "rs", "ts", "tsx", "py", "md", "cu", "cpp", "h", "yml", "json", "toml", "txt", "sh"}
	subs := []string{"core", "api", "util", "ui", "kernels", "patches", "patches-rocm", "patches-cuda", "turbo",
		"vendor", "generated", "fixtures", "v1", "v2", "internal", "common"}
	files := []string{"main", "index", "lib", "mod", "test_utils", "README", "config", "server", "client",
		"handler", "model", "types", "Cargo", "package", "setup", "build"}
	seed := uint32(20261129)
	rnd := func(k int) int {
		seed = seed*1103515245 + 12345
		return int((seed >> 8) % uint32(k))
	}
	for _, d := range dirs {
		e := exts[rnd(len(exts))]
		s := subs[rnd(len(subs))]
		patterns = append(patterns,
			d+"/**",       // 20
			d+"/**/*."+e,  // 40
			d+"/"+s+"/**", // 60
			"**/"+s+"/**", // 80
			d+"/**/*.{"+e+","+exts[rnd(len(exts))]+"}", // 100 (braces)
			"!"+d+"/**/*.md",             // 120 (negated)
			d+"/*."+e,                    // 140
			"**/*."+exts[rnd(len(exts))], // 160
		)
	}
	for i := 0; i < 20; i++ {
		d := dirs[i]
		switch i % 4 {
		case 0:
			patterns = append(patterns, d+"/!("+subs[rnd(len(subs))]+")/**", ".github/workflows/"+d+".yml")
		case 1:
			patterns = append(patterns, "@("+d+"|"+dirs[(i+1)%len(dirs)]+")/**", "*.md")
		case 2:
			patterns = append(patterns, d+"/**/"+files[rnd(len(files))]+".*", "{"+d+","+dirs[(i+3)%len(dirs)]+"}/**")
		default:
			patterns = append(patterns, d+"/"+subs[rnd(len(subs))]+"/**/*.{h,cpp,cu}", "Cargo.{toml,lock}")
		}
	}
	top := []string{".github/workflows/ci.yml", ".github/dependabot.yml", "README.md", "LICENSE", "Cargo.toml",
		"package.json", "go.mod", ".gitignore", ".env.example", "Makefile"}
	for len(paths) < n {
		if rnd(20) == 0 {
			paths = append(paths, top[rnd(len(top))])
			continue
		}
		var b strings.Builder
		b.WriteString(dirs[rnd(len(dirs))])
		for depth := rnd(4); depth > 0; depth-- {
			b.WriteString("/" + subs[rnd(len(subs))])
		}
		fmt.Fprintf(&b, "/%s.%s", files[rnd(len(files))], exts[rnd(len(exts))])
		paths = append(paths, b.String())
	}
	return patterns, paths
}
