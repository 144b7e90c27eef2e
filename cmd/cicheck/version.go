package main

import "fmt"

func init() {
	register(command{name: "version", summary: "print cicheck's version", run: func(e *env, args []string) int {
		if len(args) > 0 {
			fmt.Fprintln(e.stderr, "cicheck: version takes no arguments")
			return exitUsage
		}
		fmt.Fprintf(e.stdout, "cicheck %s\n", version())
		return exitOK
	}})
}
