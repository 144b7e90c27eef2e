package lint

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const hazard = `on: push
jobs:
  cpu: {runs-on: ubuntu-latest, steps: [{run: x}]}
  build:
    needs: cpu
    if: ${{ !cancelled() }}
    runs-on: ubuntu-latest
    steps: [{run: x}]
  resolve:
    needs: build
    runs-on: ubuntu-latest
    steps: [{run: x}]
  gpu:
    needs: resolve
    if: ${{ !cancelled() && needs.resolve.result == 'success' }}
    runs-on: [self-hosted, h100]
    steps: [{run: x}]
`

// TestApplyFixesRefusesAChangedFile: an edit made between lint reading
// the file and --fix writing it is kept; the fix is reported as not
// written and not counted. The near miss, the file untouched, is written.
func TestApplyFixesRefusesAChangedFile(t *testing.T) {
	for _, edit := range []bool{true, false} {
		root := t.TempDir()
		if err := os.MkdirAll(filepath.Join(root, ".git"), 0o755); err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(root, ".github", "workflows", "ci.yml")
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(hazard), 0o644); err != nil {
			t.Fatal(err)
		}
		res, err := New(Options{WorkingDir: root, Fix: true}).LintRepo()
		if err != nil || len(res.Fixes) != 1 {
			t.Fatalf("lint: %v, %d fixes", err, len(res.Fixes))
		}
		mine := hazard + "# the author's edit\n"
		if edit {
			if err := os.WriteFile(p, []byte(mine), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		o, err := res.ApplyFixes(io.Discard, false)
		got, _ := os.ReadFile(p)
		switch {
		case err != nil:
			t.Fatal(err)
		case edit && (string(got) != mine || o.Findings != 0 || len(o.Skipped) != 1 || !strings.Contains(o.Skipped[0], "changed since")):
			t.Errorf("edited file: %+v\n%s", o, got)
		case !edit && (o.Findings != 1 || !strings.Contains(string(got), "needs.build.result == 'success'")):
			t.Errorf("untouched file not fixed: %+v\n%s", o, got)
		}
	}
}
