package lint

import (
	"cmp"
	"fmt"
	"path"
	"slices"
	"sort"
	"strings"
	"testing/fstest"

	"github.com/cicheck/cicheck/checks"
	"github.com/cicheck/cicheck/finding"
	"github.com/cicheck/cicheck/fix"
	"github.com/cicheck/cicheck/internal/project"
	"github.com/cicheck/cicheck/report"
	"github.com/cicheck/cicheck/testregistry"
	"github.com/cicheck/cicheck/workflowgraph"
	"golang.org/x/tools/txtar"
)

// RuleDoc is one rule as documented: cicheck's workflow rules, the
// suppression meta-rules and the test-registry rules share this shape.
type RuleDoc struct {
	ID       string
	Severity finding.Severity
	Area     string // "workflow", "suppression" or "registry"
	Doc      string
	Help     string
	Bad      string
	Good     string
	// FixDiff is what --fix changes in Bad, as a unified diff, for the
	// rules whose fix --fix applies.
	FixDiff string
}

// RuleDocs is every documented rule, sorted by id. It is the one source of
// `cicheck rules`, docs/rules/*.md and the SARIF rule metadata.
func RuleDocs() []RuleDoc {
	var out []RuleDoc
	add := func(area string, rs []*checks.Rule) {
		for _, r := range rs {
			out = append(out, RuleDoc{ID: r.ID, Severity: r.Severity, Area: area, Doc: r.Doc, Help: r.Help, Bad: r.Bad, Good: r.Good, FixDiff: fixExample(r)})
		}
	}
	add("workflow", checks.All())
	add("workflow", checks.FileRules())
	add("suppression", checks.MetaRules())
	for _, r := range testregistry.Rules() {
		out = append(out, RuleDoc{ID: r.ID, Severity: r.Severity, Area: "registry", Doc: r.Short, Help: r.Help, Bad: r.Bad, Good: r.Good})
	}
	slices.SortFunc(out, func(a, b RuleDoc) int { return cmp.Compare(a.ID, b.ID) })
	return out
}

// Info is the rule's SARIF metadata.
func (d RuleDoc) Info() report.RuleInfo {
	// SARIF carries the whole page, so code scanning shows it without a
	// link; helpUri only once the page is published (project.RuleDocURL).
	return report.RuleInfo{ID: d.ID, Short: d.Doc, Full: d.FullDescription(), Help: d.Markdown(), HelpURI: project.RuleDocURL(d.ID), Severity: d.Severity}
}

// FullDescription is the rule's one-line doc as a sentence followed by the
// first paragraph of its documentation (what goes wrong and why), as
// markdown: SARIF's fullDescription.
func (d RuleDoc) FullDescription() string {
	full := sentence(d.Doc)
	if para, _, _ := strings.Cut(strings.TrimSpace(d.Help), "\n\n"); para != "" {
		full += "\n\n" + para
	}
	return full
}

func FindRuleDoc(id string) (RuleDoc, bool) {
	for _, d := range RuleDocs() {
		if d.ID == id {
			return d, true
		}
	}
	return RuleDoc{}, false
}

// Markdown renders the rule's page; docs/rules/<id>.md holds exactly this.
func (d RuleDoc) Markdown() string {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\n\n", d.ID)
	fmt.Fprintf(&b, "Default severity: **%s** · Area: %s\n\n", d.Severity, d.Area)
	fmt.Fprintf(&b, "%s\n", sentence(d.Doc))
	if d.Help != "" {
		fmt.Fprintf(&b, "\n%s\n", strings.TrimSpace(d.Help))
	}
	if d.Area == "registry" {
		// Registry examples are small repositories (txtar archives):
		// one fenced block per file, under its path.
		if d.Bad != "" || d.Good != "" {
			b.WriteString("\nThe examples are small repositories, one block per file, as `cicheck registry check` reads them.\n")
		}
		if d.Bad != "" {
			b.WriteString("\n## Bad\n")
			writeArchive(&b, d.Bad)
		}
		if d.Good != "" {
			b.WriteString("\n## Good\n")
			writeArchive(&b, d.Good)
		}
		return b.String()
	}
	if d.Bad != "" {
		fmt.Fprintf(&b, "\n## Bad\n\n```yaml\n%s\n```\n", strings.TrimRight(d.Bad, "\n"))
	}
	if d.Good != "" {
		fmt.Fprintf(&b, "\n## Good\n\n```yaml\n%s\n```\n", strings.TrimRight(d.Good, "\n"))
	}
	if d.FixDiff != "" {
		b.WriteString("\n## Fix\n\n`cicheck lint --fix` applies this rule's fix when the finding is an error, `--fix=all` also when it is a warning or notice. " +
			"It adds to the `if:` as written and changes nothing else; on the bad example (`--fix=all --diff`):\n")
		fmt.Fprintf(&b, "\n```diff\n%s```\n", d.FixDiff)
	}
	fmt.Fprintf(&b, "\n## Configuration\n\n```yaml\nrules:\n  %s:\n    severity: %s   # error | warning | notice\n    enabled: true\n```\n", d.ID, d.Severity)
	fmt.Fprintf(&b, "\nSuppress one occurrence with `# cicheck: ignore[%s] <reason>` on its line or the line above.\n", d.ID)
	return b.String()
}

// writeArchive renders a txtar example repository: each file's path as a
// heading, then its content in a fenced block tagged by extension.
func writeArchive(b *strings.Builder, archive string) {
	for _, f := range txtar.Parse([]byte(archive)).Files {
		fmt.Fprintf(b, "\n### %s\n\n```%s\n%s\n```\n", f.Name, fenceLang(f.Name), strings.TrimRight(string(f.Data), "\n"))
	}
}

// fenceLang is the code-fence language of a file, by extension.
func fenceLang(name string) string {
	switch path.Ext(name) {
	case ".py":
		return "python"
	case ".yml", ".yaml":
		return "yaml"
	case ".json":
		return "json"
	case ".toml":
		return "toml"
	}
	return "text"
}

// sentence capitalises a one-line doc and ends it with a full stop.
func sentence(s string) string {
	s = strings.TrimSpace(s)
	if s == "" {
		return s
	}
	s = strings.ToUpper(s[:1]) + s[1:]
	if !strings.HasSuffix(s, ".") {
		s += "."
	}
	return s
}

// RulesIndex renders docs/rules/README.md: one row per rule.
func RulesIndex(docs []RuleDoc) string {
	var b strings.Builder
	b.WriteString("# cicheck rules\n\nGenerated from the rule values by `go test ./cmd/cicheck -run TestRuleDocsFresh -update-docs`; do not edit.\n\n")
	b.WriteString(severities)
	b.WriteString("\n## Rules\n\n| Rule | Severity | Area | What it finds |\n|---|---|---|---|\n")
	for _, d := range docs {
		fmt.Fprintf(&b, "| [%s](%s.md) | %s | %s | %s |\n", d.ID, d.ID, d.Severity, d.Area, strings.ReplaceAll(sentence(d.Doc), "|", "\\|"))
	}
	return b.String()
}

// severities is the index's account of what each severity means and of
// the exit status, kept beside the table so they cannot drift apart.
const severities = `## Severities and the exit status

` + "`cicheck lint`" + ` exits 1 when a finding is at or above ` + "`--fail-on`" + ` (default ` + "`error`" + `):

- **error**: the run breaks as written. GitHub rejects the workflow, or a job
  does not run as it reads (a GPU stage skipped by the implicit
  ` + "`success()`" + `, a runner label one edit from a GitHub-hosted one), or CI
  collection fails.
- **warning**: a hazard or a likely mistake that does not break every run.
- **notice**: information, deliberate by all appearances: a custom runner
  label (a self-hosted or larger runner's), a job parked with ` + "`if: false`" + `
  and the jobs it parks, a disabled registration's unknown suite.

To make warnings or notices fail the run, pass ` + "`--fail-on warning`" + ` (or
` + "`notice`" + `), or raise one rule in ` + "`.cicheck.yaml`" + ` with
` + "`rules.<id>.severity: error`" + `. actionlint's findings are errors, except that
a custom label's ` + "`runner-label`" + ` finding and a step's constant-false
` + "`if-cond`" + ` are notices; the actionlint errors for constructs GitHub has
accepted since actionlint 1.7.12 (` + "`concurrency.queue`" + `, parallel steps, the
` + "`vulnerability-alerts`" + ` and ` + "`code-quality`" + ` permissions, the ` + "`ubuntu-26.04`" + ` images) are dropped, and
cicheck checks those constructs itself.
`

// RuleInfos is the rule metadata for SARIF: every documented rule (with a
// helpUri to docs/rules/<id>.md) and actionlint's kinds.
func RuleInfos() []report.RuleInfo {
	var out []report.RuleInfo
	for _, d := range RuleDocs() {
		out = append(out, d.Info())
	}
	kinds := make([]string, 0, len(checks.ActionlintKinds()))
	for k := range checks.ActionlintKinds() {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	for _, k := range kinds {
		out = append(out, report.RuleInfo{ID: k, Short: "actionlint: " + checks.ActionlintKinds()[k],
			Full: sentence(checks.ActionlintKinds()[k]) + " Reported by the embedded actionlint; " +
				"cicheck converts its errors into findings and leaves its checks as they are.",
			Help: "# " + k + "\n\nReported by the embedded actionlint: " + sentence(checks.ActionlintKinds()[k]) + "\n\n" +
				"See [actionlint's checks](https://github.com/rhysd/actionlint/blob/main/docs/checks.md) for what it finds and how to fix it.\n",
			HelpURI:  "https://github.com/rhysd/actionlint/blob/main/docs/checks.md",
			Severity: finding.Error})
	}
	return out
}

// RegistryRuleInfos is the rule metadata for SARIF.
func RegistryRuleInfos() []report.RuleInfo {
	var out []report.RuleInfo
	for _, d := range RuleDocs() {
		if d.Area == "registry" {
			out = append(out, d.Info())
		}
	}
	return out
}

// KnownRuleIDs is every rule id a rules.<id> section may name.
func KnownRuleIDs() map[string]bool {
	ids := map[string]bool{}
	for _, r := range RuleInfos() {
		ids[r.ID] = true
	}
	return ids
}

// fixExample is the diff --fix makes to r's bad example for r's own
// findings, "" when r has no such fix.
func fixExample(r *checks.Rule) string {
	if r.Bad == "" {
		return ""
	}
	src := []byte(r.Bad)
	w, _, err := workflowgraph.Load(fstest.MapFS{"w.yml": {Data: src}}, "w.yml")
	if err != nil || w == nil {
		return ""
	}
	var mine []finding.Finding
	for _, f := range checks.Run(w, "w.yml", nil, checks.All()) {
		if f.Rule == r.ID && fix.Fixable(f) {
			mine = append(mine, f)
		}
	}
	if len(mine) == 0 {
		return ""
	}
	res := fix.Apply(src, w, mine)
	return res.Unified(".github/workflows/example.yml")
}
