package checks

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cicheck/cicheck/finding"
	"github.com/cicheck/cicheck/workflowgraph"
)

// A job's lines run from its key down to the last line indented deeper
// than the key; blank lines and comments, even at column 1, do not end it.
// Findings without a job (actionlint's) get the job whose lines hold them:
// the last line of build is build's, the key line of test is test's, a
// line outside every job is nobody's, and a finding that has a job or no
// line keeps what it has.
func TestJobRangesNearMiss(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("testdata", "nearmiss", "job_ranges.yml"))
	if err != nil {
		t.Fatal(err)
	}
	w := loadSrc(t, string(src))
	lines, raw := splitLines(src), bytes.Split(src, []byte("\n"))
	for _, tt := range []struct {
		job        *workflowgraph.Job
		start, end int
	}{
		{w.Job("build"), 3, 8},
		{w.Job("test"), 9, 11},
		{&workflowgraph.Job{ID: "nowhere", Line: 0, Column: 3}, 0, 0},
		{&workflowgraph.Job{ID: "beyond", Line: 99, Column: 3}, 99, 99},
	} {
		if s, e := jobRange(lines, tt.job); s != tt.start || e != tt.end {
			t.Errorf("jobRange(%s) = %d..%d, want %d..%d", tt.job.ID, s, e, tt.start, tt.end)
		}
		if s, e := jobRange(raw, tt.job); s != tt.start || e != tt.end {
			t.Errorf("jobRange(%s) = %d..%d, want %d..%d", tt.job.ID, s, e, tt.start, tt.end)
		}
	}

	for _, tt := range []struct {
		name string
		in   []finding.Finding
		want string // job per finding
	}{
		{"boundaries", []finding.Finding{{Line: 2}, {Line: 3}, {Line: 6}, {Line: 8}, {Line: 9}, {Line: 11}, {Line: 13}}, ",build,build,build,test,test,"},
		{"kept", []finding.Finding{{Line: 4, Job: "other"}, {Line: 0}, {Line: 10}}, "other,,test"},
		{"only one to assign", []finding.Finding{{Line: 10}}, "test"},
	} {
		got := AssignJobs(src, w, append([]finding.Finding(nil), tt.in...))
		var jobs []string
		for _, f := range got {
			jobs = append(jobs, f.Job)
		}
		if strings.Join(jobs, ",") != tt.want {
			t.Errorf("%s: jobs %q, want %q", tt.name, strings.Join(jobs, ","), tt.want)
		}
	}
	if got := AssignJobs(src, nil, []finding.Finding{{Line: 4}}); got[0].Job != "" {
		t.Errorf("no workflow: %+v", got)
	}
}

// Near misses of inline suppressions: a comment covers its own line and
// the next code line (blank lines and comments between are skipped), not
// the line after that; on a job's key line it covers the whole job, down
// to its last line, for findings with or without a job; a line
// suppression never hides a finding elsewhere that has no job; a comment
// on the last line of the file covers nothing below it.
func TestSuppressionNearMiss(t *testing.T) {
	src := `on: push
jobs:
  build: # cicheck: ignore[gpu-gate] the build job is CPU-only on purpose
    runs-on: ubuntu-latest
    steps:
      - run: make
  test:
    runs-on: ubuntu-latest
    # cicheck: ignore[closure-bridge] tested by hand

    steps:
      - run: make test
      - run: make more
# cicheck: ignore[unknown-needs] nothing below
`
	w := loadSrc(t, src)
	fs := []finding.Finding{
		{Rule: "gpu-gate", Line: 6},               // build's last line, no job: hidden
		{Rule: "gpu-gate", Line: 4, Job: "build"}, // build: hidden
		{Rule: "gpu-gate", Line: 8, Job: "test"},  // test: kept
		{Rule: "closure-bridge", Line: 11},        // next code line after a blank: hidden
		{Rule: "closure-bridge", Line: 12},        // the line after that: kept
		{Rule: "closure-bridge", Line: 13},        // no job, elsewhere: kept
		{Rule: "unknown-needs", Line: 2, Job: ""}, // above the comment: kept
	}
	got := ApplySuppressions("w.yml", []byte(src), w, fs)
	var out []string
	for _, f := range got {
		out = append(out, f.Rule+"@"+itoa(f.Line)+" "+f.Message)
	}
	want := []string{
		"gpu-gate@8 ",
		"closure-bridge@12 ",
		"closure-bridge@13 ",
		"unknown-needs@2 ",
		"unused-suppression@14 suppression of [unknown-needs] matches no finding on this line or the next; remove it",
	}
	if strings.Join(out, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(out, "\n"), strings.Join(want, "\n"))
	}
	// An unused job-level suppression names the job.
	got = ApplySuppressions("w.yml", []byte(src), w, nil)
	if len(got) == 0 || got[0].Message != `suppression of [gpu-gate] matches no finding on job "build"; remove it` {
		t.Errorf("unused job suppression: %+v", got)
	}
}

// TestBlankFrom: a line is blank past its indentation when only
// whitespace (a CRLF's \r included) follows; anything else is content.
func TestBlankFrom(t *testing.T) {
	for _, c := range []struct {
		ln   string
		k    int
		want bool
	}{
		{"", 0, true}, {"    ", 4, true}, {"  \r", 2, true}, {"\t\v\f ", 0, true},
		{"  x", 2, false}, {"  #", 2, false}, {"  \rx", 2, false}, {"x  ", 1, true},
	} {
		if got := blankFrom(c.ln, c.k); got != c.want {
			t.Errorf("blankFrom(%q, %d) = %v, want %v", c.ln, c.k, got, c.want)
		}
		if got := blankFrom([]byte(c.ln), c.k); got != c.want {
			t.Errorf("blankFrom([]byte(%q), %d) = %v, want %v", c.ln, c.k, got, c.want)
		}
	}
}

// TestAssignJobsFirstMatch: the binary search gives every line the first
// job (in file order) whose lines hold it, as a scan of the jobs would,
// for block jobs and for jobs written on one line of a flow mapping.
func TestAssignJobsFirstMatch(t *testing.T) {
	for _, src := range []string{
		"on: push\njobs:\n  a:\n    runs-on: x\n\n# c\n    steps: [{run: x}]\n  b: {runs-on: x, steps: [{run: x}]}\n  c:\n    runs-on: x\n    steps:\n      - run: x\nenv: {}\n",
		"on: push\njobs: {a: {runs-on: x, steps: [{run: x}]}, b: {runs-on: x, steps: [{run: x}]}}\n",
		"on: push\njobs: {a: {runs-on: x, steps: [{run: x}]},\n  b: {runs-on: x,\n    steps: [{run: x}]}, c: {runs-on: x, steps: [{run: x}]}}\n",
	} {
		w := loadSrc(t, src)
		raw := bytes.Split([]byte(src), []byte("\n"))
		for line := 0; line <= len(raw)+1; line++ {
			want := ""
			for _, j := range w.Jobs {
				if s, e := jobRange(raw, j); line > 0 && line >= s && line <= e {
					want = j.ID
					break
				}
			}
			if got := AssignJobs([]byte(src), w, []finding.Finding{{Line: line}})[0].Job; got != want {
				t.Errorf("line %d: job %q, want %q\n%s", line, got, want, src)
			}
		}
	}
}
