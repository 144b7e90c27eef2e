// Package config holds cicheck's configuration: the `.cicheck.yaml` schema,
// its embedded defaults, and a strict decoder that names the file, line and
// column of an unknown key together with the keys that are valid there.
package config

import (
	"bytes"
	_ "embed"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"math"
	"reflect"
	"slices"
	"sort"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
	"gopkg.in/yaml.v3"

	"github.com/cicheck/cicheck/finding"
	"github.com/cicheck/cicheck/internal/textdist"
	"github.com/cicheck/cicheck/pathsfilter"
	"github.com/cicheck/cicheck/scope"
	"github.com/cicheck/cicheck/testregistry"
	"github.com/cicheck/cicheck/workflowgraph"
)

// FileName is the configuration file looked up at the repository root.
const FileName = ".cicheck.yaml"

// Config is the effective configuration.
type Config struct {
	GPU   GPU   `yaml:"gpu"`
	Heavy Heavy `yaml:"heavy"`
	// Rules overrides per rule id.
	Rules map[string]RuleConfig `yaml:"rules"`
	// Ignore lists glob patterns (doublestar, relative to the repository
	// root) of files cicheck does not lint.
	Ignore      []string            `yaml:"ignore"`
	Registry    testregistry.Config `yaml:"registry"`
	Scope       scope.Config        `yaml:"scope"`
	PathsFilter pathsfilter.Config  `yaml:"paths-filter"`

	// ruleKeys remembers where each rules.<id> key was written, so that
	// CheckRuleIDs can point at a misspelt rule id.
	ruleKeys []ruleKey
}

type ruleKey struct {
	id, file  string
	line, col int
}

// GPU says which jobs are GPU jobs.
type GPU struct {
	// RunnerLabels are glob patterns matched case-insensitively against a
	// job's resolved runner labels.
	RunnerLabels []string `yaml:"runner-labels"`
	// Jobs are extra job ids treated as GPU jobs.
	Jobs []string `yaml:"jobs"`
	// ExcludeLabels are glob patterns of labels (and runner groups) that
	// only look like accelerators: never taken for one, whatever the
	// vocabulary or runner-labels say.
	ExcludeLabels []string `yaml:"exclude-labels"`
}

// Heavy describes scarce runners (a single self-hosted box, say).
type Heavy struct {
	RunnerLabels []string `yaml:"runner-labels"`
	Jobs         []string `yaml:"jobs"`
	// OptInLabel is the pull-request label that opts a PR into heavy jobs.
	OptInLabel string `yaml:"opt-in-label"`
	// SelfHosted counts every job on a runner labelled self-hosted as
	// heavy (default true).
	SelfHosted bool `yaml:"self-hosted"`
	// Minutes gives a job's typical run time in minutes by job id, so
	// `cicheck replay` can turn wake counts into runner-hours.
	Minutes map[string]float64 `yaml:"minutes"`
}

// RuleConfig overrides one rule.
type RuleConfig struct {
	// Severity is error, warning or notice; empty keeps the rule's default.
	Severity string `yaml:"severity,omitempty"`
	// Enabled nil keeps the rule on.
	Enabled *bool `yaml:"enabled,omitempty"`
	// Strict is read by rules that have a strict mode (gpu-gate).
	Strict *bool `yaml:"strict,omitempty"`
}

//go:embed defaults.yaml
var defaultsYAML []byte

// DefaultGPURunnerLabels is the default gpu.runner-labels
// (gha-job-status.md §11).
func DefaultGPURunnerLabels() []string {
	return []string{"gpu", "*gpu", "nvidia", "cuda*", "h100", "h200", "b200", "a100", "a10g", "l4", "l40s", "t4", "v100", "mi2*", "mi3*", "rocm*"}
}

// Default returns the configuration used when no file is present: the
// values of defaults.yaml, built without decoding it (every run starts from
// them; TestDefaultMatchesYAML keeps the two equal).
func Default() *Config {
	return &Config{
		GPU:         GPU{RunnerLabels: slices.Clone(DefaultGPURunnerLabels()), Jobs: []string{}, ExcludeLabels: []string{}},
		Heavy:       Heavy{RunnerLabels: []string{}, Jobs: []string{}, SelfHosted: true, Minutes: map[string]float64{}},
		Rules:       map[string]RuleConfig{},
		Ignore:      []string{},
		Registry:    testregistry.DefaultConfig(),
		Scope:       scope.DefaultConfig(),
		PathsFilter: pathsfilter.DefaultConfig(),
	}
}

// defaultFromYAML decodes the embedded defaults.yaml, as Default was once
// built; the test compares the two.
func defaultFromYAML() (*Config, error) {
	c := &Config{
		Rules:       map[string]RuleConfig{},
		Registry:    testregistry.DefaultConfig(),
		Scope:       scope.DefaultConfig(),
		PathsFilter: pathsfilter.DefaultConfig(),
	}
	return c, decodeInto(c, "defaults.yaml", defaultsYAML)
}

// Load reads path from fsys over the defaults. An empty path returns the
// defaults. Errors read "<path>:<line>:<col>: <problem>".
func Load(fsys fs.FS, path string) (*Config, error) {
	c := Default()
	if path == "" {
		return c, nil
	}
	b, err := readBounded(fsys, path)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if err := decodeInto(c, path, b); err != nil {
		return nil, err
	}
	return c, nil
}

// Parse decodes b (named name in errors) over the defaults.
func Parse(name string, b []byte) (*Config, error) {
	c := Default()
	if err := decodeInto(c, name, b); err != nil {
		return nil, err
	}
	return c, nil
}

// Classifier builds the GPU/heavy classifier this configuration describes.
func (c *Config) Classifier() *workflowgraph.Classifier {
	return workflowgraph.NewClassifier(c.GPU.RunnerLabels, c.GPU.Jobs, c.Heavy.RunnerLabels, c.Heavy.Jobs).Exclude(c.GPU.ExcludeLabels...).HeavySelfHosted(c.Heavy.SelfHosted)
}

// RuleEnabled reports whether rule id is enabled (default: yes).
func (c *Config) RuleEnabled(id string) bool {
	if c == nil {
		return true
	}
	rc, ok := c.Rules[id]
	return !ok || rc.Enabled == nil || *rc.Enabled
}

// RuleSeverity returns the configured severity of rule id, or def.
func (c *Config) RuleSeverity(id string, def finding.Severity) finding.Severity {
	if c == nil {
		return def
	}
	if rc, ok := c.Rules[id]; ok && rc.Severity != "" {
		if s, err := finding.ParseSeverity(rc.Severity); err == nil {
			return s
		}
	}
	return def
}

// RuleStrictSet returns rules.<id>.strict and whether it is set.
func (c *Config) RuleStrictSet(id string) (strict, set bool) {
	if c == nil {
		return false, false
	}
	if rc, ok := c.Rules[id]; ok && rc.Strict != nil {
		return *rc.Strict, true
	}
	return false, false
}

// RuleStrict returns rules.<id>.strict, or def when unset.
func (c *Config) RuleStrict(id string, def bool) bool {
	if c == nil {
		return def
	}
	if rc, ok := c.Rules[id]; ok && rc.Strict != nil {
		return *rc.Strict
	}
	return def
}

// Marshal renders the configuration as YAML (for `cicheck config print`).
func (c *Config) Marshal() ([]byte, error) {
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(c); err != nil {
		return nil, err
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func decodeInto(c *Config, name string, b []byte) error {
	var doc yaml.Node
	if err := yaml.Unmarshal(b, &doc); err != nil {
		return fmt.Errorf("%s: %s", name, oneLine(strings.TrimPrefix(err.Error(), "yaml: ")))
	}
	if doc.Kind == 0 || len(doc.Content) == 0 {
		return nil // empty file: defaults
	}
	root := doc.Content[0]
	if root.Kind == yaml.ScalarNode && root.Tag == "!!null" {
		return nil
	}
	d := &decoder{name: name}
	reg := child(root, "registry")
	if err := d.registryProfile(c, reg); err != nil {
		return err
	}
	if err := d.decode(root, reflect.ValueOf(c).Elem(), ""); err != nil {
		return err
	}
	if reg != nil {
		// An auto profile may settle as neutral in a repository without the
		// miles layout; the section then applies over the neutral values.
		c.Registry.SetOverlay(func(base *testregistry.Config) error {
			od := &decoder{name: name}
			return od.decode(reg, reflect.ValueOf(base).Elem(), "registry")
		})
	}
	return d.validate(c, root)
}

// registryProfile reads registry.profile before the rest of the section,
// which is decoded over that profile's values. An unknown name is an
// error at its position, with the closest name.
func (d *decoder) registryProfile(c *Config, reg *yaml.Node) error {
	n := child(reg, "profile")
	if n == nil {
		return nil
	}
	if n.Kind != yaml.ScalarNode {
		return d.errf(n, "registry.profile must be a profile name (valid: %s)", strings.Join(testregistry.ProfileNames(), ", "))
	}
	p, ok := testregistry.ParseProfile(n.Value)
	if !ok {
		valid := strings.Join(testregistry.ProfileNames(), ", ")
		if m := textdist.Closest(n.Value, testregistry.ProfileNames()); m != "" {
			return d.errf(n, "registry.profile: unknown profile %q; did you mean %q? (valid: %s)", n.Value, m, valid)
		}
		return d.errf(n, "registry.profile: unknown profile %q (valid: %s)", n.Value, valid)
	}
	c.Registry, _ = testregistry.ProfileConfig(p)
	// The generic decoder stores the name as written; "auto" is the zero
	// profile.
	n.Value = string(p)
	return nil
}

// validate checks the values the generic decoder cannot: rule severities
// and glob patterns, each error at the offending node.
func (d *decoder) validate(c *Config, root *yaml.Node) error {
	if root.Kind != yaml.MappingNode {
		return nil
	}
	if rules := child(root, "rules"); rules != nil && rules.Kind == yaml.MappingNode {
		for i := 0; i+1 < len(rules.Content); i += 2 {
			k, v := rules.Content[i], rules.Content[i+1]
			c.ruleKeys = append(c.ruleKeys, ruleKey{id: k.Value, file: d.name, line: k.Line, col: k.Column})
			if sev := child(v, "severity"); sev != nil && sev.Kind == yaml.ScalarNode && sev.Value != "" {
				if _, err := finding.ParseSeverity(sev.Value); err != nil {
					return d.errf(sev, "rules.%s.severity: %v", k.Value, err)
				}
			}
		}
	}
	if err := d.validateMinutes(child(child(root, "heavy"), "minutes")); err != nil {
		return err
	}
	globs := []struct {
		where string
		n     *yaml.Node
	}{
		{"gpu.runner-labels", child(child(root, "gpu"), "runner-labels")},
		{"heavy.runner-labels", child(child(root, "heavy"), "runner-labels")},
		{"ignore", child(root, "ignore")},
	}
	for _, g := range globs {
		if g.n == nil || g.n.Kind != yaml.SequenceNode {
			continue
		}
		for i, p := range g.n.Content {
			if p.Kind == yaml.ScalarNode && !doublestar.ValidatePattern(p.Value) {
				return d.errf(p, "%s[%d]: invalid glob pattern %q", g.where, i, p.Value)
			}
		}
	}
	return nil
}

// MaxJobMinutes bounds heavy.minutes: GitHub stops a self-hosted runner's
// job after five days, so a larger figure is a typo (hours, seconds).
const MaxJobMinutes = 5 * 24 * 60

// validateMinutes checks heavy.minutes: job ids mapped to a positive number
// of minutes no larger than a job can run. The decoder has already
// checked that each value is a number. Job ids are case-insensitive in
// GitHub, so two keys that differ only in case would name one job twice.
func (d *decoder) validateMinutes(n *yaml.Node) error {
	if n == nil || n.Kind != yaml.MappingNode {
		return nil
	}
	seen := map[string]string{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if strings.TrimSpace(k.Value) == "" {
			return d.errf(k, "heavy.minutes: a job id is empty")
		}
		if prev, dup := seen[strings.ToLower(k.Value)]; dup {
			return d.errf(k, "heavy.minutes: %s and %s name the same job (job ids are case-insensitive)", prev, k.Value)
		}
		seen[strings.ToLower(k.Value)] = k.Value
		var m float64
		if err := v.Decode(&m); err != nil || math.IsNaN(m) || m <= 0 || m > MaxJobMinutes {
			return d.errf(v, "heavy.minutes.%s: %q is not a number of minutes in (0, %d]", k.Value, v.Value, MaxJobMinutes)
		}
	}
	return nil
}

// child returns the value of key in mapping n, or nil.
func child(n *yaml.Node, key string) *yaml.Node {
	if n == nil || n.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i+1]
		}
	}
	return nil
}

// CheckRuleIDs reports the first rules.<id> key that names no rule in
// known: a misspelt id would otherwise switch nothing off, silently.
func (c *Config) CheckRuleIDs(known map[string]bool) error {
	for _, k := range c.ruleKeys {
		if !known[k.id] {
			ids := slices.Sorted(maps.Keys(known))
			if m := textdist.Closest(k.id, ids); m != "" {
				return fmt.Errorf("%s:%d:%d: unknown rule %q in rules; did you mean %q?", k.file, k.line, k.col, k.id, m)
			}
			return fmt.Errorf("%s:%d:%d: unknown rule %q in rules (`cicheck rules` lists the valid ids)", k.file, k.line, k.col, k.id)
		}
	}
	return nil
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

var unmarshalerType = reflect.TypeFor[yaml.Unmarshaler]()

type decoder struct {
	name  string
	depth int
}

func (d *decoder) errf(n *yaml.Node, format string, args ...any) error {
	return fmt.Errorf("%s:%d:%d: %s", d.name, n.Line, n.Column, fmt.Sprintf(format, args...))
}

// decode walks n into v strictly: every mapping key must name a field
// (by its yaml tag) or, for maps, any key is accepted.
func (d *decoder) decode(n *yaml.Node, v reflect.Value, where string) error {
	d.depth++
	defer func() { d.depth-- }()
	if d.depth > 64 {
		return d.errf(n, "configuration nested too deeply")
	}
	if n.Kind == yaml.AliasNode && n.Alias != nil {
		return d.decode(n.Alias, v, where)
	}
	if v.CanAddr() && v.Addr().Type().Implements(unmarshalerType) || v.Kind() == reflect.Interface {
		// A section that decodes itself (or holds free-form data) is trusted.
		if err := n.Decode(v.Addr().Interface()); err != nil {
			return d.errf(n, "%s: %s", join(where, ""), oneLine(strings.TrimPrefix(err.Error(), "yaml: ")))
		}
		return nil
	}
	at := where
	if at == "" {
		at = "the top level"
	}
	switch v.Kind() {
	case reflect.Struct:
		if n.Kind == yaml.ScalarNode && n.Tag == "!!null" {
			return nil
		}
		if n.Kind != yaml.MappingNode {
			return d.errf(n, "%s must be a mapping", at)
		}
		fields := map[string]int{}
		var names []string
		t := v.Type()
		for i := 0; i < t.NumField(); i++ {
			tag := strings.Split(t.Field(i).Tag.Get("yaml"), ",")[0]
			if tag == "" || tag == "-" {
				continue
			}
			fields[tag] = i
			names = append(names, tag)
		}
		sort.Strings(names)
		seen := map[string]bool{}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, val := n.Content[i], n.Content[i+1]
			idx, ok := fields[k.Value]
			if !ok {
				valid := strings.Join(names, ", ")
				if valid == "" {
					valid = "none yet"
				}
				in := ""
				if where != "" {
					in = " in " + where
				}
				if m := textdist.Closest(k.Value, names); m != "" {
					return d.errf(k, "unknown key %q%s; did you mean %q? (valid: %s)", k.Value, in, m, valid)
				}
				return d.errf(k, "unknown key %q%s (valid: %s)", k.Value, in, valid)
			}
			if seen[k.Value] {
				return d.errf(k, "duplicate key %q in %s", k.Value, at)
			}
			seen[k.Value] = true
			if err := d.decode(val, v.Field(idx), join(where, k.Value)); err != nil {
				return err
			}
		}
		return nil
	case reflect.Map:
		if n.Kind == yaml.ScalarNode && n.Tag == "!!null" {
			return nil
		}
		if n.Kind != yaml.MappingNode {
			return d.errf(n, "%s must be a mapping", at)
		}
		if v.IsNil() {
			v.Set(reflect.MakeMap(v.Type()))
		}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, val := n.Content[i], n.Content[i+1]
			elem := reflect.New(v.Type().Elem()).Elem()
			if old := v.MapIndex(reflect.ValueOf(k.Value)); old.IsValid() {
				elem.Set(old)
			}
			if err := d.decode(val, elem, join(where, k.Value)); err != nil {
				return err
			}
			v.SetMapIndex(reflect.ValueOf(k.Value), elem)
		}
		return nil
	case reflect.Slice:
		if n.Kind == yaml.ScalarNode && n.Tag == "!!null" {
			v.Set(reflect.Zero(v.Type()))
			return nil
		}
		if n.Kind != yaml.SequenceNode {
			return d.errf(n, "%s must be a list", at)
		}
		out := reflect.MakeSlice(v.Type(), 0, len(n.Content))
		for i, c := range n.Content {
			elem := reflect.New(v.Type().Elem()).Elem()
			if err := d.decode(c, elem, fmt.Sprintf("%s[%d]", where, i)); err != nil {
				return err
			}
			out = reflect.Append(out, elem)
		}
		v.Set(out)
		return nil
	case reflect.Pointer:
		if n.Kind == yaml.ScalarNode && n.Tag == "!!null" {
			v.Set(reflect.Zero(v.Type()))
			return nil
		}
		p := reflect.New(v.Type().Elem())
		if err := d.decode(n, p.Elem(), where); err != nil {
			return err
		}
		v.Set(p)
		return nil
	}
	if n.Kind != yaml.ScalarNode {
		return d.errf(n, "%s must be a single value", at)
	}
	if err := n.Decode(v.Addr().Interface()); err != nil {
		var te *yaml.TypeError
		if errors.As(err, &te) {
			return d.errf(n, "%s: cannot use %q as %s", at, n.Value, kindWord(v.Kind()))
		}
		return d.errf(n, "%s: %v", at, err)
	}
	return nil
}

func kindWord(k reflect.Kind) string {
	switch k {
	case reflect.Bool:
		return "a boolean"
	case reflect.Int, reflect.Int64, reflect.Int32:
		return "an integer"
	case reflect.Float64, reflect.Float32:
		return "a number"
	}
	return "a " + k.String()
}

func join(a, b string) string {
	if a == "" {
		return b
	}
	return a + "." + b
}

// MaxFileSize bounds a configuration file (real ones are a few KiB).
const MaxFileSize = 1 << 20

// readBounded reads a configuration file that is a regular file (checked
// before opening: a FIFO in its place would block the open) of at most
// MaxFileSize bytes.
func readBounded(fsys fs.FS, path string) ([]byte, error) {
	st, err := fs.Stat(fsys, path)
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, errors.New("not a regular file")
	}
	if st.Size() > MaxFileSize {
		return nil, fmt.Errorf("larger than the %d MiB limit for a configuration file", MaxFileSize>>20)
	}
	f, err := fsys.Open(path)
	if err != nil {
		return nil, err
	}
	defer func() { _ = f.Close() }() // read only: a close error loses nothing
	b, err := io.ReadAll(io.LimitReader(f, MaxFileSize+1))
	if err != nil {
		return nil, err
	}
	if len(b) > MaxFileSize {
		return nil, fmt.Errorf("larger than the %d MiB limit for a configuration file", MaxFileSize>>20)
	}
	return b, nil
}
