package checks

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/rhysd/actionlint"
)

func TestShellcheck(t *testing.T) {
	if _, err := exec.LookPath("shellcheck"); err != nil {
		t.Skip("shellcheck is not installed; skipping the --shellcheck runner test")
	}
	sc, err := NewShellcheck("shellcheck")
	if err != nil {
		t.Fatal(err)
	}
	// A script over 64 KiB: actionlint's own integration deadlocks on it.
	big := strings.Repeat("          # "+strings.Repeat("x", 200)+"\n", 350)
	src := "on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: |\n          cd $DIR\n" + big +
		"      - shell: python\n        run: print(1)\n"
	w, errs := actionlint.Parse([]byte(src))
	if w == nil {
		t.Fatalf("parse: %v", errs)
	}
	fs := sc.Check("w.yml", []byte(src), w)
	var got []string
	for _, f := range fs {
		got = append(got, f.Rule+"@"+itoa(f.Line)+":"+itoa(f.Column)+" "+f.Message)
	}
	want := "shellcheck@7:14 SC2086: Double quote to prevent globbing and word splitting"
	if len(got) == 0 || !strings.Contains(strings.Join(got, "\n"), want) {
		t.Errorf("got %q, want %q among them", got, want)
	}
}
