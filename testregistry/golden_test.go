package testregistry

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// golden is the output of bench/registry/collect.py, which uses Python's ast
// module. Regenerate it with the command in that script's docstring.
type golden struct {
	Files         []string `json:"files"`
	Registrations []struct {
		File     string   `json:"file"`
		Line     int      `json:"line"`
		Col      int      `json:"col"`
		Func     string   `json:"func"`
		Backend  string   `json:"backend"`
		EstTime  float64  `json:"est_time"`
		Suite    string   `json:"suite"`
		Labels   []string `json:"labels"`
		Nightly  bool     `json:"nightly"`
		Disabled *string  `json:"disabled"`
		Implicit bool     `json:"implicit"`
	} `json:"registrations"`
	CallErrors []struct {
		File    string `json:"file"`
		Line    int    `json:"line"`
		Col     int    `json:"col"`
		Message string `json:"message"`
	} `json:"call_errors"`
	FileErrors []struct {
		File    string `json:"file"`
		Line    int    `json:"line"`
		Message string `json:"message"`
	} `json:"file_errors"`
}

// TestGoldenPythonAST compares the scanner with Python's ast on the fixture
// repositories and the cross-check corpus.
func TestGoldenPythonAST(t *testing.T) {
	b, err := os.ReadFile("testdata/golden.json")
	if err != nil {
		t.Fatal(err)
	}
	var all map[string]golden
	if err := json.Unmarshal(b, &all); err != nil {
		t.Fatal(err)
	}
	if len(all) < 10 {
		t.Fatalf("golden file holds only %d trees", len(all))
	}
	for root, want := range all {
		t.Run(root, func(t *testing.T) {
			dir := root
			if !strings.HasPrefix(dir, "testregistry/") {
				dir = filepath.Join("..", dir)
			} else {
				dir = strings.TrimPrefix(dir, "testregistry/")
			}
			r, err := Scan(os.DirFS(dir), DefaultConfig())
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(r.Files, want.Files) {
				t.Errorf("files:\n got %v\nwant %v", r.Files, want.Files)
			}
			var got, exp []string
			for _, g := range r.Registrations {
				got = append(got, fmt.Sprintf("%s:%d:%d %s %s %g %q %q %v %v %v", g.File, g.Line, g.Column, g.Func, g.Backend, g.EstTime, g.Suite, g.Labels, g.Nightly, deref(g.Disabled), g.Implicit))
			}
			for _, g := range want.Registrations {
				if g.Labels == nil {
					g.Labels = []string{}
				}
				exp = append(exp, fmt.Sprintf("%s:%d:%d %s %s %g %q %q %v %v %v", g.File, g.Line, g.Col, g.Func, g.Backend, g.EstTime, g.Suite, g.Labels, g.Nightly, deref(g.Disabled), g.Implicit))
			}
			diff(t, "registrations", got, exp)

			got, exp = nil, nil
			for _, e := range r.firsts {
				got = append(got, fmt.Sprintf("%s:%d:%d %s", e.file, e.line, e.col, e.msg))
			}
			for _, e := range want.CallErrors {
				exp = append(exp, fmt.Sprintf("%s:%d:%d %s", e.File, e.Line, e.Col, e.Message))
			}
			diff(t, "first error of each call", got, exp)

			got, exp = nil, nil
			fileRules := []string{RuleSyntaxError, RuleNoRegistry, RuleGPUInImplicit, RuleMentionNoCall, RuleRocmAliasQuirk}
			for _, f := range r.Findings {
				if !slices.Contains(fileRules, f.Rule) {
					continue
				}
				line, msg := f.Line, f.Message
				switch f.Rule {
				case RuleMentionNoCall:
					line = 0
				case RuleRocmAliasQuirk:
					line, msg = 0, "rocm-alias-quirk"
				}
				got = append(got, fmt.Sprintf("%s:%d %s", f.File, line, msg))
			}
			for _, e := range want.FileErrors {
				exp = append(exp, fmt.Sprintf("%s:%d %s", e.File, e.Line, e.Message))
			}
			diff(t, "file-level errors", got, exp)
		})
	}
}

func deref(s *string) any {
	if s == nil {
		return nil
	}
	return *s
}

func diff(t *testing.T, what string, got, want []string) {
	t.Helper()
	slices.Sort(got)
	slices.Sort(want)
	for _, g := range got {
		if !slices.Contains(want, g) {
			t.Errorf("%s: cicheck has, Python ast has not:\n  %s", what, g)
		}
	}
	for _, w := range want {
		if !slices.Contains(got, w) {
			t.Errorf("%s: Python ast has, cicheck has not:\n  %s", what, w)
		}
	}
}
