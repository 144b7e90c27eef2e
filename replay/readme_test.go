package replay

import (
	"os"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
)

// TestReadmeExample: README's replay example is the output the CLI
// testscript checks (testdata/replay_seed002.txtar's want-text.txt), from
// the same command, up to the "..." where README stops.
func TestReadmeExample(t *testing.T) {
	b, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(b), "<!-- example: replay -->\n")
	if !ok {
		t.Fatal("README.md has no <!-- example: replay --> block")
	}
	var block []string
	for _, l := range strings.Split(rest, "\n") {
		if l != "" && !strings.HasPrefix(l, "    ") {
			break
		}
		block = append(block, strings.TrimPrefix(l, "    "))
	}
	for len(block) > 0 && block[len(block)-1] == "" {
		block = block[:len(block)-1]
	}
	if len(block) < 3 || !strings.HasPrefix(block[0], "$ cicheck replay") || block[len(block)-1] != "..." {
		t.Fatalf("README example: want a $ cicheck replay line, output and ..., got %q", block)
	}
	ar, err := txtar.ParseFile("../cmd/cicheck/testdata/replay_seed002.txtar")
	if err != nil {
		t.Fatal(err)
	}
	if cmd := "exec " + strings.TrimPrefix(block[0], "$ ") + "\ncmp stdout ../want-text.txt\n"; !strings.Contains(string(ar.Comment), cmd) {
		t.Errorf("the testscript does not check %q", cmd)
	}
	var want string
	for _, f := range ar.Files {
		if f.Name == "want-text.txt" {
			want = string(f.Data)
		}
	}
	lines := strings.Split(want, "\n")
	shown := block[1 : len(block)-1]
	if len(shown) > len(lines) {
		t.Fatalf("README shows %d lines, the testscript %d", len(shown), len(lines))
	}
	for i, l := range shown {
		if l != lines[i] {
			t.Errorf("README line %d:\n%q\nwant-text.txt:\n%q", i+1, l, lines[i])
		}
	}
}
