package workflowgraph

import (
	"slices"
	"testing"
)

// TestTypedInputs: a boolean input's default or passed "false" is false,
// not the truthy text "false", so `inputs.x && 'a' || 'b'` takes b; a
// string input's "false" stays text.
func TestTypedInputs(t *testing.T) {
	files := map[string]string{
		".github/workflows/callee.yml": `on:
  workflow_call:
    inputs:
      shared: {type: boolean, default: false}
      name: {type: string, default: "false"}
      n: {type: number, default: 2}
jobs:
  by-bool:
    runs-on: ${{ inputs.shared && 'shared-pool' || 'wormhole-pool' }}
    steps: [{run: make}]
  by-text:
    runs-on: ${{ inputs.name && 'text-pool' || 'other-pool' }}
    steps: [{run: make}]
  by-number:
    runs-on: ${{ inputs.n == 2 && 'two-pool' || 'other-pool' }}
    steps: [{run: make}]
`,
		".github/workflows/caller.yml": `on: push
jobs:
  default:
    uses: ./.github/workflows/callee.yml
  passed:
    uses: ./.github/workflows/callee.yml
    with: {shared: true, n: 3}
`,
	}
	callee := load(t, files, ".github/workflows/callee.yml")
	for id, want := range map[string][]string{"by-bool": {"wormhole-pool"}, "by-text": {"text-pool"}, "by-number": {"two-pool"}} {
		if got := callee.Job(id).Runner.Labels; !slices.Equal(got, want) {
			t.Errorf("callee %s: labels %v, want %v", id, got, want)
		}
	}
	caller := load(t, files, ".github/workflows/caller.yml")
	for id, want := range map[string][]string{"default": {"wormhole-pool"}, "passed": {"shared-pool"}} {
		if got := caller.Job(id).Callee.Job("by-bool").Runner.Labels; !slices.Equal(got, want) {
			t.Errorf("caller %s: labels %v, want %v", id, got, want)
		}
	}
	if got := caller.Job("passed").Callee.Job("by-number").Runner.Labels; !slices.Equal(got, []string{"other-pool"}) {
		t.Errorf("passed n=3: labels %v", got)
	}
}
