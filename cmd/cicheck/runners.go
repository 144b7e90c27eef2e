package main

import (
	"cmp"

	"github.com/cicheck/cicheck/internal/cli"
	"github.com/cicheck/cicheck/workflowgraph/render"
)

func init() {
	register(&cli.Command{Name: "runners", Summary: "list every runner the workflows use with its class (accelerator, self-hosted, GitHub-hosted, unknown) and why", Run: runRunners})
}

func runRunners(e *env, args []string) error {
	fl := e.Flags("cicheck runners", usage("runners"))
	var format string
	fl.Enum(&format, "format", "text", "output format: text, json", "text", "json")
	cfgPath := fl.String("config", "", "configuration file (default: .cicheck.yaml at the repository root)")
	suggest := fl.Bool("suggest", false, "print the custom labels of self-hosted runners cicheck does not classify, with their job counts, as a gpu.runner-labels snippet for .cicheck.yaml")
	if err := cli.Parse(fl, args); err != nil {
		return err
	}
	loaded, cl, err := loadWorkflows(e, *cfgPath, fl.Args())
	if err != nil {
		return err
	}
	rs := render.NewRunners(cl)
	var failed error
	for _, l := range loaded {
		if l.Err != nil {
			failed = reportLater(e, l.Err)
		} else if l.Workflow != nil {
			rs.Add(l.Target.Display, l.Workflow)
		}
	}
	write := func() error { return render.WriteRunners(e.Stdout, format, rs.Rows()) }
	if *suggest {
		write = func() error { return rs.WriteSuggestion(e.Stdout) }
	}
	if err := write(); err != nil {
		return cli.Internal(err)
	}
	return cmp.Or(failed, reportDrawnFrom(e, loaded, "runner list"))
}
