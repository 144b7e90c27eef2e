package checks

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/cicheck/cicheck/finding"
	"github.com/cicheck/cicheck/workflowgraph"
)

func loadSrc(t *testing.T, src string) *workflowgraph.Workflow {
	t.Helper()
	w, _, err := workflowgraph.Load(fstest.MapFS{"w.yml": {Data: []byte(src)}}, "w.yml")
	if err != nil || w == nil {
		t.Fatalf("load: %v", err)
	}
	return w
}

func render(fs []finding.Finding) string {
	var b strings.Builder
	for _, f := range fs {
		b.WriteString(f.File + ":" + itoa(f.Line) + ":" + itoa(f.Column) + ": " + f.Severity.String() + " [" + f.Rule + "] " + f.Message + " job=" + f.Job + " fix=" + f.Fix + "\n")
	}
	return b.String()
}

func itoa(i int) string { return strconv.Itoa(i) }

func TestRules(t *testing.T) {
	cases := []struct{ name, src, want string }{
		{"unknown-needs", `on: push
jobs:
  build: {runs-on: x, steps: [{run: a}]}
  test:
    needs: [Biuld]
    runs-on: x
    steps: [{run: a}]
`, "w.yml:5:13: error [unknown-needs] job \"test\" needs job \"Biuld\", which does not exist in this workflow job=test fix=needs: build\n"},
		{"cycle", `on: push
jobs:
  a: {needs: c, runs-on: x, steps: [{run: a}]}
  b: {needs: a, runs-on: x, steps: [{run: a}]}
  c: {needs: b, runs-on: x, steps: [{run: a}]}
`, "w.yml:3:3: error [needs-cycle] needs cycle: \"a\" needs \"c\", \"c\" needs \"b\", \"b\" needs \"a\"; GitHub rejects the workflow and runs no job job=a fix=\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := render(Run(loadSrc(t, c.src), "", nil, nil))
			if got != c.want {
				t.Errorf("got\n%s\nwant\n%s", got, c.want)
			}
		})
	}
}

func TestRuleExamples(t *testing.T) {
	for _, r := range All() {
		if r.ID == "" || r.Doc == "" || r.Help == "" || r.Bad == "" || r.Good == "" || r.Run == nil {
			t.Errorf("rule %q is missing metadata", r.ID)
			continue
		}
		if fs := Run(loadSrc(t, r.Bad), "", nil, []*Rule{r}); len(fs) == 0 {
			t.Errorf("%s: Bad example reports nothing", r.ID)
		}
		if fs := Run(loadSrc(t, r.Good), "", nil, []*Rule{r}); len(fs) != 0 {
			t.Errorf("%s: Good example reports %v", r.ID, fs)
		}
	}
}

func TestActionlintAdapter(t *testing.T) {
	dir := t.TempDir()
	wf := filepath.Join(dir, ".github", "workflows")
	if err := os.MkdirAll(wf, 0o755); err != nil {
		t.Fatal(err)
	}
	src := []byte(`on: push
jobs:
  a:
    needs: nope
    runs-on: ubuntu-latest
    steps:
      - run: echo ${{ github.event.nope.x }}
      - uses: actions/checkout@v1
`)
	p := filepath.Join(wf, "ci.yml")
	if err := os.WriteFile(p, src, 0o644); err != nil {
		t.Fatal(err)
	}
	l, err := NewLinter(LinterOptions{WorkingDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	fs, ast, err := l.Lint(p, dir, ".github/workflows/ci.yml", src)
	if err != nil || ast == nil {
		t.Fatalf("err=%v ast=%v", err, ast)
	}
	for _, f := range fs {
		if f.Rule == "job-needs" {
			t.Errorf("job-needs not replaced: %v", f)
		}
		if f.File != ".github/workflows/ci.yml" {
			t.Errorf("file %q", f.File)
		}
	}
	if len(fs) == 0 {
		t.Error("no findings")
	}
	if got := sourceLine(src, 3); got != "  a:" {
		t.Errorf("sourceLine = %q", got)
	}
}
