package checks

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rhysd/actionlint"

	"github.com/cicheck/cicheck/expr"
	"github.com/cicheck/cicheck/simulate"
	"github.com/cicheck/cicheck/workflowgraph"
)

// containsFold matches ASCII case-insensitively anywhere, including at the
// very end of s, and never a prefix of the word.
func TestContainsFold(t *testing.T) {
	for _, tt := range []struct {
		s, sub string
		want   bool
	}{
		{"NEEDS.plan", "needs", true},
		{"x.Needs", "needs", true},
		{"need", "needs", false},
		{"nexds", "needs", false},
		{"", "needs", false},
		{"steps.s.outputs", "outputs", true},
	} {
		if got := containsFold(tt.s, tt.sub); got != tt.want {
			t.Errorf("containsFold(%q, %q) = %v", tt.s, tt.sub, got)
		}
	}
}

func refs(rs []exprRef) []string {
	var out []string
	for _, r := range rs {
		out = append(out, fmt.Sprintf("%d:%d %s", r.line, r.column, expr.Render(r.node)))
	}
	return out
}

// stringExprs finds the ${{ }} pieces of a value that can read a need's
// output (they mention both needs and outputs); a bare step if: (no
// ${{ }}) is an expression too, but only as an if:.
func TestStringExprs(t *testing.T) {
	pos := &actionlint.Pos{Line: 3, Col: 7}
	for _, tt := range []struct {
		v      string
		bareIf bool
		want   []string
	}{
		{"${{ needs.a.outputs.x }}", false, []string{"3:7 needs.a.outputs.x"}},
		{"${{ needs.a.outputs.x }}", true, []string{"3:7 needs.a.outputs.x"}},
		{"needs.a.outputs.x == 'y'", true, []string{"3:7 needs.a.outputs.x == 'y'"}},
		{"needs.a.outputs.x == 'y'", false, nil},
		{"needs.a.result == 'success'", true, nil},
		{"  ", true, nil},
		{"${{}} ${{ needs.a.outputs.x }}", false, []string{"3:7 needs.a.outputs.x"}},
		{"${{ needs.a.result }} ${{ steps.s.outputs.z }} ${{ needs.b.outputs.y }}", false, []string{"3:7 needs.b.outputs.y"}},
		{"${{ needs.a.outputs.x", false, nil},
	} {
		got := refs(stringExprs(&actionlint.String{Value: tt.v, Pos: pos}, tt.bareIf))
		if !slices.Equal(got, tt.want) {
			t.Errorf("stringExprs(%q, bareIf=%v) = %q, want %q", tt.v, tt.bareIf, got, tt.want)
		}
	}
}

// jobExprs lists the expressions of a job's values in file order (line,
// then column; pieces of one value in written order), the job's own if:
// left out, a step's bare if: in.
func TestJobExprs(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("testdata", "nearmiss", "job_exprs.yml"))
	if err != nil {
		t.Fatal(err)
	}
	w := loadSrc(t, string(src))
	got := refs(jobExprs(w.Job("use")))
	want := []string{
		"9:13 needs.plan.outputs.bare == 'y'",
		"10:14 needs.plan.outputs.first",
		"10:14 needs.plan.outputs.second",
		"12:19 needs.plan.outputs.right",
		"12:57 needs.plan.outputs.left",
		"15:13 needs.plan.outputs.env",
	}
	if !slices.Equal(got, want) {
		t.Errorf("jobExprs:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if jobExprs(&workflowgraph.Job{}) != nil {
		t.Errorf("a job without AST has no expressions")
	}
}

// outputReads lists needs.X.outputs.Y reads, not needs.X.result or
// steps outputs.
func TestOutputReads(t *testing.T) {
	n, err := expr.Parse("needs.a.outputs.x == 'y' && needs.b.result == 'success' && steps.s.outputs.z && needs.C.outputs.w")
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(outputReads(n)); got != "[[a x] [c w]]" {
		t.Errorf("outputReads = %s", got)
	}
	if outputReads(nil) != nil {
		t.Errorf("outputReads(nil)")
	}
}

// hasGate is a status function on the parsed if:; ungated is GitHub's
// implicit success(): no if:, or one that parses and has no status
// function. !cancelled() is found only as the negation of cancelled().
func TestGatePredicates(t *testing.T) {
	w := loadSrc(t, `on: push
jobs:
  a: {runs-on: x, steps: [{run: a}]}
  gated: {needs: a, if: "${{ !cancelled() }}", runs-on: x, steps: [{run: a}]}
  plain: {needs: a, if: github.event_name == 'push', runs-on: x, steps: [{run: a}]}
  broken: {needs: a, if: "${{ github.event_name == }}", runs-on: x, steps: [{run: a}]}
  notfailure: {needs: a, if: "${{ !failure() }}", runs-on: x, steps: [{run: a}]}
`)
	for _, tt := range []struct {
		job                        string
		gate, ungate, notCancelled bool
	}{
		{"a", false, true, false},
		{"gated", true, false, true},
		{"plain", false, true, false},
		{"broken", false, false, false},
		{"notfailure", true, false, false},
	} {
		j := w.Job(tt.job)
		var n actionlint.ExprNode
		if j.If != nil {
			n = j.If.Expr
		}
		if hasGate(j) != tt.gate || ungated(j) != tt.ungate || hasNotCancelled(n) != tt.notCancelled {
			t.Errorf("%s: hasGate=%v ungated=%v hasNotCancelled=%v, want %v %v %v", tt.job, hasGate(j), ungated(j), hasNotCancelled(n), tt.gate, tt.ungate, tt.notCancelled)
		}
	}
	if hasGate(nil) {
		t.Errorf("hasGate(nil)")
	}
}

// condEnv: a direct need known not to have succeeded makes success()
// false, a failed one makes failure() true; a need not listed, or listed
// without a result, says nothing (the other ancestors are unknown anyway);
// a cancelled run makes success() false and cancelled() true.
func TestCondEnv(t *testing.T) {
	j := &workflowgraph.Job{ID: "j", Needs: []string{"a", "b"}}
	tri := map[expr.Tri]string{expr.Yes: "true", expr.No: "false", expr.Maybe: "unknown"}
	for _, tt := range []struct {
		name      string
		known     map[string]needState
		cancelled bool
		want      string // success failure cancelled
	}{
		{"nothing known", nil, false, "unknown unknown false"},
		{"a succeeded", map[string]needState{"a": {result: simulate.Success}}, false, "unknown unknown false"},
		{"a listed without a result", map[string]needState{"a": {}}, false, "unknown unknown false"},
		{"a failed", map[string]needState{"a": {result: simulate.Failure}}, false, "false true false"},
		{"a skipped", map[string]needState{"a": {result: simulate.Skipped}}, false, "false unknown false"},
		{"run cancelled", nil, true, "false unknown true"},
	} {
		env := condEnv(j, tt.known, tt.cancelled)
		got := tri[env.Success.Truthy()] + " " + tri[env.Failure.Truthy()] + " " + tri[env.Cancelled.Truthy()]
		if got != tt.want {
			t.Errorf("%s: %s, want %s", tt.name, got, tt.want)
		}
	}
	if v := needValue("a", needState{}); v.Fields["outputs"].Why != "outputs of a are not given" {
		t.Errorf("needValue: outputs %+v", v.Fields["outputs"])
	}
	given := expr.Unknown("set by the planner")
	if v := needValue("a", needState{outputs: given}); v.Fields["outputs"].Why != "set by the planner" {
		t.Errorf("needValue keeps a given reason: %+v", v.Fields["outputs"])
	}
}

// outputReadsUnsafe: a read with a fallback (`x || 'default'`) is safe,
// the right operand of || is not; in a job's own if:, a read is unsafe
// only where an empty value can make the condition true: under !, !=, an
// ordering, or == ”. A function argument is if-eval-error's (fromJSON)
// or false when empty (contains).
func TestOutputReadsUnsafe(t *testing.T) {
	for _, tt := range []struct {
		src  string
		inIf bool
		want string
	}{
		{"needs.p.outputs.v", false, "[[p v]]"},
		{"needs.p.outputs.v || 'default'", false, "[]"},
		{"github.ref == 'x' || needs.p.outputs.v", false, "[[p v]]"},
		{"needs.p.outputs.v", true, "[]"},
		{"needs.p.outputs.v == 'true'", true, "[]"},
		{"needs.p.outputs.v == ''", true, "[[p v]]"},
		{"'' == needs.p.outputs.v", true, "[[p v]]"},
		{"'true' == needs.p.outputs.v", true, "[]"},
		{"needs.p.outputs.v != 'false'", true, "[[p v]]"},
		{"!needs.p.outputs.v", true, "[[p v]]"},
		{"needs.p.outputs.n < 1", true, "[[p n]]"},
		{"needs.p.outputs.v == github.ref", true, "[]"},
		{"contains(needs.p.outputs.v, 'gpu')", true, "[]"},
	} {
		n, err := expr.Parse(tt.src)
		if err != nil {
			t.Fatal(err)
		}
		got := fmt.Sprint(outputReadsUnsafe(n, tt.inIf))
		if got == "[]" || got == "" {
			got = "[]"
		}
		if got != tt.want {
			t.Errorf("outputReadsUnsafe(%s, inIf=%v) = %s, want %s", tt.src, tt.inIf, got, tt.want)
		}
	}
}
