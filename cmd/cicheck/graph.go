package main

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"github.com/spf13/pflag"

	"github.com/cicheck/cicheck/lint"
	"github.com/cicheck/cicheck/workflowgraph"
	"github.com/cicheck/cicheck/workflowgraph/render"
)

func init() {
	register(command{
		name:    "graph",
		summary: "show the job graph with each job's gate and GPU/heavy marks (text|mermaid|dot|json)",
		run:     runGraph,
	})
}

var graphFormats = []string{"text", "mermaid", "dot", "json"}

const graphUsage = `usage: cicheck graph [flags] [WORKFLOW...]

Shows each workflow's jobs in topological order with their gate: an
explicit status function (always(), !cancelled(), failure(), success()) or
the implicit success() over all N transitive ancestors that GitHub applies
to a job without one. GPU and heavy jobs are marked. With no WORKFLOW, the
workflows of the repository's .github/workflows.

flags:`

func runGraph(e *env, args []string) int {
	fl := pflag.NewFlagSet("cicheck graph", pflag.ContinueOnError)
	fl.SetOutput(e.stderr)
	format := fl.String("format", "text", "output format: "+strings.Join(graphFormats, ", "))
	cfgPath := fl.String("config", "", "configuration file (default: .cicheck.yaml at the repository root)")
	fl.Usage = func() {
		fmt.Fprintln(e.stderr, graphUsage)
		fl.PrintDefaults()
	}
	if err := fl.Parse(args); err != nil {
		return flagError(e, fl, err)
	}
	switch *format {
	case "text", "mermaid", "dot", "json":
	default:
		fmt.Fprintf(e.stderr, "cicheck: invalid --format %q (valid: %s)\n", *format, strings.Join(graphFormats, ", "))
		return exitUsage
	}
	cfg, targets, ok := configAndTargets(e, *cfgPath, fl.Args())
	if !ok {
		return exitUsage
	}
	cl := cfg.Classifier()
	var gws []render.Workflow
	code := exitOK
	callees := workflowgraph.NewCallees()
	for _, t := range targets {
		w, fs, err := workflowgraph.LoadShared(callees, t.Root, os.DirFS(t.Root), t.Rel)
		if err != nil {
			fmt.Fprintf(e.stderr, "cicheck: %v\n", lint.Relabel(err, t.Rel, t.Display))
			code = exitUsage
			continue
		}
		// Syntax problems are shown (lint reports them as findings); the
		// graph of what did parse is still drawn.
		for _, f := range fs {
			fmt.Fprintf(e.stderr, "cicheck: %s:%d:%d: %s [%s]\n", t.Display, f.Line, f.Column, f.Message, f.Rule)
		}
		if w == nil {
			code = exitUsage
			continue
		}
		gws = append(gws, render.Build(t.Display, w, cl))
	}
	var werr error
	switch *format {
	case "text":
		werr = render.Text(e.stdout, gws)
	case "mermaid":
		werr = render.Mermaid(e.stdout, gws)
	case "dot":
		werr = render.DOT(e.stdout, gws)
	case "json":
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		werr = enc.Encode(render.Doc{Version: 1, Workflows: gws})
	}
	if werr != nil {
		fmt.Fprintf(e.stderr, "cicheck: writing the graph: %v\n", werr)
		return exitInternal
	}
	return code
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
