package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/pflag"

	"github.com/cicheck/cicheck/scope"
)

func init() {
	register(command{
		name:    "scope",
		summary: "validate, chunk and reassemble a scoped-run target list (check|chunk|join)",
		run:     runScope,
	})
}

const scopeUsage = "usage: cicheck scope check|chunk|join [flags] [TARGET...]"

func runScope(e *env, args []string) int {
	if len(args) == 0 {
		fmt.Fprintln(e.stderr, scopeUsage)
		return exitUsage
	}
	switch args[0] {
	case "check":
		return runScopeCheck(e, args[1:])
	case "chunk":
		return runScopeChunk(e, args[1:])
	case "join":
		return runScopeJoin(e, args[1:])
	case "-h", "--help", "help":
		fmt.Fprintln(e.stdout, scopeUsage)
		return exitOK
	}
	fmt.Fprintf(e.stderr, "cicheck: unknown scope command %q (valid: check, chunk, join)\n", args[0])
	return exitUsage
}

// scopeFlags are the settings shared by the scope sub-commands. They start
// from scope.DefaultConfig (the central config, once wired, replaces it).
type scopeFlags struct {
	fs      *pflag.FlagSet
	cfg     scope.Config
	format  string
	exists  bool
	profile string
}

func newScopeFlags(e *env, name string) *scopeFlags {
	f := &scopeFlags{cfg: scope.DefaultConfig()}
	f.fs = pflag.NewFlagSet("cicheck "+name, pflag.ContinueOnError)
	f.fs.SetOutput(e.stderr)
	f.fs.StringVar(&f.profile, "profile", "", "repository profile: "+strings.Join(scope.Profiles(), ", "))
	f.fs.StringVar(&f.cfg.Root, "root", f.cfg.Root, "every target must start with this root")
	f.fs.IntVar(&f.cfg.MaxTargets, "max", f.cfg.MaxTargets, "maximum number of distinct targets")
	f.fs.IntVar(&f.cfg.ChunkLimit, "limit", f.cfg.ChunkLimit, "commit-status description limit")
	f.fs.StringVar(&f.format, "format", "text", "output format: text or json")
	return f
}

// parse parses args and resolves the profile; ok is false after a usage
// error has been reported.
func (f *scopeFlags) parse(e *env, args []string) (rest []string, code int, ok bool) {
	if err := f.fs.Parse(args); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			return nil, exitOK, false
		}
		return nil, exitUsage, false
	}
	if f.format != "text" && f.format != "json" {
		fmt.Fprintf(e.stderr, "cicheck: unknown format %q (valid: text, json)\n", f.format)
		return nil, exitUsage, false
	}
	if f.profile != "" {
		// A profile fills only what the flags left at the default.
		f.cfg.Profile = f.profile
	}
	cfg, err := f.cfg.Resolve()
	if err != nil {
		fmt.Fprintf(e.stderr, "cicheck: %v\n", err)
		return nil, exitUsage, false
	}
	f.cfg = cfg
	return f.fs.Args(), exitOK, true
}

func (f *scopeFlags) options(e *env) scope.Options {
	o := scope.OptionsFrom(f.cfg)
	if f.exists {
		o.FS = os.DirFS(e.wd)
	}
	// The test-registry predicate (o.HasTest) is wired here once the
	// testregistry package exports it.
	return o
}

func runScopeCheck(e *env, args []string) int {
	f := newScopeFlags(e, "scope check")
	f.fs.BoolVar(&f.exists, "exists", false, "require every target to exist in the working tree")
	targets, code, ok := f.parse(e, args)
	if !ok {
		return code
	}
	res := scope.Validate(scope.SplitArgs(targets...), f.options(e))
	if err := writeScopeResult(e.stdout, f.format, res); err != nil {
		fmt.Fprintf(e.stderr, "cicheck: %v\n", err)
		return exitInternal
	}
	if !res.Accepted() {
		return exitFindings
	}
	return exitOK
}

func outcomeWord(accepted bool) string {
	if accepted {
		return "accepted"
	}
	return "rejected"
}

func reasonMessages(rs []scope.Reason) []string {
	out := make([]string, 0, len(rs))
	for _, r := range rs {
		out = append(out, r.Message)
	}
	return out
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func writeScopeResult(w io.Writer, format string, res scope.Result) error {
	if format == "json" {
		return writeJSON(w, struct {
			Version int      `json:"version"`
			Outcome string   `json:"outcome"`
			Targets []string `json:"targets"`
			Reasons []string `json:"reasons"`
		}{1, outcomeWord(res.Accepted()), nonNil(res.Targets), reasonMessages(res.Reasons)})
	}
	fmt.Fprintln(w, outcomeWord(res.Accepted()))
	for _, t := range res.Targets {
		fmt.Fprintf(w, "target: %s\n", t)
	}
	for _, r := range res.Reasons {
		fmt.Fprintf(w, "reason: %s\n", r.Message)
	}
	return nil
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

func runScopeChunk(e *env, args []string) int { return exitInternal }
func runScopeJoin(e *env, args []string) int  { return exitInternal }
