package main

import (
	"fmt"
	"runtime/debug"
	"sync"

	"github.com/cicheck/cicheck/internal/cli"
)

func init() {
	register(&cli.Command{Name: "version", Summary: "print cicheck's version and the revision it was built from", Run: func(e *env, args []string) error {
		if len(args) > 0 {
			return cli.Usagef("version takes no arguments")
		}
		fmt.Fprintf(e.Stdout, "cicheck %s\n", version())
		return nil
	}})
}

// version is the module version (a tagged `go install …@vX`, else "dev")
// and, when the build recorded it, the VCS revision and whether the tree
// had local changes: "dev (rev 1a2b3c4d5e6f, modified)". SARIF reports it.
// (Read on first use: parsing the build info costs every start-up.)
var version = sync.OnceValue(func() string {
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
