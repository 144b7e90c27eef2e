package testregistry

import (
	"slices"
	"strings"
	"testing"
)

// Workflow files are .yml or .yaml (GitHub reads both); anything else in
// the directory, a note that happens to mention --suite, consumes nothing.
func TestWorkflowExtensionsNearMiss(t *testing.T) {
	files := repo(map[string]string{
		"tests/e2e/test_a.py": "register_cpu_ci(1, 'stage-a-cpu')\n",
		".github/workflows/pr-test.yaml": "jobs:\n  a:\n    steps:\n      - run: python tests/ci/run_suite.py --hw cpu --suite stage-a-cpu\n" +
			"      - run: python tests/ci/run_suite.py --hw cuda --suite=stage-c-8-gpu-h100\n",
		".github/workflows/notes.txt": "python tests/ci/run_suite.py --suite stage-b-cpu\n",
	})
	r, err := Scan(files, DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range r.Findings {
		if f.Rule == RuleSuiteNoConsumer {
			got = append(got, strings.SplitN(f.Message, " ", 3)[1])
		}
	}
	slices.Sort(got)
	want := []string{"'stage-b-2-gpu-h200'", "'stage-b-cpu'", "'stage-c-2-gpu-h200'", "'stage-c-4-gpu-h200'", "'stage-c-4-gpu-mi350'", "'stage-c-8-gpu-h200'"}
	if !slices.Equal(got, want) {
		t.Errorf("suites without a consumer: %v, want %v", got, want)
	}
}

func TestHasAnyPrefixSuffix(t *testing.T) {
	ps := []string{"tests/e2e/", "tests/unit/"}
	for s, want := range map[string]bool{"tests/e2e/a.py": true, "tests/unit/b.py": true, "tests/other/c.py": false, "": false} {
		if got := hasAnyPrefix(s, ps); got != want {
			t.Errorf("hasAnyPrefix(%q) = %v", s, got)
		}
	}
	if hasAnyPrefix("tests/e2e/a.py", nil) {
		t.Errorf("no prefixes: nothing matches")
	}
}
