package workflowgraph

import (
	"strings"
	"testing"
)

// TestMatrixExclude: a value every combination of which is excluded is not
// a runner label of the job (it would otherwise be classified GPU); an
// exclude with more keys leaves the value, and include adds after exclude.
func TestMatrixExclude(t *testing.T) {
	w := load(t, map[string]string{"w.yml": `on: push
jobs:
  single:
    strategy:
      matrix:
        os: [ubuntu-latest, h100]
        exclude:
          - os: h100
    runs-on: ${{ matrix.os }}
    steps: [{run: make}]
  partial:
    strategy:
      matrix:
        os: [ubuntu-latest, h100]
        py: ["3.10", "3.12"]
        exclude:
          - os: h100
            py: "3.10"
    runs-on: ${{ matrix.os }}
    steps: [{run: make}]
  readded:
    strategy:
      matrix:
        os: [ubuntu-latest, h100]
        exclude:
          - os: h100
        include:
          - os: h100
    runs-on: ${{ matrix.os }}
    steps: [{run: make}]
`}, "w.yml")
	for id, want := range map[string]string{
		"single":  "ubuntu-latest|",
		"partial": "h100,ubuntu-latest|",
		"readded": "h100,ubuntu-latest|",
	} {
		r := w.Job(id).Runner
		if got := strings.Join(r.Labels, ",") + "|" + strings.Join(r.Symbolic, ","); got != want {
			t.Errorf("%s: %q, want %q", id, got, want)
		}
	}
}

// TestMatrixRowPartlyStatic: a row mixing literals with expressions keeps
// its literal labels (h100 makes the job a GPU job) and shows the rest as
// symbolic; a row with no literal stays wholly symbolic.
func TestMatrixRowPartlyStatic(t *testing.T) {
	w := load(t, map[string]string{"w.yml": `on:
  workflow_dispatch:
    inputs:
      gpu: {type: string}
jobs:
  mixed:
    strategy:
      matrix:
        runner: [h100, "${{ inputs.gpu }}"]
    runs-on: ${{ matrix.runner }}
    steps: [{run: make}]
  dynamic:
    strategy:
      matrix:
        runner: ["${{ inputs.gpu }}"]
    runs-on: ${{ matrix.runner }}
    steps: [{run: make}]
`}, "w.yml")
	for id, want := range map[string]string{
		"mixed":   "h100|${{ inputs.gpu }}",
		"dynamic": "|${{ matrix.runner }}",
	} {
		r := w.Job(id).Runner
		if got := strings.Join(r.Labels, ",") + "|" + strings.Join(r.Symbolic, ","); got != want {
			t.Errorf("%s: %q, want %q", id, got, want)
		}
	}
}
