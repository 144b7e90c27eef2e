package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// actionSteps reads the composite action's steps.
func actionSteps(t *testing.T) map[string]string {
	t.Helper()
	b, err := os.ReadFile("../../action.yml")
	if err != nil {
		t.Fatal(err)
	}
	var a struct {
		Runs struct {
			Steps []struct {
				Name string `yaml:"name"`
				Run  string `yaml:"run"`
			} `yaml:"steps"`
		} `yaml:"runs"`
	}
	if err := yaml.Unmarshal(b, &a); err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, s := range a.Runs.Steps {
		if s.Run != "" {
			out[s.Name] = s.Run
		}
	}
	return out
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
	if b, _ := os.ReadFile(sarif); !strings.Contains(string(b), `"version": "2.1.0"`) {
		t.Errorf("SARIF after a failed run: %q", b)
	}
}
