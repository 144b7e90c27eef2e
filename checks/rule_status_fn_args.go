package checks

import (
	"strings"

	"github.com/rhysd/actionlint"

	"github.com/cicheck/cicheck/expr"
	"github.com/cicheck/cicheck/finding"
)

// StatusFnArgs flags job-level success(...)/failure(...) with arguments.
var StatusFnArgs = &Rule{
	ID:       "status-fn-args",
	Severity: finding.Warning,
	Doc:      "job-level success()/failure() with arguments is undocumented on GitHub",
	Help: "GitHub's schema accepts `success('build')` and `failure('build')` (a leftover from Azure Pipelines, " +
		"where they test the named jobs), but GitHub documents no meaning for the arguments (gha-job-status.md §4). " +
		"cicheck evaluates such a call as unknown. Test the direct need instead: " +
		"`needs.build.result == 'success'`.",
	Bad: `on: push
jobs:
  build: {runs-on: ubuntu-latest, steps: [{run: make}]}
  deploy:
    needs: build
    if: ${{ success('build') }}
    runs-on: ubuntu-latest
    steps: [{run: make deploy}]
`,
	Good: `on: push
jobs:
  build: {runs-on: ubuntu-latest, steps: [{run: make}]}
  deploy:
    needs: build
    if: ${{ !cancelled() && needs.build.result == 'success' }}
    runs-on: ubuntu-latest
    steps: [{run: make deploy}]
`,
	Run: func(p *Pass) {
		for _, j := range p.Workflow.Jobs {
			if j.If == nil {
				continue
			}
			nodes := append([]actionlint.ExprNode{j.If.Expr}, j.If.Embedded...)
			for _, n := range nodes {
				if n == nil {
					continue
				}
				actionlint.VisitExprNode(n, func(node, _ actionlint.ExprNode, entering bool) {
					c, ok := node.(*actionlint.FuncCallNode)
					if !ok || !entering || len(c.Args) == 0 {
						return
					}
					name := strings.ToLower(c.Callee)
					if name != "success" && name != "failure" {
						return
					}
					line, col := condPos(j)
					f := finding.Finding{Job: j.ID, Line: line, Column: col,
						Message: expr.Render(c) + " with arguments is undocumented at job level; cicheck evaluates it as unknown"}
					if fix := statusArgsFix(name, c.Args); fix != "" {
						f.Fix = fix
						f.Message += "; test the needs' results instead"
					}
					p.Report(f)
				})
			}
		}
	},
}

// statusArgsFix turns success('a', 'b') into needs.a.result == 'success'
// && needs.b.result == 'success' when every argument is a job-id literal.
func statusArgsFix(name string, args []actionlint.ExprNode) string {
	var parts []string
	for _, a := range args {
		s, ok := a.(*actionlint.StringNode)
		if !ok || s.Value == "" {
			return ""
		}
		parts = append(parts, "needs."+s.Value+".result == '"+name+"'") // as written
	}
	join := " && "
	if name == "failure" {
		join = " || "
	}
	return strings.Join(parts, join)
}
