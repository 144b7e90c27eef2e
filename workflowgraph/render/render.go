// Package render draws a workflow's job graph for people and programs:
// each job in topological order with its gate (the explicit status
// function, or the implicit success() over its N ancestors), its runner and
// GPU/heavy marks, as text, Mermaid, Graphviz DOT or versioned JSON.
package render

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/cicheck/cicheck/internal/jsonw"
	"github.com/cicheck/cicheck/reach"

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
	// NeverRuns says, briefly, why the job can never run when package
	// reach proves it (empty, and left out, otherwise).
	NeverRuns string `json:"never_runs,omitempty"`
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
	// lines is the gate as a picture labels it.
	lines []string
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
	never := neverRuns(w)
	for _, id := range w.TopoOrder() {
		j := w.Job(id)
		gj := Job{ID: j.ID, Name: j.Name, Needs: nonNil(j.Needs), Gate: gateOf(w, j), GPU: cl.IsGPU(j), Class: cl.Classify(j), Heavy: cl.IsHeavy(j), Uses: j.Uses, NeverRuns: never[j.ID],
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

// labelMax is the longest text a picture puts on one line of a label.
const labelMax = 60

// shorten cuts s to at most n runes, marking the cut with an ellipsis.
func shorten(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// condText is a condition as a label shows it: one line, without the
// ${{ }} around a whole expression.
func condText(raw string) string {
	c := strings.Join(strings.Fields(raw), " ")
	if strings.HasPrefix(c, "${{") && strings.HasSuffix(c, "}}") && strings.Count(c, "${{") == 1 {
		c = strings.TrimSpace(c[3 : len(c)-2])
	}
	return c
}

func gateOf(w *workflowgraph.Workflow, j *workflowgraph.Job) Gate {
	n := w.AncestorCount(j.ID)
	g := Gate{Ancestors: n, StatusFunctions: nonNil(j.If.StatusFuncs())}
	over := "implicit success() over " + plural.Count(n, "ancestor")
	if n == 0 {
		over = "implicit success() (no needs)"
	}
	var cond string
	if j.If != nil {
		cond = shorten(condText(j.If.Raw), labelMax)
	}
	switch {
	case j.If == nil:
		g.Kind, g.Summary = "implicit", over
		g.lines = []string{over}
	case j.If.AlwaysTrue:
		g.Kind, g.Condition = "always-true", j.If.Raw
		g.Summary = "always true: text around ${{ }}"
		g.lines = []string{g.Summary}
		if len(g.StatusFunctions) == 0 {
			g.Summary += "; effectively " + over
			g.lines = append(g.lines, "effectively "+over)
		}
	case len(g.StatusFunctions) > 0:
		g.Kind, g.Condition = "explicit", j.If.Raw
		g.Summary = "status check: " + cond
		g.lines = []string{g.Summary}
	default:
		g.Kind, g.Condition = "implicit", j.If.Raw
		if strings.Contains(cond, "||") { // success() && (a || b)
			cond = "(" + cond + ")"
		}
		g.Summary = over + " && " + cond
		g.lines = []string{over, "&& " + cond}
	}
	g.Condition = strings.Join(strings.Fields(g.Condition), " ")
	return g
}

// neverRuns is, by job id, a short reason for each job of w package reach
// proves can never run.
func neverRuns(w *workflowgraph.Workflow) map[string]string {
	out := map[string]string{}
	res := reach.Analyze(w)
	for _, p := range res.Proofs {
		var why string
		switch p.Kind {
		case reach.Own:
			why = "its if: is false on every trigger (" + strings.Join(res.Triggers, ", ") + ")"
		case reach.Conflict:
			why = "its if: and " + p.Other + "'s never hold together"
		case reach.AncestorNeverSucceeds:
			why = p.Other + " never succeeds"
		case reach.Pair:
			why = p.Other + " and " + p.Third + " never run together"
		default:
			why = "no trigger runs it with all its ancestors"
		}
		out[p.Job] = why
		for _, parked := range p.Parked {
			if _, ok := out[parked]; !ok {
				out[parked] = p.Job + " never runs"
			}
		}
	}
	return out
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
		if gj.NeverRuns != "" {
			fmt.Fprintf(b, "%s  never runs: %s\n", indent, gj.NeverRuns)
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

// labelLines are a job's label in a picture: its id and marks, its gate,
// its runner and, for a job proven never to run, why.
func (gj Job) labelLines(prefix string) []string {
	first := prefix + gj.ID
	if m := gj.marks(); m != "" {
		first += " " + m
	}
	rest := slices.Clone(gj.Gate.lines)
	if r := gj.runsOn(); r != "" {
		rest = append(rest, "runs-on: "+shorten(r, labelMax))
	}
	if gj.NeverRuns != "" {
		rest = append(rest, "never runs: "+shorten(gj.NeverRuns, labelMax))
	}
	lines := []string{first}
	for _, l := range rest {
		lines = append(lines, wrap(l, wrapAt)...)
	}
	return lines
}

// wrapAt is the width a label's lines are wrapped to, at spaces: a long
// condition makes a narrow, taller box rather than a wide row.
const wrapAt = 40

// wrap breaks s at spaces into lines of at most n runes where it can.
func wrap(s string, n int) []string {
	var lines []string
	line := ""
	for _, word := range strings.Split(s, " ") {
		switch {
		case line == "":
			line = word
		case len([]rune(line))+1+len([]rune(word)) <= n, line == "&&", line == "||":
			line += " " + word
		default:
			lines = append(lines, line)
			line = word
		}
	}
	return append(lines, line)
}

// pictureOf numbers the jobs of the workflows, and of the reusable
// workflows they call, in order (j0, j1, ...), each workflow a group.
func pictureOf(gws []Workflow) picture {
	n := 0
	var build func(gw Workflow, key, label, prefix string) *pgroup
	build = func(gw Workflow, key, label, prefix string) *pgroup {
		g := &pgroup{key: key, label: label}
		for _, gj := range gw.Jobs {
			pn := &pnode{key: fmt.Sprintf("j%d", n), Node: Node{ID: gj.ID, Lines: gj.labelLines(prefix), GPU: gj.GPU, Heavy: gj.Heavy,
				Explicit: len(gj.Gate.StatusFunctions) > 0, Needs: gj.Needs}}
			if gj.NeverRuns != "" {
				pn.State = Never
			}
			n++
			g.nodes = append(g.nodes, pn)
			if gj.Callee != nil {
				c := build(*gj.Callee, "c"+pn.key, gj.ID+" calls "+gj.Callee.File, gj.ID+" / ")
				g.calls = append(g.calls, call{from: pn.key, group: c})
			}
		}
		return g
	}
	var p picture
	for i, gw := range gws {
		p.groups = append(p.groups, build(gw, fmt.Sprintf("w%d", i), gw.File, ""))
	}
	return p
}

// Mermaid writes the graphs as a Mermaid flowchart.
func Mermaid(w io.Writer, gws []Workflow) error { return writeMermaid(w, pictureOf(gws)) }

// MermaidScenario writes jobs, as a scenario decided them (each node's
// State is Run, Skip or Unknown), as a Mermaid flowchart in the graph's
// scheme (explain-diff's picture).
func MermaidScenario(w io.Writer, jobs []Node) error {
	g := &pgroup{key: "w0"}
	for i, j := range jobs {
		g.nodes = append(g.nodes, &pnode{Node: j, key: fmt.Sprintf("j%d", i)})
	}
	return writeMermaid(w, picture{groups: []*pgroup{g}, scenario: true})
}

// DOT writes the graphs in Graphviz's DOT language.
func DOT(w io.Writer, gws []Workflow) error { return writeDOT(w, pictureOf(gws)) }

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
