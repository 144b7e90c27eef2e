package reach_test

import (
	"fmt"
	"math/rand"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/cicheck/cicheck/reach"
	"github.com/cicheck/cicheck/simulate"
)

// genTrigger is a trigger of a generated workflow, with the concrete
// facts a run of it may have.
type genTrigger struct {
	yaml    string
	event   string
	refs    []string
	actions []string // "" for no action (null)
	base    []string
	inputs  bool
}

var genTriggers = []genTrigger{
	{"  push:\n    branches: [main]\n", "push", []string{"refs/heads/main"}, []string{""}, []string{""}, false},
	{"  push:\n    branches: ['release/*']\n", "push", []string{"refs/heads/release/v1", "refs/heads/release/main"}, []string{""}, []string{""}, false},
	{"  push:\n    tags: ['v*']\n", "push", []string{"refs/tags/v1", "refs/tags/vmain"}, []string{""}, []string{""}, false},
	{"  push:\n", "push", []string{"refs/heads/main", "refs/heads/dev", "refs/heads/release/v1", "refs/heads/pull-request/7", "refs/tags/v1"}, []string{""}, []string{""}, false},
	{"  pull_request:\n    types: [labeled]\n", "pull_request", []string{"refs/pull/1/merge"}, []string{"labeled"}, []string{"main", "dev"}, false},
	{"  pull_request:\n    branches: [main]\n", "pull_request", []string{"refs/pull/1/merge"}, []string{"opened", "synchronize", "reopened"}, []string{"main"}, false},
	{"  schedule:\n    - cron: '0 0 * * *'\n", "schedule", []string{"refs/heads/main", "refs/heads/dev"}, []string{""}, []string{""}, false},
	{"  workflow_dispatch:\n    inputs:\n      gpu: {type: boolean}\n      suite: {type: choice, options: [unit, e2e]}\n", "workflow_dispatch",
		[]string{"refs/heads/main", "refs/heads/dev", "refs/tags/v1"}, []string{""}, []string{""}, true},
}

// genAtoms are the conditions' building blocks: modelled facts, free
// facts (vars, outputs) and status functions.
var genAtoms = []string{
	"github.event_name == 'push'", "github.event_name == 'pull_request'", "github.event_name == 'schedule'", "github.event_name == 'workflow_dispatch'",
	"github.ref == 'refs/heads/main'", "github.ref != 'refs/heads/main'", "startsWith(github.ref, 'refs/heads/release/')", "startsWith(github.ref, 'refs/tags/')",
	"startsWith(github.ref, 'refs/heads/pull-request/')", "contains(github.ref, 'main')", "endsWith(github.ref, 'v1')",
	"github.event.action == 'labeled'", "github.event.action == 'opened'", "github.base_ref == 'main'", "github.head_ref",
	"inputs.gpu", "inputs.gpu == 'true'", "inputs.gpu == true", "inputs.suite == 'e2e'", "inputs.suite == 'nightly'", "github.event.inputs.gpu == 'true'",
	"vars.X == 'y'", "always()", "!cancelled()", "failure()", "success()",
}

func genCond(r *rand.Rand, depth int) string {
	if depth == 0 || r.Intn(3) == 0 {
		a := genAtoms[r.Intn(len(genAtoms))]
		if r.Intn(5) == 0 {
			return "!(" + a + ")"
		}
		return a
	}
	op := " && "
	if r.Intn(3) == 0 {
		op = " || "
	}
	return "(" + genCond(r, depth-1) + op + genCond(r, depth-1) + ")"
}

// genWorkflow is a random workflow of 2–5 jobs; job i may need earlier ones.
func genWorkflow(r *rand.Rand) (string, []genTrigger, []string) {
	var trigs []genTrigger
	var b strings.Builder
	b.WriteString("on:\n")
	seen := map[string]bool{}
	for n := 1 + r.Intn(3); len(trigs) < n; {
		t := genTriggers[r.Intn(len(genTriggers))]
		if seen[t.event] {
			n--
			continue
		}
		seen[t.event] = true
		trigs = append(trigs, t)
		b.WriteString(t.yaml)
	}
	b.WriteString("jobs:\n")
	var ids []string
	for i, n := 0, 2+r.Intn(4); i < n; i++ {
		id := "j" + strconv.Itoa(i)
		fmt.Fprintf(&b, "  %s:\n", id)
		var needs []string
		for k := 0; k < i; k++ {
			if r.Intn(2) == 0 {
				needs = append(needs, ids[k])
			}
		}
		if len(needs) > 0 {
			fmt.Fprintf(&b, "    needs: [%s]\n", strings.Join(needs, ", "))
		}
		if r.Intn(4) != 0 {
			c := genCond(r, 2)
			if len(needs) > 0 && r.Intn(4) == 0 {
				c = "(" + c + " && needs." + needs[0] + ".outputs.o == 'x')"
			}
			if len(needs) > 0 && r.Intn(3) == 0 {
				c = "!cancelled() && needs." + needs[len(needs)-1] + ".result == 'success' && " + c
			}
			fmt.Fprintf(&b, "    if: ${{ %s }}\n", c)
		}
		b.WriteString("    runs-on: x\n    steps: [{run: x}]\n")
		ids = append(ids, id)
	}
	return b.String(), trigs, ids
}

// TestDifferentialSimulate: every job the analysis proves never runs is
// skipped by simulate in every run the generated triggers allow: every
// event, ref, action, base ref and input value, vars.X either way, each
// job's output either way, and each job succeeding or failing.
func TestDifferentialSimulate(t *testing.T) {
	seed := int64(1)
	if s := os.Getenv("REACH_DIFF_SEED"); s != "" {
		seed, _ = strconv.ParseInt(s, 10, 64)
	}
	r := rand.New(rand.NewSource(seed))
	proven, checked, unknown := 0, 0, 0
	for n := 0; n < 400; n++ {
		src, trigs, ids := genWorkflow(r)
		w := load(t, src)
		res := reach.Analyze(w)
		never := map[string]bool{}
		for _, p := range res.Proofs {
			never[p.Job] = true
			for _, q := range p.Parked {
				never[q] = true
			}
		}
		if len(never) == 0 {
			continue
		}
		proven += len(never)
		for _, tr := range trigs {
			for _, ref := range tr.refs {
				for _, action := range tr.actions {
					for _, base := range tr.base {
						for _, in := range inputChoices(tr) {
							for _, vx := range []string{"y", "z"} {
								for mask := 0; mask < 1<<len(ids); mask++ {
									sc := simulate.Scenario{Event: tr.event, Inputs: in, Set: map[string]string{
										"github.ref": ref, "github.base_ref": base, "vars.X": vx,
										"github.head_ref": map[bool]string{true: "feature", false: ""}[tr.event == "pull_request"],
									}, Outcomes: map[string]simulate.Result{}, Outputs: map[string]map[string]string{}}
									if action != "" {
										sc.Set["github.event.action"] = action
									}
									for k, id := range ids {
										sc.Outcomes[id] = simulate.Success
										sc.Outputs[id] = map[string]string{"o": "y"}
										if mask&(1<<k) != 0 {
											sc.Outcomes[id] = simulate.Failure
											sc.Outputs[id] = map[string]string{"o": "x"}
										}
									}
									checked++
									for _, v := range simulate.Run(w, sc) {
										if never[v.ID] && v.Verdict == simulate.VerdictUnknown {
											// simulate leaves a payload it is not given
											// (github.event.inputs on push) unknown,
											// where the analysis knows it is null.
											unknown++
											continue
										}
										if never[v.ID] && v.Verdict != simulate.VerdictSkip {
											t.Fatalf("%s is proven never to run, but simulate says %s (%s) in %+v:\n%s\nproofs: %+v", v.ID, v.Verdict, v.Reason, sc, src, res.Proofs)
										}
									}
								}
							}
						}
					}
				}
			}
		}
	}
	if proven < 50 {
		t.Errorf("only %d jobs proven never to run: the generator exercises too little", proven)
	}
	t.Logf("%d jobs proven never to run, checked in %d scenarios in all; simulate undecided %d times", proven, checked, unknown)
}

func inputChoices(t genTrigger) []map[string]string {
	if !t.inputs {
		return []map[string]string{nil}
	}
	var out []map[string]string
	for _, g := range []string{"true", "false"} {
		for _, s := range []string{"unit", "e2e"} {
			out = append(out, map[string]string{"gpu": g, "suite": s})
		}
	}
	return out
}
