// Command cicheck finds the CI failures a YAML parse accepts: GPU stages
// silently skipped by GitHub's implicit success() closure, path filters that
// wake scarce runners, broken test registrations and malformed scoped runs.
//
// The command is a thin driver: it parses flags, reads configuration, calls
// the engine packages and picks a reporter. Each sub-command lives in its own
// file and registers itself in init.
package main

import (
	"fmt"
	"io"
	"maps"
	"os"
	"runtime/debug"
	"slices"
	"sort"
	"strings"

	"github.com/cicheck/cicheck/internal/textdist"
)

// Exit codes shared by every sub-command (see design.md).
const (
	exitOK       = 0 // nothing at or above --fail-on; scope accepted
	exitFindings = 1 // findings, or a rejected scope/command
	exitUsage    = 2 // bad usage, unreadable input, invalid config
	exitInternal = 3 // a bug in cicheck
)

// env is what a sub-command may touch of the outside world; tests replace it.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	getenv         func(string) string
	wd             string
}

// command is one sub-command. run receives the arguments after its name;
// a command with verbs (registry check, scope chunk) lists them in subs,
// dispatched with usage shown when none is given (unless run does it).
type command struct {
	name    string
	summary string
	run     func(e *env, args []string) int
	usage   string
	subs    []subcommand
	// verbs names the verbs a run function handles itself (baseline write),
	// for completion.
	verbs []string
}

var commands = map[string]command{}

func register(c command) {
	if _, dup := commands[c.name]; dup {
		panic("cicheck: duplicate command " + c.name)
	}
	commands[c.name] = c
}

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
		return exitUsage
	}
	e := &env{stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr, getenv: os.Getenv, wd: wd}
	return dispatch(e, os.Args[1:])
}

func dispatch(e *env, args []string) (code int) {
	defer func() {
		// A panic is a cicheck bug: report it in one line, never a stack trace.
		if r := recover(); r != nil {
			fmt.Fprintf(e.stderr, "cicheck: internal error: %v (please report this)\n", r)
			code = exitInternal
		}
	}()
	if len(args) == 0 {
		usage(e.stdout)
		return exitOK
	}
	switch args[0] {
	case "-h", "--help":
		usage(e.stdout)
		return exitOK
	case "--version":
		args = append([]string{"version"}, args[1:]...)
	}
	// Flags without a command are lint's (cicheck --format sarif).
	name := "lint"
	if !strings.HasPrefix(args[0], "-") {
		name, args = args[0], args[1:]
	}
	if name == "help" {
		if len(args) == 0 {
			usage(e.stdout)
			return exitOK
		}
		// `cicheck help lint` is `cicheck lint --help`.
		name, args = args[0], []string{"--help"}
	}
	c, ok := commands[name]
	if !ok {
		if m := textdist.Closest(name, slices.Sorted(maps.Keys(commands))); m != "" {
			fmt.Fprintf(e.stderr, "cicheck: unknown command %q; did you mean %q? (run 'cicheck help' for the list)\n", name, m)
		} else {
			fmt.Fprintf(e.stderr, "cicheck: unknown command %q (run 'cicheck help' for the list)\n", name)
		}
		return exitUsage
	}
	run := c.run
	if run == nil {
		run = func(e *env, args []string) int { return dispatchSub(e, c.name, c.usage, c.subs, args) }
	}
	if wantsHelp(args) {
		// Help someone asked for is output, not a diagnostic: stdout.
		h := *e
		h.stderr = e.stdout
		return run(&h, args)
	}
	return run(e, args)
}

// wantsHelp reports whether -h or --help comes before any "--" (after it,
// they are arguments, such as a scope target).
func wantsHelp(args []string) bool {
	for _, a := range args {
		switch a {
		case "--":
			return false
		case "-h", "--help":
			return true
		}
	}
	return false
}

// subcommand is one verb of a command that has verbs (scope check,
// registry select, ...).
type subcommand struct {
	name string
	run  func(e *env, args []string) int
}

// dispatchSub runs the verb args[0] of command cmd. No verb is a usage
// error; help prints usage and succeeds.
func dispatchSub(e *env, cmd, usage string, subs []subcommand, args []string) int {
	if len(args) == 0 {
		fmt.Fprintln(e.stderr, usage)
		return exitUsage
	}
	switch args[0] {
	case "-h", "--help", "help":
		fmt.Fprintln(e.stdout, usage)
		return exitOK
	}
	names := make([]string, 0, len(subs))
	for _, s := range subs {
		if s.name == args[0] {
			return s.run(e, args[1:])
		}
		names = append(names, s.name)
	}
	if m := textdist.Closest(args[0], names); m != "" {
		fmt.Fprintf(e.stderr, "cicheck: unknown %s subcommand %q; did you mean %q? (valid: %s)\n", cmd, args[0], m, strings.Join(names, ", "))
	} else {
		fmt.Fprintf(e.stderr, "cicheck: unknown %s subcommand %q (valid: %s)\n", cmd, args[0], strings.Join(names, ", "))
	}
	return exitUsage
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: cicheck [command] [flags] [args]")
	fmt.Fprintln(w, "\ncommands:")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-14s %s\n", n, commands[n].summary)
	}
	fmt.Fprintln(w, "\nFlags without a command are lint's: 'cicheck --format sarif' is 'cicheck lint --format sarif'.")
	fmt.Fprintln(w, "Run 'cicheck COMMAND --help' for a command's flags.")
}
