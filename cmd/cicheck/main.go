// Command cicheck finds the CI failures a YAML parse accepts: GPU stages
// silently skipped by GitHub's implicit success() closure, path filters that
// wake scarce runners, broken test registrations and malformed scoped runs.
//
// The command is a thin driver: it parses flags, reads configuration, calls
// the library packages and prints. Each command lives in its own file and
// registers itself in init; the command layer is internal/cli.
package main

import (
	"embed"
	"fmt"
	"os"
	"runtime/debug"
	"strings"

	"github.com/cicheck/cicheck/internal/cli"
)

type env = cli.Env

var app = &cli.App{Name: "cicheck", Default: "lint", Footer: "\nFlags without a command are lint's: 'cicheck --format sarif' is 'cicheck lint --format sarif'.\n" +
	"Run 'cicheck COMMAND --help' for a command's flags.\n"}

func register(c *cli.Command) { app.Register(c) }

func main() {
	// A run is short and allocates mostly garbage: with Go's default (a
	// collection each time the heap doubles from 4 MB) most of a lint's
	// collections start before the heap is worth collecting, and each puts
	// an idle-priority mark worker on the other core. GOGC=200 halves them
	// (measured: bench/repos/run.sh); GOGC in the environment still wins.
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(200)
	}
	os.Exit(run())
}

// run is main without os.Exit, so testscript can call it in-process.
func run() int {
	wd, err := os.Getwd()
	if err != nil {
		fmt.Fprintf(os.Stderr, "cicheck: cannot read working directory: %v\n", err)
		return cli.ExitUsage
	}
	return dispatch(&env{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr, Getenv: os.Getenv, WD: wd}, os.Args[1:])
}

func dispatch(e *env, args []string) int { return app.Run(e, args) }

//go:embed help/*.txt
var helpFiles embed.FS

// usage is a command's help text, help/NAME.txt ("registry select" is
// registry-select.txt): prose kept apart from the code that parses flags.
func usage(name string) string {
	b, err := helpFiles.ReadFile("help/" + strings.ReplaceAll(name, " ", "-") + ".txt")
	if err != nil {
		panic("cicheck: no help text for " + name)
	}
	return strings.TrimSuffix(string(b), "\n")
}
