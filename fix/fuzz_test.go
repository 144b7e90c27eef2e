package fix_test

import (
	"strings"
	"testing"
	"testing/fstest"

	"gopkg.in/yaml.v3"

	"github.com/cicheck/cicheck/finding"
	"github.com/cicheck/cicheck/fix"
	"github.com/cicheck/cicheck/workflowgraph"
)

// fuzzSeeds are the shapes --fix once damaged: flow mappings, anchors and
// aliases, comments under and around if:, every quoting style, tags,
// block scalars, CRLF and a byte order mark.
var fuzzSeeds = []string{
	"on: push\njobs:\n  a:\n    runs-on: x\n    steps: [{run: x}]\n",
	"on: push\njobs:\n  a:\n    if: >-\n      true\n    runs-on: x\n    steps: [{run: x}]\n",
	"on: push\njobs:\n  a:\n    if: 'x' # c\n    runs-on: x\n",
	"on: push\njobs:\n  a: {runs-on: x}\n",
	"on: push\r\njobs:\r\n  a:\r\n    if: \"a\r\n      b\"\r\n    runs-on: x\r\n",
	"on: push\njobs:\n  a:\n    runs-on: x\n  b: {needs: a, if: always(), runs-on: x, steps: [{run: x}]}\n",
	"on: push\njobs:\n  a:\n    needs: b\n    if: &c always()\n    runs-on: x\n  b:\n    if: *c\n    runs-on: x\n",
	"on: push\njobs:\n  a:\n    needs: b\n    if: always() # why\n      # under the if\n    runs-on: x\n  b:\n    runs-on: x\n",
	"on: push\njobs:\n  a:\n    needs: b\n    if: \"always() &&\n    vars.x\"\n    runs-on: x\n  b:\n    runs-on: x\n",
	"on: push\njobs:\n  a:\n    needs: b\n    if: !!str always()\n    runs-on: x\n  b:\n    runs-on: x\n",
	"\ufeffon: push\r\njobs:\r\n  a:\r\n    needs: b\r\n    if: |\r\n      x ||\r\n      always()\r\n    runs-on: x\r\n  b:\r\n    runs-on: x\r\n",
	"on: push\njobs:\n  a:\n    needs: [b]\n    if: ${{ (x||y) && always() }}\n    runs-on: x\n  b: &b\n    runs-on: x\n  c: *b\n",
	"on: push\njobs:\n  a:\n    needs: b\n    if: >\n      ${{ x ||\n\n        always() }}\n    runs-on: x\n  b:\n    runs-on: x\n",
}

// fuzzFindings asks for every edit the rules make: a gate for every job,
// and always() replaced where the job's if: has one.
func fuzzFindings(w *workflowgraph.Workflow) []finding.Finding {
	var fs []finding.Finding
	for i, j := range w.Jobs {
		if j.If != nil && strings.Contains(strings.ToLower(j.If.Raw), "always") && i%2 == 0 {
			fs = append(fs, finding.Finding{Rule: "always-without-cancelled", Job: j.ID, Edit: finding.CondEdit{Cancel: true}})
			continue
		}
		terms := "!cancelled()"
		for _, n := range j.Needs {
			terms += " && needs." + n + ".result == 'success'"
		}
		fs = append(fs, finding.Finding{Rule: "gpu-gate", Job: j.ID, Edit: finding.CondEdit{Terms: terms}})
	}
	return fs
}

// FuzzApply: whatever the text, a fix never panics and never loses a
// byte: with the if: of each fixed job taken out, the YAML trees before
// and after are identical, comments included; each new if: parses, keeps
// its scalar style and holds the author's text; a second run changes
// nothing. Checked here independently of the package's own check.
func FuzzApply(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		w, _, err := workflowgraph.Load(fstest.MapFS{"w.yml": {Data: []byte(src)}}, "w.yml")
		if err != nil || w == nil {
			return
		}
		fs := fuzzFindings(w)
		r := fix.Apply([]byte(src), w, fs)
		if len(r.Applied) == 0 {
			if string(r.Source) != src {
				t.Fatalf("nothing applied, but the text changed:\n%s", r.Source)
			}
			return
		}
		var before, after yaml.Node
		if err := yaml.Unmarshal([]byte(src), &before); err != nil {
			t.Fatalf("the original does not parse: %v", err)
		}
		if err := yaml.Unmarshal(r.Source, &after); err != nil {
			t.Fatalf("the fixed text does not parse: %v\n%s", err, r.Source)
		}
		applied := map[string]bool{}
		for _, a := range r.Applied {
			applied[a.Job] = true
		}
		oldIf, newIf := takeIfs(&before, applied), takeIfs(&after, applied)
		if why := differ(&before, &after); why != "" {
			t.Fatalf("the fix changed more than the if: values (%s):\n%s\n---\n%s", why, src, r.Source)
		}
		w2, _, err := workflowgraph.Load(fstest.MapFS{"w.yml": {Data: r.Source}}, "w.yml")
		if err != nil || w2 == nil {
			t.Fatalf("the fixed text does not load: %v\n%s", err, r.Source)
		}
		for id := range applied {
			j := w2.Job(id)
			if j == nil || j.If == nil || j.If.Expr == nil || !j.If.HasStatusFunc() {
				t.Fatalf("job %s lacks its new if: in\n%s", id, r.Source)
			}
			n, o := newIf[id], oldIf[id]
			if o != nil && (n.Style != o.Style || !containsAuthor(n.Value, o.Value)) {
				t.Fatalf("job %s: the if: lost its style or the author's text: %q -> %q", id, o.Value, n.Value)
			}
		}
		// The same fixes again: every term is there, no always() is left.
		if again := fix.Apply(r.Source, w2, fs); len(again.Applied) > 0 {
			t.Fatalf("not idempotent for %s:\n%s\n---\n%s", again.Applied[0].Job, r.Source, again.Source)
		}
	})
}

// containsAuthor: the new value holds the old condition's text, except
// for always() calls, which become !cancelled().
func containsAuthor(n, o string) bool {
	inner := strings.TrimSpace(o)
	if strings.HasPrefix(inner, "${{") && strings.HasSuffix(inner, "}}") {
		inner = strings.TrimSpace(inner[3 : len(inner)-2])
	}
	for _, part := range strings.Split(strings.ToLower(inner), "always") {
		if p := strings.TrimSpace(part); p != "" && !strings.Contains(strings.ToLower(n), strings.TrimLeft(p, "()")) {
			return false
		}
	}
	return true
}

// takeIfs removes the if: pair of each listed job from the tree and
// returns the values removed, by the ids as listed (job ids compare
// without case: a finding names the job as its key is written).
func takeIfs(doc *yaml.Node, jobs map[string]bool) map[string]*yaml.Node {
	listed := map[string]string{}
	for id := range jobs {
		listed[strings.ToLower(id)] = id
	}
	out := map[string]*yaml.Node{}
	root := doc
	if root.Kind == yaml.DocumentNode && len(root.Content) == 1 {
		root = root.Content[0]
	}
	if root.Kind != yaml.MappingNode {
		return out
	}
	for i := 0; i+1 < len(root.Content); i += 2 {
		if root.Content[i].Value != "jobs" || root.Content[i+1].Kind != yaml.MappingNode {
			continue
		}
		js := root.Content[i+1]
		for k := 0; k+1 < len(js.Content); k += 2 {
			id, ok := listed[strings.ToLower(js.Content[k].Value)]
			body := js.Content[k+1]
			if !ok || body.Kind != yaml.MappingNode {
				continue
			}
			for m := 0; m+1 < len(body.Content); m += 2 {
				if body.Content[m].Value == "if" {
					out[id] = body.Content[m+1]
					body.Content = append(body.Content[:m:m], body.Content[m+2:]...)
					break
				}
			}
		}
	}
	return out
}

// differ names the first difference between two trees, "" for none.
func differ(a, b *yaml.Node) string {
	switch {
	case a.Kind != b.Kind || a.Style != b.Style || a.Tag != b.Tag:
		return "kind, style or tag of " + a.Value
	case a.Value != b.Value || a.Anchor != b.Anchor:
		return "value " + a.Value + " / " + b.Value
	case a.HeadComment != b.HeadComment || a.LineComment != b.LineComment || a.FootComment != b.FootComment:
		return "comments at " + a.Value
	case len(a.Content) != len(b.Content):
		return "children of " + a.Value
	}
	if a.Kind == yaml.AliasNode && (a.Alias == nil) != (b.Alias == nil) {
		return "alias " + a.Value
	}
	for i := range a.Content {
		if why := differ(a.Content[i], b.Content[i]); why != "" {
			return why
		}
	}
	return ""
}
