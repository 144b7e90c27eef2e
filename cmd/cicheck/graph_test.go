package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os/exec"
	"path/filepath"
	"regexp"
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

// sixtyJobs is a generated pull-request workflow of 60 jobs, most of them
// independent (the shape that used to draw as one row): 2 setup jobs, 46
// tests needing one of them or nothing, GPU and heavy ones among them, 10
// jobs gathering a few tests each and a final gate over those.
func sixtyJobs() string {
	var b strings.Builder
	b.WriteString("on: pull_request\njobs:\n")
	b.WriteString("  changes: {runs-on: ubuntu-latest, steps: [{run: x}]}\n  lint: {runs-on: ubuntu-latest, steps: [{run: x}]}\n")
	for i := range 46 {
		runner := "ubuntu-latest"
		switch i % 5 {
		case 1:
			runner = "[self-hosted, h100]"
		case 2:
			runner = "[self-hosted, linux.24xlarge]"
		}
		needs := ""
		if i%3 == 0 {
			needs = "needs: changes, "
		}
		fmt.Fprintf(&b, "  test-%02d: {%sruns-on: %s, steps: [{run: x}]}\n", i, needs, runner)
	}
	var gathers []string
	for i := range 11 {
		fmt.Fprintf(&b, "  gather-%d:\n    needs: [test-%02d, test-%02d, test-%02d]\n    if: ${{ always() && !cancelled() }}\n    runs-on: ubuntu-latest\n    steps: [{run: x}]\n", i, i*4, i*4+1, i*4+2)
		gathers = append(gathers, fmt.Sprintf("gather-%d", i))
	}
	fmt.Fprintf(&b, "  all-green: {needs: [%s], runs-on: ubuntu-latest, steps: [{run: x}]}\n", strings.Join(gathers, ", "))
	return b.String()
}

// TestGraphDOTAspectRatio lays a 60-job workflow out with Graphviz: the
// picture is at most four times as wide as it is high, and has the legend.
func TestGraphDOTAspectRatio(t *testing.T) {
	dot, err := exec.LookPath("dot")
	if err != nil {
		t.Skip("graphviz `dot` is not installed (apt-get install graphviz); skipping the layout check")
	}
	dir := t.TempDir()
	src := sixtyJobs()
	if n := strings.Count(src, "\n  ") - strings.Count(src, "\n    "); n != 60 {
		t.Fatalf("generated %d jobs, want 60", n)
	}
	writeFile(t, filepath.Join(dir, ".github/workflows/pr.yml"), src)
	out, errs, code := runIn(t, dir, "graph", "--format", "dot")
	if code != exitOK {
		t.Fatalf("code %d: %s", code, errs)
	}
	cmd := exec.Command(dot, "-Tplain")
	cmd.Stdin = strings.NewReader(out)
	plain, err := cmd.Output()
	if err != nil {
		t.Fatalf("dot: %v", err)
	}
	// -Tplain: "graph scale width height", then "node name x y w h label ...".
	var scale, width, height float64
	if _, err := fmt.Sscanf(string(plain), "graph %g %g %g", &scale, &width, &height); err != nil || height == 0 {
		t.Fatalf("no graph line (%v):\n%.200s", err, plain)
	}
	if r := width / height; r >= 4 {
		t.Errorf("the picture is %.1f x %.1f in, %.2f:1; want under 4:1", width, height, r)
	} else {
		t.Logf("the picture is %.1f x %.1f in, %.2f:1", width, height, r)
	}
	for _, entry := range []string{"GPU", "heavy", "GPU + heavy", "never runs (proven)", "implicit success() gate", "explicit status check"} {
		// A label is quoted when it has to be.
		if !regexp.MustCompile(`(?m)^node legend\d+ \S+ \S+ \S+ \S+ "?` + regexp.QuoteMeta(entry) + `"? `).Match(plain) {
			t.Errorf("the legend lacks %s", entry)
		}
	}
	if n := regexp.MustCompile(`(?m)^node j\d+ `).FindAll(plain, -1); len(n) != 60 {
		t.Errorf("%d jobs drawn, want 60", len(n))
	}
}
