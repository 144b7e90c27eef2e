package config

import "testing"

func TestKeyPos(t *testing.T) {
	doc := []byte("registry:\n  roots: [a]\n  labels:\n    file: x.py\nscope: {}\n")
	for _, c := range []struct {
		path      string
		line, col int
	}{
		{"registry.roots", 2, 3},
		{"registry.labels.file", 4, 5},
		{"registry.missing", 1, 1}, // the deepest key found
		{"scope", 5, 1},
		{"nothing", 0, 0},
	} {
		if l, col := KeyPos(doc, c.path); l != c.line || col != c.col {
			t.Errorf("%s: %d:%d, want %d:%d", c.path, l, col, c.line, c.col)
		}
	}
	if l, _ := KeyPos([]byte(": not yaml ["), "a"); l != 0 {
		t.Errorf("bad YAML: line %d", l)
	}
}
