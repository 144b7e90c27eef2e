package lint

import (
	"os"
	"path/filepath"
	"testing"
)

// TestLoadRepoConfig: a command pointed at another repository reads that
// repository's .cicheck.yaml, named as the user named the repository;
// --config still wins, and a repository without one falls back to the
// working directory's.
func TestLoadRepoConfig(t *testing.T) {
	wd := t.TempDir()
	write := func(rel, text string) {
		p := filepath.Join(wd, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(wd, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	write(".cicheck.yaml", "heavy:\n  opt-in-label: l11\n")
	write("other/.cicheck.yaml", "heavy:\n  opt-in-label: l22\n")
	write("bare/README", "no configuration here\n")
	write("flag.yaml", "heavy:\n  opt-in-label: l33\n")
	for _, c := range []struct {
		flag, repo, wantFile string
		wantLabel            string
	}{
		{"", "", ".cicheck.yaml", "l11"},
		{"", "other", "other/.cicheck.yaml", "l22"},
		{"", "bare", ".cicheck.yaml", "l11"},
		{"flag.yaml", "other", "flag.yaml", "l33"},
	} {
		cfg, file, err := LoadRepoConfig(wd, c.flag, c.repo)
		if err != nil {
			t.Fatalf("LoadRepoConfig(%q, %q): %v", c.flag, c.repo, err)
		}
		if file != c.wantFile || cfg.Heavy.OptInLabel != c.wantLabel {
			t.Errorf("LoadRepoConfig(%q, %q) = %s with opt-in label %q, want %s with %q", c.flag, c.repo, file, cfg.Heavy.OptInLabel, c.wantFile, c.wantLabel)
		}
	}
}
