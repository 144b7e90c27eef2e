// Package jsonw writes cicheck's JSON documents one way: indented by two
// spaces, a trailing newline, and workflow text kept as written ("a && b",
// "x < y"), not HTML-escaped (encoding/json's default writes & as \u0026).
package jsonw

import (
	"bytes"
	"encoding/json"
	"io"
)

// Write encodes v to w, indented, with &, < and > kept literally.
func Write(w io.Writer, v any) error {
	b, err := Marshal(v)
	if err != nil {
		return err
	}
	_, err = w.Write(b)
	return err
}

// Marshal is Write into a byte slice (ending in a newline).
func Marshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
