package main

import (
	"cmp"
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/rogpeppe/go-internal/txtar"
	"github.com/spf13/pflag"

	"github.com/cicheck/cicheck/checks"
	"github.com/cicheck/cicheck/finding"
	"github.com/cicheck/cicheck/report"
	"github.com/cicheck/cicheck/testregistry"
)

// docsBaseURL is where docs/rules/<id>.md is published; SARIF helpUri points there.
const docsBaseURL = "https://github.com/cicheck/cicheck/blob/main/docs/rules/"

func init() {
	register(command{name: "rules", summary: "list every rule, or print one rule's documentation", run: runRules})
}

// ruleDoc is one rule as documented: cicheck's workflow rules, the
// suppression meta-rules and the test-registry rules share this shape.
type ruleDoc struct {
	ID       string
	Severity finding.Severity
	Area     string // "workflow", "suppression" or "registry"
	Doc      string
	Help     string
	Bad      string
	Good     string
}

// ruleDocs is every documented rule, sorted by id. It is the one source of
// `cicheck rules`, docs/rules/*.md and the SARIF rule metadata.
func ruleDocs() []ruleDoc {
	var out []ruleDoc
	add := func(area string, rs []*checks.Rule) {
		for _, r := range rs {
			out = append(out, ruleDoc{ID: r.ID, Severity: r.Severity, Area: area, Doc: r.Doc, Help: r.Help, Bad: r.Bad, Good: r.Good})
		}
	}
	add("workflow", checks.All)
	add("suppression", checks.MetaRules)
	for _, r := range testregistry.Rules() {
		out = append(out, ruleDoc{ID: r.ID, Severity: r.Severity, Area: "registry", Doc: r.Short, Help: r.Help, Bad: r.Bad, Good: r.Good})
	}
	slices.SortFunc(out, func(a, b ruleDoc) int { return cmp.Compare(a.ID, b.ID) })
	return out
}

// info is the rule's SARIF metadata.
func (d ruleDoc) info() report.RuleInfo {
	return report.RuleInfo{ID: d.ID, Short: d.Doc, Help: d.Help, HelpURI: ruleHelpURI(d.ID), Severity: d.Severity}
}

// ruleHelpURI is the published page of a rule (SARIF helpUri).
func ruleHelpURI(id string) string { return docsBaseURL + id + ".md" }

func findRuleDoc(id string) (ruleDoc, bool) {
	for _, d := range ruleDocs() {
		if d.ID == id {
			return d, true
		}
	}
	return ruleDoc{}, false
}

func runRules(e *env, args []string) int {
	fl := pflag.NewFlagSet("cicheck rules", pflag.ContinueOnError)
	fl.SetOutput(e.stderr)
	fl.Usage = func() {
		fmt.Fprintln(e.stderr, "usage: cicheck rules [ID]")
		fl.PrintDefaults()
	}
	if err := fl.Parse(args); err != nil {
		return flagError(e, err)
	}
	switch fl.NArg() {
	case 0:
		for _, d := range ruleDocs() {
			fmt.Fprintf(e.stdout, "%-36s %-8s %s\n", d.ID, d.Severity, d.Doc)
		}
		fmt.Fprintln(e.stdout, "\nactionlint's checks also run: see https://github.com/rhysd/actionlint/blob/main/docs/checks.md")
		return exitOK
	case 1:
		d, ok := findRuleDoc(fl.Arg(0))
		if desc, isKind := checks.ActionlintKinds[fl.Arg(0)]; !ok && isKind {
			// actionlint's rule ids appear in findings and in rules:
			// sections, so they are known here too, if documented upstream.
			fmt.Fprintf(e.stdout, "# %s\n\nReported by the embedded actionlint: %s.\n\nOnline: https://github.com/rhysd/actionlint/blob/main/docs/checks.md\n", fl.Arg(0), desc)
			return exitOK
		}
		if !ok {
			fmt.Fprintf(e.stderr, "cicheck: unknown rule %q (run 'cicheck rules' for the list)\n", fl.Arg(0))
			return exitUsage
		}
		fmt.Fprint(e.stdout, d.markdown())
		fmt.Fprintf(e.stdout, "\nOnline: %s\n", ruleHelpURI(d.ID))
		return exitOK
	}
	fmt.Fprintln(e.stderr, "cicheck: rules takes at most one rule id")
	return exitUsage
}

// markdown renders the rule's page; docs/rules/<id>.md holds exactly this.
func (d ruleDoc) markdown() string {
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

// rulesIndex renders docs/rules/README.md: one row per rule.
func rulesIndex(docs []ruleDoc) string {
	var b strings.Builder
	b.WriteString("# cicheck rules\n\nGenerated from the rule values by `go test ./cmd/cicheck -run TestRuleDocsFresh -update-docs`; do not edit.\n\n")
	b.WriteString("| Rule | Severity | Area | What it finds |\n|---|---|---|---|\n")
	for _, d := range docs {
		fmt.Fprintf(&b, "| [%s](%s.md) | %s | %s | %s |\n", d.ID, d.ID, d.Severity, d.Area, strings.ReplaceAll(sentence(d.Doc), "|", "\\|"))
	}
	return b.String()
}
