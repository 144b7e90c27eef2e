package pathsfilter

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"
)

// Version is a dorny/paths-filter release number.
type Version struct{ Major, Minor, Patch int }

func (v Version) String() string { return fmt.Sprintf("v%d.%d.%d", v.Major, v.Minor, v.Patch) }

// Less orders releases.
func (v Version) Less(o Version) bool {
	if v.Major != o.Major {
		return v.Major < o.Major
	}
	if v.Minor != o.Minor {
		return v.Minor < o.Minor
	}
	return v.Patch < o.Patch
}

var versionRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^v?(\d+)(?:\.(\d+))?(?:\.(\d+))?$`) })

// ParseVersion reads `v4`, `v4.0`, `v4.0.3` or `4.0.3`. full reports whether
// all three parts were present (a floating `v4` is not a release by itself).
func ParseVersion(s string) (v Version, full, ok bool) {
	m := versionRE().FindStringSubmatch(strings.TrimSpace(s))
	if m == nil {
		return Version{}, false, false
	}
	v.Major, _ = strconv.Atoi(m[1])
	if m[2] != "" {
		v.Minor, _ = strconv.Atoi(m[2])
	}
	if m[3] != "" {
		v.Patch, _ = strconv.Atoi(m[3])
	}
	return v, m[3] != "", true
}

// Newest is the newest release cicheck models fully; an unresolvable ref is
// simulated as this release with quantifier-dependent results unknown.
func Newest() Version { return Version{4, 0, 3} }

// Quantifier is a predicate-quantifier mode as a release interprets it.
type Quantifier string

const (
	QuantSome             Quantifier = "some"
	QuantEvery            Quantifier = "every"
	QuantSomeWithExcludes Quantifier = "some-with-excludes"
)

// Model is what cicheck knows about one `uses: dorny/paths-filter@REF`.
type Model struct {
	Ref     string
	Version Version
	// Resolved is false when the ref maps to no release (a branch, an
	// unknown SHA): Version is then Newest and quantifier-dependent results
	// are unknown (paths-filter-version-unknown).
	Resolved bool
	// Modelled is false before v2.5.2 (micromatch/minimatch): every result
	// of such a step is unknown.
	Modelled bool
}

// ResolveRef maps a ref through the tag table (cfg.Tags over the built-in
// one) to the release it stands for (spec §1). cfg.Version forces one.
func ResolveRef(ref string, cfg Config) Model {
	m := Model{Ref: ref, Version: Newest()}
	resolve := func(s string) bool {
		v, full, ok := ParseVersion(s)
		if !ok || !full {
			return false
		}
		m.Version, m.Resolved = v, true
		return true
	}
	switch {
	case cfg.Version != "" && resolve(cfg.Version):
	case cfg.Tags[ref] != "" && resolve(cfg.Tags[ref]):
	case DefaultConfig().Tags[ref] != "" && resolve(DefaultConfig().Tags[ref]):
	case resolve(ref):
	default:
		// `v4.0` and similar partial tags: the newest release of that line
		// known to the table.
		if v, _, ok := ParseVersion(ref); ok {
			if t := cfg.Tags[fmt.Sprintf("v%d", v.Major)]; t != "" && resolve(t) {
				break
			}
			if t := DefaultConfig().Tags[fmt.Sprintf("v%d", v.Major)]; t != "" {
				resolve(t)
			}
		}
	}
	m.Modelled = !m.Version.Less(Version{2, 5, 2})
	return m
}

// QuantifierVerdict is how a release treats a predicate-quantifier value.
type QuantifierVerdict int

const (
	// QuantOK: the value is accepted and simulated as Mode.
	QuantOK QuantifierVerdict = iota
	// QuantIgnored: the release does not read the input (< v3.0.2); it
	// behaves as `some` (paths-filter-quantifier-ignored).
	QuantIgnored
	// QuantRejected: the release fails the step (paths-filter-quantifier-unsupported).
	QuantRejected
)

// Quantifier decides how this release treats the predicate-quantifier input
// value raw ("" when absent), returning the mode it simulates.
func (m Model) Quantifier(raw string) (Quantifier, QuantifierVerdict) {
	v := m.Version
	switch {
	case v.Less(Version{3, 0, 2}):
		if raw == "" {
			return QuantSome, QuantOK
		}
		return QuantSome, QuantIgnored
	}
	// From v3.0.2 (where the input is read but action.yml does not declare
	// it) the value is validated: some-with-excludes before v4.0.3, or any
	// other unknown value, fails the step (spec §1).

	switch raw {
	case "", string(QuantSome):
		return QuantSome, QuantOK
	case string(QuantEvery):
		return QuantEvery, QuantOK
	case string(QuantSomeWithExcludes):
		if !v.Less(Version{4, 0, 3}) {
			return QuantSomeWithExcludes, QuantOK
		}
	}
	return QuantSome, QuantRejected
}

// ValidQuantifiers lists the values this release accepts, for messages.
func (m Model) ValidQuantifiers() string {
	if !m.Version.Less(Version{4, 0, 3}) {
		return "some, every, some-with-excludes"
	}
	return "some, every"
}

// splitUses splits `dorny/paths-filter@REF` (any case of owner/name, an
// optional sub-path is not allowed for this action). ok is false for any
// other action.
func splitUses(uses string) (ref string, ok bool) {
	at := strings.LastIndexByte(uses, '@')
	if at < 0 {
		return "", false
	}
	if !strings.EqualFold(uses[:at], "dorny/paths-filter") {
		return "", false
	}
	return uses[at+1:], true
}

// jsYAML is the js-yaml major version the release loads filters with:
// 3.14 up to v2.11.1, 4.1 from v3.0.0 (each tag's package-lock.json).
func (m Model) jsYAML() int {
	if m.Version.Major < 3 {
		return 3
	}
	return 4
}
