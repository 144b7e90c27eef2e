package scope

import (
	"errors"
	"strings"
	"testing"
)

func TestPlanChunks(t *testing.T) {
	cfg, err := DefaultConfig().Resolve()
	if err != nil {
		t.Fatal(err)
	}
	cfg.StatusContext, cfg.SnapshotContext, cfg.ChunkLimit = "ci/scope", "ci/snap", 140
	opts := OptionsFrom(cfg)
	sha := strings.Repeat("a", 40)
	for _, c := range []struct {
		name     string
		targets  []string
		previous int
		snapshot string
		want     string // the plan's contexts=descriptions, or the error
		rejected bool
	}{
		{name: "targets", targets: specExample[:2], previous: 2, want: "ci/scope-1=" + specExample[0] + " " + specExample[1] + " ci/scope-2= ci/snap="},
		{name: "full suite blanks old chunks", previous: 2, want: "ci/scope-1= ci/scope-2= ci/snap="},
		{name: "snapshot", snapshot: sha + "," + sha + "," + sha, want: "ci/snap=" + sha + " " + sha + " " + sha + " "},
		{name: "negative previous", previous: -1, want: "--previous must not be negative"},
		{name: "previous out of range", previous: MaxChunkIndex + 1, want: "out of range"},
		// Near miss: MaxChunkIndex itself is allowed.
		{name: "previous at the cap", previous: MaxChunkIndex, want: "ci/snap="},
		{name: "snapshot with targets", targets: specExample[:1], snapshot: sha + "," + sha + "," + sha, want: "--snapshot takes BASE,MERGE,TREE"},
		{name: "snapshot of two", snapshot: sha + "," + sha, want: "--snapshot takes BASE,MERGE,TREE"},
		{name: "rejected target", targets: []string{"../etc/passwd"}, want: "rejected: ", rejected: true},
	} {
		plan, fp, err := PlanChunks(c.targets, cfg, opts, c.previous, c.snapshot)
		var got string
		if err != nil {
			got = err.Error()
			var rj *Rejection
			if errors.As(err, &rj) != c.rejected {
				t.Errorf("%s: rejection %t, want %t (%v)", c.name, !c.rejected, c.rejected, err)
			}
		} else {
			var parts []string
			for _, s := range plan {
				parts = append(parts, s.Context+"="+s.Description)
			}
			got = strings.Join(parts, " ")
			if fp == "" {
				t.Errorf("%s: no fingerprint", c.name)
			}
		}
		if !strings.Contains(got, c.want) {
			t.Errorf("%s: got %q, want it to contain %q", c.name, got, c.want)
		}
	}
}
