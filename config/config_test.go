package config

import (
	"reflect"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/cicheck/cicheck/finding"
)

func TestDefaults(t *testing.T) {
	c := Default()
	if !slices.Equal(c.GPU.RunnerLabels, DefaultGPURunnerLabels()) {
		t.Errorf("defaults.yaml and DefaultGPURunnerLabels() differ: %v", c.GPU.RunnerLabels)
	}
	if len(c.Heavy.RunnerLabels) != 0 {
		t.Errorf("heavy labels default %v", c.Heavy.RunnerLabels)
	}
	if !c.RuleEnabled("gpu-gate") || c.RuleSeverity("gpu-gate", finding.Warning) != finding.Warning || !c.RuleStrict("gpu-gate", true) {
		t.Error("rule defaults")
	}
}

func TestParse(t *testing.T) {
	cases := []struct {
		name, src, err string
		check          func(*Config) bool
	}{
		{name: "empty", src: "", check: func(c *Config) bool { return len(c.GPU.RunnerLabels) == len(DefaultGPURunnerLabels()) }},
		{name: "override", src: "gpu:\n  runner-labels: [my-gpu-*]\n  jobs: [Train]\nheavy:\n  runner-labels: [gb10]\n  opt-in-label: run-heavy\n", check: func(c *Config) bool {
			return slices.Equal(c.GPU.RunnerLabels, []string{"my-gpu-*"}) && c.Heavy.OptInLabel == "run-heavy" && c.Classifier() != nil
		}},
		{name: "rules", src: "rules:\n  gpu-gate:\n    severity: notice\n    strict: false\n  closure-bridge:\n    enabled: false\n", check: func(c *Config) bool {
			return c.RuleSeverity("gpu-gate", finding.Error) == finding.Notice && !c.RuleStrict("gpu-gate", true) && !c.RuleEnabled("closure-bridge")
		}},
		{name: "unknown-top", src: "gpus: {}\n", err: `c.yaml:1:1: unknown key "gpus"; did you mean "gpu"? (valid: gpu, heavy, ignore, paths-filter, registry, rules, scope)`},
		{name: "unknown-top-far", src: "gadgets: {}\n", err: `c.yaml:1:1: unknown key "gadgets" (valid: gpu, heavy, ignore, paths-filter, registry, rules, scope)`},
		{name: "unknown-gpu", src: "gpu:\n  labels: [x]\n", err: `c.yaml:2:3: unknown key "labels" in gpu (valid: exclude-labels, jobs, runner-labels)`},
		{name: "unknown-rule-key", src: "rules:\n  gpu-gate:\n    level: error\n", err: `c.yaml:3:5: unknown key "level" in rules.gpu-gate (valid: enabled, severity, strict)`},
		{name: "bad-severity", src: "rules:\n  x:\n    severity: fatal\n", err: `c.yaml:3:15: rules.x.severity: unknown severity "fatal"`},
		{name: "bad-gpu-glob", src: "gpu:\n  runner-labels: [h100, \"[x\"]\n", err: `c.yaml:2:25: gpu.runner-labels[1]: invalid glob pattern "[x"`},
		{name: "bad-heavy-glob", src: "heavy:\n  runner-labels: [\"{a\"]\n", err: `c.yaml:2:19: heavy.runner-labels[0]: invalid glob pattern "{a"`},
		{name: "bad-ignore-glob", src: "ignore: [\"legacy/[\"]\n", err: `c.yaml:1:10: ignore[0]: invalid glob pattern "legacy/["`},
		{name: "bad-type", src: "rules:\n  x:\n    enabled: maybe\n", err: `c.yaml:3:14: rules.x.enabled: cannot use "maybe" as a boolean`},
		{name: "not-list", src: "gpu:\n  jobs: train\n", err: `c.yaml:2:9: gpu.jobs must be a list`},
		{name: "minutes", src: "heavy:\n  minutes: {cargo-clippy: 25, cuda-sm70: 7.5, big: 7200}\n", check: func(c *Config) bool {
			return c.Heavy.Minutes["cargo-clippy"] == 25 && c.Heavy.Minutes["cuda-sm70"] == 7.5 && c.Heavy.Minutes["big"] == MaxJobMinutes
		}},
		{name: "minutes-null", src: "heavy:\n  minutes:\n", check: func(c *Config) bool { return len(c.Heavy.Minutes) == 0 }},
		{name: "minutes-zero", src: "heavy:\n  minutes: {clippy: 0}\n", err: `c.yaml:2:21: heavy.minutes.clippy: "0" is not a number of minutes in (0, 7200]`},
		{name: "minutes-negative", src: "heavy:\n  minutes: {clippy: -3}\n", err: `c.yaml:2:21: heavy.minutes.clippy: "-3" is not a number of minutes in (0, 7200]`},
		{name: "minutes-too-long", src: "heavy:\n  minutes: {clippy: 7201}\n", err: `c.yaml:2:21: heavy.minutes.clippy: "7201" is not a number of minutes in (0, 7200]`},
		{name: "minutes-inf", src: "heavy:\n  minutes: {clippy: .inf}\n", err: `c.yaml:2:21: heavy.minutes.clippy: ".inf" is not`},
		{name: "minutes-nan", src: "heavy:\n  minutes: {clippy: .nan}\n", err: `c.yaml:2:21: heavy.minutes.clippy: ".nan" is not`},
		{name: "minutes-text", src: "heavy:\n  minutes: {clippy: soon}\n", err: `c.yaml:2:21: heavy.minutes.clippy: cannot use "soon" as a number`},
		{name: "minutes-empty-id", src: "heavy:\n  minutes: {\"\": 3}\n", err: `c.yaml:2:13: heavy.minutes: a job id is empty`},
		{name: "minutes-case", src: "heavy:\n  minutes: {Clippy: 3, clippy: 4}\n", err: `c.yaml:2:24: heavy.minutes: Clippy and clippy name the same job (job ids are case-insensitive)`},
		{name: "minutes-distinct", src: "heavy:\n  minutes: {clippy: 3, clippy2: 4}\n", check: func(c *Config) bool { return len(c.Heavy.Minutes) == 2 }},
		{name: "minutes-list", src: "heavy:\n  minutes: [3]\n", err: `c.yaml:2:12: heavy.minutes must be a mapping`},
		{name: "malformed", src: "gpu: [\n", err: `c.yaml: `},
		{name: "top-list", src: "- a\n", err: `c.yaml:1:1: the top level must be a mapping`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c, err := Parse("c.yaml", []byte(tc.src))
			if tc.err != "" {
				if err == nil || !strings.HasPrefix(err.Error(), tc.err) {
					t.Fatalf("err = %v, want prefix %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !tc.check(c) {
				t.Errorf("unexpected config %+v", c)
			}
		})
	}
}

func TestCheckRuleIDs(t *testing.T) {
	known := map[string]bool{"gpu-gate": true}
	c, err := Parse("c.yaml", []byte("rules:\n  gpu-gate:\n    enabled: false\n  gpu-gaet:\n    enabled: false\n"))
	if err != nil {
		t.Fatal(err)
	}
	want := "c.yaml:4:3: unknown rule \"gpu-gaet\" in rules; did you mean \"gpu-gate\"?"
	if err := c.CheckRuleIDs(known); err == nil || err.Error() != want {
		t.Errorf("err = %v, want %s", err, want)
	}
	if err := Default().CheckRuleIDs(known); err != nil {
		t.Errorf("defaults: %v", err)
	}
}

func TestLoad(t *testing.T) {
	if _, err := Load(fstest.MapFS{}, "nope.yaml"); err == nil || err.Error() != "nope.yaml: file does not exist" {
		t.Errorf("err = %v", err)
	}
	c, err := Load(fstest.MapFS{".cicheck.yaml": {Data: []byte("ignore: [legacy/**]\n")}}, ".cicheck.yaml")
	if err != nil || !slices.Equal(c.Ignore, []string{"legacy/**"}) {
		t.Errorf("c=%+v err=%v", c, err)
	}
	out, err := Default().Marshal()
	if err != nil || !strings.Contains(string(out), "runner-labels:") {
		t.Errorf("marshal: %s %v", out, err)
	}
}

// TestDefaultMatchesYAML: Default builds exactly what decoding the
// embedded defaults.yaml gives.
func TestDefaultMatchesYAML(t *testing.T) {
	want, err := defaultFromYAML()
	if err != nil {
		t.Fatal(err)
	}
	if got := Default(); !reflect.DeepEqual(got, want) {
		t.Fatalf("Default() = %+v\ndefaults.yaml gives %+v", got, want)
	}
}
