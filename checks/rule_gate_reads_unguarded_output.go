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
			var base map[string]expr.Value
			for _, r := range reads {
				g, ok := guarded[r.need]
				if !ok {
					if base == nil {
						base = unknownNeeds(j)
					}
					g = requiresSuccess(j, r.need, base)
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
func requiresSuccess(j *workflowgraph.Job, x string, base map[string]expr.Value) bool {
	for _, r := range []string{simulate.Skipped, simulate.Failure} {
		env := condEnvFrom(base, j, map[string]needState{x: {result: r, outputs: expr.Object(nil)}}, false)
		if expr.Eval(j.If.Expr, env).Truthy() != expr.No {
			return false
		}
	}
	return true
}
