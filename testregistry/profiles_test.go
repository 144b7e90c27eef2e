package testregistry

import (
	"testing"
	"testing/fstest"
)

// TestDetectProfile: the miles layout is a miles registry module, or a
// miles marker called in a test file under the miles roots. Each near
// miss resembles it and is not it.
func TestDetectProfile(t *testing.T) {
	for _, c := range []struct {
		name  string
		files map[string]string
		want  Profile
	}{
		{"labels module", map[string]string{"tests/ci/labels.py": "KNOWN_LABELS = {}\n"}, ProfileMiles},
		{"suites module", map[string]string{"tests/ci/run_suite.py": "CI_SUITES = {}\n"}, ProfileMiles},
		{"marker call under a root", map[string]string{"tests/e2e/test_a.py": "register_cuda_ci(60, 'stage-x')\n"}, ProfileMiles},
		{"marker call in tests/fast", map[string]string{"tests/fast/sub/test_a.py": "from x import register_cpu_ci\nregister_cpu_ci(1)\n"}, ProfileMiles},
		{"empty repository", map[string]string{"README.md": "x"}, ProfileNeutral},
		// Near misses.
		{"labels module is a directory", map[string]string{"tests/ci/labels.py/x": "KNOWN_LABELS = {}\n"}, ProfileNeutral},
		{"labels module elsewhere", map[string]string{"test/ci/labels.py": "KNOWN_LABELS = {}\n", "tests/labels.py": "KNOWN_LABELS = {}\n"}, ProfileNeutral},
		{"plain pytest under tests/e2e", map[string]string{"tests/e2e/test_a.py": "def test_a():\n    pass\n"}, ProfileNeutral},
		{"marker call outside the roots", map[string]string{"scripts/test_a.py": "register_cuda_ci(60, 'stage-x')\n", "tests/unit/test_b.py": "register_cuda_ci(60)\n"}, ProfileNeutral},
		{"marker name inside another name", map[string]string{"tests/e2e/test_a.py": "my_register_cuda_ci(60)\nregister_cuda_ci_helper(1)\n"}, ProfileNeutral},
		{"marker named, not called", map[string]string{"tests/e2e/test_a.py": "# see register_cuda_ci\n"}, ProfileNeutral},
		{"marker call in a file the glob skips", map[string]string{"tests/e2e/helpers.py": "register_cuda_ci(60)\n"}, ProfileNeutral},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := DetectProfile(mapFS(c.files)); got != c.want {
				t.Errorf("DetectProfile = %q, want %q", got, c.want)
			}
		})
	}
	if got := DetectProfile(nil); got != ProfileNeutral {
		t.Errorf("DetectProfile(nil) = %q", got)
	}
}

// TestResolveProfile: auto settles by layout, a named profile never does,
// and the configuration file's section applies over whichever it is.
func TestResolveProfile(t *testing.T) {
	miles := mapFS(map[string]string{"tests/ci/labels.py": "KNOWN_LABELS = {}\n"})
	plain := mapFS(map[string]string{"tests/e2e/test_a.py": "def test_a(): pass\n"})
	overlay := func(c *Config) error { c.Roots = []string{"checks"}; return nil }
	withOverlay := func(c Config) Config { c.Roots = append(c.Roots, "checks"); c.SetOverlay(overlay); return c }
	for _, c := range []struct {
		name      string
		cfg       Config
		fsys      fstest.MapFS
		profile   Profile
		roots     string
		labelFile string
	}{
		{"auto in miles layout", DefaultConfig(), miles, ProfileMiles, "tests/fast tests/fast-gpu tests/e2e tests/ci", "tests/ci/labels.py"},
		{"auto elsewhere", DefaultConfig(), plain, ProfileNeutral, "", ""},
		{"auto elsewhere, file section over neutral", withOverlay(DefaultConfig()), plain, ProfileNeutral, "checks", ""},
		{"auto in miles layout, file section kept", withOverlay(DefaultConfig()), miles, ProfileMiles, "tests/fast tests/fast-gpu tests/e2e tests/ci checks", "tests/ci/labels.py"},
		{"named miles elsewhere", Miles(), plain, ProfileMiles, "tests/fast tests/fast-gpu tests/e2e tests/ci", "tests/ci/labels.py"},
		{"named neutral in miles layout", Neutral(), miles, ProfileNeutral, "", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			r, err := c.cfg.Resolve(c.fsys)
			if err != nil {
				t.Fatal(err)
			}
			if r.Profile != c.profile || join(r.Roots) != c.roots || r.Labels.File != c.labelFile {
				t.Errorf("got %q roots %q labels %q; want %q roots %q labels %q", r.Profile, join(r.Roots), r.Labels.File, c.profile, c.roots, c.labelFile)
			}
			if err := ValidateConfig(r); err != nil {
				t.Errorf("resolved configuration invalid: %v", err)
			}
		})
	}
}

// TestNeutralFindsNothing: with no registry (neutral), test files that would
// be orphans or unregistered under miles give no finding.
func TestNeutralFindsNothing(t *testing.T) {
	fsys := mapFS(map[string]string{
		"tests/e2e/test_a.py":    "def test_a(): pass\n",
		"tests/manual/test_b.py": "def test_b(): pass\n",
		".github/workflows/ci.yml": "on: push\njobs:\n  a:\n    runs-on: x\n    steps: [{run: pytest --suite stage-x}]\n" +
			"    if: contains(github.event.pull_request.labels.*.name, 'run-ci-nothing')\n",
	})
	for _, cfg := range []Config{DefaultConfig(), Neutral()} {
		r, err := Scan(fsys, cfg)
		if err != nil {
			t.Fatal(err)
		}
		if len(r.Findings) != 0 || len(r.Files) != 0 || r.Config().Profile != ProfileNeutral {
			t.Errorf("%q: findings %v, files %v, profile %q", cfg.Profile, r.Findings, r.Files, r.Config().Profile)
		}
		if Present(fsys, cfg) {
			t.Errorf("%q: a registry is present", cfg.Profile)
		}
	}
	// Near miss: the same files under the miles profile are findings.
	r, err := Scan(fsys, Miles())
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Findings) == 0 {
		t.Error("miles profile: no findings")
	}
}

func TestParseProfile(t *testing.T) {
	for name, want := range map[string]Profile{"": ProfileAuto, "auto": ProfileAuto, "miles": ProfileMiles, "neutral": ProfileNeutral} {
		if got, ok := ParseProfile(name); !ok || got != want {
			t.Errorf("ParseProfile(%q) = %q, %v", name, got, ok)
		}
	}
	for _, name := range []string{"Miles", "mils", "default", " miles"} {
		if _, ok := ParseProfile(name); ok {
			t.Errorf("ParseProfile(%q) accepted", name)
		}
	}
	for _, name := range ProfileNames() {
		p, _ := ParseProfile(name)
		if _, ok := ProfileConfig(p); !ok {
			t.Errorf("ProfileConfig(%q) missing", p)
		}
	}
}

func mapFS(files map[string]string) fstest.MapFS {
	m := fstest.MapFS{}
	for k, v := range files {
		m[k] = &fstest.MapFile{Data: []byte(v)}
	}
	return m
}

func join(s []string) string {
	out := ""
	for i, x := range s {
		if i > 0 {
			out += " "
		}
		out += x
	}
	return out
}
