package main

import (
	"fmt"
	"maps"
	"slices"

	"github.com/cicheck/cicheck/checks"
	"github.com/cicheck/cicheck/internal/cli"
	"github.com/cicheck/cicheck/internal/project"
	"github.com/cicheck/cicheck/internal/textdist"
	"github.com/cicheck/cicheck/lint"
)

func init() {
	register(&cli.Command{Name: "rules", Summary: "list every rule, or print one rule's documentation", Run: runRules})
}

func runRules(e *env, args []string) error {
	fl := e.Flags("cicheck rules", "usage: cicheck rules [ID]")
	if err := cli.Parse(fl, args); err != nil {
		return err
	}
	switch fl.NArg() {
	case 0:
		for _, d := range lint.RuleDocs() {
			fmt.Fprintf(e.Stdout, "%-36s %-8s %s\n", d.ID, d.Severity, d.Doc)
		}
		fmt.Fprintln(e.Stdout, "\nactionlint's checks also run: see https://github.com/rhysd/actionlint/blob/main/docs/checks.md")
		return nil
	case 1:
		id := fl.Arg(0)
		d, ok := lint.FindRuleDoc(id)
		if desc, isKind := checks.ActionlintKinds()[id]; !ok && isKind {
			// actionlint's rule ids appear in findings and in rules:
			// sections, so they are known here too, if documented upstream.
			fmt.Fprintf(e.Stdout, "# %s\n\nReported by the embedded actionlint: %s.\n\nOnline: https://github.com/rhysd/actionlint/blob/main/docs/checks.md\n", id, desc)
			return nil
		}
		if !ok {
			if m := textdist.Closest(id, slices.Sorted(maps.Keys(lint.KnownRuleIDs()))); m != "" {
				return cli.Usagef("unknown rule %q; did you mean %q?", id, m)
			}
			return cli.Usagef("unknown rule %q (run 'cicheck rules' for the list)", id)
		}
		fmt.Fprint(e.Stdout, d.Markdown())
		if u := project.RuleDocURL(d.ID); u != "" {
			fmt.Fprintf(e.Stdout, "\nOnline: %s\n", u)
		}
		return nil
	}
	return cli.Usagef("rules takes at most one rule id")
}
