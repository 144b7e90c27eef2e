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
)

// profileAutoName is how an auto profile may be written in .cicheck.yaml.
const profileAutoName = "auto"

// ProfileNames lists the names `registry.profile` accepts, sorted.
func ProfileNames() []string {
	return []string{profileAutoName, string(ProfileMiles), string(ProfileNeutral)}
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

// DetectProfile reports the profile whose layout fsys (a repository root)
// has. It is miles when a registry module the miles profile reads is a
// regular file there (its labels module tests/ci/labels.py or its suites
// module tests/ci/run_suite.py: when cicheck lint has always checked a
// registry), or when a test file under the miles test roots calls one of
// its markers (register_cpu_ci( and the like, as written; the scan itself
// needs no registry module); neutral
// otherwise. A tests/e2e of plain pytest files is not the miles layout.
func DetectProfile(fsys fs.FS) Profile {
	if fsys == nil {
		return ProfileNeutral
	}
	m := Miles()
	if Present(fsys, m) {
		return ProfileMiles
	}
	files, err := Discover(fsys, m)
	if err != nil {
		return ProfileNeutral
	}
	calls := make([][]byte, 0, len(m.Markers))
	for _, name := range sortedKeys(m.Markers) {
		calls = append(calls, []byte(name+"("))
	}
	for _, f := range files {
		src, err := readBounded(fsys, f, kindTest, typeUnknown, nil)
		if err != nil {
			continue // not read: no evidence either way
		}
		for _, c := range calls {
			if callsMarker(src, c) {
				return ProfileMiles
			}
		}
	}
	return ProfileNeutral
}

// callsMarker reports call (`name(`) in src as a whole name:
// my_register_cpu_ci( is another function.
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
// values), for any other the neutral profile with the configuration
// file's registry section applied over it. A named profile is returned as
// it is.
func (c Config) Resolve(fsys fs.FS) (Config, error) {
	if c.Profile != ProfileAuto {
		return c, nil
	}
	if DetectProfile(fsys) == ProfileMiles {
		c.Profile = ProfileMiles
		return c, nil
	}
	n := Neutral()
	if c.overlay != nil {
		if err := c.overlay(&n); err != nil {
			return Config{}, err
		}
	}
	n.Profile, n.overlay = ProfileNeutral, c.overlay
	return n, nil
}
