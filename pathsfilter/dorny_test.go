package pathsfilter

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/rhysd/actionlint"
)

func TestResolveRefAndQuantifier(t *testing.T) {
	cfg := DefaultConfig()
	cases := []struct {
		ref, q   string
		version  string
		resolved bool
		mode     Quantifier
		verdict  QuantifierVerdict
	}{
		{"v4", "some-with-excludes", "v4.0.3", true, QuantSomeWithExcludes, QuantOK},
		{"v4.0.2", "some-with-excludes", "v4.0.2", true, QuantSome, QuantRejected},
		{"v3", "some-with-excludes", "v3.0.4", true, QuantSome, QuantRejected},
		{"v3", "every", "v3.0.4", true, QuantEvery, QuantOK},
		{"v3.0.2", "every", "v3.0.2", true, QuantEvery, QuantOK},
		{"v3.0.2", "Every", "v3.0.2", true, QuantSome, QuantRejected},
		{"v3.0.2", "some-with-excludes", "v3.0.2", true, QuantSome, QuantRejected},
		{"v3.0.1", "every", "v3.0.1", true, QuantSome, QuantIgnored},
		{"v2", "", "v2.12.0", true, QuantSome, QuantOK},
		{"v4.0.2", "EVERY", "v4.0.2", true, QuantSome, QuantRejected},
		{"ceb8a2b8f2d89434be7ff52d3de7ec3738c5cc9d", "some-with-excludes", "v4.0.3", true, QuantSomeWithExcludes, QuantOK},
		{"master", "", "v4.0.3", false, QuantSome, QuantOK},
		{"v4.0", "", "v4.0.3", true, QuantSome, QuantOK},
	}
	for _, c := range cases {
		m := ResolveRef(c.ref, cfg)
		mode, verdict := m.Quantifier(c.q)
		if m.Version.String() != c.version || m.Resolved != c.resolved || mode != c.mode || verdict != c.verdict {
			t.Errorf("%s/%q: got %s resolved=%v %s %v", c.ref, c.q, m.Version, m.Resolved, mode, verdict)
		}
	}
	cfg.Tags["main"] = "v3.0.4"
	if m := ResolveRef("main", cfg); !m.Resolved || m.Version.String() != "v3.0.4" {
		t.Errorf("config tag: %+v", m)
	}
	if m := ResolveRef("v2.4.0", cfg); m.Modelled {
		t.Errorf("v2.4.0 must not be modelled")
	}
}

const wfInline = `on: pull_request
jobs:
  changes:
    runs-on: ubuntu-latest
    outputs:
      rust: ${{ steps.filter.outputs.rust }}
    steps:
      - uses: actions/checkout@v4
      - uses: dorny/paths-filter@v4
        id: filter
        with:
          predicate-quantifier: some-with-excludes
          list-files: JSON
          filters: |
            rust:
              - '**/*.rs'
              - '!vendor/**'
            bad: 7
  other:
    runs-on: ubuntu-latest
    steps:
      - uses: dorny/paths-filter@v3
        with:
          filters: .github/filters.yml
`

func TestFindSteps(t *testing.T) {
	wf, errs := actionlint.Parse([]byte(wfInline))
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	fsys := fstest.MapFS{".github/filters.yml": {Data: []byte("docs: 'docs/**'\n")}}
	steps := FindSteps(wf, []byte(wfInline), "ci.yml", fsys, DefaultConfig())
	if len(steps) != 2 {
		t.Fatalf("steps = %d", len(steps))
	}
	s := steps[0]
	if s.ID != "filter" || s.Quantifier != QuantSomeWithExcludes || s.ListFiles != ListJSON {
		t.Errorf("step 0 = %+v", s)
	}
	if s.Err == nil || s.Err.Error() != "ci.yml:18:18: Invalid filter YAML format: Unexpected element type 'number'." {
		t.Errorf("inline error = %v", s.Err)
	}
	s = steps[1]
	if s.FilterFile != ".github/filters.yml" || s.Err != nil || s.Filters.Lookup("docs") == nil {
		t.Errorf("file step = %+v", s)
	}
	r := s.Evaluate([]ChangedFile{{"docs/a.md", "modified"}})
	if r.Outputs["docs"].Value != "true" || r.Outputs["changes"].Value != `["docs"]` {
		t.Errorf("outputs = %v", r.Outputs)
	}
}

// TestInputsTrimmed: dorny reads every input through @actions/core's
// getInput, which trims it (src/main.ts): ' every' is every, and a filters
// block of one line without ':' is a path (isPathInput on the trimmed
// text), not a filter list.
func TestInputsTrimmed(t *testing.T) {
	src := `on: push
jobs:
  a:
    runs-on: ubuntu-latest
    steps:
      - uses: dorny/paths-filter@v3.0.2
        id: f
        with:
          predicate-quantifier: ' every'
          filters: |
            src: ['src/**', '!src/gen/**']
      - uses: dorny/paths-filter@v3.0.2
        id: g
        with:
          filters: |
            - 'x'
`
	wf, errs := actionlint.Parse([]byte(src))
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	steps := FindSteps(wf, []byte(src), "ci.yml", fstest.MapFS{}, DefaultConfig())
	if len(steps) != 2 {
		t.Fatalf("steps = %d", len(steps))
	}
	if s := steps[0]; s.Quantifier != QuantEvery || s.QuantVerdict != QuantOK {
		t.Errorf("' every': quantifier %v, verdict %v", s.Quantifier, s.QuantVerdict)
	}
	r := steps[0].Evaluate([]ChangedFile{{"src/gen/x.go", "modified"}})
	if r.Outputs["src"].Value != "false" {
		t.Errorf("every with an excluded file: src = %v", r.Outputs["src"].Value)
	}
	if s := steps[1]; s.FilterFile != "- 'x'" || s.Err == nil {
		t.Errorf("one-line filters: file %q, err %v; want a path that does not exist", s.FilterFile, s.Err)
	}
}

// TestNestedListInStatusList: an anchored list reused inside a status list
// is flattened, as picomatch recurses into arrays; a map inside it still
// crashes the step (near miss).
func TestNestedListInStatusList(t *testing.T) {
	f, err := ParseFilters([]byte("l: &l ['src/**']\nb: [{added: [*l, 'docs/**']}]\n"), Origin{File: "f.yml"})
	if err != nil {
		t.Fatal(err)
	}
	r := f.Evaluate([]ChangedFile{{"src/x", "added"}}, QuantSome)
	found := false
	for _, fr := range r {
		if fr.Name == "b" {
			found = true
			if len(fr.Files) != 1 {
				t.Errorf("b matched %d files, want 1", len(fr.Files))
			}
		}
	}
	if !found {
		t.Fatalf("no result for filter b: %+v", r)
	}
	if _, err := ParseFilters([]byte("b: [{added: [{x: y}]}]\n"), Origin{File: "f.yml"}); err == nil || !strings.Contains(err.Error(), "TypeError") {
		t.Errorf("a map in a status list: %v, want the TypeError", err)
	}
}

// TestEqualityShortcut: picomatch tests input === glob before anything
// else, so a file literally named like a brace pattern matches it; the
// filter index must not pre-select it away.
func TestEqualityShortcut(t *testing.T) {
	f, err := ParseFilters([]byte("ci: '{a,b}/x.md'\nex: '@(a|b)/y.md'\n"), Origin{File: "f.yml"})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]int{}
	for _, fr := range f.Evaluate([]ChangedFile{{"{a,b}/x.md", "modified"}, {"@(a|b)/y.md", "modified"}, {"a/x.md", "modified"}}, QuantSome) {
		got[fr.Name] = len(fr.Files)
	}
	if got["ci"] != 2 || got["ex"] != 1 {
		t.Errorf("matches %v, want ci: 2 ({a,b}/x.md itself and a/x.md), ex: 1", got)
	}
}
