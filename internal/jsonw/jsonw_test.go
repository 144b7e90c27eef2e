package jsonw

import (
	"bytes"
	"testing"
)

func TestWriteKeepsOperators(t *testing.T) {
	var b bytes.Buffer
	if err := Write(&b, map[string]string{"if": "a && b < c > d"}); err != nil {
		t.Fatal(err)
	}
	if want := "{\n  \"if\": \"a && b < c > d\"\n}\n"; b.String() != want {
		t.Errorf("got %q, want %q", b.String(), want)
	}
}
