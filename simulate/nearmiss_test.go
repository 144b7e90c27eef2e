package simulate

import (
	"maps"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"testing/fstest"

	"github.com/cicheck/cicheck/workflowgraph"
)

// Near misses of job-level continue-on-error. GitHub runs a job whose body
// fails with `continue-on-error: true` to the end and reports its result to
// dependents as success, so jobs that need it run; with `false` (or no key)
// the failure skips them; with an expression we cannot decide which. A
// job that succeeds, is cancelled or is skipped keeps that result whatever
// continue-on-error says: the key only turns a failure into a success. The
// workflow is testdata/continue_on_error.yml: job X is followed by after-X,
// which has no status check and so runs only when X's result is success.
func TestContinueOnErrorNearMiss(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("testdata", "continue_on_error.yml"))
	if err != nil {
		t.Fatal(err)
	}
	w := load(t, fstest.MapFS{"w.yml": {Data: src}}, "w.yml")
	type want struct {
		job     string
		verdict Decision
		result  Result
	}
	tests := []struct {
		name     string
		outcomes map[string]Result
		want     []want
	}{
		{"fails: only the literal true turns it into success", map[string]Result{"allowed": Failure, "strict": Failure, "unset": Failure, "dynamic": Failure}, []want{
			{"allowed", VerdictRun, Success},
			{"after-allowed", VerdictRun, Success},
			{"strict", VerdictRun, Failure},
			{"after-strict", VerdictSkip, Skipped},
			{"unset", VerdictRun, Failure},
			{"after-unset", VerdictSkip, Skipped},
			{"dynamic", VerdictRun, Unknown},
			{"after-dynamic", VerdictUnknown, Unknown},
		}},
		{"succeeds: the key changes nothing", nil, []want{
			{"allowed", VerdictRun, Success},
			{"after-allowed", VerdictRun, Success},
			{"strict", VerdictRun, Success},
			{"dynamic", VerdictRun, Success},
			{"after-dynamic", VerdictRun, Success},
		}},
		{"cancelled: not a failure, stays cancelled", map[string]Result{"allowed": Cancelled, "dynamic": Cancelled}, []want{
			{"allowed", VerdictRun, Cancelled},
			{"after-allowed", VerdictSkip, Skipped},
			{"dynamic", VerdictRun, Cancelled},
			{"after-dynamic", VerdictSkip, Skipped},
		}},
		{"skipped by its own if: the key does not apply", map[string]Result{"never": Failure}, []want{
			{"never", VerdictSkip, Skipped},
			{"after-never", VerdictSkip, Skipped},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := map[string]Verdict{}
			for _, v := range Run(w, Scenario{Outcomes: tt.outcomes}) {
				got[v.ID] = v
			}
			for _, x := range tt.want {
				v, ok := got[x.job]
				if !ok {
					t.Fatalf("%s: no verdict", x.job)
				}
				if v.Verdict != x.verdict || v.Result != x.result {
					t.Errorf("%s: %s [%s] (%s), want %s [%s]", x.job, v.Verdict, v.Result, v.Reason, x.verdict, x.result)
				}
			}
		})
	}
}

func loadTestdata(t *testing.T, name string) *workflowgraph.Workflow {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return load(t, fstest.MapFS{"w.yml": {Data: src}}, "w.yml")
}

// Near misses of Forced.Through, the test behind gpu-gate and
// closure-bridge. Through(d, others) lists the ancestors a of the gated
// job d under whose failure (or else skip) d still runs and no job of
// others is skipped or failed: a job that needs d and others and has no
// status check is then skipped by GitHub's implicit success() over its
// closure although its direct needs all ran. An ancestor that is itself in
// others, or under whose failure another job of others is skipped or fails
// anyway, is no bridge: the job is skipped through a direct need, as its
// needs: say. testdata/through.yml says what each job does.
func TestThroughNearMiss(t *testing.T) {
	f := New(loadTestdata(t, "through.yml")).Forced()
	tests := []struct {
		name   string
		d      string
		others []string
		max    int
		want   []string // job:result, in dependency order
		total  int
	}{
		{"both ancestors bridge", "build", []string{"build"}, 8, []string{"lint:failure", "unit:failure"}, 2},
		{"max bounds the list, not the count", "build", []string{"build"}, 1, []string{"lint:failure"}, 2},
		{"ancestor is also a direct need", "build", []string{"build", "lint"}, 8, []string{"unit:failure"}, 1},
		{"another need is skipped by lint", "build", []string{"build", "docs"}, 8, []string{"unit:failure"}, 1},
		{"another need fails or is skipped by lint", "build", []string{"build", "report"}, 8, []string{"unit:failure"}, 1},
		{"d itself fails or is skipped", "report", []string{"report"}, 8, nil, 0},
		{"d runs through a skip only", "package", []string{"package"}, 8, []string{"lint:skipped"}, 1},
		{"unknown jobs in others are ignored", "build", []string{"build", "no-such-job"}, 8, []string{"lint:failure", "unit:failure"}, 2},
		{"unknown d", "no-such-job", []string{"build"}, 8, nil, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			first, total := f.Through(tt.d, tt.others, tt.max)
			var got []string
			for _, x := range first {
				got = append(got, x.Job+":"+string(x.Result))
			}
			if !slices.Equal(got, tt.want) || total != tt.total {
				t.Errorf("Through(%s, %v, %d) = %v, %d; want %v, %d", tt.d, tt.others, tt.max, got, total, tt.want, tt.total)
			}
		})
	}
}

// The forced table's questions about jobs the workflow does not have, or
// about a workflow GitHub rejects (a needs cycle: no job runs), have no
// bridge, ancestor or skipped job to report; on a rejected workflow every
// job counts as skipped.
func TestForcedUnknownAndRejected(t *testing.T) {
	f := New(loadTestdata(t, "through.yml")).Forced()
	all := f.Mask(func(string) bool { return true })
	if !f.Skipped("docs", "lint", Failure) || f.Skipped("docs", "no-such-job", Failure) || f.Skipped("no-such-job", "lint", Failure) {
		t.Errorf("Skipped: docs is skipped by lint's failure, and nothing by or of an unknown job")
	}
	if below, n := f.SkippedBelow("lint", Failure, all, 8); n == 0 || len(below) != n {
		t.Errorf("SkippedBelow(lint) = %v, %d; want docs at least", below, n)
	}
	if below, n := f.SkippedBelow("no-such-job", Failure, all, 8); n != 0 || below != nil {
		t.Errorf("SkippedBelow(unknown) = %v, %d; want none", below, n)
	}
	if !f.IsAncestor("lint", "docs") || f.IsAncestor("no-such-job", "docs") || f.IsAncestor("lint", "no-such-job") {
		t.Errorf("IsAncestor: lint is docs's ancestor, an unknown job is nobody's and has none")
	}

	rejected := load(t, fstest.MapFS{"w.yml": {Data: []byte("on: push\njobs:\n  a: {needs: b, runs-on: x, steps: [{run: a}]}\n  b: {needs: a, runs-on: x, steps: [{run: b}]}\n")}}, "w.yml")
	g := New(rejected).Forced()
	if first, n := g.Through("a", []string{"a"}, 8); n != 0 || first != nil {
		t.Errorf("rejected: Through(a) = %v, %d", first, n)
	}
	if below, n := g.SkippedBelow("a", Failure, g.Mask(func(string) bool { return true }), 8); n != 0 || below != nil {
		t.Errorf("rejected: SkippedBelow(a) = %v, %d", below, n)
	}
	if g.IsAncestor("a", "b") || !g.Skipped("b", "a", Failure) {
		t.Errorf("rejected: no ancestors, every job skipped")
	}
}

// Matrix legs (GitHub's docs, "Handling failures"): with fail-fast (the
// default) a failed leg cancels the legs still running, so their result is
// cancelled or their own; with `fail-fast: false` they finish with their
// own result; with an expression either may happen. A job whose legs did
// not fail but one was cancelled ends cancelled, and its dependents
// without a status check are skipped.
func TestLegsNearMiss(t *testing.T) {
	w := loadTestdata(t, "legs_nearmiss.yml")
	fail311 := []LegOutcome{{Select: map[string]string{"py": "3.11"}, Outcome: Failure}}
	cancel311 := []LegOutcome{{Select: map[string]string{"py": "3.11"}, Outcome: Cancelled}}
	tests := []struct {
		name       string
		legs       map[string][]LegOutcome
		job        string
		result     Result
		legsWant   string
		gpuSkipped bool
	}{
		{"fail-fast false: the other leg finishes", map[string][]LegOutcome{"finish": fail311}, "finish", Failure, "py=3.11=failure py=3.12=success", false},
		{"fail-fast default: the other leg may be cancelled", map[string][]LegOutcome{"fast": fail311}, "fast", Failure, "py=3.11=failure py=3.12=cancelled|success", true},
		{"fail-fast expression: maybe cancelled", map[string][]LegOutcome{"maybe": fail311}, "maybe", Failure, "py=3.11=failure py=3.12=success|cancelled", false},
		{"a cancelled leg, none failed: cancelled", map[string][]LegOutcome{"fast": cancel311}, "fast", Cancelled, "py=3.11=cancelled py=3.12=success", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			vs := Run(w, Scenario{LegOutcomes: tt.legs})
			if r, l := legsOf(vs, tt.job); r != tt.result || l != tt.legsWant {
				t.Errorf("%s: %s [%s], want %s [%s]", tt.job, r, l, tt.result, tt.legsWant)
			}
			for _, v := range vs {
				if v.ID == "gpu" && (v.Verdict == VerdictSkip) != tt.gpuSkipped {
					t.Errorf("gpu: %s (%s), want skipped=%v", v.Verdict, v.Reason, tt.gpuSkipped)
				}
			}
		})
	}
}

// The fault matrix fails each job alone and, for a static matrix of two or
// more legs, each leg alone: one leg of fast failing skips gpu as the
// whole job does. A one-leg matrix is the job itself and a dynamic
// matrix's legs are not known, so neither gets leg rows.
func TestFaultMatrixLegRows(t *testing.T) {
	w := loadTestdata(t, "legs_nearmiss.yml")
	rows := New(w).FaultMatrix(Scenario{}, func(j *workflowgraph.Job) bool { return j != nil && j.ID == "gpu" })
	var got []string
	for _, r := range rows {
		label := r.Fails + ":"
		switch {
		case slices.Contains(r.Skipped, "gpu"):
			label += "skips gpu"
		case slices.Contains(r.Run, "gpu"):
			label += "runs gpu"
		case slices.Contains(r.Unknown, "gpu"):
			label += "gpu unknown"
		default:
			label += "not listed" // the failing job's own row
		}
		got = append(got, label)
	}
	want := []string{
		"finish:runs gpu", "finish[py=3.11]:runs gpu", "finish[py=3.12]:runs gpu",
		"fast:skips gpu", "fast[py=3.11]:skips gpu", "fast[py=3.12]:skips gpu",
		"maybe:runs gpu", "maybe[py=3.11]:runs gpu", "maybe[py=3.12]:runs gpu",
		"single:skips gpu", "dynamic:skips gpu", "gpu:not listed",
	}
	if !slices.Equal(got, want) {
		t.Errorf("rows:\n%v\nwant\n%v", got, want)
	}
}

// Why a condition is false, as the verdict's reason says it: cancelled()
// false is not "no ancestor failed", a negated function other than
// cancelled() is not "the run was cancelled", and the note lists each
// direct need the false part reads once, and only direct needs (GitHub's
// needs context holds nothing else).
func TestFalseReasonNearMiss(t *testing.T) {
	w := loadTestdata(t, "reasons.yml")
	got := map[string]string{}
	for _, v := range Run(w, Scenario{Outcomes: map[string]Result{"lint": Failure}, Set: map[string]string{"github.ref": "refs/tags/v1"}}) {
		got[v.ID] = string(v.Verdict) + ": " + v.Reason
	}
	for id, want := range map[string]string{
		"on-cancel": "skip: condition is false: cancelled() is false",
		"not-tag":   "skip: condition is false: !startsWith(github.ref, 'refs/tags/') is false",
		"retry":     "skip: condition is false: needs.lint.result == 'success' || (needs.lint.result == 'skipped' || needs.ghost.result == 'success') is false (lint: failure)",
	} {
		if got[id] != want {
			t.Errorf("%s: %s\nwant %s", id, got[id], want)
		}
	}
}

// Inputs and the scenario's keys: a declared boolean input is a boolean
// (inputs.flag == true), unless the caller gives InputTypes of its own;
// github.event.inputs is filled only on workflow_dispatch; needs.* given
// in Set is ignored (the run decides it); job ids are matched
// case-insensitively, a lower-case key winning, then the first in sorted
// order.
func TestInputsNearMiss(t *testing.T) {
	w := loadTestdata(t, "inputs.yml")
	if got, want := InputTypes(w), map[string]string{"flag": "boolean", "shards": "number"}; !maps.Equal(got, want) {
		t.Errorf("InputTypes = %v, want %v", got, want)
	}
	if got := InputTypes(nil); len(got) != 0 {
		t.Errorf("InputTypes(nil) = %v", got)
	}
	dispatch := map[string]string{"flag": "true"}
	tests := []struct {
		name string
		sc   Scenario
		job  string
		want Decision
	}{
		{"declared boolean", Scenario{Event: "workflow_dispatch", Inputs: dispatch}, "typed", VerdictRun},
		{"caller's InputTypes win", Scenario{Event: "workflow_dispatch", Inputs: dispatch, InputTypes: map[string]string{"flag": "string"}}, "typed", VerdictSkip},
		{"event.inputs on dispatch", Scenario{Event: "workflow_dispatch", Inputs: dispatch}, "event-inputs", VerdictRun},
		{"no event.inputs on push", Scenario{Event: "push", Inputs: dispatch}, "event-inputs", VerdictUnknown},
		{"Set cannot give needs", Scenario{Set: map[string]string{"needs.lint.result": "failure", "flag": "x"}}, "after-lint", VerdictRun},
		{"lower-case key wins", Scenario{Outcomes: map[string]Result{"LINT": Success, "lint": Failure}}, "after-lint", VerdictSkip},
		{"then the first in sorted order", Scenario{Outcomes: map[string]Result{"Lint": Success, "LINT": Failure}}, "after-lint", VerdictSkip},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// Map order is random: the answer must not depend on it.
			for range 20 {
				for _, v := range Run(w, tt.sc) {
					if v.ID == tt.job && v.Verdict != tt.want {
						t.Fatalf("%s: %s (%s), want %s", tt.job, v.Verdict, v.Reason, tt.want)
					}
				}
			}
		})
	}
}

// A called workflow's inputs come from the caller's with:, whatever the
// event (on push too); a with: value the scenario does not decide
// (${{ vars.SUITE }}) leaves the input unknown, not null: GitHub passes
// whatever vars.SUITE holds.
func TestCalledInputsNearMiss(t *testing.T) {
	fsys := fstest.MapFS{}
	for _, f := range []string{"ci.yml", "suite.yml"} {
		b, err := os.ReadFile(filepath.Join("testdata", "called", f))
		if err != nil {
			t.Fatal(err)
		}
		fsys[".github/workflows/"+f] = &fstest.MapFile{Data: b}
	}
	w := load(t, fsys, ".github/workflows/ci.yml")
	for _, v := range Run(w, Scenario{Event: "push", Outcomes: map[string]Result{"gpu/lint": Success}}) {
		if v.ID != "gpu" {
			continue
		}
		for _, c := range v.Called {
			if c.ID == "test" && c.Verdict != VerdictUnknown {
				t.Errorf("gpu/test: %s (%s), want unknown: inputs.suite is vars.SUITE", c.Verdict, c.Reason)
			}
		}
		if len(v.Called) != 2 {
			t.Errorf("gpu: called %+v", v.Called)
		}
	}
}

// A job output that reads matrix.py is empty on a job without a matrix
// and unknown on a job whose matrix is computed at run time.
func TestMatrixOutputsNearMiss(t *testing.T) {
	w := loadTestdata(t, "matrix_outputs.yml")
	want := map[string]Decision{"after-plain": VerdictRun, "after-dynamic": VerdictUnknown}
	for _, v := range Run(w, Scenario{}) {
		if w, ok := want[v.ID]; ok && v.Verdict != w {
			t.Errorf("%s: %s (%s), want %s", v.ID, v.Verdict, v.Reason, w)
		}
	}
}
