package workflowgraph

import (
	"strings"
	"testing"

	"github.com/rhysd/actionlint"
)

// TestStrings: every free-text value of a workflow, in source order, with
// its position; keys, comments and ids are not values.
func TestStrings(t *testing.T) {
	src := `name: wf
on:
  workflow_dispatch:
    inputs:
      level: {description: d, default: x, type: choice, options: [x, y]}
env: {A: a}
jobs:
  build:   # a comment
    name: b
    if: c
    runs-on: [self-hosted, h100]
    strategy:
      matrix: {gpu: [m1], include: [{gpu: m2}]}
    steps:
      - name: s
        run: r
        env: {B: e}
      - uses: u@v1
        with: {k: w}
  call:
    uses: ./w.yml
    with: {k2: w2}
`
	ast, errs := actionlint.Parse([]byte(src))
	if ast == nil {
		t.Fatal(errs)
	}
	var got []string
	for _, s := range Strings(ast) {
		got = append(got, s.Value)
		if s.Pos == nil || s.Pos.Line < 1 {
			t.Errorf("%q has no position", s.Value)
		}
	}
	want := "wf d x x y a b c self-hosted h100 m1 m2 s r e u@v1 w ./w.yml w2"
	if strings.Join(got, " ") != want {
		t.Errorf("got  %s\nwant %s", strings.Join(got, " "), want)
	}
	if Strings(nil) != nil {
		t.Error("Strings(nil) is not nil")
	}
}
