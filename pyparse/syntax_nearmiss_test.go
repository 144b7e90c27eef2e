package pyparse

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"testing"
)

var newerMsg = regexp.MustCompile(` requires Python 3\.\d+ or newer \(`)

// TestSyntaxNearMissCPython replays testdata/syntax-nearmiss.json: short
// sources with CPython 3.11's verdict (compile(src, "f", "exec"): "" or
// the SyntaxError's msg). They are one- or two-token edits of valid
// statements, drawn at random and kept because a one-token change in the
// scanner (found by tools/mutate) turns cicheck's verdict on them, and
// the shapes of later fixes with their near misses (a typo in a
// decorated def that leaves a bracket open, a call whose closing bracket
// became an opening one, a parameter list left open after a default).
func TestSyntaxNearMissCPython(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "syntax-nearmiss.json"))
	if err != nil {
		t.Fatal(err)
	}
	var cases [][2]string
	if err := json.Unmarshal(data, &cases); err != nil {
		t.Fatal(err)
	}
	if len(cases) == 0 {
		t.Fatal("no cases")
	}
	for _, c := range cases {
		_, err := lexLinesFor(c[0], 11, true, nil)
		got := ""
		var se *SyntaxError
		if errors.As(err, &se) {
			got = se.Msg
		} else if err != nil {
			got = err.Error()
		}
		// Grammar newer than 3.11 gets cicheck's own message naming it;
		// it agrees with any syntax error (as in TestDifferentialCPython).
		if got != c[1] && !(c[1] != "" && newerMsg.MatchString(got)) {
			t.Errorf("%q: %q, CPython 3.11 says %q", c[0], got, c[1])
		}
	}
}
