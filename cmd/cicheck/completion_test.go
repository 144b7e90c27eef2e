package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestBashCompletion runs the generated script in bash: commands, verbs
// and the flags each command defines complete.
func TestBashCompletion(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	dir := t.TempDir()
	out, errs, code := runIn(t, dir, "completion", "bash")
	if code != exitOK || errs != "" {
		t.Fatalf("code %d: %s", code, errs)
	}
	script := filepath.Join(dir, "c.bash")
	if err := os.WriteFile(script, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ words, want string }{
		{"cicheck li", "lint"},
		{"cicheck lint --fo", "--format"},
		{"cicheck lint --stdin", "--stdin-filename"},
		{"cicheck registry se", "select"},
		{"cicheck registry select --lab", "--labels"},
		{"cicheck simulate w.yml --each", "--each-failure"},
		{"cicheck completion z", "zsh"},
	} {
		words := strings.Fields(c.words)
		sh := `source "$1"; COMP_WORDS=(` + c.words + `); COMP_CWORD=` + strconv.Itoa(len(words)-1) + `; _cicheck; echo "${COMPREPLY[*]}"`
		got, err := exec.Command(bash, "-c", sh, "bash", script).CombinedOutput()
		if err != nil || !strings.Contains(" "+strings.TrimSpace(string(got))+" ", " "+c.want+" ") {
			t.Errorf("%q: got %q (%v), want %s among them", c.words, got, err, c.want)
		}
	}
	for _, shell := range []string{"zsh", "fish"} {
		out, _, code := runIn(t, dir, "completion", shell)
		if code != exitOK || !strings.Contains(out, "cicheck") {
			t.Errorf("%s: code %d", shell, code)
		}
		if bin, err := exec.LookPath(shell); err == nil {
			p := filepath.Join(dir, "c."+shell)
			_ = os.WriteFile(p, []byte(out), 0o644)
			if msg, err := exec.Command(bin, "-n", p).CombinedOutput(); err != nil {
				t.Errorf("%s -n: %v: %s", shell, err, msg)
			}
		}
	}
	if _, errs, code := runIn(t, dir, "completion", "tcsh"); code != exitUsage || !strings.Contains(errs, `unknown shell "tcsh"`) {
		t.Errorf("tcsh: code %d %s", code, errs)
	}
}
