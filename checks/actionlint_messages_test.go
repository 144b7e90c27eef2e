package checks

import (
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/rhysd/actionlint"
)

// TestActionlintMessages makes the embedded actionlint produce every
// message cicheck matches (actionlint_messages.go): a reworded message in
// a new actionlint version fails here, not silently in users' output.
func TestActionlintMessages(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, ".github", "workflows"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	for name, src := range map[string]string{
		"needs.yml":  "on: push\njobs:\n  a:\n    needs: nope\n    runs-on: ubuntu-latest\n    steps: [{run: x}]\n",
		"cycle.yml":  "on: push\njobs:\n  a:\n    needs: b\n    runs-on: ubuntu-latest\n    steps: [{run: x}]\n  b:\n    needs: a\n    runs-on: ubuntu-latest\n    steps: [{run: x}]\n",
		"called.yml": "on: push\njobs:\n  a:\n    uses: ./.github/workflows/missing.yml\n",
		"action.yml": "on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps: [{uses: ./.github/actions/broken}]\n",
		"label.yml":  "on: push\njobs:\n  a:\n    runs-on: [big-box]\n    steps: [{run: x}]\n",
		"if.yml":     "on: push\njobs:\n  a:\n    if: false\n    runs-on: ubuntu-latest\n    steps: [{run: x}]\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, ".github", "workflows", name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// A local action whose metadata does not parse.
	if err := os.MkdirAll(filepath.Join(dir, ".github", "actions", "broken"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, ".github", "actions", "broken", "action.yml"), []byte("runs: [\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	l, err := actionlint.NewLinter(io.Discard, &actionlint.LinterOptions{Shellcheck: "", Pyflakes: ""})
	if err != nil {
		t.Fatal(err)
	}
	errs, err := l.LintRepository(dir)
	if err != nil {
		t.Fatal(err)
	}
	for name, m := range map[string]alMessage{
		"unknown need": alUnknownNeed, "needs cycle": alNeedsCycle, "reusable workflow": alReusableWorkflow,
		"local action": alLocalAction, "runner label": alRunnerLabel, "constant condition": alConstantCond,
	} {
		found := false
		for _, e := range errs {
			found = found || m.is(e)
		}
		if !found {
			t.Errorf("%s: actionlint no longer produces a message matching %q (kind %q); its errors:", name, m.re(), m.kind)
			for _, e := range errs {
				t.Logf("  [%s] %s", e.Kind, e.Message)
			}
		}
	}
}
