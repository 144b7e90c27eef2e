package checks

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/cicheck/cicheck/finding"
	"github.com/cicheck/cicheck/workflowgraph"
)

func TestSuppressions(t *testing.T) {
	src := `on: push
jobs:
  a: # cicheck: ignore[x] the whole job
    runs-on: ubuntu-latest
    steps:
      - run: one
  b:
    runs-on: ubuntu-latest # cicheck: ignore[y] same line
    # cicheck: ignore[z,y] line above, two rules
    steps:
      - run: two
    # cicheck: ignore[x]
    env: {}
    # cicheck: ignore[bad id] nope
    # cicheck: ignore oops
`
	w, _, err := workflowgraph.Load(fstest.MapFS{"w.yml": {Data: []byte(src)}}, "w.yml")
	if err != nil {
		t.Fatal(err)
	}
	fs := []finding.Finding{
		{File: "w.yml", Rule: "x", Line: 6, Severity: finding.Error},            // inside job a: hidden
		{File: "w.yml", Rule: "x", Line: 11, Severity: finding.Error, Job: "b"}, // job b: kept
		{File: "w.yml", Rule: "y", Line: 8, Severity: finding.Error},            // same line: hidden
		{File: "w.yml", Rule: "z", Line: 10, Severity: finding.Error},           // line below the comment: hidden
		{File: "w.yml", Rule: "q", Line: 8, Severity: finding.Error},            // other rule: kept
	}
	fs = AssignJobs([]byte(src), w, fs)
	got := ApplySuppressions("w.yml", []byte(src), w, fs)
	var lines []string
	for _, f := range finding.Sort(got) {
		lines = append(lines, f.Rule+"@"+itoa(f.Line)+" "+f.Message)
	}
	want := []string{
		"q@8 ",
		"unused-suppression@9 suppression of [y] names no rule ('cicheck rules' lists them); fix the id or remove it",
		"x@11 ",
		"bad-suppression@12 suppression of [x] has no reason: write # cicheck: ignore[x] <why this is fine>",
		"bad-suppression@14 malformed suppression: \"bad id\" is not a rule id",
		"bad-suppression@15 malformed suppression: write # cicheck: ignore[rule-id] reason",
	}
	if strings.Join(lines, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(lines, "\n"), strings.Join(want, "\n"))
	}
}

// TestSuppressionJobCase: a job-wide suppression matches the findings of
// its job whatever case their job id is in (GitHub compares ids
// case-insensitively; shellcheck and older paths wrote them lower-cased),
// and assigns findings without a job the key as written. The near miss: a
// finding of another job is kept.
func TestSuppressionJobCase(t *testing.T) {
	src := `on: push
jobs:
  GPU_Test: # cicheck: ignore[x] the whole job
    runs-on: ubuntu-latest
    steps:
      - run: one
  Other:
    runs-on: ubuntu-latest
    steps:
      - run: two
`
	w, _, err := workflowgraph.Load(fstest.MapFS{"w.yml": {Data: []byte(src)}}, "w.yml")
	if err != nil {
		t.Fatal(err)
	}
	fs := []finding.Finding{
		{File: "w.yml", Rule: "x", Line: 20, Severity: finding.Error, Job: "gpu_test"}, // outside the span, by job: hidden
		{File: "w.yml", Rule: "x", Line: 10, Severity: finding.Error},                  // in Other: kept
	}
	fs = AssignJobs([]byte(src), w, fs)
	got := ApplySuppressions("w.yml", []byte(src), w, fs)
	if len(got) != 1 || got[0].Job != "Other" || got[0].Line != 10 {
		t.Errorf("got %+v", got)
	}
}

// FuzzRulesAndSuppressions: cicheck's rules, job assignment and
// suppressions never panic on any workflow that loads.
func FuzzRulesAndSuppressions(f *testing.F) {
	for _, r := range All() {
		f.Add([]byte(r.Bad))
		f.Add([]byte(r.Good))
	}
	f.Add([]byte("on: push\njobs:\n  a: # cicheck: ignore[unknown-needs] why\n    needs: [x, y]\n    runs-on: x\n    steps: [{run: a}]\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		w, _, err := workflowgraph.Load(fstest.MapFS{"w.yml": {Data: src}}, "w.yml")
		if err != nil || w == nil {
			return
		}
		fs := Run(w, "w.yml", nil, nil)
		fs = AssignJobs(src, w, fs)
		ApplySuppressions("w.yml", src, w, fs)
	})
}
