package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// actionStep is one step of the composite action.
type actionStep struct {
	Name string `yaml:"name"`
	If   string `yaml:"if"`
	Run  string `yaml:"run"`
}

// actionSteps reads the composite action's shell steps by name.
func actionSteps(t *testing.T) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, s := range actionStepList(t) {
		if s.Run != "" {
			out[s.Name] = s.Run
		}
	}
	return out
}

func actionStepList(t *testing.T) []actionStep {
	t.Helper()
	b, err := os.ReadFile("../../action.yml")
	if err != nil {
		t.Fatal(err)
	}
	var a struct {
		Runs struct {
			Steps []actionStep `yaml:"steps"`
		} `yaml:"runs"`
	}
	if err := yaml.Unmarshal(b, &a); err != nil {
		t.Fatal(err)
	}
	return a.Runs.Steps
}

// TestActionScripts runs the action's shell steps for real: the cache key
// is computed from the action's sources, the lint step writes SARIF and
// annotations, and a failed lint still leaves a valid SARIF file.
func TestActionScripts(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	steps := actionSteps(t)
	for name, script := range steps {
		if out, err := exec.Command(bash, "-n", "-c", script).CombinedOutput(); err != nil {
			t.Errorf("%s: bash -n: %v: %s", name, err, out)
		}
	}
	root, _ := filepath.Abs("../..")
	tmp := t.TempDir()
	outFile := filepath.Join(tmp, "github_output")
	run := func(step string, env ...string) (string, error) {
		cmd := exec.Command(bash, "-e", "-c", steps[step])
		cmd.Env = append(os.Environ(), append([]string{"GITHUB_ACTION_PATH=" + root, "RUNNER_TEMP=" + tmp,
			"RUNNER_OS=Linux", "RUNNER_ARCH=X64", "GITHUB_OUTPUT=" + outFile}, env...)...)
		cmd.Dir = tmp
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	if out, err := run("Identify the cicheck build"); err != nil {
		t.Fatalf("key step: %v: %s", err, out)
	}
	kv, _ := os.ReadFile(outFile)
	if !strings.Contains(string(kv), "key=cicheck-Linux-X64-") || !strings.Contains(string(kv), "bin="+tmp+"/cicheck-bin") {
		t.Fatalf("key step wrote %q", kv)
	}
	bin := filepath.Join(tmp, "cicheck")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("build: %v: %s", err, out)
	}
	writeFile(t, filepath.Join(tmp, ".git", "HEAD"), "ref: refs/heads/main\n")
	writeFile(t, filepath.Join(tmp, ".github", "workflows", "ci.yml"), "on: push\njobs:\n  a:\n    needs: nope\n    runs-on: ubuntu-latest\n    steps: [{run: x}]\n")
	sarif := filepath.Join(tmp, "out.sarif")
	out, err := run("Lint workflows", "CICHECK="+bin, "CICHECK_FORMAT=github", "CICHECK_FAIL_ON=error", "CICHECK_SARIF="+sarif)
	if err == nil || !strings.Contains(out, "::error file=.github/workflows/ci.yml,line=4") {
		t.Errorf("lint step: want the finding annotated and the step failed: %v\n%s", err, out)
	}
	if b, _ := os.ReadFile(sarif); !strings.Contains(string(b), `"ruleId": "unknown-needs"`) {
		t.Errorf("SARIF: %s", b)
	}
	// A bad configuration: the step fails in one line, the SARIF is still a log.
	out, err = run("Lint workflows", "CICHECK="+bin, "CICHECK_FORMAT=github", "CICHECK_FAIL_ON=error", "CICHECK_SARIF="+sarif, "CICHECK_CONFIG=missing.yaml")
	if err == nil || !strings.Contains(out, "missing.yaml") {
		t.Errorf("bad config: %v\n%s", err, out)
	}
	if b, _ := os.ReadFile(sarif); !strings.Contains(string(b), `"version": "2.1.0"`) || !strings.Contains(string(b), `"executionSuccessful": false`) {
		t.Errorf("SARIF after a failed run (it must say the run failed): %q", b)
	}
}

// runKeyStep runs the cache-key step on the module at dir and returns the
// key and the NUL-separated list of files it hashed.
func runKeyStep(t *testing.T, bash, dir, goVersion string) (string, []string) {
	t.Helper()
	tmp := t.TempDir()
	cmd := exec.Command(bash, "-e", "-o", "pipefail", "-c", actionSteps(t)["Identify the cicheck build"])
	cmd.Env = append(os.Environ(), "GITHUB_ACTION_PATH="+dir, "RUNNER_TEMP="+tmp, "RUNNER_OS=Linux", "RUNNER_ARCH=X64",
		"GITHUB_OUTPUT="+filepath.Join(tmp, "out"), "CICHECK_GO_VERSION="+goVersion)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("key step: %v: %s", err, out)
	}
	kv, _ := os.ReadFile(filepath.Join(tmp, "out"))
	key, _, _ := strings.Cut(strings.TrimPrefix(string(kv), "key="), "\n")
	list, _ := os.ReadFile(filepath.Join(tmp, "cicheck-key-files"))
	return key, strings.Split(strings.TrimSuffix(string(list), "\x00"), "\x00")
}

// TestActionCacheKeyCoversTheBinary: every file of this module that goes
// into the binary, as the go command reports it (sources, embedded files,
// assembly, ...), is hashed into the cache key, so no edit can reuse a
// stale build.
func TestActionCacheKeyCoversTheBinary(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	root, _ := filepath.Abs("../..")
	_, files := runKeyStep(t, bash, root, "1.26")
	hashed := map[string]bool{}
	for _, f := range files {
		hashed[strings.TrimPrefix(f, "./")] = true
	}
	list := exec.Command("go", "list", "-deps", "-f",
		`{{.Dir}}{{range .GoFiles}}|{{.}}{{end}}{{range .CgoFiles}}|{{.}}{{end}}{{range .EmbedFiles}}|{{.}}{{end}}{{range .SFiles}}|{{.}}{{end}}{{range .CFiles}}|{{.}}{{end}}{{range .HFiles}}|{{.}}{{end}}{{range .SysoFiles}}|{{.}}{{end}}`,
		"./cmd/cicheck")
	list.Dir = root
	out, err := list.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	checked := 0
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		parts := strings.Split(line, "|")
		rel, err := filepath.Rel(root, parts[0])
		if err != nil || strings.HasPrefix(rel, "..") {
			continue // the standard library or a module pinned by go.sum
		}
		for _, f := range parts[1:] {
			p := filepath.ToSlash(filepath.Join(rel, f))
			checked++
			if !hashed[p] {
				t.Errorf("%s goes into the binary but not into the cache key", p)
			}
		}
	}
	for _, f := range []string{"go.mod", "go.sum", "config/defaults.yaml", "pyparse/unicode_names.gz", "cmd/cicheck/help/lint.txt"} {
		if !hashed[f] {
			t.Errorf("%s is not in the cache key", f)
		}
	}
	if checked < 100 {
		t.Fatalf("only %d files checked: go list's output changed shape", checked)
	}
}

// TestActionCacheKeyChanges: the key follows what the binary is built from
// (an embedded file, a source whose name has a space, the Go version) and
// not what it is not (a test, testdata, the docs).
func TestActionCacheKeyChanges(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	dir := t.TempDir()
	files := map[string]string{
		"go.mod": "module x\n", "go.sum": "", "config/defaults.yaml": "a: 1\n", "pkg/a b.go": "package pkg\n",
		"pkg/a_test.go": "package pkg\n", "pkg/testdata/t.txt": "t", "docs/x.md": "x", "README.md": "r",
	}
	for name, body := range files {
		writeFile(t, filepath.Join(dir, name), body)
	}
	base, list := runKeyStep(t, bash, dir, "1.26")
	if !slices.Contains(list, "./pkg/a b.go") || len(list) != 4 {
		t.Fatalf("hashed %q", list)
	}
	for _, tt := range []struct {
		file    string
		changes bool
	}{
		{"config/defaults.yaml", true},
		{"pkg/a b.go", true},
		{"pkg/a_test.go", false},
		{"pkg/testdata/t.txt", false},
		{"docs/x.md", false},
		{"README.md", false},
	} {
		writeFile(t, filepath.Join(dir, tt.file), files[tt.file]+"edit")
		key, _ := runKeyStep(t, bash, dir, "1.26")
		if (key != base) != tt.changes {
			t.Errorf("editing %s: key %s -> %s, want changed=%v", tt.file, base, key, tt.changes)
		}
		writeFile(t, filepath.Join(dir, tt.file), files[tt.file])
	}
	// A renamed file is a different build input even with the same bytes.
	if err := os.Rename(filepath.Join(dir, "pkg/a b.go"), filepath.Join(dir, "pkg/ab.go")); err != nil {
		t.Fatal(err)
	}
	if key, _ := runKeyStep(t, bash, dir, "1.26"); key == base {
		t.Error("renaming a source kept the key")
	}
	if err := os.Rename(filepath.Join(dir, "pkg/ab.go"), filepath.Join(dir, "pkg/a b.go")); err != nil {
		t.Fatal(err)
	}
	if key, _ := runKeyStep(t, bash, dir, "1.27"); key == base {
		t.Error("another Go version kept the key")
	}
}

// TestActionPullRequestTarget: under pull_request_target no step parses the
// pull request's head: explain-diff does not run, and lint refuses a
// checkout other than the base commit the event checks out.
func TestActionPullRequestTarget(t *testing.T) {
	for _, s := range actionStepList(t) {
		if strings.Contains(s.If, "pull_request_target") && strings.Contains(s.Run, `"$CICHECK"`) {
			t.Errorf("step %q runs cicheck under pull_request_target", s.Name)
		}
		if strings.Contains(s.Run, `"$CICHECK" explain-diff`) {
			if !strings.Contains(s.If, "github.event_name == 'pull_request'") || strings.Contains(s.If, "pull_request_target") {
				t.Errorf("step %q runs explain-diff under %q", s.Name, s.If)
			}
		}
	}
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(strings.Join(strings.Fields(string(readme)), " "), "never parses a pull request's head under `pull_request_target`") {
		t.Error("README does not say the action never parses a pull request's head under pull_request_target")
	}
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	git, err := exec.LookPath("git")
	if err != nil {
		t.Skip("no git")
	}
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, ".github", "workflows", "ci.yml"), "on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps: [{run: x}]\n")
	gitEnv := append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com", "GIT_CONFIG_NOSYSTEM=1", "HOME="+dir)
	for _, args := range [][]string{{"init", "-q", "-b", "main"}, {"add", "-A"}, {"commit", "-q", "-m", "base"}} {
		cmd := exec.Command(git, args...)
		cmd.Dir, cmd.Env = dir, gitEnv
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v: %s", args, err, out)
		}
	}
	head := exec.Command(git, "rev-parse", "HEAD")
	head.Dir = dir
	sha, err := head.Output()
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(t.TempDir(), "cicheck")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("build: %v: %s", err, out)
	}
	lint := func(githubSHA string) (string, error) {
		cmd := exec.Command(bash, "-e", "-c", actionSteps(t)["Lint workflows"])
		cmd.Dir = dir
		cmd.Env = append(gitEnv, "CICHECK="+bin, "CICHECK_FORMAT=github", "CICHECK_FAIL_ON=error",
			"GITHUB_EVENT_NAME=pull_request_target", "GITHUB_SHA="+githubSHA)
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	if out, err := lint(strings.Repeat("0", 40)); err == nil || !strings.Contains(out, "never the pull request's head") {
		t.Errorf("a checkout other than the base commit was linted: %v\n%s", err, out)
	}
	if out, err := lint(strings.TrimSpace(string(sha))); err != nil {
		t.Errorf("the base commit was not linted: %v\n%s", err, out)
	}
}

// TestActionPathsWithSpaces: the paths input is one path per line, so a
// workflow whose name has a space is linted as itself.
func TestActionPathsWithSpaces(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, ".git", "HEAD"), "ref: refs/heads/main\n")
	bad := "on: push\njobs:\n  a:\n    needs: nope\n    runs-on: ubuntu-latest\n    steps: [{run: x}]\n"
	writeFile(t, filepath.Join(dir, ".github", "workflows", "a b.yml"), bad)
	writeFile(t, filepath.Join(dir, ".github", "workflows", "*.yml"), bad)
	writeFile(t, filepath.Join(dir, ".github", "workflows", "c.yml"), bad)
	bin := filepath.Join(t.TempDir(), "cicheck")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("build: %v: %s", err, out)
	}
	sarif := filepath.Join(dir, "out.sarif")
	cmd := exec.Command(bash, "-e", "-c", actionSteps(t)["Lint workflows"])
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "CICHECK="+bin, "CICHECK_FORMAT=github", "CICHECK_FAIL_ON=error", "CICHECK_SARIF="+sarif,
		"CICHECK_PATHS=.github/workflows/a b.yml\n\n.github/workflows/*.yml\n")
	out, _ := cmd.CombinedOutput()
	for _, want := range []string{"file=.github/workflows/a b.yml,line=4", "file=.github/workflows/*.yml,line=4"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("lint step: want %q:\n%s", want, out)
		}
	}
	// Nothing word-split or globbed: c.yml was not named.
	if strings.Contains(string(out), "c.yml") || strings.Contains(string(out), "no such file") {
		t.Errorf("lint step split or globbed the paths:\n%s", out)
	}
	if b, _ := os.ReadFile(sarif); !strings.Contains(string(b), "a%20b.yml") {
		t.Errorf("SARIF misses the path with a space")
	}
}
