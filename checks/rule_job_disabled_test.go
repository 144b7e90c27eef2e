package checks

import (
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/cicheck/cicheck/workflowgraph"
)

func TestJobDisabled(t *testing.T) {
	const tail = "    runs-on: x\n    steps: [{run: x}]\n"
	for _, c := range []struct{ name, src, want string }{
		{"if false parks a chain", "on: push\njobs:\n  a:\n    if: false\n" + tail + "  b:\n    needs: a\n" + tail + "  c:\n    needs: b\n" + tail,
			"w.yml:4:9: notice [job-disabled] a is disabled: its if: (false) is always false, so it never runs, nor 2 jobs it parks: b, c job=a fix=\n" +
				"w.yml:7:3: notice [job-disabled] b never runs while a is disabled: it needs a and has no status check, so the implicit success() skips it too job=b fix=\n" +
				"w.yml:11:3: notice [job-disabled] c never runs while a is disabled: it needs a (through b) and has no status check, so the implicit success() skips it too job=c fix=\n"},
		{"a status check may still run", "on: push\njobs:\n  a:\n    if: ${{ false }}\n" + tail + "  b:\n    needs: a\n    if: always()\n" + tail + "  c:\n    needs: b\n    if: ${{ !cancelled() }}\n" + tail,
			"w.yml:4:9: notice [job-disabled] a is disabled: its if: (${{ false }}) is always false, so it never runs job=a fix=\n"},
		{"a condition without a status check is still parked", "on: push\njobs:\n  a:\n    if: false\n" + tail + "  b:\n    needs: a\n    if: github.event_name == 'push'\n" + tail,
			"w.yml:4:9: notice [job-disabled] a is disabled: its if: (false) is always false, so it never runs, nor 1 job it parks: b job=a fix=\n" +
				"w.yml:7:3: notice [job-disabled] b never runs while a is disabled: it needs a and has no status check, so the implicit success() skips it too job=b fix=\n"},
		{"success() is no way out", "on: push\njobs:\n  a:\n    if: false\n" + tail + "  b:\n    needs: a\n    if: success() && github.event_name == 'push'\n" + tail + "  c:\n    needs: a\n    if: success() || failure()\n" + tail,
			"w.yml:4:9: notice [job-disabled] a is disabled: its if: (false) is always false, so it never runs, nor 1 job it parks: b job=a fix=\n" +
				"w.yml:7:3: notice [job-disabled] b never runs while a is disabled: it needs a and is gated on success(), which is false with it skipped job=b fix=\n"},
		{"any constant false", "on: push\njobs:\n  a:\n    if: 1 == 2\n" + tail,
			"w.yml:4:9: notice [job-disabled] a is disabled: its if: (1 == 2) is always false, so it never runs job=a fix=\n"},
		{"false whatever the run decides", "on: push\njobs:\n  a:\n    if: github.event_name == 'push' && false\n" + tail,
			"w.yml:4:9: notice [job-disabled] a is disabled: its if: (github.event_name == 'push' && false) is always false, so it never runs job=a fix=\n"},
		// Near misses: conditions the run can make true.
		{"!success() runs after the skip", "on: push\njobs:\n  a:\n    if: false\n" + tail + "  b:\n    needs: a\n    if: ${{ !success() }}\n" + tail,
			"w.yml:4:9: notice [job-disabled] a is disabled: its if: (false) is always false, so it never runs job=a fix=\n"},
		{"the string 'false' is truthy", "on: push\njobs:\n  a:\n    if: \"'false'\"\n" + tail, ""},
		{"or", "on: push\njobs:\n  a:\n    if: false || github.event_name == 'push'\n" + tail, ""},
		{"a variable", "on: push\njobs:\n  a:\n    if: vars.ENABLED\n" + tail, ""},
		{"template text is always true", "on: push\njobs:\n  a:\n    if: x ${{ false }}\n" + tail, ""},
		{"no if", "on: push\njobs:\n  a:\n" + tail + "  b:\n    needs: a\n" + tail, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := render(Run(loadSrc(t, c.src), "", nil, []*Rule{JobDisabled})); got != c.want {
				t.Errorf("got\n%s\nwant\n%s", got, c.want)
			}
		})
	}
}

// TestConstantFalseAdapter: actionlint's constant-condition error is dropped
// for a job's constant-false if: (job-disabled reports it), a notice for a
// step's, and kept as an error for a constant-true one.
func TestConstantFalseAdapter(t *testing.T) {
	dir := t.TempDir()
	wf := filepath.Join(dir, ".github", "workflows")
	if err := os.MkdirAll(wf, 0o755); err != nil {
		t.Fatal(err)
	}
	src := []byte(`on: push
jobs:
  a:
    if: false
    runs-on: ubuntu-latest
    steps:
      - if: false
        run: echo parked
      - if: true
        run: echo always
  b:
    if: true
    runs-on: ubuntu-latest
    steps: [{run: x}]
`)
	p := filepath.Join(wf, "ci.yml")
	if err := os.WriteFile(p, src, 0o644); err != nil {
		t.Fatal(err)
	}
	l, err := NewLinter(LinterOptions{WorkingDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	fs, _, err := l.Lint(p, dir, "ci.yml", src)
	if err != nil {
		t.Fatal(err)
	}
	got := render(fs)
	want := "ci.yml:7:13: notice [if-cond] constant expression \"false\" in condition: the step is disabled and never runs job= fix=\n" +
		"ci.yml:9:13: error [if-cond] constant expression \"true\" in condition. remove the if: section job= fix=\n" +
		"ci.yml:12:9: error [if-cond] constant expression \"true\" in condition. remove the if: section job= fix=\n"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// TestParkedByMatchesScan: the one-pass first disabled ancestor, and the
// need it parks through, agree with listing each job's ancestors, on random
// graphs (cycles and self-needs included) with random disabled jobs,
// repeated and unknown needs.
func TestParkedByMatchesScan(t *testing.T) {
	rng := rand.New(rand.NewSource(11))
	for trial := 0; trial < 200; trial++ {
		n := 1 + rng.Intn(40)
		var b strings.Builder
		b.WriteString("on: push\njobs:\n")
		for i := 0; i < n; i++ {
			fmt.Fprintf(&b, "  j%d:\n    runs-on: x\n    steps: [{run: x}]\n", i)
			if rng.Intn(4) == 0 {
				b.WriteString("    if: false\n")
			}
			if i > 0 {
				b.WriteString("    needs: [")
				for k := rng.Intn(4); k >= 0; k-- {
					if rng.Intn(15) == 0 {
						b.WriteString("nope, ")
					}
					to := rng.Intn(i)
					if trial%2 == 1 && rng.Intn(6) == 0 {
						to = rng.Intn(n) // forward or to itself: a cycle
					}
					fmt.Fprintf(&b, "j%d, ", to)
				}
				b.WriteString("]\n")
			}
		}
		w := loadSrc(t, b.String())
		var disabled []*workflowgraph.Job
		for _, j := range w.Jobs {
			if alwaysFalse(j.If) {
				disabled = append(disabled, j)
			}
		}
		fast, scan := parkedBy(w, disabled), parkedByScan(w, disabled)
		for _, d := range w.Jobs {
			if alwaysFalse(d.If) {
				continue // the rule asks only about jobs that may run
			}
			fj, fv := fast(d)
			sj, sv := scan(d)
			if fj != sj || fv != sv {
				t.Fatalf("%s: parked by %v through %q, the scan says %v through %q\n%s", d.ID, fj, fv, sj, sv, b.String())
			}
		}
	}
}

// parkedByScan is parkedBy as the rule did it: listing ancestors.
func parkedByScan(w *workflowgraph.Workflow, disabled []*workflowgraph.Job) func(d *workflowgraph.Job) (*workflowgraph.Job, string) {
	return func(d *workflowgraph.Job) (*workflowgraph.Job, string) {
		anc := w.Ancestors(d.ID)
		for _, j := range disabled {
			if j.ID == d.ID || !slices.Contains(anc, j.ID) {
				continue
			}
			via := ""
			for _, n := range d.Needs {
				if n == j.ID {
					via = ""
					break
				}
				if via == "" && slices.Contains(w.Ancestors(n), j.ID) {
					via = n
				}
			}
			return j, via
		}
		return nil, ""
	}
}
