package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
)

// TestExplainFixtureInSync keeps the acceptance scripts' copy of the seed
// 002 fixtures equal to fixtures/paths-mlx*: the scripts must test the
// fixture the repository ships.
func TestExplainFixtureInSync(t *testing.T) {
	cases := map[string]string{
		"explain_acceptance.txtar": "paths-mlx",
		"explain_unknown.txtar":    "paths-mlx",
		"explain_before.txtar":     "paths-mlx-before",
	}
	for script, fixture := range cases {
		a, err := txtar.ParseFile(filepath.Join("testdata", script))
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range a.Files {
			switch f.Name {
			case ".cicheck.yaml", ".github/actionlint.yaml", ".github/workflows/ci.yml":
			default:
				continue
			}
			want, err := os.ReadFile(filepath.Join("..", "..", "fixtures", fixture, f.Name))
			if err != nil {
				t.Fatal(err)
			}
			if string(want) != string(f.Data) {
				t.Errorf("%s: %s differs from fixtures/%s/%s", script, f.Name, fixture, f.Name)
			}
		}
	}
}
