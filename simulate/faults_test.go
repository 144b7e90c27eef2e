package simulate

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/cicheck/cicheck/workflowgraph"
)

// TestFaultMatrix: on seed 003's broken pipeline a CPU stage's failure
// skips every GPU stage; on the fixed one it skips none.
func TestFaultMatrix(t *testing.T) {
	gpu := func(j *workflowgraph.Job) bool { return j != nil && strings.Contains(j.ID, "-gpu-") }
	sc := Scenario{Event: "schedule", Outputs: nightly.Outputs}
	row := func(dir string) FaultRow {
		for _, r := range New(fixture(t, dir)).FaultMatrix(sc, gpu) {
			if r.Fails == "stage-a-cpu" {
				return r
			}
		}
		t.Fatalf("%s: no row for stage-a-cpu", dir)
		return FaultRow{}
	}
	if r := row("gate-broken"); len(r.Skipped) != 7 || len(r.Run) != 0 {
		t.Errorf("broken: %+v", r)
	}
	if r := row("gate-fixed"); len(r.Skipped) != 0 || len(r.Run) != 7 {
		t.Errorf("fixed: %+v", r)
	}
	var b bytes.Buffer
	WriteFaultMatrix(&b, "markdown", []FaultRow{{Fails: "a", Skipped: []string{"g1", "g2"}}})
	if got := b.String(); !strings.Contains(got, "| a | g1, g2 | - | - |") {
		t.Errorf("markdown:\n%s", got)
	}
}

// naiveFaultMatrix is FaultMatrix by one full Run per row: the reference
// the incremental rows (Sim.below) must agree with.
func naiveFaultMatrix(sim *Sim, sc Scenario, watched func(*workflowgraph.Job) bool) []FaultRow {
	var rows []FaultRow
	for _, id := range sim.order {
		s := sc
		s.VerdictsOnly = true
		s.Outcomes = map[string]Result{}
		for k, v := range sc.Outcomes {
			s.Outcomes[k] = v
		}
		s.Outcomes[id] = Failure
		r := FaultRow{Fails: id, Skipped: []string{}, Run: []string{}, Unknown: []string{}}
		for _, v := range sim.Run(s) {
			if v.ID == id || !watched(sim.w.Job(v.ID)) {
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
	return rows
}

// TestFaultMatrixIncremental: on random workflows (and the fixtures), each
// row decided again only below the failing job equals a full run of its
// scenario, under plain, outcome-giving and cancelled scenarios.
func TestFaultMatrixIncremental(t *testing.T) {
	all := func(*workflowgraph.Job) bool { return true }
	ws := randomWorkflows(t, 300)
	ws = append(ws, fixture(t, "gate-broken"), fixture(t, "gate-fixed"))
	for n, w := range ws {
		sim := New(w)
		for k, sc := range []Scenario{
			{},
			{Event: "push", Outputs: map[string]map[string]string{"j0": {"o": "true"}}},
			{DefaultOutcome: Unknown},
			{Cancelled: true},
			{Event: "schedule", Outputs: nightly.Outputs, Outcomes: map[string]Result{"j1": Cancelled}},
		} {
			got, want := sim.FaultMatrix(sc, all), naiveFaultMatrix(sim, sc, all)
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Fatalf("workflow %d, scenario %d:\nincremental %v\nfull runs   %v", n, k, got, want)
			}
		}
	}
}

// TestFaultMatrixHostileNames: job names from the workflow print no
// terminal escape, start no workflow command and form no link (issue 27).
func TestFaultMatrixHostileNames(t *testing.T) {
	rows := []FaultRow{{Fails: "a\x1b[2J\n::warning::x", Skipped: []string{"[click](https://evil)"}, Run: []string{"<img src=x>"}}}
	for _, format := range []string{"text", "markdown"} {
		var b strings.Builder
		WriteFaultMatrix(&b, format, rows)
		out := b.String()
		if strings.Contains(out, "\x1b") || format == "markdown" && (strings.Contains(out, "[click](") || strings.Contains(out, "<img")) {
			t.Errorf("%s: %q", format, out)
		}
		for _, l := range strings.Split(out, "\n") {
			if strings.HasPrefix(strings.TrimSpace(l), "::") {
				t.Errorf("%s: workflow command line %q", format, l)
			}
		}
	}
}
