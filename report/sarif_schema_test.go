package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"net/url"
	"os"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/cicheck/cicheck/finding"
)

// testdata/sarif-2.1.0.schema.json is the SARIF 2.1.0 JSON schema that
// Microsoft's SARIF Multitool validates with: sarif-2.1.0.json of the npm
// package @microsoft/sarif-multitool-linux@5.7.0 (sha256 1c49a0f2b604…
// 89ed798c), with the keywords that do not constrain a document
// (description, default, title) removed and the rest minified, so it stays
// small:
//
//	python3 -c 'import json,sys
//	def s(x,p=False):
//	    if isinstance(x,dict): return {k:s(v,k in("properties","definitions") and not p) for k,v in x.items() if p or k not in("description","default","title")}
//	    return [s(v) for v in x] if isinstance(x,list) else x
//	print(json.dumps(s(json.load(open(sys.argv[1]))),separators=(",",":"),sort_keys=True))' sarif-2.1.0.json
//
// schemaValidate below implements the keywords that schema uses.

// schemaValidate checks doc against schema (both decoded JSON) and returns
// every violation as "path: problem", sorted.
func schemaValidate(schema, doc any) []string {
	root := schema.(map[string]any)
	var errs []string
	var check func(s map[string]any, v any, at string)
	check = func(s map[string]any, v any, at string) {
		if ref, ok := s["$ref"].(string); ok {
			name, ok := strings.CutPrefix(ref, "#/definitions/")
			def, _ := root["definitions"].(map[string]any)[name].(map[string]any)
			if !ok || def == nil {
				errs = append(errs, fmt.Sprintf("%s: unresolvable $ref %s", at, ref))
				return
			}
			check(def, v, at)
		}
		if t, ok := s["type"].(string); ok && !jsonType(v, t) {
			errs = append(errs, fmt.Sprintf("%s: %v is not of type %s", at, v, t))
			return
		}
		if enum, ok := s["enum"].([]any); ok && !slices.ContainsFunc(enum, func(e any) bool { return jsonEqual(e, v) }) {
			errs = append(errs, fmt.Sprintf("%s: %v is not one of %v", at, v, enum))
		}
		if fm, ok := s["format"].(string); ok {
			if str, isStr := v.(string); isStr && !formatOK(fm, str) {
				errs = append(errs, fmt.Sprintf("%s: %q is not a valid %s", at, str, fm))
			}
		}
		if p, ok := s["pattern"].(string); ok {
			if str, isStr := v.(string); isStr && !regexp.MustCompile(p).MatchString(str) {
				errs = append(errs, fmt.Sprintf("%s: %q does not match %s", at, str, p))
			}
		}
		if n, ok := v.(float64); ok {
			if m, ok := s["minimum"].(float64); ok && n < m {
				errs = append(errs, fmt.Sprintf("%s: %v < minimum %v", at, n, m))
			}
			if m, ok := s["maximum"].(float64); ok && n > m {
				errs = append(errs, fmt.Sprintf("%s: %v > maximum %v", at, n, m))
			}
		}
		for _, kw := range []string{"anyOf", "oneOf"} {
			alts, ok := s[kw].([]any)
			if !ok {
				continue
			}
			pass := 0
			for _, alt := range alts {
				saved := errs
				errs = nil
				check(alt.(map[string]any), v, at)
				if len(errs) == 0 {
					pass++
				}
				errs = saved
			}
			if pass == 0 || kw == "oneOf" && pass > 1 {
				errs = append(errs, fmt.Sprintf("%s: %d alternatives of %s match", at, pass, kw))
			}
		}
		switch x := v.(type) {
		case map[string]any:
			props, _ := s["properties"].(map[string]any)
			required, _ := s["required"].([]any)
			for _, r := range required {
				if _, ok := x[r.(string)]; !ok {
					errs = append(errs, fmt.Sprintf("%s: required property %q missing", at, r))
				}
			}
			for _, k := range sortedKeys(x) {
				if ps, ok := props[k].(map[string]any); ok {
					check(ps, x[k], at+"."+k)
					continue
				}
				switch ap := s["additionalProperties"].(type) {
				case bool:
					if !ap {
						errs = append(errs, fmt.Sprintf("%s: property %q is not allowed", at, k))
					}
				case map[string]any:
					check(ap, x[k], at+"."+k)
				}
			}
		case []any:
			if m, ok := s["minItems"].(float64); ok && float64(len(x)) < m {
				errs = append(errs, fmt.Sprintf("%s: %d items < minItems %v", at, len(x), m))
			}
			if u, _ := s["uniqueItems"].(bool); u {
				for i := range x {
					for j := i + 1; j < len(x); j++ {
						if jsonEqual(x[i], x[j]) {
							errs = append(errs, fmt.Sprintf("%s: items %d and %d are equal", at, i, j))
						}
					}
				}
			}
			if is, ok := s["items"].(map[string]any); ok {
				for i, e := range x {
					check(is, e, fmt.Sprintf("%s[%d]", at, i))
				}
			}
		}
	}
	check(root, doc, "$")
	sort.Strings(errs)
	return errs
}

func sortedKeys(m map[string]any) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

func jsonType(v any, t string) bool {
	switch t {
	case "object":
		_, ok := v.(map[string]any)
		return ok
	case "array":
		_, ok := v.([]any)
		return ok
	case "string":
		_, ok := v.(string)
		return ok
	case "boolean":
		_, ok := v.(bool)
		return ok
	case "number":
		_, ok := v.(float64)
		return ok
	case "integer":
		n, ok := v.(float64)
		return ok && n == math.Trunc(n)
	case "null":
		return v == nil
	}
	return false
}

func jsonEqual(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return bytes.Equal(x, y)
}

var uuidRE = regexp.MustCompile(`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`)

func formatOK(format, s string) bool {
	switch format {
	case "uri":
		u, err := url.Parse(s)
		return err == nil && u.Scheme != ""
	case "uri-reference":
		_, err := url.Parse(s)
		return err == nil
	case "date-time":
		_, err := time.Parse(time.RFC3339, s)
		return err == nil
	case "uuid":
		return uuidRE.MatchString(s)
	}
	return true
}

// LoadSARIFSchema is loadSARIFSchema for the external tests.
var LoadSARIFSchema = loadSARIFSchema

func loadSARIFSchema(t *testing.T) any {
	t.Helper()
	b, err := os.ReadFile("testdata/sarif-2.1.0.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	var schema any
	if err := json.Unmarshal(b, &schema); err != nil {
		t.Fatal(err)
	}
	return schema
}

// The validator itself: a document the schema refuses is refused.
func TestSchemaValidateRefuses(t *testing.T) {
	schema := loadSARIFSchema(t)
	for _, c := range []struct{ name, doc, want string }{
		{"version", `{"version":"2.0.0","runs":[]}`, `$.version: 2.0.0 is not one of [2.1.0]`},
		{"no runs", `{"version":"2.1.0"}`, `$: required property "runs" missing`},
		{"extra property", `{"version":"2.1.0","runs":[],"x":1}`, `$: property "x" is not allowed`},
		{"no driver name", `{"version":"2.1.0","runs":[{"tool":{"driver":{}}}]}`, `$.runs[0].tool.driver: required property "name" missing`},
		{"line 0", `{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"x"}},"results":[{"message":{"text":"m"},"locations":[{"physicalLocation":{"artifactLocation":{"uri":"a"},"region":{"startLine":0}}}]}]}]}`, `$.runs[0].results[0].locations[0].physicalLocation.region.startLine: 0 < minimum 1`},
		{"invocation", `{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"x"}},"invocations":[{}]}]}`, `$.runs[0].invocations[0]: required property "executionSuccessful" missing`},
		{"level", `{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"x"}},"results":[{"level":"fatal","message":{"text":"m"}}]}]}`, `$.runs[0].results[0].level: fatal is not one of [none note warning error]`},
	} {
		var doc any
		if err := json.Unmarshal([]byte(c.doc), &doc); err != nil {
			t.Fatal(err)
		}
		if got := schemaValidate(schema, doc); !slices.Contains(got, c.want) {
			t.Errorf("%s: got %q, want it to contain %q", c.name, got, c.want)
		}
	}
	// Near miss: the smallest valid log passes.
	var ok any
	_ = json.Unmarshal([]byte(`{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"x"}},"invocations":[{"executionSuccessful":false}],"results":[]}]}`), &ok)
	if got := schemaValidate(schema, ok); len(got) > 0 {
		t.Errorf("a minimal valid log is refused: %q", got)
	}
}

// sarifSamples are the logs the schema and GitHub tests check: findings of
// every shape (a region, none, an absolute path, a rule without metadata),
// an empty run and a failed one.
func sarifSamples() map[string]struct {
	fs   []finding.Finding
	opts Options
} {
	rules := []RuleInfo{
		{ID: "known", Short: "Known rule", Full: "Known rule.\n\nWhat goes *wrong*.", Help: "# known\n\nLong *markdown* with `code`.\n\n```yaml\non: push\n```\n", Severity: finding.Error},
		{ID: "quiet", Short: "Quiet rule", Severity: finding.Notice},
	}
	fs := []finding.Finding{
		{Rule: "known", Severity: finding.Error, File: ".github/workflows/ci.yml", Line: 4, Column: 7, Message: "m1", Job: "build", Fix: "if: x"},
		{Rule: "unlisted", Severity: finding.Warning, File: ".github/workflows/ci.yml", Message: "whole file"},
		{Rule: "quiet", Severity: finding.Notice, File: "/abs/path/w.yml", Line: 2, Message: "m2"},
		{Rule: "quiet", Severity: finding.Notice, File: "", Message: "no file"},
	}
	return map[string]struct {
		fs   []finding.Finding
		opts Options
	}{
		"findings": {fs, Options{Rules: rules, ToolName: "cicheck", ToolVersion: "0.0.0-dev+rev.0123456789ab"}},
		"empty":    {nil, Options{ToolVersion: "1.2.3"}},
		"failed":   {nil, Options{Rules: rules, ToolVersion: "0.3.0", Failures: []string{".cicheck.yaml:2:3: unknown rule \"gpu-gat\" in rules; did you mean \"gpu-gate\"?"}}},
		"partial":  {fs[:1], Options{Rules: rules, ToolVersion: "0.3.0", Failures: []string{"missing.yml: no such file or directory"}}},
	}
}

func TestSARIFMatchesSchema(t *testing.T) {
	schema := loadSARIFSchema(t)
	for name, c := range sarifSamples() {
		if errs := schemaValidate(schema, decodeSARIF(t, c.fs, c.opts)); len(errs) > 0 {
			t.Errorf("%s: SARIF 2.1.0 schema violations:\n%s", name, strings.Join(errs, "\n"))
		}
	}
}

// semverRE is a semantic version (semver.org's grammar, simplified to
// the characters it allows).
var semverRE = regexp.MustCompile(`^(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$`)

// ruleIDRE is what GitHub code scanning accepts readably as a rule id.
var ruleIDRE = regexp.MustCompile(`^[a-z0-9][a-z0-9-]*$`)

// TestSARIFGitHubRules checks what GitHub code scanning (and the SARIF
// Multitool's GitHub rule set, GH1001-GH2013) asks beyond the schema.
func TestSARIFGitHubRules(t *testing.T) {
	for name, c := range sarifSamples() {
		var buf bytes.Buffer
		if err := Write(&buf, "sarif", c.fs, c.opts); err != nil {
			t.Fatal(err)
		}
		for _, p := range checkGitHubSARIF(buf.Bytes(), c.opts.Failures) {
			t.Errorf("%s: %s", name, p)
		}
	}
}

// checkGitHubSARIF returns what in a SARIF log GitHub code scanning would
// refuse or show badly, given the failures the run should report.
func checkGitHubSARIF(log []byte, failures []string) []string {
	var problems []string
	bad := func(format string, a ...any) { problems = append(problems, fmt.Sprintf(format, a...)) }
	var doc struct {
		Runs []struct {
			Tool struct {
				Driver struct {
					Version string
					Rules   []struct {
						ID                                      string
						ShortDescription, FullDescription, Help struct{ Text, Markdown string }
						DefaultConfiguration                    struct{ Level string }
					}
				}
			}
			Invocations []struct {
				ExecutionSuccessful        *bool
				ToolExecutionNotifications []struct {
					Level   string
					Message struct{ Text string }
				}
			}
			Results []struct {
				RuleID    string
				Locations []struct {
					PhysicalLocation struct {
						ArtifactLocation struct{ URI string }
						Region           *struct{ StartLine int }
					}
				}
				PartialFingerprints map[string]string
			}
		}
	}
	if err := json.Unmarshal(log, &doc); err != nil {
		return []string{err.Error()}
	}
	if len(doc.Runs) != 1 {
		return []string{fmt.Sprintf("%d runs, want 1", len(doc.Runs))}
	}
	run := doc.Runs[0]
	if v := run.Tool.Driver.Version; !semverRE.MatchString(v) {
		bad("tool version %q is not a semantic version", v)
	}
	if len(run.Invocations) != 1 || run.Invocations[0].ExecutionSuccessful == nil {
		bad("want one invocation with executionSuccessful")
	} else {
		inv := run.Invocations[0]
		if *inv.ExecutionSuccessful != (len(failures) == 0) {
			bad("executionSuccessful %v with failures %q", *inv.ExecutionSuccessful, failures)
		}
		var got []string
		for _, n := range inv.ToolExecutionNotifications {
			if n.Level != "error" {
				bad("notification %q at level %q, want error", n.Message.Text, n.Level)
			}
			got = append(got, n.Message.Text)
		}
		if !slices.Equal(got, failures) && len(got)+len(failures) > 0 {
			bad("notifications %q, want %q", got, failures)
		}
	}
	ids := map[string]bool{}
	for _, r := range run.Tool.Driver.Rules {
		ids[r.ID] = true
		if !ruleIDRE.MatchString(r.ID) {
			bad("rule id %q", r.ID)
		}
		for what, s := range map[string]string{"shortDescription.text": r.ShortDescription.Text, "fullDescription.text": r.FullDescription.Text,
			"help.text": r.Help.Text, "help.markdown": r.Help.Markdown, "defaultConfiguration.level": r.DefaultConfiguration.Level} {
			if strings.TrimSpace(s) == "" {
				bad("rule %s: empty %s", r.ID, what)
			}
		}
		if s := r.ShortDescription.Text; strings.Contains(s, "\n") || len(s) > 1024 {
			bad("rule %s: shortDescription is not one short line: %q", r.ID, s)
		}
	}
	for i, r := range run.Results {
		if !ids[r.RuleID] {
			bad("result %d: rule %q not in tool.driver.rules", i, r.RuleID)
		}
		if len(r.Locations) != 1 {
			bad("result %d: %d locations, want 1", i, len(r.Locations))
			continue
		}
		phys := r.Locations[0].PhysicalLocation
		if phys.ArtifactLocation.URI == "" {
			bad("result %d: no artifact uri", i)
		}
		if phys.Region != nil && phys.Region.StartLine < 1 {
			bad("result %d: region without a startLine >= 1", i)
		}
		if r.PartialFingerprints[sarifFingerprintKey] == "" {
			bad("result %d: no partial fingerprint", i)
		}
	}
	return problems
}

func TestPlainText(t *testing.T) {
	md := "# gpu-gate\n\nDefault severity: **error** · see [the page](x.md).\n\nUse `if:`.\n\n```yaml\non: push\n\njobs: {}\n```\n"
	want := "gpu-gate\n\nDefault severity: error · see the page (x.md).\n\nUse if:.\n\n    on: push\n\n    jobs: {}\n"
	if got := plainText(md); got != want {
		t.Errorf("plainText:\n%q\nwant\n%q", got, want)
	}
}
