package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// readmeExample returns the YAML block that follows marker in README.md.
func readmeExample(t *testing.T, marker string) string {
	t.Helper()
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	i := strings.Index(s, marker)
	if i < 0 {
		t.Fatalf("README.md has no %s", marker)
	}
	s = s[i:]
	start := strings.Index(s, "```yaml\n")
	if start < 0 {
		t.Fatalf("no ```yaml block after %s", marker)
	}
	s = s[start+len("```yaml\n"):]
	end := strings.Index(s, "```")
	if end < 0 {
		t.Fatalf("unterminated yaml block after %s", marker)
	}
	return s[:end]
}

// TestReadmeActionExample lints the README's example workflow against this
// repository's action.yml: the example is rewritten to `uses: ./`, so
// actionlint checks every `with:` input against the action's metadata.
func TestReadmeActionExample(t *testing.T) {
	example := readmeExample(t, "<!-- example: action workflow -->")
	if !strings.Contains(example, "uses: cicheck/cicheck@v1") {
		t.Fatal("the README example does not use the cicheck action")
	}
	action, err := os.ReadFile("../../action.yml")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, ".github", "workflows"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "action.yml"), action, 0o644); err != nil {
		t.Fatal(err)
	}
	local := strings.ReplaceAll(example, "uses: cicheck/cicheck@v1", "uses: ./")
	if err := os.WriteFile(filepath.Join(dir, ".github", "workflows", "cicheck.yml"), []byte(local), 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	e := &env{stdin: strings.NewReader(""), stdout: &stdout, stderr: &stderr, getenv: func(string) string { return "" }, wd: dir}
	if code := dispatch(e, []string{"lint", "--fail-on", "notice", "--color", "never"}); code != exitOK {
		t.Fatalf("README example workflow: exit %d\n%s%s", code, stdout.String(), stderr.String())
	}
	// A misspelt input must be caught, or this test proves nothing.
	bad := strings.Replace(local, "fail-on:", "fail-onn:", 1)
	if err := os.WriteFile(filepath.Join(dir, ".github", "workflows", "cicheck.yml"), []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	stdout.Reset()
	if code := dispatch(e, []string{"lint", "--format", "json"}); code != exitFindings || !strings.Contains(stdout.String(), `input \"fail-onn\" is not defined`) {
		t.Fatalf("a misspelt action input was not reported (exit %d):\n%s", code, stdout.String())
	}
}
