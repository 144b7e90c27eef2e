package checks

import (
	"fmt"

	"github.com/cicheck/cicheck/expr"
	"github.com/cicheck/cicheck/finding"
	"github.com/cicheck/cicheck/simulate"
	"github.com/cicheck/cicheck/workflowgraph"
)

// GateReadsUnguardedOutput flags jobs that run through upstream failures
// and read an output the failed or skipped job never set.
var GateReadsUnguardedOutput = &Rule{
	ID:       "gate-reads-unguarded-output",
	Severity: finding.Warning,
	Doc:      "a job gated on always()/!cancelled() reads needs.X.outputs.Y without requiring X to succeed",
	Help: "A job gated on `always()` or `!cancelled()` runs after its needs failed or were skipped. A skipped job " +
		"has no outputs and a failed one may not have set them yet, so `needs.X.outputs.Y` is null, which renders " +
		"as `''` and is loose-equal to `''`, `0` and `false` (gha-job-status.md §6): `needs.X.outputs.y != 'true'` " +
		"is then true, and a runner label, an image name or a `with:` input is silently empty.\n\n" +
		"cicheck evaluates the job's condition with X skipped or failed (no outputs): when it can still be true " +
		"and the job reads `needs.X.outputs.*` in its `if:`, `with:`, `env:`, `runs-on:` or steps, it warns. " +
		"Require `needs.X.result == 'success'` in the condition, or give the read a fallback.",
	Bad: `on: push
jobs:
  setup:
    runs-on: ubuntu-latest
    outputs: {image: "${{ steps.s.outputs.image }}"}
    steps: [{id: s, run: echo image=x >> $GITHUB_OUTPUT}]
  test:
    needs: setup
    if: ${{ !cancelled() }}
    runs-on: ubuntu-latest
    container: ${{ needs.setup.outputs.image }}
    steps: [{run: make test}]
`,
	Good: `on: push
jobs:
  setup:
    runs-on: ubuntu-latest
    outputs: {image: "${{ steps.s.outputs.image }}"}
    steps: [{id: s, run: echo image=x >> $GITHUB_OUTPUT}]
  test:
    needs: setup
    if: ${{ !cancelled() && needs.setup.result == 'success' }}
    runs-on: ubuntu-latest
    container: ${{ needs.setup.outputs.image }}
    steps: [{run: make test}]
`,
	Run: func(p *Pass) {
		for _, j := range p.Workflow.Jobs {
			if j.If == nil || j.If.Expr == nil {
				continue
			}
			if !containsStr(j.If.StatusFuncs(), "always") && !hasNotCancelled(j.If.Expr) {
				continue
			}
			direct := map[string]bool{}
			for _, n := range j.Needs {
				direct[n] = true
			}
			type read struct {
				need, out    string
				line, column int
			}
			var reads []read
			seen := map[string]bool{}
			add := func(r exprRef) {
				for _, xy := range outputReads(r.node) {
					if key := xy[0] + "." + xy[1]; direct[xy[0]] && !seen[key] {
						seen[key] = true
						reads = append(reads, read{xy[0], xy[1], r.line, r.column})
					}
				}
			}
			if len(direct) == 0 {
				continue // only a direct need's outputs are read through needs
			}
			add(exprRef{j.If.Expr, j.If.Line, j.If.Column})
			for _, r := range jobExprs(j) {
				add(r)
			}
			guarded := map[string]bool{}
			var probe *needProbe
			for _, r := range reads {
				g, ok := guarded[r.need]
				if !ok {
					if probe == nil {
						probe = newNeedProbe(j)
					}
					g = probe.requiresSuccess(r.need)
					guarded[r.need] = g
				}
				if g {
					continue
				}
				line, col := r.line, r.column
				if line == 0 {
					line, col = condPos(j)
				}
				p.Report(finding.Finding{Job: j.ID, Line: line, Column: col,
					Fix: "if: ${{ " + paren(j.If.Expr) + " && needs." + r.need + ".result == 'success' }}",
					Message: fmt.Sprintf("%s runs when %s is skipped or failed (its if: does not require needs.%s.result == 'success') and reads needs.%s.outputs.%s, which is then empty",
						j.ID, r.need, r.need, r.need, r.out)})
			}
		}
	},
}

// requiresSuccess: the condition is false whenever need x is skipped or
// failed without outputs.
// needProbe evaluates a job's condition with one direct need's result
// given and everything else unknown (condEnv with one known need). It
// keeps one environment per job and swaps that need's value in and out,
// instead of copying every need's value for each (need, result).
type needProbe struct {
	j     *workflowgraph.Job
	needs map[string]expr.Value
	env   *expr.Env
}

func newNeedProbe(j *workflowgraph.Job) *needProbe {
	needs := unknownNeeds(j)
	return &needProbe{j: j, needs: needs, env: &expr.Env{Contexts: map[string]expr.Value{"needs": object(needs)}, Cancelled: expr.Bool(false)}}
}

// requiresSuccess: j's condition is false whenever direct need x was
// skipped or failed (and then had no outputs).
func (p *needProbe) requiresSuccess(x string) bool {
	saved := p.needs[x]
	defer func() { p.needs[x] = saved }()
	for _, r := range []string{simulate.Skipped, simulate.Failure} {
		p.needs[x] = needValue(x, needState{result: r, outputs: expr.Object(nil)})
		// As condEnv: a non-success direct need makes success() false, a
		// failed one makes failure() true; the rest is unknown.
		p.env.Success = expr.Bool(false)
		p.env.Failure = expr.Unknown("other ancestors are not known")
		if r == simulate.Failure {
			p.env.Failure = expr.Bool(true)
		}
		if expr.Eval(p.j.If.Expr, p.env).Truthy() != expr.No {
			return false
		}
	}
	return true
}
