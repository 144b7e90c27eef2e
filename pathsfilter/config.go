package pathsfilter

// Config is this engine's section of .cicheck.yaml (`paths-filter:`). It is
// plain data with yaml tags; the config package decodes it strictly and
// fills defaults.
type Config struct {
	// Tags maps a dorny/paths-filter ref (tag, branch or commit SHA) to the
	// release it stands for. Entries given in .cicheck.yaml are merged over
	// the built-in table, so a repository can pin a SHA or a fork's tag.
	Tags map[string]string `yaml:"tags"`
	// Version, when set, forces the modelled release for every step
	// (like --paths-filter-version), whatever its ref.
	Version string `yaml:"version"`
}

// DefaultConfig returns the settings used when .cicheck.yaml is silent: the
// built-in tag table (floating major tags resolve to the newest release the
// table knows).
func DefaultConfig() Config {
	return Config{Tags: map[string]string{
		"v1": "v1.1.0",
		"v2": "v2.12.0",
		"v3": "v3.0.4",
		"v4": "v4.0.3",
		// v4.0.3 (spec §1): the first release with some-with-excludes.
		"ceb8a2b8f2d89434be7ff52d3de7ec3738c5cc9d": "v4.0.3",
	}}
}
