package workflowgraph

import (
	"os"
	"strings"
	"testing"
)

// TestRunnerAlternatives: runs-on is evaluated by package expr once per
// matrix leg (and choice of the caller's inputs), and the labels are
// collected; what is not known stays symbolic. Each case sits beside its
// near miss in testdata/runner_alternatives.yml.
func TestRunnerAlternatives(t *testing.T) {
	src, err := os.ReadFile("testdata/runner_alternatives.yml")
	if err != nil {
		t.Fatal(err)
	}
	w := load(t, map[string]string{"w.yml": string(src)}, "w.yml")
	for _, c := range []struct{ job, want string }{
		{"pair", "arm-t4,linux-h100,linux-t4|"},
		{"include-runner", "b200,ubuntu-latest|"},
		{"var-guard", "h100,ubuntu-latest|"},
		{"var-fallback", "|${{ vars.RUNNER || 'ubuntu-latest' }}"},
		{"leg-unknown", "ubuntu-latest|${{ matrix.kind == 'gpu' && vars.GPU_RUNNER || 'ubuntu-latest' }}"},
		{"input-default", "a100,ubuntu-latest|"},
		{"format-row", "gpu-x1,gpu-x8|"},
		{"unknown-row", "h100,h200|"},
		{"unknown-row-read", "|${{ matrix.shard }}"},
		{"missing-key", "|${{ matrix.runner }}"},
		{"mixed-list", `|${{ fromJSON('["self-hosted", {"a": 1}]') }}`},
		{"bad-json", "|${{ fromJSON('[h100') }}"},
		{"group-one", "|@gpu-pool"},
		{"group-two", "|group: ${{ matrix.pool }}"},
	} {
		j := w.Job(c.job)
		if j == nil {
			t.Fatalf("no job %s", c.job)
		}
		r := j.Runner
		got := strings.Join(r.Labels, ",") + "|" + strings.Join(r.Symbolic, ",")
		if r.Group != "" {
			got += "@" + r.Group
		}
		if got != c.want {
			t.Errorf("%s: %q, want %q", c.job, got, c.want)
		}
	}
}

// TestCalleeInputsPerCallerLeg: a with: value over the caller's matrix
// gives the callee's input several values; the callee's runs-on is
// evaluated for each. Near miss: a with: value the caller cannot know
// leaves the input unknown, not its default.
func TestCalleeInputsPerCallerLeg(t *testing.T) {
	callee := `on:
  workflow_call:
    inputs:
      runner: {type: string, default: ubuntu-latest}
jobs:
  test:
    runs-on: [self-hosted, "${{ inputs.runner }}"]
    steps: [{run: pytest}]
`
	w := load(t, map[string]string{
		"w.yml": `on: push
jobs:
  legs:
    strategy:
      matrix:
        gpu: [h100, mi300x]
    uses: ./.github/workflows/suite.yml
    with:
      runner: ${{ matrix.gpu }}
  unknown:
    uses: ./.github/workflows/suite.yml
    with:
      runner: ${{ vars.RUNNER }}
`,
		".github/workflows/suite.yml": callee,
	}, "w.yml")
	for id, want := range map[string]string{
		"legs":    "h100,mi300x,self-hosted|",
		"unknown": "self-hosted|${{ inputs.runner }}",
	} {
		r := w.Job(id).Runner
		if got := strings.Join(r.Labels, ",") + "|" + strings.Join(r.Symbolic, ","); got != want {
			t.Errorf("%s: %q, want %q (callee error %q)", id, got, want, w.Job(id).CalleeError)
		}
	}
}

// TestRunnerMatrixBeyondGitHubLimit: a matrix of more legs than GitHub
// runs (10^8 here) is not expanded; each key is one of its values, so the
// labels still resolve, and quickly.
func TestRunnerMatrixBeyondGitHubLimit(t *testing.T) {
	var b strings.Builder
	b.WriteString("on: push\njobs:\n  big:\n    strategy:\n      matrix:\n")
	for r := 0; r < 8; r++ {
		b.WriteString("        k" + string(rune('a'+r)) + ": [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]\n")
	}
	b.WriteString("        gpu: [h100, b200]\n    runs-on: ${{ matrix.gpu }}\n    steps: [{run: make}]\n")
	w := load(t, map[string]string{"w.yml": b.String()}, "w.yml")
	if got := strings.Join(w.Job("big").Runner.Labels, ","); got != "b200,h100" {
		t.Errorf("labels %q", got)
	}
}

// TestRunnerAlternativesBound: the legs share the bound with the caller's
// input choices. Four choices leave 64 legs each; a callee matrix of 100
// legs is then read key by key, and its labels still resolve.
func TestRunnerAlternativesBound(t *testing.T) {
	w := load(t, map[string]string{
		"w.yml": `on: push
jobs:
  call:
    strategy:
      matrix:
        box: [a, b, c, d]
    uses: ./.github/workflows/suite.yml
    with:
      box: ${{ matrix.box }}
`,
		".github/workflows/suite.yml": `on:
  workflow_call:
    inputs:
      box: {type: string}
jobs:
  test:
    strategy:
      matrix:
        shard: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]
        gpu: [h100, h200, b200, l4, t4, a100, a10g, l40s, v100, mi300x]
    runs-on: ["${{ inputs.box }}", "${{ matrix.gpu }}"]
    steps: [{run: pytest}]
`}, "w.yml")
	if got := strings.Join(w.Job("call").Runner.Labels, ","); got != "a,a100,a10g,b,b200,c,d,h100,h200,l4,l40s,mi300x,t4,v100" {
		t.Errorf("labels %q (symbolic %v)", got, w.Job("call").Runner.Symbolic)
	}
}
