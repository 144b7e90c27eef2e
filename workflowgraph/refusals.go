package workflowgraph

import (
	"fmt"
	"strings"

	"github.com/rhysd/actionlint"
)

// Refusal is a reason GitHub refuses a workflow file as a whole ("This run
// likely failed because of a workflow file issue"): no job of it runs.
type Refusal struct {
	Job          string
	Line, Column int
	Reason       string
}

// jobIfContexts are the contexts a job-level if: may read, and the
// functions it may call besides the general ones (GitHub docs, "Contexts",
// context availability: jobs.<job_id>.if has github, needs, vars, inputs
// and always, cancelled, success, failure; hashFiles is only for steps).
var jobIfContexts = map[string]bool{"github": true, "needs": true, "vars": true, "inputs": true}

// Refusals lists what makes GitHub refuse w beyond a parse error (which
// actionlint's parser reports, continue-on-error on a job that calls a
// reusable workflow among them): a job-level if: reading a context it does
// not have (matrix, env, secrets, ...) or calling hashFiles. The embedded
// actionlint reports each of these as an error in lint.
func Refusals(w *Workflow) []Refusal {
	if w == nil {
		return nil
	}
	var out []Refusal
	for _, j := range w.Jobs {
		if j.If != nil && j.If.Expr != nil {
			var bad string
			actionlint.VisitExprNode(j.If.Expr, func(n, _ actionlint.ExprNode, entering bool) {
				if !entering || bad != "" {
					return
				}
				switch n := n.(type) {
				case *actionlint.VariableNode:
					if t := n.Token(); t != nil && (t.Value == "NaN" || t.Value == "Infinity") {
						return // number literals for the runner
					}
					if !jobIfContexts[strings.ToLower(n.Name)] {
						bad = fmt.Sprintf("the if: of job %s reads the %s context, which a job-level if: does not have", j.ID, strings.ToLower(n.Name))
					}
				case *actionlint.FuncCallNode:
					if strings.EqualFold(n.Callee, "hashFiles") {
						bad = fmt.Sprintf("the if: of job %s calls hashFiles(), which a job-level if: cannot", j.ID)
					}
				}
			})
			if bad != "" {
				out = append(out, Refusal{Job: j.ID, Line: j.If.Line, Column: j.If.Column, Reason: bad})
			}
		}
	}
	return out
}
