package testregistry

// Config is this engine's section of .cicheck.yaml. It is plain data with
// yaml tags; the config package decodes it strictly and fills defaults.
type Config struct{}

// DefaultConfig returns the settings used when .cicheck.yaml is silent.
func DefaultConfig() Config { return Config{} }
