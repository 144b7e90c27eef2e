package config

import (
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/cicheck/cicheck/testregistry"
)

// TestRegistryProfile: registry.profile picks the values the rest of the
// section is decoded over; an unknown name is an error at its position
// with the closest name; without a profile the section is re-applied over
// whichever profile the repository's layout settles on.
func TestRegistryProfile(t *testing.T) {
	miles := fstest.MapFS{"tests/ci/labels.py": {Data: []byte("KNOWN_LABELS = {}\n")}}
	plain := fstest.MapFS{"tests/e2e/test_a.py": {Data: []byte("def test_a(): pass\n")}}
	for _, c := range []struct {
		name, src string
		fsys      fstest.MapFS
		err       string
		profile   testregistry.Profile
		roots     []string
		workflows string
	}{
		{name: "explicit miles", src: "registry:\n  profile: miles\n", fsys: plain, profile: testregistry.ProfileMiles,
			roots: testregistry.Miles().Roots, workflows: ".github/workflows"},
		{name: "explicit miles, override", src: "registry:\n  profile: miles\n  roots: [t]\n", fsys: plain, profile: testregistry.ProfileMiles,
			roots: []string{"t"}, workflows: ".github/workflows"},
		{name: "explicit neutral in miles layout", src: "registry:\n  profile: neutral\n", fsys: miles, profile: testregistry.ProfileNeutral},
		{name: "explicit auto", src: "registry:\n  profile: auto\n", fsys: plain, profile: testregistry.ProfileNeutral},
		{name: "no file, miles layout", src: "", fsys: miles, profile: testregistry.ProfileMiles,
			roots: testregistry.Miles().Roots, workflows: ".github/workflows"},
		{name: "no file, other layout", src: "", fsys: plain, profile: testregistry.ProfileNeutral},
		{name: "auto section over neutral", src: "registry:\n  roots: [checks]\n  workflows: ci\n", fsys: plain, profile: testregistry.ProfileNeutral,
			roots: []string{"checks"}, workflows: "ci"},
		{name: "auto section over miles", src: "registry:\n  workflows: ci\n", fsys: miles, profile: testregistry.ProfileMiles,
			roots: testregistry.Miles().Roots, workflows: "ci"},
		{name: "unknown profile", src: "registry:\n  profile: mils\n", err: `c.yaml:2:12: registry.profile: unknown profile "mils"; did you mean "miles"? (valid: auto, miles, neutral, sglang)`},
		{name: "unknown profile far", src: "registry:\n  profile: sglang-layout\n", err: `c.yaml:2:12: registry.profile: unknown profile "sglang-layout" (valid: auto, miles, neutral, sglang)`},
		{name: "case matters", src: "registry:\n  profile: Miles\n", err: `c.yaml:2:12: registry.profile: unknown profile "Miles"; did you mean "miles"?`},
		{name: "not a name", src: "registry:\n  profile: [miles]\n", err: `c.yaml:2:12: registry.profile must be a profile name`},
	} {
		t.Run(c.name, func(t *testing.T) {
			cfg, err := Parse("c.yaml", []byte(c.src))
			if c.err != "" {
				if err == nil || !strings.HasPrefix(err.Error(), c.err) {
					t.Fatalf("err = %v, want prefix %q", err, c.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			r, err := cfg.Registry.Resolve(c.fsys)
			if err != nil {
				t.Fatal(err)
			}
			if r.Profile != c.profile || !slices.Equal(r.Roots, c.roots) || r.Workflows != c.workflows {
				t.Errorf("got %q roots %v workflows %q; want %q roots %v workflows %q", r.Profile, r.Roots, r.Workflows, c.profile, c.roots, c.workflows)
			}
		})
	}
}
