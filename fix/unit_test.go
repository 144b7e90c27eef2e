package fix

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/cicheck/cicheck/finding"
	"github.com/cicheck/cicheck/workflowgraph"
)

func load(t *testing.T, src string) *workflowgraph.Workflow {
	t.Helper()
	w, _, err := workflowgraph.Load(fstest.MapFS{"w.yml": {Data: []byte(src)}}, "w.yml")
	if err != nil || w == nil {
		t.Fatalf("load: %v", err)
	}
	return w
}

func gate(job, cond string) finding.Finding {
	return finding.Finding{Rule: "gpu-gate", Job: job, Fix: "if: ${{ " + cond + " }}", Edit: finding.CondEdit{Terms: cond}}
}

// TestFixable: only a gate rule's whole-if fix for a named job.
func TestFixable(t *testing.T) {
	for _, c := range []struct {
		f    finding.Finding
		want bool
	}{
		{gate("a", "x"), true},
		{finding.Finding{Rule: "always-without-cancelled", Job: "a", Edit: finding.CondEdit{Cancel: true}}, true},
		{finding.Finding{Rule: "closure-bridge", Job: "a", Edit: finding.CondEdit{Terms: "x"}}, true},
		{finding.Finding{Rule: "dead-needs-result", Job: "a", Edit: finding.CondEdit{Terms: "x"}}, true},
		{finding.Finding{Rule: "status-fn-args", Job: "a", Edit: finding.CondEdit{Terms: "x"}}, false}, // not certain
		{finding.Finding{Rule: "gpu-gate", Job: "", Edit: finding.CondEdit{Terms: "x"}}, false},        // no job
		{finding.Finding{Rule: "gpu-gate", Job: "a", Fix: "if: ${{ x }}"}, false},                      // advice, no edit
	} {
		if got := Fixable(c.f); got != c.want {
			t.Errorf("Fixable(%+v) = %v, want %v", c.f, got, c.want)
		}
	}
}

// TestApplyEdges: no workflow, the last line without a newline, findings
// in reverse file order, and each form that is skipped with its reason.
func TestApplyEdges(t *testing.T) {
	src := "on: push\njobs:\n  a:\n    runs-on: x\n    steps: [{run: x}]\n  b:\n    runs-on: x\n    steps: [{run: x}]"
	if r := Apply([]byte(src), nil, []finding.Finding{gate("a", "x")}); string(r.Source) != src || len(r.Applied) != 0 {
		t.Errorf("no workflow: %+v", r)
	}
	w := load(t, src)
	// b's edit comes first in the list; a's must still land at a.
	r := Apply([]byte(src), w, []finding.Finding{gate("b", "B"), gate("a", "A")})
	want := "on: push\njobs:\n  a:\n    if: ${{ A }}\n    runs-on: x\n    steps: [{run: x}]\n  b:\n    if: ${{ B }}\n    runs-on: x\n    steps: [{run: x}]"
	if string(r.Source) != want {
		t.Errorf("got\n%s\nwant\n%s", r.Source, want)
	}
	for _, c := range []struct{ name, src, reason string }{
		{"sibling, no body", "on: push\njobs:\n  a:\n  b:\n    runs-on: x\n    steps: [{run: x}]\n", "not a mapping"},
		{"list body", "on: push\njobs:\n  a:\n    - runs-on: x\n", "not a mapping"},
		{"flow job", "on: push\njobs:\n  a: {runs-on: x, steps: [{run: x}]}\n", "flow style"},
		{"text after the if:'s quote", "on: push\njobs:\n  a:\n    if: 'x' 'y'\n    runs-on: x\n    steps: [{run: x}]\n", ""},
	} {
		w, _, err := workflowgraph.Load(fstest.MapFS{"w.yml": {Data: []byte(c.src)}}, "w.yml")
		if err != nil || w == nil || w.Job("a") == nil {
			continue // YAML the loader refuses cannot be fixed either
		}
		r := Apply([]byte(c.src), w, []finding.Finding{gate("a", "x")})
		if c.reason == "" {
			continue
		}
		if len(r.Skipped) != 1 || !strings.Contains(r.Skipped[0].Reason, c.reason) || string(r.Source) != c.src {
			t.Errorf("%s: %+v", c.name, r)
		}
	}
	// A comment after the job key is no flow style (the near miss).
	src2 := "on: push\njobs:\n  a: # the build\n    runs-on: x\n    steps: [{run: x}]\n"
	if r := Apply([]byte(src2), load(t, src2), []finding.Finding{gate("a", "x")}); len(r.Applied) != 1 {
		t.Errorf("commented job key: %+v", r)
	}
	// A job the graph has but the text does not is skipped, never guessed.
	other := load(t, strings.Replace(src, "  b:", "  c:", 1))
	if r := Apply([]byte(src), other, []finding.Finding{gate("c", "x")}); len(r.Applied) != 0 || len(r.Skipped) != 1 {
		t.Errorf("a job missing from the text: %+v", r)
	}
}

// TestQuotedValues: the end of a quoted value is found past escapes, so a
// trailing comment is kept.
func TestQuotedValues(t *testing.T) {
	for _, c := range []struct{ line, want string }{
		{`    if: "contains(github.ref, 'a\"b')" # why`, `    if: "x && contains(github.ref, 'a\"b')" # why`},
		{`    if: 'github.ref == ''main''' # why`, `    if: 'x && github.ref == ''main''' # why`},
		{`    if: plain # why`, `    if: ${{ x && plain }} # why`},
	} {
		src := "on: push\njobs:\n  a:\n" + c.line + "\n    runs-on: x\n    steps: [{run: x}]\n"
		r := Apply([]byte(src), load(t, src), []finding.Finding{gate("a", "x")})
		if !strings.Contains(string(r.Source), c.want+"\n") {
			t.Errorf("%s: got\n%s", c.line, r.Source)
		}
	}
}

// TestUnifiedHunks: edits within six lines share a hunk, farther ones get
// their own, with exact headers.
func TestUnifiedHunks(t *testing.T) {
	var b strings.Builder
	b.WriteString("on: push\njobs:\n")
	for _, id := range []string{"a", "b", "c"} {
		b.WriteString("  " + id + ":\n    runs-on: x\n    steps: [{run: x}]\n")
	}
	for i := 0; i < 8; i++ {
		b.WriteString("    # filler\n")
	}
	b.WriteString("  d:\n    runs-on: x\n    steps: [{run: x}]\n")
	src := b.String()
	r := Apply([]byte(src), load(t, src), []finding.Finding{gate("a", "A"), gate("b", "B"), gate("d", "D")})
	got := r.Unified("w.yml")
	want := "--- a/w.yml\n+++ b/w.yml\n" +
		"@@ -1,9 +1,11 @@\n on: push\n jobs:\n   a:\n+    if: ${{ A }}\n     runs-on: x\n     steps: [{run: x}]\n   b:\n+    if: ${{ B }}\n     runs-on: x\n     steps: [{run: x}]\n   c:\n" +
		"@@ -18,5 +20,6 @@\n     # filler\n     # filler\n   d:\n+    if: ${{ D }}\n     runs-on: x\n     steps: [{run: x}]\n"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if (Result{}).Unified("w.yml") != "" {
		t.Error("no edit, but a diff")
	}
}
