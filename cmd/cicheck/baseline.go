package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/pflag"

	"github.com/cicheck/cicheck/baseline"
)

// defaultBaseline is the file `baseline write` creates when none is named.
const defaultBaseline = ".cicheck-baseline.json"

func init() {
	register(command{name: "baseline", summary: "record today's findings so that lint --baseline reports only new ones", run: runBaseline, verbs: []string{"write"}})
}

const baselineUsage = `usage: cicheck baseline write [flags] [FILE]

Lints the repository exactly as 'cicheck lint' with no PATH does and records
every finding in FILE (default .cicheck-baseline.json). Then
'cicheck lint --baseline FILE' accepts those findings and fails only on new
ones. Entries match by rule, file, job and message, not by line, so edits
that only move code keep them. Rewrite the file to prune fixed findings.

flags:`

func runBaseline(e *env, args []string) int {
	if len(args) > 0 && (args[0] == "-h" || args[0] == "--help" || args[0] == "help") {
		fmt.Fprintln(e.stdout, baselineUsage[:strings.LastIndex(baselineUsage, "\n\nflags:")])
		return exitOK
	}
	if len(args) == 0 || args[0] != "write" {
		fmt.Fprintln(e.stderr, "cicheck: usage: cicheck baseline write [FILE]")
		return exitUsage
	}
	var o lintOptions
	fl := pflag.NewFlagSet("cicheck baseline write", pflag.ContinueOnError)
	fl.SetOutput(e.stderr)
	addLintFlags(fl, &o)
	fl.Usage = func() {
		fmt.Fprintln(e.stderr, baselineUsage)
		fl.PrintDefaults()
	}
	if err := fl.Parse(args[1:]); err != nil {
		return flagError(e, fl, err)
	}
	if fl.NArg() > 1 {
		fmt.Fprintf(e.stderr, "cicheck: baseline write takes one FILE, got %d arguments\n", fl.NArg())
		return exitUsage
	}
	name := defaultBaseline
	if fl.NArg() == 1 {
		name = fl.Arg(0)
	}
	res, code := collectFindings(e, o, nil)
	if res == nil {
		return code
	}
	if len(res.InputErrors) > 0 {
		// A baseline without an unreadable file's findings would hide them
		// once the file is fixed: refuse rather than write a partial one.
		fmt.Fprintf(e.stderr, "cicheck: %s not written: fix the unusable input above first\n", name)
		return exitUsage
	}
	b := baseline.Build(res.Findings)
	p := name
	if !filepath.IsAbs(p) {
		p = filepath.Join(e.wd, p)
	}
	if err := os.WriteFile(p, b.Marshal(), 0o644); err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err // the path is already named once
		}
		fmt.Fprintf(e.stderr, "cicheck: %s: %v\n", name, err)
		return exitUsage
	}
	entries := fmt.Sprintf("%d entries", len(b.Entries))
	if len(b.Entries) == 1 {
		entries = "1 entry"
	}
	fmt.Fprintf(e.stderr, "cicheck: wrote %d finding%s (%s) to %s\n", len(res.Findings), plural(len(res.Findings)), entries, name)
	return exitOK
}
