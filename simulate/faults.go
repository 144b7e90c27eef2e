package simulate

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/cicheck/cicheck/internal/jsonw"

	"github.com/cicheck/cicheck/internal/safetext"
	"github.com/cicheck/cicheck/workflowgraph"
)

// FaultRow is what one job's failure does to the accelerator and heavy
// jobs, everything else as the scenario says.
type FaultRow struct {
	Fails   string   `json:"fails"`
	Skipped []string `json:"skipped"`
	Run     []string `json:"run"`
	Unknown []string `json:"unknown"`
}

// FaultMatrix fails each job alone, and each leg of a static matrix alone
// (on top of the scenario sc), and records which watched jobs (accelerator
// or heavy) still run, are skipped, or cannot be decided. The failing job
// itself is left out of its row.
func (sim *Sim) FaultMatrix(sc Scenario, watched func(*workflowgraph.Job) bool) []FaultRow {
	w := sim.w
	if w == nil {
		return nil
	}
	n := len(sim.order)
	sc.VerdictsOnly = true
	// One run of the scenario; each row then decides again only the failing
	// job and the jobs below it (Sim.below), so a row costs what it changes.
	base := sim.newState(sc)
	baseOut := make([]Verdict, n)
	for i := range sim.order {
		baseOut[i] = base.decide(i)
	}
	children := make([][]int, n)
	for i, ps := range sim.needs {
		for _, p := range ps {
			children[p] = append(children[p], i)
		}
	}
	var watchedPos []int
	for i, j := range sim.jobs {
		if watched(j) {
			watchedPos = append(watchedPos, i)
		}
	}
	changed := make([]bool, n)
	var marked []int
	mark := func(p int) {
		for _, q := range marked {
			changed[q] = false
		}
		marked = append(marked[:0], p)
		changed[p] = true
		for k := 0; k < len(marked); k++ {
			for _, c := range children[marked[k]] {
				if !changed[c] {
					changed[c] = true
					marked = append(marked, c)
				}
			}
		}
	}
	var rows []FaultRow
	row := func(label string, p int, s Scenario) {
		vs := sim.below(base, baseOut, s, changed)
		r := FaultRow{Fails: label, Skipped: []string{}, Run: []string{}, Unknown: []string{}}
		for _, q := range watchedPos {
			if q == p {
				continue
			}
			switch v := vs[q]; v.Verdict {
			case VerdictSkip:
				r.Skipped = append(r.Skipped, v.ID)
			case VerdictRun:
				r.Run = append(r.Run, v.ID)
			default:
				r.Unknown = append(r.Unknown, v.ID)
			}
		}
		rows = append(rows, r)
	}
	for p, id := range sim.order {
		mark(p)
		s := sc
		s.Outcomes = maps.Clone(sc.Outcomes)
		if s.Outcomes == nil {
			s.Outcomes = map[string]Result{}
		}
		s.Outcomes[id] = Failure
		row(id, p, s)
		// Each leg of a static matrix alone, too.
		legs, static := workflowgraph.Legs(sim.jobs[p])
		if !static || len(legs) < 2 {
			continue
		}
		for _, l := range legs {
			s := sc
			s.LegOutcomes = maps.Clone(sc.LegOutcomes)
			if s.LegOutcomes == nil {
				s.LegOutcomes = map[string][]LegOutcome{}
			}
			sel := map[string]string{}
			for i, k := range l.Keys {
				sel[k] = l.Values[i]
			}
			s.LegOutcomes[id] = append(slices.Clone(s.LegOutcomes[id]), LegOutcome{Select: sel, Outcome: Failure})
			row(id+"["+l.String()+"]", p, s)
		}
	}
	return rows
}

// WriteFaultMatrix writes rows as a table (format "text"), a Markdown
// table ("markdown") or versioned JSON ("json").
func WriteFaultMatrix(out io.Writer, format string, rows []FaultRow) {
	// Job ids and leg names come from the workflow: each is literal text in
	// markdown, and the text table is escaped as a whole (internal/safetext).
	list := func(xs []string, esc func(string) string) string {
		if len(xs) == 0 {
			return "-"
		}
		e := make([]string, len(xs))
		for i, x := range xs {
			e[i] = esc(x)
		}
		return strings.Join(e, ", ")
	}
	switch format {
	case "json":
		b, _ := jsonw.Marshal(struct {
			Version  int        `json:"version"`
			Failures []FaultRow `json:"failures"`
		}{1, rows})
		_, _ = out.Write(b)
	case "markdown":
		md := safetext.Markdown
		fmt.Fprintln(out, "| job that fails | GPU/heavy jobs skipped | still run | undecided |")
		fmt.Fprintln(out, "|---|---|---|---|")
		for _, r := range rows {
			fmt.Fprintf(out, "| %s | %s | %s | %s |\n", md(r.Fails), list(r.Skipped, md), list(r.Run, md), list(r.Unknown, md))
		}
	default:
		var b strings.Builder
		tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "FAILS\tGPU/HEAVY SKIPPED\tSTILL RUN\tUNDECIDED")
		for _, r := range rows {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", safetext.Line(r.Fails), list(r.Skipped, safetext.Line), list(r.Run, safetext.Line), list(r.Unknown, safetext.Line))
		}
		_ = tw.Flush()
		_, _ = io.WriteString(out, safetext.Output(b.String()))
	}
}

// FaultReport is --each-failure's whole answer: the scenario every row
// starts from, the rows, and what would decide each job a row leaves
// undecided.
type FaultReport struct {
	Scenario  string
	Rows      []FaultRow
	Undecided []Undecided
}

// WriteFaultReport writes r: the scenario assumed, the table
// (WriteFaultMatrix) and, for the undecided jobs, the flags that would
// decide them, grouped by the flags.
func WriteFaultReport(out io.Writer, format string, r FaultReport) {
	if format == "json" {
		und := r.Undecided
		if und == nil {
			und = []Undecided{}
		}
		for i := range und {
			if und[i].Deciders == nil {
				und[i].Deciders = []Decider{}
			}
		}
		b, _ := jsonw.Marshal(struct {
			Version   int         `json:"version"`
			Scenario  string      `json:"scenario"`
			Failures  []FaultRow  `json:"failures"`
			Undecided []Undecided `json:"undecided"`
		}{1, r.Scenario, r.Rows, und})
		_, _ = out.Write(b)
		return
	}
	esc, code := safetext.Line, safetext.Line
	if format == "markdown" {
		esc, code = safetext.Markdown, safetext.Code
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Scenario: %s. Each row fails one job (or one leg of a static matrix) on top of it; every other job that runs succeeds.\n\n", esc(r.Scenario))
	_, _ = io.WriteString(out, b.String())
	WriteFaultMatrix(out, format, r.Rows)
	if len(r.Undecided) == 0 {
		return
	}
	// Group the jobs by what would decide them, in dependency order of
	// each group's first job.
	type group struct {
		jobs []string
		how  string
	}
	var groups []*group
	byHow := map[string]*group{}
	for _, u := range r.Undecided {
		how := u.Reason
		if len(u.Deciders) > 0 {
			flags := make([]string, len(u.Deciders))
			for i, d := range u.Deciders {
				flags[i] = code(d.Flag)
			}
			how = strings.Join(flags, ", ")
		} else {
			how = esc(how)
		}
		g := byHow[how]
		if g == nil {
			g = &group{how: how}
			byHow[how] = g
			groups = append(groups, g)
		}
		g.jobs = append(g.jobs, u.Job)
	}
	var t strings.Builder
	t.WriteString("\nUNDECIDED jobs wait on facts the scenario does not give; the flags that decide them:\n")
	if format == "markdown" {
		t.Reset()
		t.WriteString("\n**Undecided** jobs wait on facts the scenario does not give; the flags that decide them:\n\n")
	}
	for _, g := range groups {
		jobs := make([]string, len(g.jobs))
		for i, j := range g.jobs {
			jobs[i] = esc(j)
		}
		if format == "markdown" {
			fmt.Fprintf(&t, "- %s: %s\n", strings.Join(jobs, ", "), g.how)
		} else {
			fmt.Fprintf(&t, "  %s: %s\n", strings.Join(jobs, ", "), g.how)
		}
	}
	if format == "markdown" {
		_, _ = io.WriteString(out, t.String())
		return
	}
	_, _ = io.WriteString(out, safetext.Output(t.String()))
}
