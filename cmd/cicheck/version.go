package main

import (
	"fmt"

	"github.com/cicheck/cicheck/internal/cli"
	"github.com/cicheck/cicheck/internal/project"
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

var version = project.SemVer
