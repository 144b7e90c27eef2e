package project

import (
	"runtime/debug"
	"strings"
	"sync"
)

// SemVer is cicheck's version as a semantic version, the one form that
// `cicheck version` prints and SARIF reports (a machine reader compares
// versions that start with a number): a tagged build's module version
// without its "v" ("0.3.0"), else "0.0.0-dev"; the VCS revision and
// whether the tree had local changes, when the build recorded them, are
// build metadata ("0.0.0-dev+rev.1a2b3c4d5e6f.modified").
// (Read on first use: parsing the build info costs every start-up.)
var SemVer = sync.OnceValue(func() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "0.0.0-dev"
	}
	return semVerOf(bi)
})

func semVerOf(bi *debug.BuildInfo) string {
	v := strings.TrimPrefix(bi.Main.Version, "v")
	if v == "" || v == "(devel)" || v[0] < '0' || v[0] > '9' {
		v = "0.0.0-dev"
	}
	if strings.Contains(v, "+") {
		return v // a pseudo-version's own metadata (+incompatible, +dirty) stays
	}
	var rev string
	modified := false
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			modified = s.Value == "true"
		}
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	var meta []string
	if rev != "" && semverIdent(rev) {
		meta = append(meta, "rev", rev)
	}
	if modified {
		meta = append(meta, "modified")
	}
	if len(meta) == 0 {
		return v
	}
	return v + "+" + strings.Join(meta, ".")
}

// semverIdent reports whether s is a valid build-metadata identifier:
// ASCII letters, digits and hyphens.
func semverIdent(s string) bool {
	for _, c := range s {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '-') {
			return false
		}
	}
	return s != ""
}
