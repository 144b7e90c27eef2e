package main

import (
	"fmt"
	"strings"

	"github.com/cicheck/cicheck/baseline"
	"github.com/cicheck/cicheck/internal/cli"
	"github.com/cicheck/cicheck/internal/plural"
	"github.com/cicheck/cicheck/lint"
)

func init() {
	register(&cli.Command{Name: "baseline", Summary: "record today's findings so that lint --baseline reports only new ones",
		Usage: strings.TrimSuffix(usage("baseline"), "\n\nflags:"), Subs: []*cli.Command{{Name: "write", Run: runBaselineWrite}}})
}

func runBaselineWrite(e *env, args []string) error {
	var o lintOptions
	fl := e.Flags("cicheck baseline write", usage("baseline"))
	addLintFlags(fl, &o)
	if err := cli.Parse(fl, args); err != nil {
		return err
	}
	if fl.NArg() > 1 {
		return cli.Usagef("baseline write takes one FILE, got %d arguments", fl.NArg())
	}
	name := ".cicheck-baseline.json"
	if fl.NArg() == 1 {
		name = fl.Arg(0)
	}
	res, err := lintRun(e, &o, nil, false)
	if err != nil {
		return err
	}
	if len(res.InputErrors) > 0 {
		// A baseline without an unreadable file's findings would hide them
		// once the file is fixed: refuse rather than write a partial one.
		return cli.Usagef("%s not written: fix the unusable input above first", name)
	}
	b := baseline.Build(res.Findings)
	if err := lint.WriteFile(e.WD, name, b.Marshal()); err != nil {
		return err
	}
	fmt.Fprintf(e.Stderr, "cicheck: wrote %s (%s) to %s\n", plural.Count(len(res.Findings), "finding"), plural.Count(len(b.Entries), "entry", "entries"), name)
	return nil
}
