package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
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
	if !strings.Contains(example, "uses: ./.github/actions/cicheck\n") {
		t.Fatal("the README example does not use the cicheck action from the repository's own copy")
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
	if err := os.MkdirAll(filepath.Join(dir, ".github", "actions", "cicheck"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, ".github", "actions", "cicheck", "action.yml"), action, 0o644); err != nil {
		t.Fatal(err)
	}
	local := example
	if err := os.WriteFile(filepath.Join(dir, ".github", "workflows", "cicheck.yml"), []byte(local), 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	e := &env{Stdin: strings.NewReader(""), Stdout: &stdout, Stderr: &stderr, Getenv: func(string) string { return "" }, WD: dir}
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

// readmeOutputs returns each command README shows after an
// `<!-- output -->` marker, with the output it shows: an indented block
// whose first line is `$ cicheck ARGS` (or `$ go run ./cmd/cicheck ARGS`,
// continued with trailing backslashes) and whose other lines are the
// output. A last line `...` means the output goes on.
func readmeOutputs(t *testing.T) (cmds [][]string, outs []string, partial []bool) {
	t.Helper()
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(b), "\n")
	for i := 0; i < len(lines); i++ {
		if strings.TrimSpace(lines[i]) != "<!-- output -->" {
			continue
		}
		var block []string
		for i++; i < len(lines) && (strings.HasPrefix(lines[i], "    ") || lines[i] == ""); i++ {
			block = append(block, strings.TrimPrefix(lines[i], "    "))
		}
		for len(block) > 0 && block[len(block)-1] == "" {
			block = block[:len(block)-1]
		}
		if len(block) == 0 || !strings.HasPrefix(block[0], "$ ") {
			t.Fatalf("README.md:%d: an output block must start with `$ cicheck ...`", i)
		}
		cmd := strings.TrimPrefix(block[0], "$ ")
		n := 1
		for strings.HasSuffix(cmd, "\\") && n < len(block) {
			cmd = strings.TrimSuffix(cmd, "\\") + " " + strings.TrimSpace(block[n])
			n++
		}
		cmd = strings.TrimPrefix(strings.TrimPrefix(cmd, "go run ./cmd/cicheck "), "cicheck ")
		out := block[n:]
		part := len(out) > 0 && out[len(out)-1] == "..."
		if part {
			out = out[:len(out)-1]
		}
		cmds, outs, partial = append(cmds, shellWords(t, cmd)), append(outs, strings.Join(out, "\n")+"\n"), append(partial, part)
	}
	return cmds, outs, partial
}

// shellWords splits a command line as sh does for plain words and
// single-quoted strings (all README's commands use).
func shellWords(t *testing.T, s string) []string {
	var words []string
	var w strings.Builder
	in, quoted := false, false
	for _, r := range s {
		switch {
		case quoted && r == '\'':
			quoted = false
		case quoted:
			w.WriteRune(r)
		case r == '\'':
			quoted, in = true, true
		case r == ' ':
			if in {
				words = append(words, w.String())
				w.Reset()
				in = false
			}
		default:
			w.WriteRune(r)
			in = true
		}
	}
	if quoted {
		t.Fatalf("unterminated quote in %q", s)
	}
	if in {
		words = append(words, w.String())
	}
	return words
}

// TestReadmeOutputs runs every command README shows an output for, from the
// repository root, and compares the output byte for byte (a prefix where
// README elides the rest with "...").
func TestReadmeOutputs(t *testing.T) {
	root, _ := filepath.Abs("../..")
	cmds, outs, partial := readmeOutputs(t)
	if len(cmds) < 2 {
		t.Fatalf("README shows %d command outputs; the Try-it and simulate examples are expected", len(cmds))
	}
	for i, args := range cmds {
		got, errs, _ := runIn(t, root, args...)
		if partial[i] {
			if !strings.HasPrefix(got, outs[i]) {
				t.Errorf("cicheck %s: README shows\n%s\nwhich does not begin the output\n%s%s", strings.Join(args, " "), outs[i], got, errs)
			}
			continue
		}
		if got != outs[i] {
			t.Errorf("cicheck %s: README shows\n%s\nthe command prints\n%s%s", strings.Join(args, " "), outs[i], got, errs)
		}
	}
}

// TestNoForeignNamespace: nothing a user copies from README, the action or
// the hooks, and nothing in SARIF, points at a GitHub namespace the project
// does not control (the "cicheck" account belongs to somebody else).
func TestNoForeignNamespace(t *testing.T) {
	foreign := []string{"github.com/cicheck", "uses: cicheck/", "cicheck/cicheck@"}
	for _, f := range []string{"README.md", "action.yml", ".pre-commit-hooks.yaml"} {
		b, err := os.ReadFile(filepath.Join("..", "..", f))
		if err != nil {
			t.Fatal(err)
		}
		for _, bad := range foreign {
			if strings.Contains(string(b), bad) {
				t.Errorf("%s mentions %q", f, bad)
			}
		}
	}
	root, _ := filepath.Abs("../..")
	out, _, _ := runIn(t, root, "lint", "--format", "sarif", "fixtures/nightly-gpu")
	for _, bad := range foreign {
		if strings.Contains(out, bad) {
			t.Errorf("SARIF mentions %q", bad)
		}
	}
}

// TestSchemaExamples: report/SCHEMA.md's json, text and github examples are
// what cicheck prints for the workflow the page shows, so its rule ids and
// messages come from the rules themselves.
func TestSchemaExamples(t *testing.T) {
	b, err := os.ReadFile("../../report/SCHEMA.md")
	if err != nil {
		t.Fatal(err)
	}
	block := func(lang string) string {
		s := string(b)
		i := strings.Index(s, "```"+lang+"\n")
		if i < 0 {
			t.Fatalf("SCHEMA.md has no ```%s block", lang)
		}
		s = s[i+len("```"+lang+"\n"):]
		return s[:strings.Index(s, "```")]
	}
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, ".git", "HEAD"), "ref: refs/heads/main\n")
	writeFile(t, filepath.Join(dir, ".github", "workflows", "ci.yml"), block("yaml"))
	for _, format := range []string{"json", "text", "github"} {
		got, errs, code := runIn(t, dir, "lint", "--format", format)
		if code != exitFindings || got != block(format) {
			t.Errorf("--format %s (exit %d): SCHEMA.md shows\n%s\ncicheck prints\n%s%s", format, code, block(format), got, errs)
		}
	}
}

// TestReadmeWorkflowShape: the README's hosted workflow runs on every
// pull request (no paths filter: a source-only pull request is the one
// that wakes GPU jobs, and explain-diff's summary is for it), never under
// pull_request_target (where a step must not parse the pull request's
// head), says what each permission is for, and uses the action majors
// that run on the current Node runtime.
func TestReadmeWorkflowShape(t *testing.T) {
	example := readmeExample(t, "<!-- example: action workflow -->")
	var wf struct {
		On          map[string]map[string]any `yaml:"on"`
		Permissions map[string]string         `yaml:"permissions"`
	}
	if err := yaml.Unmarshal([]byte(example), &wf); err != nil {
		t.Fatal(err)
	}
	pr, ok := wf.On["pull_request"]
	if !ok {
		t.Fatal("the README workflow does not run on pull_request")
	}
	for _, k := range []string{"paths", "paths-ignore", "branches-ignore", "types"} {
		if _, ok := pr[k]; ok {
			t.Errorf("on.pull_request has %s: explain-diff must see every pull request", k)
		}
	}
	if _, ok := wf.On["pull_request_target"]; ok || strings.Contains(example, "pull_request_target") {
		t.Error("the README workflow runs under pull_request_target")
	}
	// Every permission line carries its reason.
	for _, line := range strings.Split(example, "\n") {
		for p := range wf.Permissions {
			if strings.HasPrefix(strings.TrimSpace(line), p+":") && !strings.Contains(line, "# ") {
				t.Errorf("permission %s does not say what it is for: %q", p, line)
			}
		}
	}
	for _, want := range []string{"actions/checkout@v6", "github/codeql-action/upload-sarif@v4"} {
		if !strings.Contains(example, "uses: "+want+"\n") {
			t.Errorf("the README workflow does not use %s", want)
		}
	}
	action, err := os.ReadFile("../../action.yml")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"actions/setup-go@v6", "actions/cache@v6"} {
		if !strings.Contains(string(action), "uses: "+want+"\n") {
			t.Errorf("action.yml does not use %s", want)
		}
	}
}
