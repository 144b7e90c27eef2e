package render

import (
	"bytes"
	"fmt"
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

func load(t *testing.T, src string) *workflowgraph.Workflow {
	t.Helper()
	w, _, err := workflowgraph.Load(fstest.MapFS{"w.yml": {Data: []byte(src)}}, "w.yml")
	if err != nil || w == nil {
		t.Fatal(err)
	}
	return w
}

func write(t *testing.T, format string, g Workflow) string {
	t.Helper()
	var b bytes.Buffer
	if err := Write(&b, format, []Workflow{g}); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

const neverSrc = `on:
  push:
    branches: [main]
jobs:
  build: {runs-on: ubuntu-latest, steps: [{run: make}]}
  nightly:
    needs: build
    if: github.event_name == 'schedule'
    runs-on: [self-hosted, h100]
    steps: [{run: pytest}]
  report: {needs: nightly, runs-on: ubuntu-latest, steps: [{run: "true"}]}
  main-only:
    needs: build
    if: github.ref == 'refs/heads/main' && github.event_name == 'push'
    runs-on: ubuntu-latest
    steps: [{run: "true"}]
  after:
    needs: nightly
    if: ${{ always() && !cancelled() }}
    runs-on: ubuntu-latest
    steps: [{run: "true"}]
`

// TestNeverRunsMarked: a job reach proves never runs, and a job below it
// that needs its success, are marked in every format; a job whose
// condition can hold (main-only, on a push to main) and one that runs
// whatever its needs did (after) are not.
func TestNeverRunsMarked(t *testing.T) {
	g := Build("w.yml", load(t, neverSrc), config.Default().Classifier())
	got := map[string]string{}
	for _, j := range g.Jobs {
		got[j.ID] = j.NeverRuns
	}
	want := map[string]string{
		"build":     "",
		"nightly":   "its if: is false on every trigger (push (branches: main))",
		"report":    "nightly never runs",
		"main-only": "",
		"after":     "",
	}
	for id, w := range want {
		if got[id] != w {
			t.Errorf("%s: never runs %q, want %q", id, got[id], w)
		}
	}
	text := write(t, "text", g)
	if !strings.Contains(text, "  nightly [GPU, heavy]\n") || !strings.Contains(text, "    never runs: nightly never runs\n") {
		t.Errorf("text:\n%s", text)
	}
	if strings.Count(text, "never runs:") != 2 {
		t.Errorf("text marks %d jobs, want 2:\n%s", strings.Count(text, "never runs:"), text)
	}
	js := write(t, "json", g)
	if strings.Count(js, `"never_runs"`) != 2 || !strings.Contains(js, `"never_runs": "nightly never runs"`) {
		t.Errorf("json:\n%s", js)
	}
	dot := write(t, "dot", g)
	for _, l := range strings.Split(dot, "\n") {
		dashed := strings.Contains(l, `style="rounded,filled,dashed", fillcolor="#f6f8fa"`)
		switch {
		case strings.Contains(l, `label="nightly `), strings.Contains(l, `label="report\n`), strings.Contains(l, `label="never runs (proven)"`):
			if !dashed {
				t.Errorf("not drawn as never running: %s", l)
			}
		case strings.Contains(l, "label="):
			if dashed {
				t.Errorf("drawn as never running: %s", l)
			}
		}
	}
	mmd := write(t, "mermaid", g)
	if !strings.Contains(mmd, "  class legend3,j1,j2 never\n") {
		t.Errorf("mermaid:\n%s", mmd)
	}
}

// TestGateLabels: a gate label says what the condition is.
func TestGateLabels(t *testing.T) {
	g := Build("w.yml", load(t, neverSrc), config.Default().Classifier())
	var after Job
	for _, j := range g.Jobs {
		if j.ID == "after" {
			after = j
		}
	}
	if after.Gate.Summary != "status check: always() && !cancelled()" {
		t.Errorf("summary %q", after.Gate.Summary)
	}
	mmd := write(t, "mermaid", g)
	if !strings.Contains(mmd, `{{"after<br/>status check: always() #amp;#amp; !cancelled()<br/>`) {
		t.Errorf("mermaid:\n%s", mmd)
	}
}

// TestJSONKeepsAmpersands: conditions in the graph's JSON are as written.
func TestJSONKeepsAmpersands(t *testing.T) {
	js := write(t, "json", Build("w.yml", load(t, neverSrc), config.Default().Classifier()))
	if !strings.Contains(js, `"condition": "${{ always() && !cancelled() }}"`) || strings.Contains(js, `\u0026`) {
		t.Errorf("json:\n%s", js)
	}
}

// TestLegend: both pictures carry the same legend, in the same colours.
func TestLegend(t *testing.T) {
	g := Build("w.yml", load(t, neverSrc), config.Default().Classifier())
	mmd, dot := write(t, "mermaid", g), write(t, "dot", g)
	for _, entry := range []string{"GPU", "heavy", "GPU + heavy", "never runs (proven)", "implicit success() gate", "explicit status check"} {
		if !strings.Contains(mmd, `("`+entry+`")`) && !strings.Contains(mmd, `{{"`+entry+`"}}`) {
			t.Errorf("mermaid legend lacks %q", entry)
		}
		if !strings.Contains(dot, `[label="`+entry+`", `) {
			t.Errorf("dot legend lacks %q", entry)
		}
	}
	// GPU + heavy is one colour in both.
	if !strings.Contains(mmd, "classDef gpuheavy fill:"+lookGPUHeavy.fill) || !strings.Contains(dot, `label="GPU + heavy", shape=box, style="rounded,filled", fillcolor="`+lookGPUHeavy.fill) {
		t.Errorf("GPU + heavy colours differ:\n%s\n%s", mmd, dot)
	}
	if !strings.Contains(dot, "rankdir=TB") || !strings.HasPrefix(mmd, "flowchart TD\n") {
		t.Error("not top-down")
	}
	var s bytes.Buffer
	if err := MermaidScenario(&s, []Node{{ID: "a", Lines: []string{"a"}, State: Skip}, {ID: "b", Lines: []string{"b"}, State: Unknown, GPU: true, Needs: []string{"a"}}}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`legend4("skipped in this scenario")`, `legend5("undecided in this scenario")`, "class legend4,j0 skip\n", "class j1 gpu_unknown\n"} {
		if !strings.Contains(s.String(), want) {
			t.Errorf("scenario picture lacks %q:\n%s", want, s.String())
		}
	}
	if strings.Contains(s.String(), "never runs") {
		t.Errorf("scenario picture has the never-runs entry:\n%s", s.String())
	}
}

// TestLayering: jobs are ranked by dependency depth, a wide depth wrapped
// into rows of rowMax, and each row sits below the one before.
func TestLayering(t *testing.T) {
	var src strings.Builder
	src.WriteString("on: push\njobs:\n")
	var all []string
	for i := range 14 {
		fmt.Fprintf(&src, "  t%02d: {runs-on: x, steps: [{run: x}]}\n", i)
		all = append(all, fmt.Sprintf("t%02d", i))
	}
	fmt.Fprintf(&src, "  mid: {needs: t00, runs-on: x, steps: [{run: x}]}\n")
	fmt.Fprintf(&src, "  last: {needs: [mid, %s], runs-on: x, steps: [{run: x}]}\n", strings.Join(all, ", "))
	g := Build("w.yml", load(t, src.String()), config.Default().Classifier())
	p := pictureOf([]Workflow{g})
	var rows []string
	for _, row := range p.groups[0].layer() {
		var ids []string
		for _, n := range row {
			ids = append(ids, fmt.Sprintf("%s@%d", n.ID, n.depth))
		}
		rows = append(rows, strings.Join(ids, " "))
	}
	want := []string{
		"t00@0 t01@0 t02@0 t03@0 t04@0 t05@0",
		"t06@0 t07@0 t08@0 t09@0 t10@0 t11@0",
		"t12@0 t13@0",
		"mid@1",
		"last@2",
	}
	if strings.Join(rows, "\n") != strings.Join(want, "\n") {
		t.Errorf("rows:\n%s\nwant:\n%s", strings.Join(rows, "\n"), strings.Join(want, "\n"))
	}
	dot := write(t, "dot", g)
	for _, want := range []string{
		"{ rank=same; j0; j1; j2; j3; j4; j5; }", "{ rank=same; j12; j13; }", "{ rank=same; j15; }",
		"j0 -> j6 [style=invis];", "j6 -> j12 [style=invis];", "j12 -> j14 [style=invis];",
	} {
		if !strings.Contains(dot, want) {
			t.Errorf("dot lacks %q:\n%s", want, dot)
		}
	}
	mmd := write(t, "mermaid", g)
	// Every job of the second row hangs below one of the first; mid,
	// needing t00 two rows up, below the third row; last needs mid.
	for _, want := range []string{"j0 ~~~ j6\n", "j5 ~~~ j11\n", "j6 ~~~ j12\n", "j12 ~~~ j14\n", "j14 --> j15\n"} {
		if !strings.Contains(mmd, want) {
			t.Errorf("mermaid lacks %q:\n%s", want, mmd)
		}
	}
	if strings.Contains(mmd, "~~~ j15") {
		t.Errorf("last needs mid in the row above; no invisible link wanted:\n%s", mmd)
	}
}

func TestWrap(t *testing.T) {
	for _, c := range []struct {
		in   string
		want string
	}{
		{"short", "short"},
		{"status check: !cancelled() && needs.pre-commit.result == 'success'", "status check: !cancelled() &&|needs.pre-commit.result == 'success'"},
		{"&& !contains(github.event.pull_request.labels.*.name, 'x')", "&& !contains(github.event.pull_request.labels.*.name,|'x')"},
	} {
		if got := strings.Join(wrap(c.in, wrapAt), "|"); got != c.want {
			t.Errorf("wrap(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
