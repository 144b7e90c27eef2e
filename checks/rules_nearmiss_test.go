package checks

import (
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rhysd/actionlint"

	"github.com/cicheck/cicheck/finding"
	"github.com/cicheck/cicheck/internal/textdist"
	"github.com/cicheck/cicheck/workflowgraph"
)

// The gpu-gate message does not claim GPU jobs that run through the skip.
func TestGPUGateNamesNoGatedGPUJob(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("testdata", "nearmiss", "gpu_gated_below.yml"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range Run(loadSrc(t, string(src)), "", nil, []*Rule{GPUGate}) {
		if f.Job == "prep" && strings.Contains(f.Message, "GPU") {
			t.Errorf("prep: %s", f.Message)
		}
	}
}

// if-eval-error names the first need, in needs: order, whose skip makes
// the condition raise.
func TestIfEvalErrorNamesFirstNeed(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("testdata", "nearmiss", "raises_two_needs.yml"))
	if err != nil {
		t.Fatal(err)
	}
	fs := Run(loadSrc(t, string(src)), "", nil, []*Rule{IfEvalError})
	if len(fs) != 1 || !strings.Contains(fs[0].Message, "raises when plan is skipped") {
		t.Errorf("got\n%s", render(fs))
	}
}

// A needs cycle is reported at the cycle's job that comes first in the
// file, whichever job the cycle search starts from.
func TestNeedsCycleFirstInFile(t *testing.T) {
	w := loadSrc(t, "on: push\njobs:\n  b: {needs: a, runs-on: x, steps: [{run: a}]}\n  a: {needs: b, runs-on: x, steps: [{run: a}]}\n")
	fs := Run(w, "", nil, []*Rule{NeedsCycle})
	if len(fs) != 1 || fs[0].Job != "b" || fs[0].Line != 3 {
		t.Errorf("got\n%s", render(fs))
	}
}

// closest suggests a job within edit distance 2 (at most half the name),
// never the job itself or a descendant (a cycle), and nothing on a tie.
func TestClosestNearMiss(t *testing.T) {
	w := loadSrc(t, `on: push
jobs:
  lint: {runs-on: x, steps: [{run: a}]}
  build: {runs-on: x, steps: [{run: a}]}
  built: {runs-on: x, steps: [{run: a}]}
  test: {needs: lint, runs-on: x, steps: [{run: a}]}
`)
	for _, tt := range []struct{ n, from, want string }{
		{"biuld", "test", "build"},
		{"buil", "test", ""}, // build and built tie
		{"lnt", "lint", ""},  // lint itself
		{"tst", "lint", ""},  // test needs lint
		{"zz", "test", ""},   // too far for its length
	} {
		if got := closest(tt.n, w.Job(tt.from), w); got != tt.want {
			t.Errorf("closest(%q from %s) = %q, want %q", tt.n, tt.from, got, tt.want)
		}
	}
}

// statusArgsFix rewrites success('a', 'b') only when every argument is a
// job-id literal.
func TestStatusArgsFix(t *testing.T) {
	str := func(s string) actionlint.ExprNode { return &actionlint.StringNode{Value: s} }
	for _, tt := range []struct {
		name string
		args []actionlint.ExprNode
		want string
	}{
		{"success", []actionlint.ExprNode{str("A"), str("b")}, "needs.A.result == 'success' && needs.b.result == 'success'"}, // as written
		{"failure", []actionlint.ExprNode{str("a"), str("b")}, "needs.a.result == 'failure' || needs.b.result == 'failure'"},
		{"success", []actionlint.ExprNode{str("a"), str("")}, ""},
		{"success", []actionlint.ExprNode{&actionlint.VariableNode{Name: "github"}}, ""},
	} {
		if got := statusArgsFix(tt.name, tt.args); got != tt.want {
			t.Errorf("statusArgsFix(%s, %d args) = %q, want %q", tt.name, len(tt.args), got, tt.want)
		}
	}
}

// unknownRunnerLabel reads only actionlint's runner-label message.
func TestUnknownRunnerLabelNearMiss(t *testing.T) {
	for _, tt := range []struct {
		rule, msg string
		label     string
		ok        bool
	}{
		{"runner-label", `label "h100" is unknown. available labels are ...`, "h100", true},
		{"runner-label", `label "" is unknown`, "", true},
		{"expression", `label "h100" is unknown`, "", false},
		{"runner-label", `label "h100" has a typo`, "", false},
		{"runner-label", `runner label h100 is unknown`, "", false},
	} {
		label, ok := unknownRunnerLabel(finding.Finding{Rule: tt.rule, Message: tt.msg})
		if label != tt.label || ok != tt.ok {
			t.Errorf("unknownRunnerLabel(%s, %q) = %q, %v", tt.rule, tt.msg, label, ok)
		}
	}
}

// Report fills only what the rule left empty; Run skips rules without a
// Run function (the suppression meta-rules).
func TestReportAndRunNearMiss(t *testing.T) {
	p := &Pass{Rule: GPUGate, severity: finding.Error}
	p.Report(finding.Finding{Rule: "runner-label", Severity: finding.Notice})
	p.Report(finding.Finding{})
	if len(p.findings) != 2 || p.findings[0].Rule != "runner-label" || p.findings[0].Severity != finding.Notice ||
		p.findings[1].Rule != "gpu-gate" || p.findings[1].Severity != finding.Error {
		t.Errorf("findings %+v", p.findings)
	}
	w := loadSrc(t, "on: push\njobs:\n  a: {runs-on: x, steps: [{run: a}]}\n")
	if fs := Run(w, "", nil, append([]*Rule{UnknownNeeds}, MetaRules()...)); len(fs) != 0 {
		t.Errorf("got\n%s", render(fs))
	}
}

// A need listed twice is one need: the bridge is named once and the fix
// tests it once.
func TestDuplicateNeedNearMiss(t *testing.T) {
	w := loadSrc(t, "on: push\njobs:\n  a: {runs-on: x, steps: [{run: a}]}\n  b: {needs: a, if: \"${{ !cancelled() }}\", runs-on: x, steps: [{run: a}]}\n  c: {needs: [b, b], runs-on: x, steps: [{run: a}]}\n")
	fs := Run(w, "", nil, []*Rule{ClosureBridge})
	if len(fs) != 1 || strings.Count(fs[0].Message, "bridged by b") != 1 || strings.Contains(fs[0].Message, "more") ||
		fs[0].Fix != "if: ${{ !cancelled() && needs.b.result == 'success' }}" {
		t.Errorf("got\n%s", render(fs))
	}
}

// closestScan is closest as it was: every job's distance, then the best.
func closestScan(n string, from *workflowgraph.Job, w *workflowgraph.Workflow) string {
	excluded := map[string]bool{from.ID: true}
	for _, d := range w.Descendants(from.ID) {
		excluded[d] = true
	}
	best, bestD, ties := "", 3, 0
	for _, j := range w.Jobs {
		if excluded[j.ID] {
			continue
		}
		d := textdist.Levenshtein(n, j.ID)
		switch {
		case d < bestD:
			best, bestD, ties = j.ID, d, 0
		case d == bestD:
			ties++
		}
	}
	if ties > 0 || 2*bestD > len(n) {
		return ""
	}
	return best
}

// TestClosestMatchesScan: looking only at ids of nearby length, and at
// descendants only when some id is near, suggests what the scan did.
func TestClosestMatchesScan(t *testing.T) {
	rng := rand.New(rand.NewSource(5))
	word := func() string {
		b := make([]byte, 1+rng.Intn(6))
		for i := range b {
			b[i] = "abc-"[rng.Intn(4)]
		}
		return string(b)
	}
	for trial := 0; trial < 300; trial++ {
		var b strings.Builder
		b.WriteString("on: push\njobs:\n")
		var ids []string
		for i := 0; i < 1+rng.Intn(12); i++ {
			id := fmt.Sprintf("%s%d", word(), i)
			fmt.Fprintf(&b, "  %s:\n    runs-on: x\n    steps: [{run: x}]\n", id)
			if len(ids) > 0 {
				fmt.Fprintf(&b, "    needs: [%s]\n", ids[rng.Intn(len(ids))])
			}
			ids = append(ids, id)
		}
		w := loadSrc(t, b.String())
		for k := 0; k < 20; k++ {
			n := word()
			if rng.Intn(2) == 0 {
				n = ids[rng.Intn(len(ids))]
				n = n[:rng.Intn(len(n))] + word()[:1] + n[rng.Intn(len(n)):]
			}
			for _, j := range w.Jobs {
				if got, want := closest(n, j, w), closestScan(n, j, w); got != want {
					t.Fatalf("closest(%q from %s) = %q, the scan says %q\n%s", n, j.ID, got, want, b.String())
				}
			}
		}
	}
}
