package lint

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/cicheck/cicheck/config"
	"github.com/cicheck/cicheck/finding"
	"github.com/cicheck/cicheck/testregistry"
)

// TestRegistryReadsLintsParse: LintRepo hands the registry the workflows
// it parsed, the same files, paths and text the registry would load
// itself, and the registry's findings are the same either way, on every
// fixture repository with a registry and workflows.
func TestRegistryReadsLintsParse(t *testing.T) {
	dirs, _ := filepath.Glob("../fixtures/*")
	n := 0
	for _, d := range dirs {
		if _, err := os.Stat(filepath.Join(d, ".github", "workflows")); err != nil {
			continue
		}
		// A copy outside this repository: inside it, the git top level
		// (this repository's own workflows) would be linted.
		root := t.TempDir()
		if err := os.CopyFS(root, os.DirFS(d)); err != nil {
			t.Fatal(err)
		}
		res, err := New(Options{WorkingDir: root}).LintFiles(nil)
		if err != nil {
			continue // no workflow files directly in .github/workflows
		}
		if !res.parsedComplete {
			continue
		}
		n++
		fsys := os.DirFS(root)
		own := testregistry.LoadWorkflows(fsys, ".github/workflows")
		var got, want []string
		for _, w := range res.parsed {
			got = append(got, w.Path+"\x00"+string(w.Source))
		}
		for _, w := range own {
			want = append(want, w.Path+"\x00"+string(w.Source))
		}
		slices.Sort(got)
		if !slices.Equal(got, want) {
			t.Errorf("%s: lint parsed %q, the registry loads %q", d, got, want)
			continue
		}
		reg, err := testregistry.DefaultConfig().Resolve(fsys)
		if err != nil {
			t.Fatal(err)
		}
		a, errA := testregistry.ScanWith(fsys, reg, res.parsed)
		b, errB := testregistry.ScanWith(fsys, reg, nil)
		if (errA == nil) != (errB == nil) || errA == nil && !slices.EqualFunc(a.Findings, b.Findings, func(x, y finding.Finding) bool { return x == y }) {
			t.Errorf("%s: findings over lint's parse differ from the registry's own load", d)
		}
	}
	if n < 3 {
		t.Fatalf("only %d fixtures compared", n)
	}
}

// TestRegistryLoadsWhatLintSkipped: a workflow the configuration tells lint
// to ignore is still one the registry reads (it runs on GitHub), so lint's
// parse, which lacks it, is not handed over; the suites that workflow runs
// keep their consumer. Near miss of the completeness guard: without it,
// every suite of the ignored pr-test.yml would have "no consumer".
func TestRegistryLoadsWhatLintSkipped(t *testing.T) {
	root := t.TempDir()
	if err := os.CopyFS(root, os.DirFS("../fixtures/registry-miles")); err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(root, ".github", "workflows", "other.yml")
	if err := os.WriteFile(other, []byte("on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps: [{run: echo}]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	count := func(ignore ...string) int {
		cfg := config.Default()
		cfg.Ignore = ignore
		res, err := New(Options{WorkingDir: root, Config: cfg}).LintRepo()
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, f := range res.Findings {
			if f.Rule == testregistry.RuleSuiteNoConsumer {
				n++
			}
		}
		return n
	}
	if base, ignored := count(), count(".github/workflows/pr-test.yml"); ignored != base {
		t.Errorf("ignoring pr-test.yml for lint changed the registry's reg-suite-no-consumer findings: %d, not %d", ignored, base)
	}
}
