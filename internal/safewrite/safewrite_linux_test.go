package safewrite

import (
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestReplaceFailedWrite: a write that fails (here the file-size limit,
// as on a full disk) leaves the original whole and no temporary file. The
// limit is set in a child process.
func TestReplaceFailedWrite(t *testing.T) {
	if dir := os.Getenv("SAFEWRITE_CHILD"); dir != "" {
		signal.Ignore(syscall.SIGXFSZ)
		if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &syscall.Rlimit{Cur: 8, Max: 8}); err != nil {
			os.Exit(3)
		}
		p := filepath.Join(dir, "w.yml")
		if err := Replace(dir, p, []byte("old text"), []byte(strings.Repeat("new text ", 100)), 1<<20); err == nil {
			os.Exit(4)
		}
		os.Exit(0)
	}
	dir := t.TempDir()
	p := filepath.Join(dir, "w.yml")
	write(t, p, "old text", 0o644)
	cmd := exec.Command(os.Args[0], "-test.run=^TestReplaceFailedWrite$")
	cmd.Env = append(os.Environ(), "SAFEWRITE_CHILD="+dir)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("child: %v\n%s", err, out)
	}
	if got := read(t, p); got != "old text" {
		t.Errorf("original damaged: %q", got)
	}
	noTemp(t, dir)
}
