package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// runIn runs cicheck in-process in dir and returns stdout, stderr and code.
func runIn(t *testing.T, dir string, args ...string) (string, string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	e := &env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, Getenv: func(string) string { return "" }, WD: dir}
	code := dispatch(e, args)
	return out.String(), errb.String(), code
}

func writeFile(t *testing.T, p, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestLintDeterministic: workflows sharing a local action and a local
// reusable workflow make actionlint's own output order vary between runs;
// cicheck's must not.
func TestLintDeterministic(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, ".github/actions/setup/action.yml"), `name: setup
description: shared setup
inputs:
  version: {description: v, required: true}
runs:
  using: composite
  steps:
    - run: echo "${{ inputs.version }}"
      shell: bash
`)
	writeFile(t, filepath.Join(dir, ".github/workflows/reuse.yml"), `on:
  workflow_call:
    inputs:
      runs_on: {type: string, required: true}
jobs:
  t:
    runs-on: ${{ fromJSON(inputs.runs_on) }}
    steps: [{run: "true"}]
`)
	for i := 0; i < 6; i++ {
		writeFile(t, filepath.Join(dir, fmt.Sprintf(".github/workflows/w%d.yml", i)), fmt.Sprintf(`on: push
jobs:
  a%d:
    needs: missing
    runs-on: ubuntu-latest
    steps:
      - uses: ./.github/actions/setup
        with: {vers: "1"}
  b:
    uses: ./.github/workflows/reuse.yml
    with: {runs_onn: x}
`, i))
	}
	first, _, code := runIn(t, dir, "lint", "--format", "json")
	if code != exitFindings || !strings.Contains(first, `"rule": "action"`) {
		t.Fatalf("code %d, output %s", code, first)
	}
	for i := 0; i < 5; i++ {
		if again, _, _ := runIn(t, dir, "lint", "--format", "json"); again != first {
			t.Fatalf("run %d differs:\n%s\nvs\n%s", i, again, first)
		}
	}
}

// TestLintHugeFile: a 10 MB file is one finding, found quickly (the file
// is not parsed).
func TestLintHugeFile(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("on: push\njobs:\n")
	for i := 0; b.Len() < 10<<20; i++ {
		fmt.Fprintf(&b, "  j%d:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo %d\n", i, i)
	}
	writeFile(t, filepath.Join(dir, "big.yml"), b.String())
	out, errs, code := runIn(t, dir, "lint", "big.yml")
	if code != exitFindings || errs != "" || !strings.HasPrefix(out, "big.yml:1:1: error: file is 10.0 MiB, larger than the 4 MiB limit for a workflow [invalid-workflow-file]\n") {
		t.Fatalf("code %d, stdout %q, stderr %q", code, out, errs)
	}
}

// TestLintFixtures: the README's example shows real findings and the
// bad-input fixture reports its unusable files as findings beside the
// others'.
func TestLintFixtures(t *testing.T) {
	root, _ := filepath.Abs("../..")
	out, errs, code := runIn(t, root, "lint", "fixtures/bad-input")
	if code != exitFindings || !strings.Contains(out, "[needs-cycle]") || !strings.Contains(out, "[syntax-check]") ||
		!strings.Contains(out, "empty.yml:1:1: error: empty file, not a workflow [invalid-workflow-file]") {
		t.Fatalf("code %d\n%s\n%s", code, out, errs)
	}
	if _, errs, code := runIn(t, root, "lint", "fixtures/nightly-gpu"); code == exitUsage || code == exitInternal {
		t.Fatalf("nightly-gpu: code %d: %s", code, errs)
	}
}
