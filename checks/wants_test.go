package checks

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestGateWants checks the reviewed expectation written beside each
// testdata/gate_*.yml line, in the manner of go/analysis's analysistest: a
// line ending "# want: rule[, rule]" must get exactly those findings, and
// no other line any. The .golden files pin the messages; these comments
// pin which job gets what, so regenerating a golden (-update-gate) cannot
// silently accept a finding that moved, vanished or appeared.
func TestGateWants(t *testing.T) {
	wantRE := regexp.MustCompile(`#\s*want:\s*([a-z0-9, -]+)$`)
	files, _ := filepath.Glob("testdata/gate_*.yml")
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		want := map[int][]string{}
		for i, ln := range strings.Split(string(src), "\n") {
			if m := wantRE.FindStringSubmatch(ln); m != nil {
				for _, r := range strings.Split(m[1], ",") {
					want[i+1] = append(want[i+1], strings.TrimSpace(r))
				}
			}
		}
		if len(want) == 0 {
			t.Errorf("%s: no # want: comments", f)
		}
		got := map[int][]string{}
		for _, x := range Run(loadSrc(t, string(src)), "", nil, gateRules) {
			got[x.Line] = append(got[x.Line], x.Rule)
		}
		for line := range mergeKeys(want, got) {
			w, g := slices.Sorted(slices.Values(want[line])), slices.Sorted(slices.Values(got[line]))
			if !slices.Equal(w, g) {
				t.Errorf("%s:%d: findings %v, want %v", f, line, g, w)
			}
		}
	}
}

func mergeKeys(a, b map[int][]string) map[int]bool {
	keys := map[int]bool{}
	for k := range a {
		keys[k] = true
	}
	for k := range b {
		keys[k] = true
	}
	return keys
}
