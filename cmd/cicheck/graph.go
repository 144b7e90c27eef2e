package main

import (
	"cmp"
	"fmt"
	"strings"

	"github.com/cicheck/cicheck/finding"
	"github.com/cicheck/cicheck/internal/cli"
	"github.com/cicheck/cicheck/lint"
	"github.com/cicheck/cicheck/report"
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
		if l.Workflow != nil {
			gws = append(gws, render.Build(l.Target.Display, l.Workflow, cl))
		}
	}
	if err := render.Write(e.Stdout, format, gws); err != nil {
		return cli.Internal(fmt.Errorf("writing the graph: %w", err))
	}
	return cmp.Or(failed, reportDrawnFrom(e, loaded, "graph"))
}

// reportDrawnFrom prints, on stderr and in lint's text format, the syntax
// errors of the files a picture (graph, runners) was drawn from: each is a
// warning saying the picture comes from a file with errors (lint reports
// them as the errors they are), and a file that could not be parsed at all
// is an error, since nothing of it is drawn; the run then exits 1.
func reportDrawnFrom(e *env, loaded []lint.Loaded, picture string) error {
	var fs []finding.Finding
	srcs := map[string][]byte{}
	undrawn := false
	for _, l := range loaded {
		if l.Err != nil || len(l.Parse) == 0 {
			continue
		}
		if l.Workflow != nil {
			srcs[l.Target.Display] = l.Workflow.Source
		}
		for _, f := range l.Parse {
			f.File = l.Target.Display
			if l.Workflow == nil {
				undrawn = true
				f.Message += " (no " + picture + " is drawn for this file)"
			} else {
				f = drawnFromErrors(f, picture)
			}
			fs = append(fs, f)
		}
	}
	if err := writeStderrFindings(e, fs, srcs); err != nil {
		return err
	}
	if undrawn {
		return cli.Exit(cli.ExitFindings)
	}
	return nil
}

// drawnFromErrors is a syntax finding of a file a command's output is
// drawn from: a warning that says so.
func drawnFromErrors(f finding.Finding, picture string) finding.Finding {
	f.Severity = finding.Warning
	f.Message += " (the " + picture + " is drawn from a file with errors)"
	return f
}

// writeStderrFindings prints fs on stderr in lint's text format.
func writeStderrFindings(e *env, fs []finding.Finding, srcs map[string][]byte) error {
	if len(fs) == 0 {
		return nil
	}
	if err := report.Write(e.Stderr, "text", fs, report.Options{Sources: srcs}); err != nil {
		return cli.Internal(err)
	}
	return nil
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
