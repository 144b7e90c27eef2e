package testregistry

import (
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/rogpeppe/go-internal/txtar"
	"gopkg.in/yaml.v3"

	"github.com/cicheck/cicheck/finding"
)

// noExamples lists the rules that cannot be triggered from a repository's
// files alone, with the reason. Keep it tiny: every other rule must carry
// Help, Bad and Good. (Even reg-bad-value, which needs a configured
// parameter, brings its .cicheck.yaml in the example.)
var noExamples = map[string]string{
	RuleUnreadable: "needs a symlink, a FIFO or a file of several MiB, which an example archive cannot hold (see TestHostile*)",
}

// exampleConfig is DefaultConfig plus the registry: section of the
// archive's .cicheck.yaml, decoded strictly like the config package does.
func exampleConfig(t *testing.T, fsys fstest.MapFS) Config {
	t.Helper()
	cfg := DefaultConfig()
	f, ok := fsys[".cicheck.yaml"]
	if !ok {
		return cfg
	}
	doc := struct {
		Registry *Config `yaml:"registry"`
	}{&cfg}
	dec := yaml.NewDecoder(strings.NewReader(string(f.Data)))
	dec.KnownFields(true)
	if err := dec.Decode(&doc); err != nil {
		t.Fatalf(".cicheck.yaml: %v", err)
	}
	return cfg
}

func exampleFS(t *testing.T, archive string) fstest.MapFS {
	t.Helper()
	a := txtar.Parse([]byte(archive))
	if len(a.Files) == 0 {
		t.Fatal("example archive holds no file")
	}
	if strings.TrimSpace(string(a.Comment)) != "" {
		t.Errorf("example archive has text before its first file: %q", a.Comment)
	}
	fsys := fstest.MapFS{}
	for _, f := range a.Files {
		if _, dup := fsys[f.Name]; dup {
			t.Errorf("example archive holds %s twice", f.Name)
		}
		fsys[f.Name] = &fstest.MapFile{Data: f.Data}
	}
	return fsys
}

func exampleFindings(t *testing.T, archive string) []finding.Finding {
	t.Helper()
	fsys := exampleFS(t, archive)
	fs, err := Check(fsys, exampleConfig(t, fsys))
	if err != nil {
		t.Fatalf("Check: %v", err)
	}
	return fs
}

// TestRuleExamples runs the scanner over every rule's Bad and Good example
// repositories: Bad must report the rule, Good must report neither the
// rule nor any error or warning (notices, such as an unused label, are
// tolerated). Documentation that lies fails here.
func TestRuleExamples(t *testing.T) {
	for _, r := range Rules() {
		t.Run(r.ID, func(t *testing.T) {
			if why, ok := noExamples[r.ID]; ok {
				if r.Bad != "" || r.Good != "" {
					t.Errorf("rule has examples but is listed in noExamples (%s)", why)
				}
				t.Skip(why)
			}
			if r.Short == "" || r.Help == "" || r.Bad == "" || r.Good == "" {
				t.Fatalf("rule lacks Short, Help, Bad or Good")
			}
			bad := exampleFindings(t, r.Bad)
			if !slices.ContainsFunc(bad, func(f finding.Finding) bool { return f.Rule == r.ID }) {
				t.Errorf("Bad example does not report %s; it reports %v", r.ID, bad)
			}
			for _, f := range exampleFindings(t, r.Good) {
				if f.Rule == r.ID || f.Severity == finding.Error || f.Severity == finding.Warning {
					t.Errorf("Good example reports %s:%d:%d: %s [%s]", f.File, f.Line, f.Column, f.Message, f.Rule)
				}
			}
		})
	}
}

// TestRuleIDsDistinct guards the table: one entry per rule id.
func TestRuleIDsDistinct(t *testing.T) {
	seen := map[string]bool{}
	for _, r := range Rules() {
		if seen[r.ID] {
			t.Errorf("rule %s listed twice", r.ID)
		}
		seen[r.ID] = true
	}
	for id := range noExamples {
		if !seen[id] {
			t.Errorf("noExamples names unknown rule %s", id)
		}
	}
}
