package testregistry

import "testing"

func TestStagedFilter(t *testing.T) {
	cfg := DefaultConfig()
	keep, relevant := StagedFilter(cfg, []string{"docs/x.md", "tests/fast/test_a.py"})
	if !relevant || keep == nil || !keep("tests/fast/test_a.py") || keep("tests/fast/test_b.py") {
		t.Errorf("a staged test file: relevant %v", relevant)
	}
	if _, relevant := StagedFilter(cfg, []string{"docs/x.md", "src/y.go"}); relevant {
		t.Error("no staged test file is relevant")
	}
	// A registry-wide file makes every finding count.
	if keep, relevant := StagedFilter(cfg, []string{cfg.Labels.File}); !relevant || keep != nil {
		t.Errorf("labels file staged: keep %v relevant %v", keep != nil, relevant)
	}
}
