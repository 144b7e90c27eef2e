package testregistry

import (
	"bytes"
	"io/fs"
)

// Profile names a registry layout whose conventions are the defaults of
// the `registry:` section.
type Profile string

// Profiles. The zero value is auto.
const (
	// ProfileAuto settles on miles when the repository has the miles
	// layout (DetectProfile) and on neutral otherwise.
	ProfileAuto Profile = ""
	// ProfileNeutral assumes nothing: no roots, markers, registry modules
	// or workflow conventions, so a repository that configures none has no
	// registry and gets no registry findings.
	ProfileNeutral Profile = "neutral"
	// ProfileMiles is radixark/miles' layout (Miles).
	ProfileMiles Profile = "miles"
	// ProfileSglang is sgl-project/sglang's layout (Sglang).
	ProfileSglang Profile = "sglang"
)

// profileAutoName is how an auto profile may be written in .cicheck.yaml.
const profileAutoName = "auto"

// ProfileNames lists the names `registry.profile` accepts, sorted.
func ProfileNames() []string {
	return []string{profileAutoName, string(ProfileMiles), string(ProfileNeutral), string(ProfileSglang)}
}

// ParseProfile reads a `registry.profile` value; ok is false for a name
// that is no profile.
func ParseProfile(name string) (Profile, bool) {
	switch name {
	case "", profileAutoName:
		return ProfileAuto, true
	case string(ProfileMiles):
		return ProfileMiles, true
	case string(ProfileNeutral):
		return ProfileNeutral, true
	case string(ProfileSglang):
		return ProfileSglang, true
	}
	return "", false
}

// ProfileConfig returns a profile's values. The auto profile's are
// DefaultConfig's.
func ProfileConfig(p Profile) (Config, bool) {
	switch p {
	case ProfileAuto:
		return DefaultConfig(), true
	case ProfileMiles:
		return Miles(), true
	case ProfileNeutral:
		return Neutral(), true
	case ProfileSglang:
		return Sglang(), true
	}
	return Config{}, false
}

// Neutral returns the neutral profile: pytest's test_*.py file pattern and
// the newest Python, nothing else. It finds no registry anywhere.
func Neutral() Config {
	return Config{
		Profile:     ProfileNeutral,
		FileGlob:    "test_*.py",
		Markers:     map[string]Marker{},
		ExtraParams: map[string]map[string]Param{},
		Python:      PythonNewest,
	}
}

// DefaultConfig returns the configuration when .cicheck.yaml says nothing
// of the registry: the auto profile. Until Resolve settles it against a
// repository it holds the miles values, which Resolve keeps for a
// repository with the miles layout and replaces with the neutral ones for
// any other.
func DefaultConfig() Config {
	c := Miles()
	c.Profile = ProfileAuto
	return c
}

// layouts are the profiles DetectProfile recognises, in the order it
// tries them.
var layouts = []func() Config{Miles, Sglang}

// DetectProfile reports the profile whose layout fsys (a repository root)
// has, trying miles, then sglang. A repository has a profile's layout when
// a registry module the profile reads is a regular file there (miles'
// labels module tests/ci/labels.py or suites module tests/ci/run_suite.py,
// when cicheck lint has always checked a registry; sglang's
// test/run_suite.py when it mentions its per-commit table), or when a test
// file the profile discovers calls one of its markers (register_cpu_ci( and
// the like, as written; the scan itself needs no registry module). Any
// other repository is neutral: a tests/e2e of plain pytest files is not the
// miles layout.
func DetectProfile(fsys fs.FS) Profile {
	if fsys == nil {
		return ProfileNeutral
	}
	for _, layout := range layouts {
		if c := layout(); hasLayout(fsys, c) {
			return c.Profile
		}
	}
	return ProfileNeutral
}

// hasLayout reports whether fsys has the layout of profile c.
func hasLayout(fsys fs.FS, c Config) bool {
	if t := c.Suites.Tables; t != nil {
		// A run_suite.py alone is a common name; sglang's defines its table.
		src, err := readBounded(fsys, c.Suites.File, kindModule, typeUnknown, nil)
		if err == nil && callsMarker(src, []byte(t.PerCommit)) {
			return true
		}
	} else if Present(fsys, c) {
		return true
	}
	files, err := Discover(fsys, c)
	if err != nil {
		return false
	}
	calls := make([][]byte, 0, len(c.Markers))
	for _, name := range sortedKeys(c.Markers) {
		calls = append(calls, []byte(name+"("))
	}
	for _, f := range files {
		src, err := readBounded(fsys, f, kindTest, typeUnknown, nil)
		if err != nil {
			continue // not read: no evidence either way
		}
		for _, call := range calls {
			if callsMarker(src, call) {
				return true
			}
		}
	}
	return false
}

// callsMarker reports call (`name(`, or any name) in src starting a whole
// name: my_register_cpu_ci( is another function.
func callsMarker(src, call []byte) bool {
	for i := 0; ; {
		j := bytes.Index(src[i:], call)
		if j < 0 {
			return false
		}
		at := i + j
		if at == 0 || !isNameByte(src[at-1]) {
			return true
		}
		i = at + 1
	}
}

func isNameByte(b byte) bool {
	return b == '_' || b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= 0x80
}

// SetOverlay records how to apply the configuration file's `registry:`
// section over other values; the config package sets it when it decodes
// one, so that Resolve can apply it over the neutral profile.
func (c *Config) SetOverlay(apply func(*Config) error) { c.overlay = apply }

// Resolve settles an auto profile against the repository in fsys: for the
// miles layout the configuration as it stands (decoded over the miles
// values); for the sglang layout, or any other, the sglang or the neutral
// profile with the configuration file's registry section applied over it. A named profile is returned as
// it is.
func (c Config) Resolve(fsys fs.FS) (Config, error) {
	if c.Profile != ProfileAuto {
		return c, nil
	}
	var n Config
	switch DetectProfile(fsys) {
	case ProfileMiles:
		c.Profile = ProfileMiles
		return c, nil
	case ProfileSglang:
		n = Sglang()
	default:
		n = Neutral()
	}
	p := n.Profile
	if c.overlay != nil {
		if err := c.overlay(&n); err != nil {
			return Config{}, err
		}
	}
	n.Profile, n.overlay = p, c.overlay
	return n, nil
}
