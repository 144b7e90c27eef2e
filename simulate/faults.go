package simulate

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"text/tabwriter"

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
	var rows []FaultRow
	row := func(label, id string, s Scenario) {
		s.VerdictsOnly = true
		r := FaultRow{Fails: label, Skipped: []string{}, Run: []string{}, Unknown: []string{}}
		for _, v := range sim.Run(s) {
			if v.ID == id || !watched(w.Job(v.ID)) {
				continue
			}
			switch v.Verdict {
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
	for _, id := range w.TopoOrder() {
		s := sc
		s.Outcomes = maps.Clone(sc.Outcomes)
		if s.Outcomes == nil {
			s.Outcomes = map[string]string{}
		}
		s.Outcomes[id] = Failure
		row(id, id, s)
		// Each leg of a static matrix alone, too.
		legs, static := workflowgraph.Legs(w.Job(id))
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
			row(id+"["+l.String()+"]", id, s)
		}
	}
	return rows
}

// WriteFaultMatrix writes rows as a table (format "text"), a Markdown
// table ("markdown") or versioned JSON ("json").
func WriteFaultMatrix(out io.Writer, format string, rows []FaultRow) {
	list := func(xs []string) string {
		if len(xs) == 0 {
			return "-"
		}
		return strings.Join(xs, ", ")
	}
	switch format {
	case "json":
		b, _ := json.MarshalIndent(struct {
			Version  int        `json:"version"`
			Failures []FaultRow `json:"failures"`
		}{1, rows}, "", "  ")
		fmt.Fprintln(out, string(b))
	case "markdown":
		fmt.Fprintln(out, "| job that fails | GPU/heavy jobs skipped | still run | undecided |")
		fmt.Fprintln(out, "|---|---|---|---|")
		for _, r := range rows {
			fmt.Fprintf(out, "| %s | %s | %s | %s |\n", r.Fails, list(r.Skipped), list(r.Run), list(r.Unknown))
		}
	default:
		tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "FAILS\tGPU/HEAVY SKIPPED\tSTILL RUN\tUNDECIDED")
		for _, r := range rows {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", r.Fails, list(r.Skipped), list(r.Run), list(r.Unknown))
		}
		_ = tw.Flush()
	}
}
