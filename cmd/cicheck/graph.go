package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/pflag"

	"github.com/cicheck/cicheck/lint"
	"github.com/cicheck/cicheck/workflowgraph"
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
		return flagError(e, err)
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
	var gws []graphWorkflow
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
		gws = append(gws, buildGraphWorkflow(t.Display, w, cl))
	}
	var werr error
	switch *format {
	case "text":
		werr = writeGraphText(e.stdout, gws)
	case "mermaid":
		werr = writeGraphMermaid(e.stdout, gws)
	case "dot":
		werr = writeGraphDOT(e.stdout, gws)
	case "json":
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		werr = enc.Encode(graphDoc{Version: 1, Workflows: gws})
	}
	if werr != nil {
		fmt.Fprintf(e.stderr, "cicheck: writing the graph: %v\n", werr)
		return exitInternal
	}
	return code
}

// graphDoc is the JSON schema of `cicheck graph --format json` (version 1).
type graphDoc struct {
	Version   int             `json:"version"`
	Workflows []graphWorkflow `json:"workflows"`
}

type graphWorkflow struct {
	File   string     `json:"file"`
	Jobs   []graphJob `json:"jobs"`
	Cycles [][]string `json:"cycles"`
}

type graphJob struct {
	ID     string      `json:"id"`
	Name   string      `json:"name"`
	Needs  []string    `json:"needs"`
	Gate   graphGate   `json:"gate"`
	Runner graphRunner `json:"runner"`
	GPU    bool        `json:"gpu"`
	// Class is the runner class and why (as `cicheck runners` gives it).
	Class workflowgraph.JobClass `json:"class"`
	Heavy bool                   `json:"heavy"`
	Uses  string                 `json:"uses"`
	// Callee holds the jobs of a resolved local reusable workflow.
	Callee *graphWorkflow `json:"callee,omitempty"`
}

type graphGate struct {
	// Kind is "implicit" (success() && the condition, if any), "explicit"
	// (a status function is called) or "always-true" (text around ${{ }}).
	Kind            string   `json:"kind"`
	StatusFunctions []string `json:"status_functions"`
	// Ancestors is N, the size of the ancestor closure success() looks at.
	Ancestors int    `json:"ancestors"`
	Condition string `json:"condition"`
	Summary   string `json:"summary"`
}

type graphRunner struct {
	Labels   []string `json:"labels"`
	Group    string   `json:"group"`
	Symbolic []string `json:"symbolic"`
	// InferredFrom names the with: inputs of a remote reusable-workflow
	// call the labels were read from.
	InferredFrom []string `json:"inferred_from"`
}

func graphNonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func buildGraphWorkflow(file string, w *workflowgraph.Workflow, cl *workflowgraph.Classifier) graphWorkflow {
	gw := graphWorkflow{File: file, Cycles: w.Cycles}
	if gw.Cycles == nil {
		gw.Cycles = [][]string{}
	}
	for _, id := range w.TopoOrder() {
		j := w.Job(id)
		gj := graphJob{ID: j.ID, Name: j.Name, Needs: graphNonNil(j.Needs), Gate: gateOf(w, j), GPU: cl.IsGPU(j), Class: cl.Classify(j), Heavy: cl.IsHeavy(j), Uses: j.Uses,
			Runner: graphRunner{Labels: graphNonNil(j.Runner.Labels), Group: j.Runner.Group, Symbolic: graphNonNil(j.Runner.Symbolic), InferredFrom: graphNonNil(j.Runner.InferredFrom)}}
		if j.Callee != nil {
			c := buildGraphWorkflow(j.Callee.Path, j.Callee, cl)
			gj.Callee = &c
		}
		gw.Jobs = append(gw.Jobs, gj)
	}
	if gw.Jobs == nil {
		gw.Jobs = []graphJob{}
	}
	return gw
}

func gateOf(w *workflowgraph.Workflow, j *workflowgraph.Job) graphGate {
	n := w.AncestorCount(j.ID)
	g := graphGate{Ancestors: n, StatusFunctions: graphNonNil(j.If.StatusFuncs())}
	over := fmt.Sprintf("implicit success() over %d ancestor%s", n, plural(n))
	if n == 0 {
		over = "implicit success() (no needs)"
	}
	switch {
	case j.If == nil:
		g.Kind, g.Summary = "implicit", over
	case j.If.AlwaysTrue:
		g.Kind, g.Condition = "always-true", j.If.Raw
		g.Summary = "always true: text around ${{ }}"
		if len(g.StatusFunctions) == 0 {
			g.Summary += "; effectively " + over
		}
	case len(g.StatusFunctions) > 0:
		g.Kind, g.Condition = "explicit", j.If.Raw
		g.Summary = "explicit " + strings.Join(g.StatusFunctions, "(), ") + "()"
	default:
		g.Kind, g.Condition = "implicit", j.If.Raw
		g.Summary = over + " && condition"
	}
	g.Condition = strings.Join(strings.Fields(g.Condition), " ")
	return g
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

func (gj graphJob) marks() string {
	var m []string
	if gj.GPU {
		m = append(m, "GPU")
	}
	if gj.Heavy {
		m = append(m, "heavy")
	}
	if len(m) == 0 {
		return ""
	}
	return "[" + strings.Join(m, ", ") + "]"
}

func (gj graphJob) runsOn() string {
	parts := append([]string(nil), gj.Runner.Labels...)
	if gj.Runner.Group != "" {
		parts = append(parts, "group "+gj.Runner.Group)
	}
	for _, s := range gj.Runner.Symbolic {
		parts = append(parts, "symbolic "+s)
	}
	out := strings.Join(parts, ", ")
	if len(gj.Runner.InferredFrom) > 0 {
		out += " (inferred from input " + strings.Join(gj.Runner.InferredFrom, ", ") + ")"
	}
	return out
}

func writeGraphText(w io.Writer, gws []graphWorkflow) error {
	var b strings.Builder
	for i, gw := range gws {
		if i > 0 {
			b.WriteByte('\n')
		}
		fmt.Fprintf(&b, "%s (%d job%s)\n", gw.File, len(gw.Jobs), plural(len(gw.Jobs)))
		writeTextJobs(&b, gw, "  ")
		for _, c := range gw.Cycles {
			fmt.Fprintf(&b, "  cycle: %s -> %s\n", strings.Join(c, " -> "), c[0])
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func writeTextJobs(b *strings.Builder, gw graphWorkflow, indent string) {
	for _, gj := range gw.Jobs {
		fmt.Fprintf(b, "%s%s", indent, gj.ID)
		if m := gj.marks(); m != "" {
			fmt.Fprintf(b, " %s", m)
		}
		b.WriteByte('\n')
		if len(gj.Needs) > 0 {
			fmt.Fprintf(b, "%s  needs:   %s\n", indent, strings.Join(gj.Needs, ", "))
		}
		fmt.Fprintf(b, "%s  gate:    %s\n", indent, gj.Gate.Summary)
		if gj.Gate.Condition != "" {
			fmt.Fprintf(b, "%s  if:      %s\n", indent, gj.Gate.Condition)
		}
		if r := gj.runsOn(); r != "" {
			fmt.Fprintf(b, "%s  runs-on: %s\n", indent, r)
		}
		if gj.Uses != "" {
			fmt.Fprintf(b, "%s  uses:    %s\n", indent, gj.Uses)
		}
		if gj.Callee != nil {
			writeTextJobs(b, *gj.Callee, indent+"    ")
		}
	}
}

// mermaidText escapes a label for a quoted Mermaid node label.
func mermaidText(s string) string {
	r := strings.NewReplacer("#", "#35;", `"`, "#quot;", "&", "#amp;", "<", "#lt;", ">", "#gt;", "\n", " ", "|", "#124;", "`", "#96;")
	return r.Replace(s)
}

func nodeLabel(prefix string, gj graphJob, br string, esc func(string) string) string {
	parts := []string{esc(prefix + gj.ID)}
	if m := gj.marks(); m != "" {
		parts[0] += " " + esc(m)
	}
	parts = append(parts, esc(gj.Gate.Summary))
	if r := gj.runsOn(); r != "" {
		parts = append(parts, esc("runs-on: "+r))
	}
	return strings.Join(parts, br)
}

// graphWalk numbers the jobs of a workflow, and of the reusable workflows
// they call, and hands nodes and edges to the writer in a stable order:
// each job, the edges into a callee's jobs as it is met, then the needs
// edges. The Mermaid and DOT writers differ only in how they print them.
type graphWalk struct {
	n        int
	node     func(id, prefix string, gj graphJob)
	callEdge func(from, to string)
	needEdge func(from, to string)
}

func (g *graphWalk) walk(gw graphWorkflow, prefix string) map[string]string {
	ids := map[string]string{}
	for _, gj := range gw.Jobs {
		id := fmt.Sprintf("j%d", g.n)
		g.n++
		ids[gj.ID] = id
		g.node(id, prefix, gj)
		if gj.Callee != nil {
			inner := g.walk(*gj.Callee, gj.ID+" / ")
			for _, cj := range gj.Callee.Jobs {
				g.callEdge(id, inner[cj.ID])
			}
		}
	}
	for _, gj := range gw.Jobs {
		for _, need := range gj.Needs {
			if from, ok := ids[need]; ok {
				g.needEdge(from, ids[gj.ID])
			}
		}
	}
	return ids
}

func writeGraphMermaid(w io.Writer, gws []graphWorkflow) error {
	var b strings.Builder
	b.WriteString("flowchart TD\n")
	var gpu, heavy, edges []string
	g := &graphWalk{
		node: func(id, prefix string, gj graphJob) {
			fmt.Fprintf(&b, "    %s[\"%s\"]\n", id, nodeLabel(prefix, gj, "<br/>", mermaidText))
			if gj.GPU {
				gpu = append(gpu, id)
			}
			if gj.Heavy {
				heavy = append(heavy, id)
			}
		},
		callEdge: func(from, to string) { edges = append(edges, fmt.Sprintf("    %s -.-> %s", from, to)) },
		needEdge: func(from, to string) { edges = append(edges, fmt.Sprintf("    %s --> %s", from, to)) },
	}
	for wi, gw := range gws {
		fmt.Fprintf(&b, "  subgraph w%d[\"%s\"]\n", wi, mermaidText(gw.File))
		edges = edges[:0]
		g.walk(gw, "")
		for _, e := range edges {
			b.WriteString(e + "\n")
		}
		b.WriteString("  end\n")
	}
	b.WriteString("  classDef gpu fill:#fde2e2,stroke:#b00020,stroke-width:2px\n")
	b.WriteString("  classDef heavy fill:#fff4ce,stroke:#8a6d00,stroke-width:2px\n")
	if len(gpu) > 0 {
		fmt.Fprintf(&b, "  class %s gpu\n", strings.Join(gpu, ","))
	}
	if len(heavy) > 0 {
		fmt.Fprintf(&b, "  class %s heavy\n", strings.Join(heavy, ","))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// dotString quotes s as a DOT string.
func dotString(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`).Replace(s) + `"`
}

func writeGraphDOT(w io.Writer, gws []graphWorkflow) error {
	var b strings.Builder
	b.WriteString("digraph cicheck {\n  rankdir=TB;\n  node [shape=box, style=\"rounded,filled\", fillcolor=white, fontname=\"Helvetica\"];\n")
	var edges []string
	g := &graphWalk{
		node: func(id, prefix string, gj graphJob) {
			attrs := ""
			switch {
			case gj.GPU:
				attrs = `, fillcolor="#fde2e2", color="#b00020", penwidth=2`
			case gj.Heavy:
				attrs = `, fillcolor="#fff4ce", color="#8a6d00", penwidth=2`
			}
			if gj.Gate.Kind == "implicit" && len(gj.Needs) > 0 {
				attrs += `, style="rounded,filled,dashed"`
			}
			fmt.Fprintf(&b, "    %s [label=%s%s];\n", id, dotString(nodeLabel(prefix, gj, "\n", func(s string) string { return s })), attrs)
		},
		callEdge: func(from, to string) { edges = append(edges, fmt.Sprintf("    %s -> %s [style=dotted];", from, to)) },
		needEdge: func(from, to string) { edges = append(edges, fmt.Sprintf("    %s -> %s;", from, to)) },
	}
	for wi, gw := range gws {
		fmt.Fprintf(&b, "  subgraph cluster_%d {\n    label=%s;\n", wi, dotString(gw.File))
		edges = edges[:0]
		g.walk(gw, "")
		for _, e := range edges {
			b.WriteString(e + "\n")
		}
		b.WriteString("  }\n")
	}
	b.WriteString("}\n")
	_, err := io.WriteString(w, b.String())
	return err
}
