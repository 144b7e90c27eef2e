//go:build unix

package lint

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// hostileRepo is a repository whose files are traps: a named pipe as a
// workflow, a workflow linked to a file outside the repository, and
// whatever extra the case adds; plus a good workflow (the near miss).
func hostileRepo(t *testing.T) (root, secret string) {
	t.Helper()
	base := t.TempDir()
	root, secret = filepath.Join(base, "repo"), filepath.Join(base, "secret.yml")
	for _, d := range []string{".git", ".github/workflows"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(secret, []byte("on: push\njobs:\n  TOPSECRET:\n    runs-on: ubuntu-latest\n    steps: [{run: x}]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, ".git/HEAD"), []byte("ref: refs/heads/main\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, ".github/workflows/ok.yml"), []byte("on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps: [{run: x}]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return root, secret
}

// within fails the test when f does not return in time: a read that
// blocks on a pipe would hang the suite, not fail it.
func within(t *testing.T, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { defer close(done); f() }()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		t.Fatal("blocked")
	}
}

func TestHostileWorkflowFiles(t *testing.T) {
	root, secret := hostileRepo(t)
	wf := filepath.Join(root, ".github/workflows")
	if err := syscall.Mkfifo(filepath.Join(wf, "pipe.yml"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(secret, filepath.Join(wf, "out.yml")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/dev/zero", filepath.Join(wf, "zero.yml")); err != nil {
		t.Fatal(err)
	}
	// The near miss: a link that stays inside the repository is read.
	if err := os.Symlink("ok.yml", filepath.Join(wf, "in.yml")); err != nil {
		t.Fatal(err)
	}
	within(t, func() {
		res, err := New(Options{WorkingDir: root}).LintRepo()
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]string{}
		for _, f := range res.Findings {
			got[f.File] += f.Rule + ": " + f.Message + "\n"
		}
		for _, want := range []struct{ file, msg string }{
			{".github/workflows/pipe.yml", "invalid-workflow-file: is not a regular file"},
			{".github/workflows/out.yml", "invalid-workflow-file: is a symbolic link that leaves the repository"},
			{".github/workflows/zero.yml", "invalid-workflow-file: is a symbolic link that leaves the repository"},
		} {
			if !strings.HasPrefix(got[want.file], want.msg) {
				t.Errorf("%s: %q, want %q", want.file, got[want.file], want.msg)
			}
		}
		if got[".github/workflows/in.yml"] != "" || got[".github/workflows/ok.yml"] != "" {
			t.Errorf("the good files have findings: %v", got)
		}
		if _, ok := res.Sources[".github/workflows/in.yml"]; !ok {
			t.Error("a link inside the repository was not read")
		}
		for name, src := range res.Sources {
			if strings.Contains(string(src), "TOPSECRET") {
				t.Errorf("%s: the text of a file outside the repository was read", name)
			}
		}
	})
}

func TestHostileConfigFiles(t *testing.T) {
	cases := map[string]func(root, secret string) error{
		"pipe .cicheck.yaml": func(root, _ string) error {
			return syscall.Mkfifo(filepath.Join(root, ".cicheck.yaml"), 0o644)
		},
		"endless .cicheck.yaml": func(root, _ string) error {
			return os.Symlink("/dev/zero", filepath.Join(root, ".cicheck.yaml"))
		},
		"outside .cicheck.yaml": func(root, secret string) error {
			return os.Symlink(secret, filepath.Join(root, ".cicheck.yaml"))
		},
		"pipe actionlint.yaml": func(root, _ string) error {
			return syscall.Mkfifo(filepath.Join(root, ".github/actionlint.yaml"), 0o644)
		},
		"endless actionlint.yml": func(root, _ string) error {
			return os.Symlink("/dev/zero", filepath.Join(root, ".github/actionlint.yml"))
		},
		"large actionlint.yaml": func(root, _ string) error {
			return os.WriteFile(filepath.Join(root, ".github/actionlint.yaml"), []byte("#"+strings.Repeat("x", 2<<20)+"\n"), 0o644)
		},
	}
	for name, setup := range cases {
		t.Run(name, func(t *testing.T) {
			root, secret := hostileRepo(t)
			if err := setup(root, secret); err != nil {
				t.Fatal(err)
			}
			within(t, func() {
				cfg, _, err := LoadConfig(root, "")
				if err == nil {
					var res *Result
					res, err = New(Options{WorkingDir: root, Config: cfg}).LintRepo()
					if err == nil && len(res.InputErrors) > 0 {
						err = errorString(res.InputErrors[0])
					}
				}
				if err == nil {
					t.Fatal("accepted")
				}
				if msg := err.Error(); strings.Contains(msg, "secret") || strings.Contains(msg, "\n") || !strings.Contains(msg, ".yaml") && !strings.Contains(msg, ".yml") {
					t.Errorf("error %q: want one line naming the file, nothing outside", msg)
				}
			})
		})
	}
	// The near miss: a small, regular actionlint.yaml is read.
	root, _ := hostileRepo(t)
	if err := os.WriteFile(filepath.Join(root, ".github/actionlint.yaml"), []byte("self-hosted-runner:\n  labels: [big-box]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if res, err := New(Options{WorkingDir: root}).LintRepo(); err != nil || len(res.InputErrors) > 0 {
		t.Errorf("a good actionlint.yaml: %v %v", err, res.InputErrors)
	}
}

type errorString string

func (e errorString) Error() string { return string(e) }
