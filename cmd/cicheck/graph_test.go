package main

import (
	"bytes"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cicheck/cicheck/workflowgraph/render"
)

// TestGraphDOTRendersWithGraphviz feeds the DOT output, including awkward
// ids, quotes and backslashes, to Graphviz.
func TestGraphDOTRendersWithGraphviz(t *testing.T) {
	dot, err := exec.LookPath("dot")
	if err != nil {
		t.Skip("graphviz `dot` is not installed (apt-get install graphviz); skipping the DOT rendering check")
	}
	root, _ := filepath.Abs("../..")
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, ".github/workflows/odd.yml"), `name: "odd \"names\""
on: push
jobs:
  "a\\b":
    runs-on: ${{ needs.x.outputs.runner }}
    steps: [{run: "true"}]
  c-d:
    needs: ["a\\b"]
    if: github.ref == 'refs/heads/"main"'
    runs-on: [self-hosted, h100]
    steps: [{run: "true"}]
  loop1: {needs: loop2, runs-on: x, steps: [{run: "true"}]}
  loop2: {needs: loop1, runs-on: x, steps: [{run: "true"}]}
`)
	for _, c := range []struct{ wd, arg string }{{root, "fixtures/nightly-gpu"}, {dir, "."}} {
		out, errs, code := runIn(t, c.wd, "graph", "--format", "dot", c.arg)
		if code != exitOK {
			t.Fatalf("graph %s: code %d: %s", c.arg, code, errs)
		}
		cmd := exec.Command(dot, "-Tsvg")
		cmd.Stdin = strings.NewReader(out)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		svg, err := cmd.Output()
		if err != nil || !bytes.Contains(svg, []byte("<svg")) || stderr.Len() > 0 {
			t.Fatalf("dot rejected the output of %s: %v\n%s\n%s", c.arg, err, stderr.String(), out)
		}
	}
}

func TestGraphJSON(t *testing.T) {
	root, _ := filepath.Abs("../..")
	out, errs, code := runIn(t, root, "graph", "--format", "json", "fixtures/nightly-gpu/.github/workflows/nightly.yml")
	if code != exitOK {
		t.Fatalf("code %d: %s", code, errs)
	}
	var doc render.Doc
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Version != 1 || len(doc.Workflows) != 1 {
		t.Fatalf("doc %+v", doc)
	}
	jobs := map[string]render.Job{}
	for _, j := range doc.Workflows[0].Jobs {
		jobs[j.ID] = j
	}
	ri := jobs["resolve-image"]
	if ri.Gate.Kind != "implicit" || ri.Gate.Ancestors != 3 || ri.GPU {
		t.Errorf("resolve-image %+v", ri)
	}
	e2e := jobs["gpu-e2e"]
	if !e2e.GPU || e2e.Callee == nil || len(e2e.Callee.Jobs) != 1 || strings.Join(e2e.Callee.Jobs[0].Runner.Labels, ",") != "8gpu,h200,self-hosted" {
		t.Errorf("gpu-e2e %+v", e2e)
	}
	if g := jobs["build-image"].Gate; g.Kind != "explicit" || strings.Join(g.StatusFunctions, ",") != "always,cancelled" {
		t.Errorf("build-image gate %+v", g)
	}
}
