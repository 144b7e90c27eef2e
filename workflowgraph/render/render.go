// Package render draws a workflow's job graph for people and programs:
// each job in topological order with its gate (the explicit status
// function, or the implicit success() over its N ancestors), its runner and
// GPU/heavy marks, as text, Mermaid, Graphviz DOT or versioned JSON.
package render

import (
	"fmt"
	"io"
	"strings"

	"github.com/cicheck/cicheck/internal/jsonw"

	"github.com/cicheck/cicheck/internal/plural"
	"github.com/cicheck/cicheck/internal/safetext"
	"github.com/cicheck/cicheck/workflowgraph"
)

// Doc is the JSON schema of `cicheck graph --format json` (version 1).
type Doc struct {
	Version   int        `json:"version"`
	Workflows []Workflow `json:"workflows"`
}

type Workflow struct {
	File   string     `json:"file"`
	Jobs   []Job      `json:"jobs"`
	Cycles [][]string `json:"cycles"`
}

type Job struct {
	ID     string   `json:"id"`
	Name   string   `json:"name"`
	Needs  []string `json:"needs"`
	Gate   Gate     `json:"gate"`
	Runner Runner   `json:"runner"`
	GPU    bool     `json:"gpu"`
	// Class is the runner class and why (as `cicheck runners` gives it).
	Class workflowgraph.JobClass `json:"class"`
	Heavy bool                   `json:"heavy"`
	Uses  string                 `json:"uses"`
	// Callee holds the jobs of a resolved local reusable workflow.
	Callee *Workflow `json:"callee,omitempty"`
}

type Gate struct {
	// Kind is "implicit" (success() && the condition, if any), "explicit"
	// (a status function is called) or "always-true" (text around ${{ }}).
	Kind            string   `json:"kind"`
	StatusFunctions []string `json:"status_functions"`
	// Ancestors is N, the size of the ancestor closure success() looks at.
	Ancestors int    `json:"ancestors"`
	Condition string `json:"condition"`
	Summary   string `json:"summary"`
}

type Runner struct {
	Labels   []string `json:"labels"`
	Group    string   `json:"group"`
	Symbolic []string `json:"symbolic"`
	// InferredFrom names the with: inputs of a remote reusable-workflow
	// call the labels were read from.
	InferredFrom []string `json:"inferred_from"`
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// Build is the graph of w as file names it, jobs in topological order and
// a local reusable workflow's jobs under its caller.
func Build(file string, w *workflowgraph.Workflow, cl *workflowgraph.Classifier) Workflow {
	gw := Workflow{File: file, Cycles: w.Cycles}
	if gw.Cycles == nil {
		gw.Cycles = [][]string{}
	}
	for _, id := range w.TopoOrder() {
		j := w.Job(id)
		gj := Job{ID: j.ID, Name: j.Name, Needs: nonNil(j.Needs), Gate: gateOf(w, j), GPU: cl.IsGPU(j), Class: cl.Classify(j), Heavy: cl.IsHeavy(j), Uses: j.Uses,
			Runner: Runner{Labels: nonNil(j.Runner.Labels), Group: j.Runner.Group, Symbolic: nonNil(j.Runner.Symbolic), InferredFrom: nonNil(j.Runner.InferredFrom)}}
		if j.Callee != nil {
			c := Build(j.Callee.Path, j.Callee, cl)
			gj.Callee = &c
		}
		gw.Jobs = append(gw.Jobs, gj)
	}
	if gw.Jobs == nil {
		gw.Jobs = []Job{}
	}
	return gw
}

func gateOf(w *workflowgraph.Workflow, j *workflowgraph.Job) Gate {
	n := w.AncestorCount(j.ID)
	g := Gate{Ancestors: n, StatusFunctions: nonNil(j.If.StatusFuncs())}
	over := "implicit success() over " + plural.Count(n, "ancestor")
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

func (gj Job) marks() string {
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

func (gj Job) runsOn() string {
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

// Text writes the graphs as indented text, one job per line.
func Text(w io.Writer, gws []Workflow) error {
	var b strings.Builder
	for i, gw := range gws {
		if i > 0 {
			b.WriteByte('\n')
		}
		fmt.Fprintf(&b, "%s (%s)\n", gw.File, plural.Count(len(gw.Jobs), "job"))
		writeTextJobs(&b, gw, "  ")
		for _, c := range gw.Cycles {
			fmt.Fprintf(&b, "  cycle: %s -> %s\n", strings.Join(c, " -> "), c[0])
		}
	}
	_, err := io.WriteString(w, safetext.Output(b.String()))
	return err
}

func writeTextJobs(b *strings.Builder, gw Workflow, indent string) {
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

// MermaidText escapes s for a quoted Mermaid node label. Control
// characters are spelled out first (safetext.Line): a CR is a line ending
// to markdown, and the label sits inside a fenced block.
func MermaidText(s string) string {
	r := strings.NewReplacer("#", "#35;", `"`, "#quot;", "&", "#amp;", "<", "#lt;", ">", "#gt;", "|", "#124;", "`", "#96;")
	return r.Replace(safetext.Line(s))
}

func nodeLabel(prefix string, gj Job, br string, esc func(string) string) string {
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

// walker numbers the jobs of a workflow, and of the reusable workflows
// they call, and hands nodes and edges to the writer in a stable order:
// each job, the edges into a callee's jobs as it is met, then the needs
// edges. The Mermaid and DOT writers differ only in how they print them.
type walker struct {
	n        int
	node     func(id, prefix string, gj Job)
	callEdge func(from, to string)
	needEdge func(from, to string)
}

func (g *walker) walk(gw Workflow, prefix string) map[string]string {
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

// Mermaid writes the graphs as a Mermaid flowchart.
func Mermaid(w io.Writer, gws []Workflow) error {
	var b strings.Builder
	b.WriteString("flowchart TD\n")
	var gpu, heavy, edges []string
	g := &walker{
		node: func(id, prefix string, gj Job) {
			fmt.Fprintf(&b, "    %s[\"%s\"]\n", id, nodeLabel(prefix, gj, "<br/>", MermaidText))
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
		fmt.Fprintf(&b, "  subgraph w%d[\"%s\"]\n", wi, MermaidText(gw.File))
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

// DOT writes the graphs in Graphviz's DOT language.
func DOT(w io.Writer, gws []Workflow) error {
	var b strings.Builder
	b.WriteString("digraph cicheck {\n  rankdir=TB;\n  node [shape=box, style=\"rounded,filled\", fillcolor=white, fontname=\"Helvetica\"];\n")
	var edges []string
	g := &walker{
		node: func(id, prefix string, gj Job) {
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

// Formats are the formats Write writes.
func Formats() []string { return []string{"text", "mermaid", "dot", "json"} }

// Write writes gws in format, one of Formats.
func Write(w io.Writer, format string, gws []Workflow) error {
	switch format {
	case "text":
		return Text(w, gws)
	case "mermaid":
		return Mermaid(w, gws)
	case "dot":
		return DOT(w, gws)
	case "json":
		return jsonw.Write(w, Doc{Version: 1, Workflows: gws})
	}
	return fmt.Errorf("unknown graph format %q", format)
}
