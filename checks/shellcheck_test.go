package checks

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

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

// TestShellcheckTimeoutWrapper: a shellcheck wrapper whose child outlives
// it (and keeps stdout open) must not stretch the timeout to the child's
// lifetime.
func TestShellcheckTimeoutWrapper(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the wrapper is a POSIX shell script")
	}
	if _, err := exec.LookPath("sleep"); err != nil {
		t.Skip("no sleep command")
	}
	exe := filepath.Join(t.TempDir(), "shellcheck")
	if err := os.WriteFile(exe, []byte("#!/bin/sh\nsleep 30\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	sc, err := NewShellcheck(exe)
	if err != nil {
		t.Fatal(err)
	}
	sc.timeout = 100 * time.Millisecond
	start := time.Now()
	_, msg := sc.run("echo $x\n", "bash")
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("run took %s with a 100ms timeout", d)
	}
	if !strings.Contains(msg, "timed out after 100ms") {
		t.Errorf("msg = %q", msg)
	}
}
