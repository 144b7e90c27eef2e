// Package cli is cicheck's command layer: commands are values (name,
// summary, usage, run), dispatched with help on stdout, did-you-mean for
// commands, verbs and flags, and errors printed once, in one line, with the
// exit code their type carries. Shell completion is generated from the same
// values, so it cannot drift from the commands.
package cli

import (
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/cicheck/cicheck/internal/repofs"

	"github.com/spf13/pflag"

	"github.com/cicheck/cicheck/internal/textdist"
)

// Exit codes shared by every command (see design.md).
const (
	ExitOK       = 0 // nothing at or above --fail-on; scope accepted
	ExitFindings = 1 // findings, or a rejected scope/command
	ExitUsage    = 2 // bad usage, unreadable input, invalid config
	ExitInternal = 3 // a bug in cicheck
)

// Env is what a command may touch of the outside world; tests replace it.
type Env struct {
	Stdin          io.Reader
	Stdout, Stderr io.Writer
	Getenv         func(string) string
	WD             string
}

// Command is one command. Run receives the arguments after its name; a
// command with verbs (registry check, scope chunk) lists them in Subs and
// leaves Run nil, or calls RunSubs itself.
type Command struct {
	Name    string
	Summary string
	Usage   string
	Run     func(e *Env, args []string) error
	Subs    []*Command
	// Verbs names the verbs a Run function handles itself (baseline
	// write), for completion.
	Verbs []string
}

// App is a program: its commands and the one run when the first argument
// is a flag.
type App struct {
	Name     string
	Default  string // command for "app --flag" (lint)
	Footer   string // printed after the command list
	commands map[string]*Command
}

// Register adds c; a second command of the same name is a bug.
func (a *App) Register(c *Command) {
	if a.commands == nil {
		a.commands = map[string]*Command{}
	}
	if _, dup := a.commands[c.Name]; dup {
		panic(a.Name + ": duplicate command " + c.Name)
	}
	a.commands[c.Name] = c
}

// Command returns the command called name, or nil.
func (a *App) Command(name string) *Command { return a.commands[name] }

func (a *App) names() []string { return slices.Sorted(maps.Keys(a.commands)) }

// Run runs the command args name and returns the exit code. A panic is a
// bug: it is reported in one line, never as a stack trace.
func (a *App) Run(e *Env, args []string) (code int) {
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(e.Stderr, "%s: internal error: %v (please report this)\n", a.Name, r)
			code = ExitInternal
		}
	}()
	return a.Report(e, a.run(e, args))
}

func (a *App) run(e *Env, args []string) error {
	if len(args) == 0 {
		a.usage(e.Stdout)
		return nil
	}
	switch args[0] {
	case "-h", "--help":
		a.usage(e.Stdout)
		return nil
	case "--version":
		args = append([]string{"version"}, args[1:]...)
	}
	name := a.Default
	if !strings.HasPrefix(args[0], "-") {
		name, args = args[0], args[1:]
	}
	if name == "help" {
		if len(args) == 0 {
			a.usage(e.Stdout)
			return nil
		}
		// `app help lint` is `app lint --help`.
		name, args = args[0], []string{"--help"}
	}
	c := a.commands[name]
	if c == nil {
		if m := textdist.Closest(name, a.names()); m != "" {
			return Usagef("unknown command %q; did you mean %q? (run '%s help' for the list)", name, m, a.Name)
		}
		return Usagef("unknown command %q (run '%s help' for the list)", name, a.Name)
	}
	if wantsHelp(args) {
		// Help someone asked for is output, not a diagnostic: stdout.
		h := *e
		h.Stderr = e.Stdout
		e = &h
	}
	if c.Run == nil {
		return a.RunSubs(e, c, args)
	}
	return c.Run(e, args)
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

// RunSubs runs the verb args[0] of c. No verb is a usage error; help
// prints the usage and succeeds.
func (a *App) RunSubs(e *Env, c *Command, args []string) error {
	if len(args) == 0 {
		return Raw(ExitUsage, c.Usage)
	}
	switch args[0] {
	case "-h", "--help", "help":
		fmt.Fprintln(e.Stdout, c.Usage)
		return nil
	}
	names := make([]string, 0, len(c.Subs))
	for _, s := range c.Subs {
		if s.Name == args[0] {
			return s.Run(e, args[1:])
		}
		names = append(names, s.Name)
	}
	valid := strings.Join(names, ", ")
	if m := textdist.Closest(args[0], names); m != "" {
		return Usagef("unknown %s subcommand %q; did you mean %q? (valid: %s)", c.Name, args[0], m, valid)
	}
	return Usagef("unknown %s subcommand %q (valid: %s)", c.Name, args[0], valid)
}

func (a *App) usage(w io.Writer) {
	fmt.Fprintf(w, "usage: %s [command] [flags] [args]\n\ncommands:\n", a.Name)
	for _, n := range a.names() {
		fmt.Fprintf(w, "  %-14s %s\n", n, a.commands[n].Summary)
	}
	fmt.Fprint(w, a.Footer)
}

// FlagSet is a command's flags: a pflag.FlagSet whose enumerated flags
// (Enum) Parse checks.
type FlagSet struct {
	*pflag.FlagSet
	enums []enum
}

type enum struct {
	name  string
	value *string
	valid []string
}

// Flags is a flag set for command name whose -h prints usage and the
// flags' defaults on the command's stderr (stdout when help was asked for).
func (e *Env) Flags(name, usage string) *FlagSet {
	fl := pflag.NewFlagSet(name, pflag.ContinueOnError)
	fl.SetOutput(e.Stderr)
	fl.Usage = func() {
		fmt.Fprintln(e.Stderr, usage)
		fl.PrintDefaults()
	}
	return &FlagSet{FlagSet: fl}
}

// ReadStdin reads all of stdin, the what of a command that takes its
// input there; a read error is unusable input (exit 2).
func (e *Env) ReadStdin(what string) ([]byte, error) {
	b, err := repofs.ReadStream(e.Stdin, "<stdin>", repofs.StreamLimit, what)
	var tl *repofs.TooLargeError
	if errors.As(err, &tl) {
		return nil, Usagef("%v", err)
	}
	if err != nil {
		return nil, Usagef("<stdin>: cannot read the %s: %v", what, err)
	}
	return b, nil
}

// Enum declares a string flag whose value must be one of valid.
func (fl *FlagSet) Enum(p *string, name, def, usage string, valid ...string) {
	fl.StringVar(p, name, def, usage)
	fl.enums = append(fl.enums, enum{name, p, valid})
}

// Parse parses args into fl: -h is a silent success (the usage is
// printed), an unknown flag a usage error naming the nearest flag, an
// enumerated flag's value outside its set a usage error listing the set.
func Parse(fl *FlagSet, args []string) error {
	if err := fl.Parse(args); err != nil {
		return FlagError(fl.FlagSet, err)
	}
	for _, en := range fl.enums {
		if err := OneOf(en.name, *en.value, en.valid...); err != nil {
			return err
		}
	}
	return nil
}

// ParseNoArgs is Parse for a command that takes no arguments.
func ParseNoArgs(fl *FlagSet, args []string) error {
	if err := Parse(fl, args); err != nil {
		return err
	}
	if fl.NArg() > 0 {
		return Usagef("unexpected argument %q", fl.Arg(0))
	}
	return nil
}

// FlagError is err from parsing fl as an exit: -h/--help is not an error;
// an unknown long flag gets "; did you mean --NAME?" when one is near.
func FlagError(fl *pflag.FlagSet, err error) error {
	if errors.Is(err, pflag.ErrHelp) {
		return Exit(ExitOK)
	}
	name, ok := strings.CutPrefix(err.Error(), "unknown flag: --")
	if !ok {
		return Usagef("%v", err)
	}
	var names []string
	fl.VisitAll(func(f *pflag.Flag) { names = append(names, f.Name) })
	if m := textdist.Closest(name, names); m != "" {
		return Usagef("%v; did you mean --%s?", err, m)
	}
	return Usagef("%v", err)
}

// OneOf checks a flag's value against its valid values.
func OneOf(flag, value string, valid ...string) error {
	if slices.Contains(valid, value) {
		return nil
	}
	return Usagef("invalid --%s %q (valid: %s)", flag, value, strings.Join(valid, ", "))
}

// KeyValues reads a repeatable KEY=VALUE flag; a later KEY wins.
func KeyValues(flag string, kvs []string) (map[string]string, error) {
	m := map[string]string{}
	for _, kv := range kvs {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			return nil, Usagef("invalid --%s %q (want KEY=VALUE)", flag, kv)
		}
		m[k] = v
	}
	return m, nil
}

// SplitNargs rewrites "FLAG a b c" (argparse's nargs='*': the values up to
// the next flag) into repeated FLAG=a flags, since pflag takes one value
// per flag; FLAG with no value is FLAG=.
func SplitNargs(args []string, flag string) []string {
	var out []string
	for i := 0; i < len(args); i++ {
		if args[i] != flag {
			out = append(out, args[i])
			continue
		}
		n := 0
		for i+1 < len(args) && !strings.HasPrefix(args[i+1], "-") {
			i++
			out = append(out, flag+"="+args[i])
			n++
		}
		if n == 0 {
			out = append(out, flag+"=")
		}
	}
	return out
}
