package main

import (
	"fmt"
	"maps"
	"slices"

	"github.com/spf13/pflag"

	"github.com/cicheck/cicheck/checks"
	"github.com/cicheck/cicheck/internal/project"
	"github.com/cicheck/cicheck/internal/textdist"
	"github.com/cicheck/cicheck/lint"
)

func init() {
	register(command{name: "rules", summary: "list every rule, or print one rule's documentation", run: runRules})
}

func runRules(e *env, args []string) int {
	fl := pflag.NewFlagSet("cicheck rules", pflag.ContinueOnError)
	fl.SetOutput(e.stderr)
	fl.Usage = func() {
		fmt.Fprintln(e.stderr, "usage: cicheck rules [ID]")
		fl.PrintDefaults()
	}
	if err := fl.Parse(args); err != nil {
		return flagError(e, fl, err)
	}
	switch fl.NArg() {
	case 0:
		for _, d := range lint.RuleDocs() {
			fmt.Fprintf(e.stdout, "%-36s %-8s %s\n", d.ID, d.Severity, d.Doc)
		}
		fmt.Fprintln(e.stdout, "\nactionlint's checks also run: see https://github.com/rhysd/actionlint/blob/main/docs/checks.md")
		return exitOK
	case 1:
		d, ok := lint.FindRuleDoc(fl.Arg(0))
		if desc, isKind := checks.ActionlintKinds()[fl.Arg(0)]; !ok && isKind {
			// actionlint's rule ids appear in findings and in rules:
			// sections, so they are known here too, if documented upstream.
			fmt.Fprintf(e.stdout, "# %s\n\nReported by the embedded actionlint: %s.\n\nOnline: https://github.com/rhysd/actionlint/blob/main/docs/checks.md\n", fl.Arg(0), desc)
			return exitOK
		}
		if !ok {
			ids := slices.Sorted(maps.Keys(lint.KnownRuleIDs()))
			if m := textdist.Closest(fl.Arg(0), ids); m != "" {
				fmt.Fprintf(e.stderr, "cicheck: unknown rule %q; did you mean %q?\n", fl.Arg(0), m)
				return exitUsage
			}
			fmt.Fprintf(e.stderr, "cicheck: unknown rule %q (run 'cicheck rules' for the list)\n", fl.Arg(0))
			return exitUsage
		}
		fmt.Fprint(e.stdout, d.Markdown())
		if u := project.RuleDocURL(d.ID); u != "" {
			fmt.Fprintf(e.stdout, "\nOnline: %s\n", u)
		}
		return exitOK
	}
	fmt.Fprintln(e.stderr, "cicheck: rules takes at most one rule id")
	return exitUsage
}
