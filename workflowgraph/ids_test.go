package workflowgraph

import (
	"slices"
	"testing"
)

// TestIDsAsWritten: a job's ID is its key as written and each need is
// spelled as the ID of the job it names, while every look-up compares ids
// case-insensitively as GitHub does. The near misses: a needs: entry in
// another case still resolves (a case-sensitive match would make it an
// unknown need and drop the edge), and one that differs by more than case
// stays unknown, as written.
func TestIDsAsWritten(t *testing.T) {
	cases := []struct {
		name, needs string
		wantNeeds   []string
		unknown     bool
	}{
		{"same case", "Build-Docs", []string{"Build-Docs"}, false},
		{"lower case", "build-docs", []string{"Build-Docs"}, false},
		{"upper case", "BUILD-DOCS", []string{"Build-Docs"}, false},
		{"near miss: not a case variant", "Build_Docs", []string{"Build_Docs"}, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w := load(t, map[string]string{"w.yml": `on: push
jobs:
  Build-Docs:
    runs-on: ubuntu-latest
    steps: [{run: make}]
  GPU_Test:
    needs: ` + c.needs + `
    runs-on: [self-hosted, h100]
    steps: [{run: make}]
`}, "w.yml")
			var ids []string
			for _, j := range w.Jobs {
				ids = append(ids, j.ID)
			}
			if !slices.Equal(ids, []string{"Build-Docs", "GPU_Test"}) {
				t.Fatalf("ids %v", ids)
			}
			g := w.Job("gpu_test")
			if g == nil || g.ID != "GPU_Test" || w.Job("build-DOCS") == nil {
				t.Fatalf("Job() must fold case: %v", g)
			}
			if !slices.Equal(g.Needs, c.wantNeeds) {
				t.Errorf("needs %v, want %v", g.Needs, c.wantNeeds)
			}
			if got := w.UnknownNeeds(g); (len(got) > 0) != c.unknown {
				t.Errorf("unknown needs %v, want unknown=%v", got, c.unknown)
			}
			wantAnc, wantKids := []string{"Build-Docs"}, []string{"GPU_Test"}
			if c.unknown {
				wantAnc, wantKids = nil, nil
			}
			if got := w.Ancestors("GPU_TEST"); !slices.Equal(got, wantAnc) {
				t.Errorf("ancestors %v, want %v", got, wantAnc)
			}
			if got := w.Children("build-docs"); !slices.Equal(got, wantKids) {
				t.Errorf("children %v, want %v", got, wantKids)
			}
			if got := w.AncestorCount("gpu_test"); got != len(wantAnc) {
				t.Errorf("ancestor count %d", got)
			}
		})
	}
}

// TestCompareIDs: lists of ids read in the order of their lower-cased
// forms, whatever the keys' case, so re-casing a key does not reorder them.
func TestCompareIDs(t *testing.T) {
	ids := []string{"b", "Zeta", "alpha", "B", "Alpha"}
	slices.SortFunc(ids, CompareIDs)
	if want := []string{"Alpha", "alpha", "B", "b", "Zeta"}; !slices.Equal(ids, want) {
		t.Errorf("got %v, want %v", ids, want)
	}
}
