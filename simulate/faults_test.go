package simulate

import (
	"bytes"
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
