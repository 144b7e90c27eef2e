package render

import (
	"bytes"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/cicheck/cicheck/config"
	"github.com/cicheck/cicheck/workflowgraph"
)

func TestBuildAndText(t *testing.T) {
	fsys := fstest.MapFS{"w.yml": {Data: []byte(`on: push
jobs:
  a: {runs-on: ubuntu-latest, steps: [{run: x}]}
  b: {needs: a, runs-on: ubuntu-latest, steps: [{run: x}]}
  gpu:
    needs: b
    if: ${{ !cancelled() }}
    runs-on: [self-hosted, h100]
    steps: [{run: x}]
  t:
    needs: gpu
    if: "run ${{ true }}"
    runs-on: ubuntu-latest
    steps: [{run: x}]
`)}}
	w, _, err := workflowgraph.Load(fsys, "w.yml")
	if err != nil || w == nil {
		t.Fatal(err)
	}
	g := Build("w.yml", w, config.Default().Classifier())
	gates := map[string]string{}
	for _, j := range g.Jobs {
		gates[j.ID] = j.Gate.Kind + ": " + j.Gate.Summary
	}
	want := map[string]string{
		"a":   "implicit: implicit success() (no needs)",
		"b":   "implicit: implicit success() over 1 ancestor",
		"gpu": "explicit: status check: !cancelled()",
		"t":   "always-true: always true: text around ${{ }}; effectively implicit success() over 3 ancestors",
	}
	for id, w := range want {
		if gates[id] != w {
			t.Errorf("%s: %q, want %q", id, gates[id], w)
		}
	}
	var b bytes.Buffer
	if err := Text(&b, []Workflow{g}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "gpu") || !strings.Contains(b.String(), "[GPU") {
		t.Errorf("text:\n%s", b.String())
	}
	for _, f := range []func(*bytes.Buffer) error{
		func(b *bytes.Buffer) error { return Mermaid(b, []Workflow{g}) },
		func(b *bytes.Buffer) error { return DOT(b, []Workflow{g}) },
	} {
		var out bytes.Buffer
		if err := f(&out); err != nil || !strings.Contains(out.String(), "gpu") {
			t.Errorf("output %q, %v", out.String(), err)
		}
	}
}
