package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cicheck/cicheck/internal/cli"
	"github.com/cicheck/cicheck/testregistry"
)

// TestRegistryOutsideSymlinkNotPrinted: a test file symlinked to a file
// outside the repository (today /etc/passwd's first line was printed as
// the source excerpt of its finding) is reported, and nothing of its
// content reaches the text report, through 'registry check' or lint.
func TestRegistryOutsideSymlinkNotPrinted(t *testing.T) {
	secret := "root:x:0:0:SECRET-LINE:/root:/bin/bash"
	outside := filepath.Join(t.TempDir(), "passwd")
	writeFile(t, outside, secret+"\n")
	root := t.TempDir()
	writeFile(t, filepath.Join(root, ".git", "HEAD"), "ref: refs/heads/main\n")
	writeFile(t, filepath.Join(root, ".github/workflows/ci.yml"), "on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps: [{run: x}]\n")
	writeFile(t, filepath.Join(root, "tests/ci/labels.py"), "KNOWN_LABELS = {'megatron': 'x'}\n")
	writeFile(t, filepath.Join(root, "tests/e2e/test_a.py"), "register_cuda_ci(est_time=5, suite='stage-b-2-gpu-h200', labels=['megatron'])\n")
	if err := os.Symlink(outside, filepath.Join(root, "tests/e2e/test_passwd.py")); err != nil {
		t.Skip("no symlinks here:", err)
	}
	for _, args := range [][]string{
		{"registry", "check", "--format", "text", "--color", "never"},
		{"lint", "--format", "text", "--color", "never"},
	} {
		out, errs := runWithin(t, root, 20*time.Second, args...)
		if strings.Contains(out+errs, "SECRET-LINE") || strings.Contains(out+errs, "root:x") {
			t.Errorf("%v printed the outside file:\n%s%s", args, out, errs)
		}
		if !strings.Contains(out, "tests/e2e/test_passwd.py is a symlink leading outside the repository; not read") {
			t.Errorf("%v: no finding for the symlink:\n%s%s", args, out, errs)
		}
	}
}

// TestRegistryFIFONoHang: a FIFO named like a test file and one as the
// labels file end the run with findings instead of hanging it.
func TestRegistryFIFONoHang(t *testing.T) {
	root := t.TempDir()
	writeFile(t, filepath.Join(root, ".git", "HEAD"), "ref: refs/heads/main\n")
	writeFile(t, filepath.Join(root, "tests/e2e/test_a.py"), "register_cpu_ci(est_time=5, suite='stage-a-cpu')\n")
	for _, p := range []string{"tests/e2e/test_fifo.py", "tests/ci/labels.py"} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(root, p)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := mkfifo(filepath.Join(root, p)); err != nil {
			t.Skip("mkfifo:", err)
		}
	}
	out, errs := runWithin(t, root, 20*time.Second, "registry", "check", "--format", "text", "--color", "never")
	for _, want := range []string{"tests/e2e/test_fifo.py is a named pipe (FIFO), not a regular file; not read", "tests/ci/labels.py is a named pipe (FIFO)"} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q:\n%s%s", want, out, errs)
		}
	}
}

// runWithin runs cicheck in dir, failing if it takes longer than d.
func runWithin(t *testing.T, dir string, d time.Duration, args ...string) (string, string) {
	t.Helper()
	type res struct{ out, errs string }
	done := make(chan res, 1)
	go func() {
		out, errs, _ := runIn(t, dir, args...)
		done <- res{out, errs}
	}()
	select {
	case r := <-done:
		return r.out, r.errs
	case <-time.After(d):
		t.Fatalf("cicheck %v did not end within %v", args, d)
	}
	return "", ""
}

// TestScanFailureExit3: a scan that failed by cicheck's fault is exit 3,
// not the exit 2 of bad input; other errors keep their codes.
func TestScanFailureExit3(t *testing.T) {
	var b strings.Builder
	e := &env{Stderr: &b}
	err := fmt.Errorf("wrapped: %w", &testregistry.InternalError{Msg: "scanning tests/e2e/test_a.py: boom"})
	if code := app.Report(e, scanFailure(err)); code != cli.ExitInternal {
		t.Errorf("exit %d, want %d", code, cli.ExitInternal)
	}
	if code := app.Report(e, scanFailure(errors.New("tests/e2e: permission denied"))); code != cli.ExitUsage {
		t.Errorf("a plain error: exit %d, want %d", code, cli.ExitUsage)
	}
}

// TestRegistryConfigFIFO: a FIFO as .cicheck.yaml is a one-line error
// naming it (exit 2), not a hang.
func TestRegistryConfigFIFO(t *testing.T) {
	root := t.TempDir()
	writeFile(t, filepath.Join(root, ".git", "HEAD"), "ref: refs/heads/main\n")
	writeFile(t, filepath.Join(root, "tests/e2e/test_a.py"), "register_cpu_ci(est_time=5, suite='stage-a-cpu')\n")
	if err := mkfifo(filepath.Join(root, ".cicheck.yaml")); err != nil {
		t.Skip("mkfifo:", err)
	}
	done := make(chan struct{})
	var errs string
	var code int
	go func() {
		defer close(done)
		_, errs, code = runIn(t, root, "registry", "check")
	}()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		t.Fatal("a FIFO as .cicheck.yaml hung the run")
	}
	if code != cli.ExitUsage || errs != "cicheck: .cicheck.yaml: is not a regular file (a named pipe, device or socket); not read\n" {
		t.Errorf("exit %d, stderr %q", code, errs)
	}
}

// TestRegistryPolicyDiffFIFO: a FIFO as CHANGED_FILES_PATH is no usable
// diff (no pruning), not a hang.
func TestRegistryPolicyDiffFIFO(t *testing.T) {
	root := t.TempDir()
	writeFile(t, filepath.Join(root, ".git", "HEAD"), "ref: refs/heads/main\n")
	writeFile(t, filepath.Join(root, "tests/ci/labels.py"), "KNOWN_LABELS = {'megatron': 'x'}\n")
	writeFile(t, filepath.Join(root, "tests/e2e/test_a.py"), "register_cuda_ci(est_time=5, suite='stage-b-2-gpu-h200', labels=['megatron'])\n")
	if err := mkfifo(filepath.Join(root, "diff.bin")); err != nil {
		t.Skip("mkfifo:", err)
	}
	vars := map[string]string{"EVENT_NAME": "pull_request", "PR_LABELS_JSON": `["run-ci-megatron"]`, "CHANGED_FILES_PATH": "diff.bin"}
	done := make(chan struct{})
	var out, errb strings.Builder
	go func() {
		defer close(done)
		e := &env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, Getenv: func(k string) string { return vars[k] }, WD: root}
		dispatch(e, []string{"registry", "policy"})
	}()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		t.Fatal("a FIFO as CHANGED_FILES_PATH hung the run")
	}
	if !strings.Contains(errb.String(), "Changed-file diff is unavailable or empty") {
		t.Errorf("stdout %q, stderr %q", out.String(), errb.String())
	}
}
