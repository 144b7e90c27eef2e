package checks

import (
	"testing"

	"github.com/cicheck/cicheck/finding"
	"github.com/cicheck/cicheck/workflowgraph"
)

func TestRefineRunnerLabels(t *testing.T) {
	w := loadSrc(t, `on: push
jobs:
  a: {runs-on: [self-hosted, box-1], steps: [{run: x}]}
  b: {runs-on: [linux-a100-s2], steps: [{run: x}]}
  c: {runs-on: [box-2], steps: [{run: x}]}
  d: {runs-on: [scarce-1], steps: [{run: x}]}
`)
	unknown := func(l string) finding.Finding {
		return finding.Finding{Rule: "runner-label", Message: `label "` + l + `" is unknown. available labels are "windows-latest", ...`}
	}
	c := workflowgraph.NewClassifier(nil, nil, []string{"scarce-*"}, nil)
	got := RefineRunnerLabels([]finding.Finding{
		unknown("box-1"),         // beside self-hosted: dropped
		unknown("linux-a100-s2"), // an accelerator: dropped
		unknown("scarce-1"),      // heavy.runner-labels: dropped
		unknown("box-2"),         // nothing known: kept, shortened
		{Rule: "runner-label", Message: `label "x" is deprecated`}, // not an unknown label: kept as is
		{Rule: "expression", Message: `label "box-2" is unknown`},  // another rule: kept as is
	}, w, c)
	if len(got) != 3 {
		t.Fatalf("kept %d findings, want 3: %+v", len(got), got)
	}
	if want := `label "box-2" is not a label of a GitHub-hosted runner: for a self-hosted runner, add self-hosted to runs-on or list the label in .github/actionlint.yaml (self-hosted-runner.labels)`; got[0].Message != want {
		t.Errorf("message %q", got[0].Message)
	}
	if got[1].Message != `label "x" is deprecated` || got[2].Rule != "expression" {
		t.Errorf("other findings changed: %+v", got[1:])
	}
	// Without the graph, only classification can drop a label.
	if got := RefineRunnerLabels([]finding.Finding{unknown("box-1")}, nil, c); len(got) != 1 {
		t.Errorf("no workflow: %+v", got)
	}
}
