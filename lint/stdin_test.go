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
