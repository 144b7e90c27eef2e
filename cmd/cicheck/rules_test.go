package main

import (
	"path"
	"testing/fstest"

	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/cicheck/cicheck/checks"
	"github.com/cicheck/cicheck/internal/project"
	"github.com/cicheck/cicheck/lint"
	"github.com/cicheck/cicheck/workflowgraph"
)

var updateDocs = flag.Bool("update-docs", false, "rewrite docs/rules/*.md from the rule values")

const docsDir = "../../docs/rules"

// TestRuleDocsFresh fails when docs/rules/ differs from what the rule values
// generate. Regenerate with: go test ./cmd/cicheck -run TestRuleDocsFresh -update-docs
func TestRuleDocsFresh(t *testing.T) {
	docs := lint.RuleDocs()
	want := map[string]string{}
	for _, d := range docs {
		want[d.ID+".md"] = d.Markdown()
	}
	want["README.md"] = lint.RulesIndex(docs)
	if *updateDocs {
		old, _ := filepath.Glob(filepath.Join(docsDir, "*.md"))
		for _, p := range old {
			if err := os.Remove(p); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.MkdirAll(docsDir, 0o755); err != nil {
			t.Fatal(err)
		}
		for name, body := range want {
			if err := os.WriteFile(filepath.Join(docsDir, name), []byte(body), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return
	}
	got, _ := filepath.Glob(filepath.Join(docsDir, "*.md"))
	for _, p := range got {
		name := filepath.Base(p)
		if _, ok := want[name]; !ok {
			t.Errorf("docs/rules/%s documents no rule; regenerate with -update-docs", name)
		}
	}
	for name, body := range want {
		b, err := os.ReadFile(filepath.Join(docsDir, name))
		if err != nil || string(b) != body {
			t.Errorf("docs/rules/%s is stale or missing; run: go test ./cmd/cicheck -run TestRuleDocsFresh -update-docs", name)
		}
	}
}

// registryRulesWithoutExamples are the registry rules that cannot be
// shown from a repository's files alone; keep it in step with
// noExamples in testregistry/rules_doc_test.go (reg-unreadable needs a
// symlink, a FIFO or a file of several MiB, which no example holds).
var registryRulesWithoutExamples = map[string]bool{"reg-unreadable": true}

func TestEveryWorkflowRuleHasExamples(t *testing.T) {
	for _, d := range lint.RuleDocs() {
		switch {
		case d.Area == "workflow":
		case d.Area == "registry" && !registryRulesWithoutExamples[d.ID]:
		default:
			continue
		}
		if d.Doc == "" || d.Help == "" || d.Bad == "" || d.Good == "" {
			t.Errorf("%s rule %s lacks Doc, Help, Bad or Good", d.Area, d.ID)
		}
	}
	ids := []string{}
	for _, d := range lint.RuleDocs() {
		ids = append(ids, d.ID)
	}
	if !slices.IsSorted(ids) || len(slices.Compact(slices.Clone(ids))) != len(ids) {
		t.Errorf("rule ids not unique and sorted: %s", strings.Join(ids, ", "))
	}
}

// TestRuleExamples runs every workflow rule over its own Bad and Good
// examples: Bad must trigger it, Good must not. Documentation that lies
// fails here.
func TestRuleExamples(t *testing.T) {
	for _, r := range checks.All() {
		t.Run(r.ID, func(t *testing.T) {
			if hits := exampleHits(t, r, r.Bad); hits == 0 {
				t.Errorf("Bad example does not trigger %s", r.ID)
			}
			if hits := exampleHits(t, r, r.Good); hits != 0 {
				t.Errorf("Good example triggers %s %d time(s)", r.ID, hits)
			}
		})
	}
}

func exampleHits(t *testing.T, r *checks.Rule, src string) int {
	t.Helper()
	// Examples are documented as the file .github/workflows/ci.yml.
	const path = ".github/workflows/ci.yml"
	fsys := fstest.MapFS{path: {Data: []byte(src)}}
	w, _, err := workflowgraph.Load(fsys, path)
	if err != nil {
		t.Fatalf("example does not load: %v", err)
	}
	n := 0
	for _, f := range checks.Run(w, path, nil, []*checks.Rule{r}) {
		if f.Rule == r.ID {
			n++
		}
	}
	return n
}

// TestRegistryExampleRendering: a registry example is a repository, shown
// as one fenced block per file under the file's path.
func TestRegistryExampleRendering(t *testing.T) {
	d, ok := lint.FindRuleDoc("policy-allowlist-drift")
	if !ok {
		t.Fatal("policy-allowlist-drift is not documented")
	}
	md := d.Markdown()
	for _, want := range []string{
		"## Bad\n",
		"\n### .github/workflows/policies/comment-command-access.json\n\n```json\n{\n",
		"\n### tests/ci/labels.py\n\n```python\n",
		"\n### tests/e2e/megatron/test_convert.py\n\n```python\n",
		"## Good\n",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("markdown lacks %q:\n%s", want, md)
		}
	}
	if strings.Contains(md, "-- tests/") {
		t.Errorf("markdown shows raw txtar markers:\n%s", md)
	}
}

// TestSARIFRuleMetadata: every documented rule reaches SARIF with its whole
// page (the text of docs/rules/<id>.md) as help, and a helpUri only when
// the project has a published home, naming a page that exists.
func TestSARIFRuleMetadata(t *testing.T) {
	infos := append(lint.RuleInfos(), lint.RegistryRuleInfos()...)
	seen := 0
	for _, ri := range infos {
		d, ok := lint.FindRuleDoc(ri.ID)
		if !ok {
			continue // actionlint's kinds link to actionlint's docs
		}
		seen++
		if ri.Help != d.Markdown() || d.Help == "" || !strings.Contains(ri.Help, d.Help) {
			t.Errorf("%s: SARIF help is not the rule's page", ri.ID)
		}
		if project.Home == "" {
			if ri.HelpURI != "" {
				t.Errorf("%s: helpUri %q, but the project has no published home", ri.ID, ri.HelpURI)
			}
			continue
		}
		page := path.Base(ri.HelpURI)
		if _, err := os.Stat(filepath.Join(docsDir, page)); err != nil || ri.HelpURI != project.RuleDocURL(ri.ID) {
			t.Errorf("%s: helpUri names %s, which is not in docs/rules", ri.ID, page)
		}
	}
	if seen < len(lint.RuleDocs()) {
		t.Errorf("only %d of %d documented rules reach SARIF", seen, len(lint.RuleDocs()))
	}
}
