package cli

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
)

func code(err error) int { return (&App{Name: "t"}).Report(&Env{Stderr: io.Discard}, err) }

func TestWrote(t *testing.T) {
	for _, c := range []struct {
		err    error
		failed bool
		want   int
	}{
		{nil, false, ExitOK},
		{nil, true, ExitFindings},
		{errors.New("disk full"), false, ExitInternal},
		{errors.New("disk full"), true, ExitInternal}, // a write error wins over findings
	} {
		if got := code(Wrote(c.err, c.failed)); got != c.want {
			t.Errorf("Wrote(%v, %v): exit %d, want %d", c.err, c.failed, got, c.want)
		}
	}
}

// TestReportEscapes: an error quoting a hostile file name is printed with
// its control characters spelled out, on lines that start no workflow
// command.
func TestReportEscapes(t *testing.T) {
	var b bytes.Buffer
	(&App{Name: "p"}).Report(&Env{Stderr: &b}, fmt.Errorf("%s: cannot read", "x\x1b[2J\n::error::y\u202e.yml"))
	if got, want := b.String(), "p: x\\x1b[2J\n\\x3a:error::y\\u202e.yml: cannot read\n"; got != want {
		t.Errorf("Report printed %q, want %q", got, want)
	}
}

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("closed") }

func TestBuffered(t *testing.T) {
	var out bytes.Buffer
	err := Buffered(&out, func(w io.Writer) error {
		fmt.Fprint(w, "half a report")
		return errors.New("render failed")
	})
	if code(err) != ExitInternal || out.Len() != 0 {
		t.Errorf("render error: exit %d, wrote %q; want exit 3 and nothing written", code(err), out.String())
	}
	err = Buffered(&out, func(w io.Writer) error { _, err := io.WriteString(w, "report\n"); return err })
	if err != nil || out.String() != "report\n" {
		t.Errorf("success: %v, wrote %q", err, out.String())
	}
	if err := Buffered(failWriter{}, func(w io.Writer) error { return nil }); code(err) != ExitInternal {
		t.Errorf("output error: exit %d, want 3", code(err))
	}
}

type errReader struct{}

func (errReader) Read([]byte) (int, error) { return 0, errors.New("EIO") }

func TestReadStdin(t *testing.T) {
	e := &Env{Stdin: strings.NewReader("body")}
	if b, err := e.ReadStdin("comment"); err != nil || string(b) != "body" {
		t.Errorf("ReadStdin = %q, %v", b, err)
	}
	e = &Env{Stdin: errReader{}}
	_, err := e.ReadStdin("comment")
	if code(err) != ExitUsage || err.Error() != "<stdin>: cannot read the comment: EIO" {
		t.Errorf("read error: exit %d, %v", code(err), err)
	}
}

func TestKeyValues(t *testing.T) {
	m, err := KeyValues("set", []string{"a=1", "b=x=y", "a=2", "c="})
	if err != nil || len(m) != 3 || m["a"] != "2" || m["b"] != "x=y" || m["c"] != "" {
		t.Errorf("KeyValues = %v, %v", m, err)
	}
	for _, bad := range []string{"noequals", "=v"} {
		_, err := KeyValues("set", []string{"a=1", bad})
		if code(err) != ExitUsage || err.Error() != fmt.Sprintf("invalid --set %q (want KEY=VALUE)", bad) {
			t.Errorf("KeyValues(%q): exit %d, %v", bad, code(err), err)
		}
	}
}
