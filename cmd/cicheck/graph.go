package main

import (
	"fmt"
	"strings"

	"github.com/cicheck/cicheck/internal/cli"
	"github.com/cicheck/cicheck/lint"
	"github.com/cicheck/cicheck/workflowgraph"
	"github.com/cicheck/cicheck/workflowgraph/render"
)

func init() {
	register(&cli.Command{Name: "graph", Summary: "show the job graph with each job's gate and GPU/heavy marks (text|mermaid|dot|json)", Run: runGraph})
}

func runGraph(e *env, args []string) error {
	formats := render.Formats()
	fl := e.Flags("cicheck graph", usage("graph"))
	var format string
	fl.Enum(&format, "format", "text", "output format: "+strings.Join(formats, ", "), formats...)
	cfgPath := fl.String("config", "", "configuration file (default: .cicheck.yaml at the repository root)")
	if err := cli.Parse(fl, args); err != nil {
		return err
	}
	loaded, cl, err := loadWorkflows(e, *cfgPath, fl.Args())
	if err != nil {
		return err
	}
	var gws []render.Workflow
	var failed error
	for _, l := range loaded {
		if l.Err != nil {
			failed = reportLater(e, l.Err)
			continue
		}
		// Syntax problems are shown (lint reports them as findings); the
		// graph of what did parse is still drawn.
		for _, msg := range l.ParseErrors() {
			fmt.Fprintf(e.Stderr, "cicheck: %s\n", msg)
		}
		if l.Workflow == nil {
			failed = cli.Exit(cli.ExitUsage)
			continue
		}
		gws = append(gws, render.Build(l.Target.Display, l.Workflow, cl))
	}
	if err := render.Write(e.Stdout, format, gws); err != nil {
		return cli.Internal(fmt.Errorf("writing the graph: %w", err))
	}
	return failed
}

// loadWorkflows loads the configuration and the workflow files paths name
// (the repository's .github/workflows when none).
func loadWorkflows(e *env, cfgPath string, paths []string) ([]lint.Loaded, *workflowgraph.Classifier, error) {
	cfg, _, err := lint.LoadConfig(e.WD, cfgPath)
	if err != nil {
		return nil, nil, err
	}
	loaded, err := lint.LoadPaths(e.WD, paths)
	return loaded, cfg.Classifier(), err
}

// reportLater prints err now and returns the exit the run ends with once
// the other inputs are done.
func reportLater(e *env, err error) error {
	say(e.Stderr, "cicheck: %v\n", err)
	return cli.Exit(cli.ExitUsage)
}
