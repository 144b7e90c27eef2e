package lint

import (
	"bytes"
	"strings"
	"testing"

	"github.com/cicheck/cicheck/workflowgraph"
)

// TestStdinReadOnce: the second Text sees the same bytes although the
// stream is drained; an empty stream is empty text, not nil; a stream
// larger than a workflow may be is cut one byte past the limit.
func TestStdinReadOnce(t *testing.T) {
	s := NewStdin(strings.NewReader("on: push\n"))
	a, _ := s.Text()
	b, _ := s.Text()
	if string(a) != "on: push\n" || !bytes.Equal(a, b) {
		t.Errorf("got %q then %q", a, b)
	}
	if e, err := NewStdin(strings.NewReader("")).Text(); e == nil || err != nil {
		t.Errorf("empty stream: %v %v", e, err)
	}
	big := strings.NewReader(strings.Repeat("x", workflowgraph.MaxFileSize+10))
	if got, _ := NewStdin(big).Text(); len(got) != workflowgraph.MaxFileSize+1 {
		t.Errorf("read %d bytes of an oversized stream", len(got))
	}
}

// TestLintArgsStdin: "-" reads Options.Stdin; a Linter without one says so
// instead of failing on a nil stream; "-" with other paths is refused.
func TestLintArgsStdin(t *testing.T) {
	dir := t.TempDir()
	if _, err := New(Options{WorkingDir: dir}).LintArgs([]string{"-"}, "w.yml"); err == nil || !strings.Contains(err.Error(), "no input stream") {
		t.Errorf("no stream: %v", err)
	}
	res, err := New(Options{WorkingDir: dir, Stdin: NewStdin(strings.NewReader("on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps: [{run: echo}]\n"))}).LintArgs([]string{"-"}, "w.yml")
	if err != nil || len(res.Sources) != 1 {
		t.Errorf("stdin: %v %v", res, err)
	}
	if _, err := New(Options{WorkingDir: dir}).LintArgs([]string{"-", "x.yml"}, "w.yml"); err == nil {
		t.Error("- with another path accepted")
	}
}
