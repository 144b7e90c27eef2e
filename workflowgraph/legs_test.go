package workflowgraph

import (
	"strings"
	"testing"
)

// TestLegs follows GitHub's documented examples of matrix expansion
// (docs, "Running variations of jobs in a workflow"): the product of the
// rows, exclude, include added to matching combinations or as a new one,
// original values never overwritten, added ones may be.
func TestLegs(t *testing.T) {
	for _, c := range []struct {
		name, matrix, want string
		ok                 bool
	}{
		{"product", `{os: [ubuntu, windows], node: [14, 16]}`, "os=ubuntu,node=14 os=ubuntu,node=16 os=windows,node=14 os=windows,node=16", true},
		{"exclude partial", `{os: [ubuntu, windows], node: [14, 16], exclude: [{os: windows, node: 14}]}`, "os=ubuntu,node=14 os=ubuntu,node=16 os=windows,node=16", true},
		// The docs' include example: fruit/animal.
		{"include docs", `{fruit: [apple, pear], animal: [cat, dog], include: [{color: green}, {color: pink, animal: cat}, {fruit: apple, shape: circle}, {fruit: banana}, {fruit: banana, animal: cat}]}`,
			"fruit=apple,animal=cat,color=pink,shape=circle fruit=apple,animal=dog,color=green,shape=circle fruit=pear,animal=cat,color=pink fruit=pear,animal=dog,color=green fruit=banana fruit=banana,animal=cat", true},
		{"include only", `{include: [{gpu: h100}, {gpu: mi300x}]}`, "gpu=h100 gpu=mi300x", true},
		{"dynamic", `{gpu: "${{ fromJSON(inputs.gpus) }}"}`, "", false},
		{"object value", `{cfg: [{a: 1}]}`, "", false},
	} {
		w := load(t, map[string]string{"w.yml": "on: push\njobs:\n  j:\n    strategy:\n      matrix: " + c.matrix + "\n    runs-on: x\n    steps: [{run: echo}]\n"}, "w.yml")
		legs, ok := Legs(w.Job("j"))
		var got []string
		for _, l := range legs {
			got = append(got, l.String())
		}
		if ok != c.ok || strings.Join(got, " ") != c.want {
			t.Errorf("%s: got %q, %v; want %q, %v", c.name, strings.Join(got, " "), ok, c.want, c.ok)
		}
	}
	w := load(t, map[string]string{"w.yml": "on: push\njobs:\n  j: {runs-on: x, steps: [{run: echo}]}\n"}, "w.yml")
	if legs, ok := Legs(w.Job("j")); legs != nil || !ok {
		t.Errorf("no matrix: %v, %v", legs, ok)
	}
}
