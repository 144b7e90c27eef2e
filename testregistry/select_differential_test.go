package testregistry

import (
	"slices"
	"testing"
)

// TestSelectDifferential replays testdata/select-differential.json, the
// reference's own run_suite.py (filter_tests after resolve_policy, then
// auto_partition) on 1,000 generated requests (tools/registry-policy-diff),
// against Registry.SelectFor, what `cicheck registry select` runs: the
// same tests to run in the same order, the same disabled ones reported,
// an error where the reference stops. Like TestPolicyDifferential it needs
// the reference's tree, a checkout named by REGISTRY_REFERENCE.
func TestSelectDifferential(t *testing.T) {
	var golden struct {
		Files []string `json:"files"`
		Cases []struct {
			HW        string   `json:"hw"`
			Suite     string   `json:"suite"`
			Cadence   string   `json:"cadence"`
			Labels    []string `json:"labels"`
			MatchAll  bool     `json:"match_all"`
			Partition string   `json:"partition"`
			Run       []int    `json:"run"`
			Skipped   []int    `json:"skipped"`
			Error     *string  `json:"error"`
		} `json:"cases"`
	}
	fsys, cfg := referenceReplay(t, "select-differential.json", &golden)
	if len(golden.Cases) < 1000 {
		t.Fatalf("only %d cases", len(golden.Cases))
	}
	r, err := Scan(fsys, cfg)
	if err != nil || r.HasErrors() {
		t.Fatalf("scan: %v, errors %v", err, r.HasErrors())
	}
	names := func(idx []int) []string {
		out := []string{}
		for _, i := range idx {
			out = append(out, golden.Files[i])
		}
		return out
	}
	files := func(sel []Selected) []string {
		out := []string{}
		for _, s := range sel {
			out = append(out, s.File)
		}
		return out
	}
	agree := 0
	for i, c := range golden.Cases {
		q := SelectRequest{Cadence: c.Cadence, Labels: c.Labels, MatchAll: c.MatchAll, HW: c.HW, Suite: c.Suite, Partition: c.Partition}
		_, _, sel, err := r.SelectFor(q, cfg)
		switch {
		case c.Error != nil:
			if err == nil || err.Error() != *c.Error {
				t.Errorf("case %d %+v: the reference stops (%s), cicheck: %v %v", i, q, *c.Error, err, files(sel.Enabled))
				continue
			}
		case err != nil:
			t.Errorf("case %d %+v: cicheck stops (%v), the reference runs %v", i, q, err, names(c.Run))
			continue
		case !slices.Equal(files(sel.Enabled), names(c.Run)) || !slices.Equal(files(sel.Skipped), names(c.Skipped)):
			t.Errorf("case %d %+v:\n  reference runs %v, skips %v\n  cicheck   runs %v, skips %v", i, q, names(c.Run), names(c.Skipped), files(sel.Enabled), files(sel.Skipped))
			continue
		}
		agree++
	}
	t.Logf("%d/%d agree with the reference's run_suite.py", agree, len(golden.Cases))
}
