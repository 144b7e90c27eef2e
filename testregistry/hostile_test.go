package testregistry

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"testing"
	"testing/fstest"
	"time"

	"github.com/cicheck/cicheck/finding"
)

// Hostile repositories (issue 27): every file the registry reads is a
// regular file inside the repository, read with a size limit; directory
// symlinks are followed neither out of the repository nor round a loop.

// scanWithin scans dir through DirFS, failing the test if the scan takes
// longer than d (the scan is left running: it is what the test is about).
func scanWithin(t *testing.T, dir string, d time.Duration) *Registry {
	t.Helper()
	type res struct {
		r   *Registry
		err error
	}
	done := make(chan res, 1)
	go func() {
		r, err := Scan(DirFS(dir), DefaultConfig())
		done <- res{r, err}
	}()
	select {
	case x := <-done:
		if x.err != nil {
			t.Fatalf("Scan: %v", x.err)
		}
		return x.r
	case <-time.After(d):
		t.Fatalf("the scan of %s did not end within %v", dir, d)
	}
	return nil
}

// hostileRepo is a small valid registry with one registered test.
func hostileRepo(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"tests/ci/labels.py":  "KNOWN_LABELS = {'megatron': 'x'}\n",
		"tests/e2e/test_a.py": "register_cuda_ci(est_time=5, suite='stage-b-2-gpu-h200', labels=['megatron'])\n",
	})
	return dir
}

func mkfifo(t *testing.T, p string) {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("no FIFOs")
	}
	if err := syscall.Mkfifo(p, 0o644); err != nil {
		t.Skip("mkfifo:", err)
	}
}

func symlink(t *testing.T, target, p string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, p); err != nil {
		t.Skip("no symlinks here:", err)
	}
}

// findingsOf lists rule and message of the findings about file.
func findingsOf(r *Registry, file string) []string {
	var out []string
	for _, f := range r.Findings {
		if f.File == file {
			out = append(out, f.Rule+" "+f.Severity.String()+" "+f.Message)
		}
	}
	return out
}

func wantFinding(t *testing.T, r *Registry, file, want string) {
	t.Helper()
	got := findingsOf(r, file)
	if !slices.Contains(got, want) {
		t.Errorf("%s: findings %q, want %q", file, got, want)
	}
}

// The registered test still counts: one bad file does not stop the scan.
func wantTestA(t *testing.T, r *Registry) {
	t.Helper()
	for _, g := range r.Registrations {
		if g.File == "tests/e2e/test_a.py" {
			return
		}
	}
	t.Errorf("tests/e2e/test_a.py's registration is missing: %v", r.Registrations)
}

func TestHostileFIFO(t *testing.T) {
	dir := hostileRepo(t)
	mkfifo(t, filepath.Join(dir, "tests/e2e/test_fifo.py"))
	r := scanWithin(t, dir, 10*time.Second)
	wantFinding(t, r, "tests/e2e/test_fifo.py", "reg-unreadable error tests/e2e/test_fifo.py is a named pipe (FIFO), not a regular file; not read")
	wantTestA(t, r)

	// The labels, suites and access-policy files as FIFOs.
	dir = hostileRepo(t)
	if err := os.Remove(filepath.Join(dir, "tests/ci/labels.py")); err != nil {
		t.Fatal(err)
	}
	mkfifo(t, filepath.Join(dir, "tests/ci/labels.py"))
	mkfifo(t, filepath.Join(dir, "tests/ci/run_suite.py"))
	if err := os.MkdirAll(filepath.Join(dir, ".github/workflows/policies"), 0o755); err != nil {
		t.Fatal(err)
	}
	mkfifo(t, filepath.Join(dir, ".github/workflows/policies/comment-command-access.json"))
	mkfifo(t, filepath.Join(dir, ".github/workflows/ci.yml"))
	r = scanWithin(t, dir, 10*time.Second)
	wantFinding(t, r, "tests/ci/labels.py", "labels-not-literal error cannot load KNOWN_LABELS statically: tests/ci/labels.py is a named pipe (FIFO), not a regular file; not read; label checks are skipped")
	wantFinding(t, r, "tests/ci/run_suite.py", "reg-unreadable error tests/ci/run_suite.py is a named pipe (FIFO), not a regular file; not read")
}

// TestHostileFIFORace: a FIFO that the directory listing saw as a
// regular file (swapped in between listing and opening) is opened
// without blocking and refused by its fstat.
func TestHostileFIFORace(t *testing.T) {
	dir := t.TempDir()
	mkfifo(t, filepath.Join(dir, "test_x.py"))
	done := make(chan error, 1)
	go func() {
		_, err := readBounded(DirFS(dir), "test_x.py", kindTest, 0, nil) // 0: listed as a regular file
		done <- err
	}()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "named pipe") {
			t.Errorf("readBounded = %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("opening a FIFO blocked")
	}
}

func TestHostileDevZero(t *testing.T) {
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip("no /dev/zero")
	}
	dir := hostileRepo(t)
	symlink(t, "/dev/zero", filepath.Join(dir, "tests/e2e/test_zero.py"))
	r := scanWithin(t, dir, 10*time.Second)
	wantFinding(t, r, "tests/e2e/test_zero.py", "reg-unreadable error tests/e2e/test_zero.py is a symlink leading outside the repository; not read")
	wantTestA(t, r)

	dir = hostileRepo(t)
	if err := os.Remove(filepath.Join(dir, "tests/ci/labels.py")); err != nil {
		t.Fatal(err)
	}
	symlink(t, "/dev/zero", filepath.Join(dir, "tests/ci/labels.py"))
	r = scanWithin(t, dir, 10*time.Second)
	wantFinding(t, r, "tests/ci/labels.py", "labels-not-literal error cannot load KNOWN_LABELS statically: tests/ci/labels.py is a symlink leading outside the repository; not read; label checks are skipped")
}

// TestHostileOutsideFile: a test file symlinked to a file outside the
// repository is not read, and nothing of it is in any finding; a
// relative symlink climbing out is refused too.
func TestHostileOutsideFile(t *testing.T) {
	outside := t.TempDir()
	secret := "SECRET-" + strings.Repeat("s", 20)
	writeTree(t, outside, map[string]string{"passwd": secret + "\n"})
	dir := hostileRepo(t)
	symlink(t, filepath.Join(outside, "passwd"), filepath.Join(dir, "tests/e2e/test_abs.py"))
	rel, err := filepath.Rel(filepath.Join(dir, "tests/e2e"), filepath.Join(outside, "passwd"))
	if err != nil {
		t.Fatal(err)
	}
	symlink(t, rel, filepath.Join(dir, "tests/e2e/test_rel.py"))
	r := scanWithin(t, dir, 10*time.Second)
	for _, f := range []string{"tests/e2e/test_abs.py", "tests/e2e/test_rel.py"} {
		wantFinding(t, r, f, "reg-unreadable error "+f+" is a symlink leading outside the repository; not read")
	}
	for _, f := range r.Findings {
		if strings.Contains(f.Message, "SECRET") {
			t.Errorf("a finding quotes the outside file: %v", f)
		}
	}
	if b := ReadSource(DirFS(dir), "tests/e2e/test_abs.py"); b != nil {
		t.Errorf("ReadSource read the outside file: %q", b)
	}
	wantTestA(t, r)
}

// TestHostileInsideSymlink is the near miss: a symlink to a file or a
// directory inside the repository is read and followed as before.
func TestHostileInsideSymlink(t *testing.T) {
	dir := hostileRepo(t)
	writeTree(t, dir, map[string]string{
		"shared/test_b.py":  "register_cpu_ci(est_time=1, suite='stage-a-cpu')\n",
		"shared/real_c.py":  "register_cpu_ci(est_time=2, suite='stage-a-cpu')\n",
		"tests/ci/real.py":  "KNOWN_LABELS = {'megatron': 'x', 'fsdp': 'y'}\n",
		"tests/ci/other.py": "",
	})
	symlink(t, "../../shared", filepath.Join(dir, "tests/e2e/shared"))
	symlink(t, "../../shared/real_c.py", filepath.Join(dir, "tests/e2e/test_c.py"))
	if err := os.Remove(filepath.Join(dir, "tests/ci/labels.py")); err != nil {
		t.Fatal(err)
	}
	symlink(t, "real.py", filepath.Join(dir, "tests/ci/labels.py"))
	r := scanWithin(t, dir, 10*time.Second)
	var files []string
	for _, g := range r.Registrations {
		files = append(files, g.File)
	}
	if want := []string{"tests/e2e/shared/test_b.py", "tests/e2e/test_a.py", "tests/e2e/test_c.py"}; !slices.Equal(files, want) {
		t.Errorf("registrations in %v, want %v", files, want)
	}
	if !slices.Equal(r.Known, []string{"fsdp", "megatron"}) {
		t.Errorf("labels through a symlink: %v", r.Known)
	}
	for _, f := range r.Findings {
		if f.Rule == RuleUnreadable {
			t.Errorf("unexpected %v", f)
		}
	}
}

// TestHostileDirectoryToRoot: a directory symlink to / is not followed.
func TestHostileDirectoryToRoot(t *testing.T) {
	dir := hostileRepo(t)
	symlink(t, "/", filepath.Join(dir, "tests/e2e/everything"))
	symlink(t, "../../..", filepath.Join(dir, "tests/e2e/up"))
	r := scanWithin(t, dir, 10*time.Second)
	wantFinding(t, r, "tests/e2e/everything", "reg-unreadable warning tests/e2e/everything is a symlink leading outside the repository; not followed")
	wantFinding(t, r, "tests/e2e/up", "reg-unreadable warning tests/e2e/up is a symlink leading outside the repository; not followed")
	if !slices.Equal(r.Files, []string{"tests/e2e/test_a.py"}) {
		t.Errorf("files %v", r.Files)
	}
}

// TestHostileLoops: directory symlinks that loop (two to the directory
// holding them, which a walk following each would take 2^depth times, and
// a pair pointing at each other) end, each followed once.
func TestHostileLoops(t *testing.T) {
	dir := hostileRepo(t)
	symlink(t, ".", filepath.Join(dir, "tests/e2e/again"))
	symlink(t, ".", filepath.Join(dir, "tests/e2e/twice"))
	writeTree(t, dir, map[string]string{
		"tests/fast/a/test_x.py": "",
		"tests/fast/b/test_y.py": "",
	})
	symlink(t, "../b", filepath.Join(dir, "tests/fast/a/to_b"))
	symlink(t, "../a", filepath.Join(dir, "tests/fast/b/to_a"))
	r := scanWithin(t, dir, 10*time.Second)
	want := []string{
		"tests/e2e/again/test_a.py", // twice leads to the same directory: nothing more
		"tests/e2e/test_a.py",
		"tests/fast/a/test_x.py",
		"tests/fast/a/to_b/test_y.py",
		"tests/fast/b/test_y.py",
		"tests/fast/b/to_a/test_x.py",
	}
	if !slices.Equal(r.Files, want) {
		t.Errorf("files\n%v\nwant\n%v", r.Files, want)
	}
	for _, f := range r.Findings {
		if f.Severity == finding.Error && f.Rule != RuleNoRegistry {
			t.Errorf("unexpected %v", f)
		}
	}
}

// TestHostileManyLinks: symlinks to nested directories (each a target of
// its own, so each followed) stop after maxLinkedEntries entries listed
// through them, with a warning, and nothing is listed after it (the
// symlinks under tests/fast come later in path order).
func TestHostileManyLinks(t *testing.T) {
	defer func(n int) { maxLinkedEntries = n }(maxLinkedEntries)
	maxLinkedEntries = 500
	dir := hostileRepo(t)
	deep := "big"
	for i := 0; i < 60; i++ {
		deep += "/d"
		writeTree(t, dir, map[string]string{deep + "/test_x.py": "", deep + "/f1": "", deep + "/f2": ""})
		symlink(t, "../../"+deep, filepath.Join(dir, "tests/e2e", fmt.Sprintf("l%02d", i)))
	}
	for i := 0; i < 200; i++ {
		symlink(t, "../../big", filepath.Join(dir, "tests/fast", fmt.Sprintf("m%03d", i)))
	}
	r := scanWithin(t, dir, 60*time.Second)
	var stopped bool
	for _, f := range r.Findings {
		stopped = stopped || f.Rule == RuleUnreadable && strings.Contains(f.Message, "stopped following directory symlinks after 500 entries")
	}
	if !stopped {
		t.Errorf("no warning for the entries not listed: %v", r.Findings)
	}
	var viaM int
	for _, f := range r.Files {
		if strings.HasPrefix(f, "tests/fast/m") {
			viaM++
		}
	}
	if viaM > 0 {
		t.Errorf("%d files listed through symlinks after the stop", viaM)
	}
}

func TestHostileTooLarge(t *testing.T) {
	dir := hostileRepo(t)
	big := "x = 1\n" + strings.Repeat("# padding\n", MaxTestFileSize/10)
	writeTree(t, dir, map[string]string{"tests/e2e/test_big.py": big})
	r := scanWithin(t, dir, 30*time.Second)
	wantFinding(t, r, "tests/e2e/test_big.py", "reg-unreadable error tests/e2e/test_big.py is larger than the 4 MiB limit for a test file; not read")
	wantTestA(t, r)
}

// panicFS panics when a test file is opened: a stand-in for a bug in a
// scan worker. Open is all it has, so every read goes through it.
type panicFS struct{ m fstest.MapFS }

func (p panicFS) Open(name string) (fs.File, error) {
	if strings.HasPrefix(path.Base(name), "test_") {
		panic("boom")
	}
	return p.m.Open(name)
}

// TestScanWorkerPanic: a panic in a scan worker (where the command's own
// recovery cannot see it) ends the scan with an InternalError naming the
// file, not the process with a stack trace and exit 2.
func TestScanWorkerPanic(t *testing.T) {
	fsys := panicFS{fstest.MapFS{
		"tests/ci/labels.py":  {Data: []byte("KNOWN_LABELS = {'megatron': 'x'}\n")},
		"tests/e2e/test_a.py": {Data: []byte("register_cpu_ci(1, 'stage-a-cpu')\n")},
	}}
	_, err := Scan(fsys, DefaultConfig())
	var ie *InternalError
	if !errors.As(err, &ie) || err.Error() != "internal error: scanning tests/e2e/test_a.py: boom (please report this)" {
		t.Errorf("Scan = %v", err)
	}
}
