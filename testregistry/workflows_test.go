package testregistry

import (
	"io/fs"
	"os"
	"path"
	"strings"
	"testing"
	"testing/fstest"
)

func TestWorkflowConsumers(t *testing.T) {
	files := repo(map[string]string{
		"tests/e2e/test_a.py": "register_cpu_ci(1, 'stage-a-cpu')\n",
		".github/workflows/pr-test.yml": "jobs:\n  a:\n    steps:\n      - run: python tests/ci/run_suite.py --hw cpu --suite stage-a-cpu\n" +
			"      - run: python tests/ci/run_suite.py --hw cuda --suite=stage-c-8-gpu-h100\n" +
			"    if: contains(github.event.pull_request.labels.*.name, 'run-ci-megatorn') || contains(x, 'run-ci-all')\n" +
			"  b:\n    uses: ./.github/workflows/run-ci-file.yml\n",
	})
	r, err := Scan(files, DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range r.Findings {
		if f.Rule == RuleSuiteNoConsumer || f.Rule == RuleUnknownRequest {
			got = append(got, f.Rule+" "+f.File+":"+itoaT(f.Line)+" "+strings.SplitN(f.Message, " ", 3)[1])
		}
	}
	want := []string{
		"policy-unknown-request .github/workflows/pr-test.yml:6 is",
		"reg-suite-no-consumer tests/ci/run_suite.py:9 'stage-b-cpu'",
		"reg-suite-no-consumer tests/ci/run_suite.py:10 'stage-b-2-gpu-h200'",
		"reg-suite-no-consumer tests/ci/run_suite.py:10 'stage-c-8-gpu-h200'",
		"reg-suite-no-consumer tests/ci/run_suite.py:10 'stage-c-4-gpu-h200'",
		"reg-suite-no-consumer tests/ci/run_suite.py:10 'stage-c-2-gpu-h200'",
		"reg-suite-no-consumer tests/ci/run_suite.py:11 'stage-c-4-gpu-mi350'",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestMilesCorpusWorkflows runs the fixture registry under radixark/miles'
// real workflows (../shared/corpus): every suite has a consumer (the
// nightly-* ROCm suites are external) and no quoted label is unknown.
func TestMilesCorpusWorkflows(t *testing.T) {
	corpus := "../../shared/corpus/radixark__miles"
	if _, err := os.Stat(corpus); err != nil {
		t.Skip("the shared corpus (../shared/corpus) is absent")
	}
	m := fstest.MapFS{}
	fixture := os.DirFS("../fixtures/registry-miles")
	err := fs.WalkDir(fixture, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.HasPrefix(p, ".github/workflows/") && strings.HasSuffix(p, ".yml") {
			return err
		}
		b, err := fs.ReadFile(fixture, p)
		m[p] = &fstest.MapFile{Data: b}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(corpus)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		b, err := os.ReadFile(path.Join(corpus, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		m[".github/workflows/"+e.Name()] = &fstest.MapFile{Data: b}
	}
	r, err := Scan(m, DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range r.Findings {
		if f.Rule == RuleSuiteNoConsumer || f.Rule == RuleUnknownRequest {
			t.Errorf("unexpected %v", f)
		}
	}
}
