package testregistry

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestDifferentialNearMiss replays testdata/differential-nearmiss.json, in
// the format of testdata/differential.json (tools/registry-diff/gen.py with
// other seeds, CPython's verdicts): cases kept because a one-token change
// in the scanner (found by tools/mutate) turns cicheck's verdict on them.
// Every case must agree.
func TestDifferentialNearMiss(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "differential-nearmiss.json"))
	if err != nil {
		t.Fatal(err)
	}
	var g diffGolden
	if err := json.Unmarshal(data, &g); err != nil {
		t.Fatal(err)
	}
	if len(g.Cases) == 0 {
		t.Fatal("no cases")
	}
	cfg := DefaultConfig()
	cfg.Python = g.Python
	known := []string{"amd", "ft-long", "megatron", "short"} // testdata/crosscheck/tests/ci/labels.py
	sc := &scanner{cfg: cfg, minor: targetMinor(cfg.Python), known: map[string]bool{}, knownList: known, knownOK: true}
	for _, k := range known {
		sc.known[k] = true
	}
	for i, c := range g.Cases {
		base, ok := g.Bases[c.Base]
		if !ok || c.At+c.Del > len(base) {
			t.Fatalf("case %d: bad edit of %q", i, c.Base)
		}
		got := diffVerdict(sc, c.Base, base[:c.At]+c.Ins+base[c.At+c.Del:])
		want := c.Want
		if want == nil {
			want = []string{}
		}
		if got == nil {
			got = []string{}
		}
		if len(got) == 1 && newerRe.MatchString(got[0]) && len(want) == 1 && syntaxVerdict(want[0]) {
			got = want
		}
		if !slices.Equal(got, want) {
			t.Errorf("case %d (%s) %s, edit at %d -%d +%q:\n  CPython %s: %q\n  cicheck:     %q", i, c.Class, c.Base, c.At, c.Del, c.Ins, g.Python, want, got)
		}
	}
}
