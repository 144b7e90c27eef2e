package project

import (
	"runtime/debug"
	"sync"
)

// Version is the module version (a tagged `go install …@vX`, else "dev")
// and, when the build recorded it, the VCS revision and whether the tree
// had local changes: "dev (rev 1a2b3c4d5e6f, modified)". SARIF reports it.
// (Read on first use: parsing the build info costs every start-up.)
var Version = sync.OnceValue(func() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "dev"
	}
	return versionOf(bi)
})

func versionOf(bi *debug.BuildInfo) string {
	v := bi.Main.Version
	if v == "" || v == "(devel)" {
		v = "dev"
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
	if rev == "" {
		return v
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if modified {
		return v + " (rev " + rev + ", modified)"
	}
	return v + " (rev " + rev + ")"
}
