package checks

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/rhysd/actionlint"

	"github.com/cicheck/cicheck/finding"
	"github.com/cicheck/cicheck/internal/ghschema"
	"github.com/cicheck/cicheck/workflowgraph"
)

// PermissionScopeValue validates the access level of the GITHUB_TOKEN
// scopes GitHub added after actionlint 1.7.12, which rejects the scopes
// themselves as unknown: cicheck drops that error (internal/ghschema) and
// checks the value against GitHub's documentation instead.
var PermissionScopeValue = &Rule{
	ID:       "permission-scope-value",
	Severity: finding.Error,
	Doc:      "a GITHUB_TOKEN permission scope newer than actionlint is given an access level GitHub does not offer for it",
	Help: "GitHub documents `vulnerability-alerts` (the Dependabot alerts API) with `read` and `none` only, and added `code-quality` " +
		"(`write` for actions/upload-code-coverage); another value fails GitHub's workflow validation. " +
		"actionlint 1.7.12 calls these scopes unknown; cicheck drops exactly that error and checks the value.\n\n" +
		"Sources: https://docs.github.com/en/actions/reference/workflows-and-actions/workflow-syntax#permissions, " +
		"https://docs.github.com/en/code-security/how-tos/maintain-quality-code/set-up-code-coverage",
	Bad: `on: push
permissions:
  vulnerability-alerts: write
jobs:
  audit: {runs-on: ubuntu-latest, steps: [{run: ./audit}]}
`,
	Good: `on: push
permissions:
  vulnerability-alerts: read
jobs:
  audit: {runs-on: ubuntu-latest, steps: [{run: ./audit}]}
`,
	Run: func(p *Pass) {
		w := p.Workflow
		if w.AST != nil {
			checkScopes(p, nil, w.AST.Permissions)
		}
		for _, j := range w.Jobs {
			if j.AST != nil {
				checkScopes(p, j, j.AST.Permissions)
			}
		}
	},
}

func checkScopes(p *Pass, j *workflowgraph.Job, perms *actionlint.Permissions) {
	if perms == nil {
		return
	}
	var found []*actionlint.PermissionScope
	for _, s := range perms.Scopes {
		if s != nil && s.Name != nil && s.Value != nil && s.Value.Pos != nil && ghschema.PermissionScopes[s.Name.Value] != nil {
			found = append(found, s)
		}
	}
	// Scopes are a map: report in file order.
	slices.SortFunc(found, func(a, b *actionlint.PermissionScope) int {
		return cmp.Or(cmp.Compare(a.Value.Pos.Line, b.Value.Pos.Line), cmp.Compare(a.Value.Pos.Col, b.Value.Pos.Col))
	})
	for _, s := range found {
		levels := ghschema.PermissionScopes[s.Name.Value]
		if slices.Contains(levels, s.Value.Value) || strings.Contains(s.Value.Value, "${{") {
			continue
		}
		p.Reportf(j, s.Value.Pos.Line, s.Value.Pos.Col, "%s", fmt.Sprintf("%q is not an access level of permission scope %q: GitHub offers %s; GitHub rejects the workflow",
			s.Value.Value, s.Name.Value, orList(levels)))
	}
}

// orList is "a or b", "a, b or c".
func orList(ss []string) string {
	if len(ss) < 2 {
		return strings.Join(ss, "")
	}
	return strings.Join(ss[:len(ss)-1], ", ") + " or " + ss[len(ss)-1]
}
