package scope

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/cicheck/cicheck/internal/textdist"
)

// Config is this engine's section of .cicheck.yaml. It is plain data with
// yaml tags; the config package decodes it strictly and fills defaults.
//
// The defaults are the spec's generic values. Conventions that belong to one
// repository (the flashinfer bot login, the miles policy-file path and
// /rerun-test roots) live in named profiles; Profile selects one and Resolve
// applies it to every field still at its generic default.
type Config struct {
	// Profile names a bundled repository profile: "flashinfer" or "miles".
	Profile string `yaml:"profile"`
	// Root every scoped-run target must start with.
	Root string `yaml:"root"`
	// MaxTargets caps the number of distinct targets; it must equal the test
	// runner's own cap.
	MaxTargets int `yaml:"max-targets"`
	// MaxTargetsSource names the file whose literal enforces the same cap;
	// when set, the too-many-targets reason points at it.
	MaxTargetsSource string `yaml:"max-targets-source"`
	// MaxTargetsSymbol is the module-level integer literal in
	// MaxTargetsSource holding the runner's cap; a different value is
	// reported as drift.
	MaxTargetsSymbol string `yaml:"max-targets-symbol"`
	// Bot is the bot login that "@<bot> run" addresses (matched
	// case-insensitively). Empty: only the "/bot" trigger is recognised.
	Bot string `yaml:"bot"`
	// PolicyFile is the label-command access policy (JSON), relative to the
	// repository root. Empty: labels are not checked against an allowlist.
	PolicyFile string `yaml:"policy-file"`
	// StatusContext is the prefix of the numbered scope statuses.
	StatusContext string `yaml:"status-context"`
	// SnapshotContext is the full-suite snapshot marker status.
	SnapshotContext string `yaml:"snapshot-context"`
	// ChunkLimit is the commit-status description limit.
	ChunkLimit int `yaml:"chunk-limit"`
	// ProseMentions decides what a command marker outside a command position
	// does: "" keeps each vocabulary's reference rule (a bot mention in prose
	// is ignored, a label-command marker fails), "ignore" or "fail" applies
	// one rule to both.
	ProseMentions string `yaml:"prose-mentions"`
	// RerunArgs decides what trailing tokens after rerun/stop do: "reject"
	// (the default) or "ignore" (the reference handler).
	RerunArgs string `yaml:"rerun-args"`
	// IndentedCode, when true, skips indented-code lines (4+ spaces or a
	// tab) when looking for the command line.
	IndentedCode bool `yaml:"skip-indented-code"`
	// BodyBlock is the info string of the fenced PR-body block declaring a
	// scope (flashinfer: "experimental-tests"); empty disables it.
	BodyBlock string `yaml:"pr-body-block"`
	// BodyRoot is the root for targets declared in that block.
	BodyRoot string `yaml:"pr-body-root"`
	// RequireRegisteredTest makes every run target hold at least one
	// registered, enabled test of the configured test registry.
	RequireRegisteredTest bool `yaml:"require-registered-test"`
	// RerunTestRoots limits /rerun-test paths to these directories; empty
	// means anywhere under Root.
	RerunTestRoots []string `yaml:"rerun-test-roots"`
}

// DefaultConfig returns the settings used when .cicheck.yaml is silent.
func DefaultConfig() Config {
	return Config{
		Root:            "tests/",
		MaxTargets:      16,
		StatusContext:   "ci/test-scope",
		SnapshotContext: "ci/test-snapshot",
		ChunkLimit:      140,
		RerunArgs:       "reject",
		IndentedCode:    true,
	}
}

// profiles holds only the fields each repository changes from the defaults.
var profiles = map[string]func(*Config){
	// flashinfer-ai/flashinfer: the scoped-run bot (seed 001).
	"flashinfer": func(c *Config) {
		c.Bot = "flashinfer-bot"
		c.MaxTargetsSource = "scripts/test_sharding/runner.py"
		c.MaxTargetsSymbol = "MAX_TEST_PATHS"
		c.BodyBlock = "experimental-tests"
		c.BodyRoot = "tests/experimental/"
	},
	// radixark/miles: the label-command gateway (seed 000).
	"miles": func(c *Config) {
		c.PolicyFile = ".github/workflows/policies/comment-command-access.json"
		c.RerunTestRoots = []string{"tests/e2e", "tests/fast", "tests/fast-gpu", "tests/ci"}
	},
}

// Profiles lists the bundled profile names, sorted.
func Profiles() []string {
	names := make([]string, 0, len(profiles))
	for n := range profiles {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Resolve applies the named profile to every field of c still at its
// generic default, so an explicit setting always wins over the profile, and
// checks the enumerated fields.
func (c Config) Resolve() (Config, error) {
	if c.Profile != "" {
		apply, ok := profiles[c.Profile]
		if !ok {
			if m := textdist.Closest(c.Profile, Profiles()); m != "" {
				return c, fmt.Errorf("unknown scope profile %q; did you mean %q? (valid: %s)", c.Profile, m, strings.Join(Profiles(), ", "))
			}
			return c, fmt.Errorf("unknown scope profile %q (valid: %s)", c.Profile, strings.Join(Profiles(), ", "))
		}
		def := DefaultConfig()
		p := def
		apply(&p)
		pick := func(cur *string, d, pv string) {
			if *cur == d {
				*cur = pv
			}
		}
		pick(&c.Root, def.Root, p.Root)
		pick(&c.MaxTargetsSource, def.MaxTargetsSource, p.MaxTargetsSource)
		pick(&c.MaxTargetsSymbol, def.MaxTargetsSymbol, p.MaxTargetsSymbol)
		pick(&c.BodyBlock, def.BodyBlock, p.BodyBlock)
		pick(&c.BodyRoot, def.BodyRoot, p.BodyRoot)
		pick(&c.Bot, def.Bot, p.Bot)
		pick(&c.PolicyFile, def.PolicyFile, p.PolicyFile)
		pick(&c.StatusContext, def.StatusContext, p.StatusContext)
		pick(&c.SnapshotContext, def.SnapshotContext, p.SnapshotContext)
		pick(&c.ProseMentions, def.ProseMentions, p.ProseMentions)
		pick(&c.RerunArgs, def.RerunArgs, p.RerunArgs)
		if c.MaxTargets == def.MaxTargets {
			c.MaxTargets = p.MaxTargets
		}
		if c.ChunkLimit == def.ChunkLimit {
			c.ChunkLimit = p.ChunkLimit
		}
		if len(c.RerunTestRoots) == 0 {
			c.RerunTestRoots = slices.Clone(p.RerunTestRoots)
		}
	}
	switch c.ProseMentions {
	case "", "ignore", "fail":
	default:
		return c, fmt.Errorf("scope.prose-mentions must be ignore or fail, not %q", c.ProseMentions)
	}
	switch c.RerunArgs {
	case "reject", "ignore":
	default:
		return c, fmt.Errorf("scope.rerun-args must be reject or ignore, not %q", c.RerunArgs)
	}
	if c.MaxTargets < 1 {
		return c, fmt.Errorf("scope.max-targets must be at least 1, not %d", c.MaxTargets)
	}
	if c.ChunkLimit < 1 {
		return c, fmt.Errorf("scope.chunk-limit must be at least 1, not %d", c.ChunkLimit)
	}
	// The root is a directory prefix: "tests" must not admit
	// "testsuite/x.py", and an empty root would admit any path.
	if strings.Trim(c.Root, "/ ") == "" {
		return c, fmt.Errorf("scope.root must name a directory, not %q", c.Root)
	}
	c.Root = strings.TrimSuffix(c.Root, "/") + "/"
	if c.BodyRoot != "" {
		c.BodyRoot = strings.TrimSuffix(c.BodyRoot, "/") + "/"
	}
	// An empty prefix publishes contexts named "-1", "-2", and a reader
	// with it finds no chunk, which reads as the full suite.
	if strings.TrimSpace(c.StatusContext) == "" {
		return c, fmt.Errorf("scope.status-context must not be empty")
	}
	if strings.TrimSpace(c.SnapshotContext) == "" {
		return c, fmt.Errorf("scope.snapshot-context must not be empty")
	}
	return c, nil
}
