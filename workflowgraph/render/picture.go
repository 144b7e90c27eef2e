package render

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/cicheck/cicheck/internal/safetext"
)

// The pictures (graph's Mermaid and DOT, explain-diff's Mermaid) share one
// scheme, defined here: a job's fill says its class (GPU, heavy, both), a
// grey fill its state (proven never to run, skipped in the scenario), a
// dashed border a job whose run the scenario leaves undecided, and its shape
// its gate (rounded: the implicit success(); hexagon: an explicit status
// check). Jobs are laid out top-down by dependency depth, a depth with many
// jobs wrapped into rows of at most rowMax, so that a wide workflow stays
// readable; a reusable workflow a job calls is a subgraph of its own.

// State is what a picture knows about whether a job runs.
type State int

// States of a job in a picture.
const (
	// Plain: nothing known (graph).
	Plain State = iota
	// Never: proven never to run (graph, package reach).
	Never
	// Run, Skip, Unknown: the job's verdict in a scenario (explain-diff).
	Run
	Skip
	Unknown
)

// rowMax is the most jobs a picture puts side by side in one row.
const rowMax = 6

// look is how a picture draws one kind of job.
type look struct {
	key                string // the Mermaid class name
	fill, stroke, text string
	width              int
	dash               string // "", "dashed" or "dotted"
}

// The class looks, then the state looks that replace or amend them.
var (
	lookPlain    = look{key: "plain", fill: "#ffffff", stroke: "#57606a", text: "#1f2328", width: 1}
	lookGPU      = look{key: "gpu", fill: "#ddf4ff", stroke: "#0969da", text: "#1f2328", width: 2}
	lookHeavy    = look{key: "heavy", fill: "#fff8c5", stroke: "#9a6700", text: "#1f2328", width: 2}
	lookGPUHeavy = look{key: "gpuheavy", fill: "#ffebe9", stroke: "#cf222e", text: "#1f2328", width: 3}
	lookNever    = look{key: "never", fill: "#f6f8fa", stroke: "#8c959f", text: "#8c959f", width: 1, dash: "dashed"}
	lookSkip     = look{key: "skip", fill: "#eaeef2", stroke: "#8c959f", text: "#57606a", width: 1, dash: "dotted"}
)

// looks lists every look in a fixed order (class definitions are written
// in it).
func looks() []look {
	var out []look
	for _, l := range []look{lookPlain, lookGPU, lookHeavy, lookGPUHeavy} {
		out = append(out, l, undecided(l))
	}
	return append(out, lookNever, lookSkip)
}

func undecided(l look) look {
	l.key += "_unknown"
	l.dash = "dashed"
	return l
}

// lookOf is the look of a job of the class and state given.
func lookOf(gpu, heavy bool, st State) look {
	switch st {
	case Never:
		return lookNever
	case Skip:
		return lookSkip
	}
	l := lookPlain
	switch {
	case gpu && heavy:
		l = lookGPUHeavy
	case gpu:
		l = lookGPU
	case heavy:
		l = lookHeavy
	}
	if st == Unknown {
		l = undecided(l)
	}
	return l
}

func (l look) mermaidDef() string {
	s := fmt.Sprintf("fill:%s,stroke:%s,color:%s,stroke-width:%dpx", l.fill, l.stroke, l.text, l.width)
	switch l.dash {
	case "dashed":
		s += ",stroke-dasharray:6 4"
	case "dotted":
		s += ",stroke-dasharray:2 3"
	}
	return s
}

func (l look) dotAttrs(explicit bool) string {
	style := "rounded,filled"
	shape := "box"
	if explicit {
		style, shape = "filled", "hexagon"
	}
	if l.dash != "" {
		style += "," + l.dash
	}
	return fmt.Sprintf(`shape=%s, style="%s", fillcolor="%s", color="%s", fontcolor="%s", penwidth=%d`, shape, style, l.fill, l.stroke, l.text, l.width)
}

// Node is one job of a picture.
type Node struct {
	ID string
	// Lines are the label's lines, unescaped (the writer escapes them).
	Lines      []string
	GPU, Heavy bool
	// Explicit: the job's gate calls a status function.
	Explicit bool
	State    State
	// Needs are the ids of the jobs this one needs.
	Needs []string
}

type pnode struct {
	Node
	key   string
	depth int
}

// pgroup is a workflow in a picture: its jobs, and the reusable workflows
// its jobs call, each a group of its own.
type pgroup struct {
	key, label string
	nodes      []*pnode
	calls      []call
}

type call struct {
	from  string // the calling node's key
	group *pgroup
}

// edges are the needs edges between the group's nodes, in job order.
func (g *pgroup) edges() [][2]string {
	byID := map[string]string{}
	for _, n := range g.nodes {
		byID[strings.ToLower(n.ID)] = n.key
	}
	var out [][2]string
	for _, n := range g.nodes {
		for _, need := range n.Needs {
			if from, ok := byID[strings.ToLower(need)]; ok {
				out = append(out, [2]string{from, n.key})
			}
		}
	}
	return out
}

// layer sets each node's depth (0: no needs in the group; a cycle counts
// as no needs) and returns the rows: each depth's nodes in order, at most
// rowMax to a row.
func (g *pgroup) layer() [][]*pnode {
	byID := map[string]*pnode{}
	for _, n := range g.nodes {
		byID[strings.ToLower(n.ID)] = n
	}
	const (
		unseen = iota
		onPath
		done
	)
	state := map[*pnode]int{}
	var depth func(n *pnode) int
	depth = func(n *pnode) int {
		switch state[n] {
		case onPath:
			return -1
		case done:
			return n.depth
		}
		state[n] = onPath
		d := 0
		for _, need := range n.Needs {
			if p, ok := byID[strings.ToLower(need)]; ok && p != n {
				if pd := depth(p); pd >= 0 && pd+1 > d {
					d = pd + 1
				}
			}
		}
		n.depth, state[n] = d, done
		return d
	}
	maxDepth := 0
	for _, n := range g.nodes {
		maxDepth = max(maxDepth, depth(n))
	}
	var rows [][]*pnode
	for d := 0; d <= maxDepth; d++ {
		var row []*pnode
		for _, n := range g.nodes {
			if n.depth != d {
				continue
			}
			if len(row) == rowMax {
				rows = append(rows, row)
				row = nil
			}
			row = append(row, n)
		}
		if len(row) > 0 {
			rows = append(rows, row)
		}
	}
	return rows
}

// legendItems are the legend's entries: the classes, the states the
// picture can show, the two gate shapes.
func legendItems(scenario bool) []pnode {
	items := []Node{
		{ID: "GPU", GPU: true},
		{ID: "heavy", Heavy: true},
		{ID: "GPU + heavy", GPU: true, Heavy: true},
	}
	if scenario {
		items = append(items,
			Node{ID: "runs in this scenario", State: Run},
			Node{ID: "skipped in this scenario", State: Skip},
			Node{ID: "undecided in this scenario", State: Unknown})
	} else {
		items = append(items, Node{ID: "never runs (proven)", State: Never})
	}
	items = append(items,
		Node{ID: "implicit success() gate"},
		Node{ID: "explicit status check", Explicit: true})
	out := make([]pnode, len(items))
	for i, it := range items {
		it.Lines = []string{it.ID}
		out[i] = pnode{Node: it, key: fmt.Sprintf("legend%d", i)}
	}
	return out
}

func legendGroup(scenario bool) *pgroup {
	g := &pgroup{key: "legend", label: "legend"}
	items := legendItems(scenario)
	for i := range items {
		g.nodes = append(g.nodes, &items[i])
	}
	return g
}

// legendRows lays the legend out in rows of four.
func legendRows(g *pgroup) [][]*pnode {
	var rows [][]*pnode
	for i := 0; i < len(g.nodes); i += 4 {
		rows = append(rows, g.nodes[i:min(i+4, len(g.nodes))])
	}
	return rows
}

// picture is what the writers draw: the legend, then each workflow.
type picture struct {
	groups   []*pgroup
	scenario bool
}

// mermaidWriter writes a picture as a Mermaid flowchart.
type mermaidWriter struct {
	b    strings.Builder
	used map[string][]string // look key -> node keys
}

func (m *mermaidWriter) node(n *pnode) {
	var parts []string
	for _, l := range n.Lines {
		parts = append(parts, MermaidText(l))
	}
	label := strings.Join(parts, "<br/>")
	open, closing := "(", ")"
	if n.Explicit {
		open, closing = "{{", "}}"
	}
	fmt.Fprintf(&m.b, "    %s%s\"%s\"%s\n", n.key, open, label, closing)
	k := lookOf(n.GPU, n.Heavy, n.State).key
	m.used[k] = append(m.used[k], n.key)
}

// rowLinks joins consecutive rows with invisible links, so that Mermaid
// puts each row below the one before: a node that needs no job of the
// row above is linked to one of them.
func (m *mermaidWriter) rowLinks(rows [][]*pnode) {
	for r := 1; r < len(rows); r++ {
		prev := rows[r-1]
		above := map[string]bool{}
		for _, p := range prev {
			above[strings.ToLower(p.ID)] = true
		}
		for i, n := range rows[r] {
			if !slices.ContainsFunc(n.Needs, func(need string) bool { return above[strings.ToLower(need)] }) {
				fmt.Fprintf(&m.b, "    %s ~~~ %s\n", prev[i%len(prev)].key, n.key)
			}
		}
	}
}

func (m *mermaidWriter) group(g *pgroup) {
	rows := g.layer()
	for _, n := range g.nodes {
		m.node(n)
	}
	for _, c := range g.calls {
		fmt.Fprintf(&m.b, "  subgraph %s[\"%s\"]\n    direction TB\n", c.group.key, MermaidText(c.group.label))
		m.group(c.group)
		m.b.WriteString("  end\n")
	}
	for _, e := range g.edges() {
		fmt.Fprintf(&m.b, "    %s --> %s\n", e[0], e[1])
	}
	for _, c := range g.calls {
		for _, n := range c.group.nodes {
			if n.depth == 0 {
				fmt.Fprintf(&m.b, "    %s -.-> %s\n", c.from, n.key)
			}
		}
	}
	m.rowLinks(rows)
}

// writeMermaid writes p as a Mermaid flowchart; titled groups are
// subgraphs, the rest is drawn at the top level.
func writeMermaid(w io.Writer, p picture) error {
	m := &mermaidWriter{used: map[string][]string{}}
	m.b.WriteString("flowchart TD\n")
	lg := legendGroup(p.scenario)
	// The legend's rows are chains left to right, one above the other.
	m.b.WriteString("  subgraph legend[\"legend\"]\n    direction LR\n")
	for _, n := range lg.nodes {
		m.node(n)
	}
	for _, row := range legendRows(lg) {
		for i := 1; i < len(row); i++ {
			fmt.Fprintf(&m.b, "    %s ~~~ %s\n", row[i-1].key, row[i].key)
		}
	}
	m.b.WriteString("  end\n")
	prev := "legend"
	for _, g := range p.groups {
		if g.label != "" {
			// A subgraph drawn on its own turns its direction
			// unless told.
			fmt.Fprintf(&m.b, "  subgraph %s[\"%s\"]\n    direction TB\n", g.key, MermaidText(g.label))
		}
		m.group(g)
		if g.label != "" {
			m.b.WriteString("  end\n")
			fmt.Fprintf(&m.b, "  %s ~~~ %s\n", prev, g.key)
			prev = g.key
		} else if rows := g.layer(); len(rows) > 0 {
			fmt.Fprintf(&m.b, "  %s ~~~ %s\n", prev, rows[0][0].key)
		}
	}
	for _, l := range looks() {
		if keys := m.used[l.key]; len(keys) > 0 {
			fmt.Fprintf(&m.b, "  classDef %s %s\n", l.key, l.mermaidDef())
			fmt.Fprintf(&m.b, "  class %s %s\n", strings.Join(keys, ","), l.key)
		}
	}
	_, err := io.WriteString(w, m.b.String())
	return err
}

// dotString quotes s as a DOT string.
func dotString(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`).Replace(s) + `"`
}

// dotWriter writes a picture in Graphviz's DOT language.
type dotWriter struct {
	b     strings.Builder
	chain []string // invisible edges joining rows and groups
}

func (d *dotWriter) node(n *pnode, indent string) {
	lines := make([]string, len(n.Lines))
	for i, l := range n.Lines {
		lines[i] = safetext.Line(l)
	}
	fmt.Fprintf(&d.b, "%s%s [label=%s, %s];\n", indent, n.key, dotString(strings.Join(lines, "\n")), lookOf(n.GPU, n.Heavy, n.State).dotAttrs(n.Explicit))
}

// rows ranks each row's nodes together and joins each row to the next.
// The legend's entries are kept in order, left to right.
func (d *dotWriter) rows(rows [][]*pnode, indent string, legend bool) {
	for r, row := range rows {
		keys := make([]string, len(row))
		for i, n := range row {
			keys[i] = n.key
		}
		fmt.Fprintf(&d.b, "%s{ rank=same; %s; }\n", indent, strings.Join(keys, "; "))
		for i := 1; i < len(row) && legend; i++ {
			fmt.Fprintf(&d.b, "%s%s -> %s [style=invis];\n", indent, row[i-1].key, row[i].key)
		}
		if r > 0 {
			d.chain = append(d.chain, fmt.Sprintf("  %s -> %s [style=invis];", rows[r-1][0].key, row[0].key))
		}
	}
}

func (d *dotWriter) group(g *pgroup, indent string) (first, last string) {
	rows := g.layer()
	fmt.Fprintf(&d.b, "%ssubgraph cluster_%s {\n%s  label=%s;\n", indent, g.key, indent, dotString(g.label))
	in := indent + "  "
	for _, n := range g.nodes {
		d.node(n, in)
	}
	d.rows(rows, in, false)
	for _, c := range g.calls {
		d.group(c.group, in)
	}
	fmt.Fprintf(&d.b, "%s}\n", indent)
	for _, e := range g.edges() {
		fmt.Fprintf(&d.b, "%s%s -> %s;\n", indent, e[0], e[1])
	}
	for _, c := range g.calls {
		for _, n := range c.group.nodes {
			if n.depth == 0 {
				fmt.Fprintf(&d.b, "%s%s -> %s [style=dotted];\n", indent, c.from, n.key)
			}
		}
	}
	if len(rows) == 0 {
		return "", ""
	}
	return rows[0][0].key, rows[len(rows)-1][0].key
}

// writeDOT writes p in the DOT language, ranked top-down.
func writeDOT(w io.Writer, p picture) error {
	d := &dotWriter{}
	d.b.WriteString("digraph cicheck {\n  rankdir=TB;\n  newrank=true;\n  nodesep=0.3;\n  ranksep=0.5;\n")
	d.b.WriteString("  node [fontname=\"Helvetica\", fontsize=11];\n  edge [color=\"#57606a\"];\n")
	lg := legendGroup(p.scenario)
	lrows := legendRows(lg)
	d.b.WriteString("  subgraph cluster_legend {\n    label=\"legend\";\n    style=\"rounded\";\n    color=\"#8c959f\";\n")
	for _, n := range lg.nodes {
		d.node(n, "    ")
	}
	d.rows(lrows, "    ", true)
	d.b.WriteString("  }\n")
	prev := lrows[len(lrows)-1][0].key
	for _, g := range p.groups {
		first, last := d.group(g, "  ")
		if first != "" {
			d.chain = append(d.chain, fmt.Sprintf("  %s -> %s [style=invis];", prev, first))
			prev = last
		}
	}
	for _, c := range d.chain {
		d.b.WriteString(c + "\n")
	}
	d.b.WriteString("}\n")
	_, err := io.WriteString(w, d.b.String())
	return err
}
