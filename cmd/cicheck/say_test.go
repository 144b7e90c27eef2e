package main

import (
	"strings"
	"testing"
)

// TestSay: a note naming a hostile file is printed escaped.
func TestSay(t *testing.T) {
	var b strings.Builder
	say(&b, "cicheck: %s\n", "x\x1b[2J\n::error::y\u202e.yml: skipped")
	if got, want := b.String(), "cicheck: x\\x1b[2J\n\\x3a:error::y\\u202e.yml: skipped\n"; got != want {
		t.Errorf("say printed %q, want %q", got, want)
	}
}
