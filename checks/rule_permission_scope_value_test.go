package checks

import "testing"

// TestPermissionScopeValue: the documented levels of vulnerability-alerts
// pass, others fail, at workflow and job level; actionlint's unknown-scope
// error for it is dropped and kept for a near-miss scope name.
// https://docs.github.com/en/actions/reference/workflows-and-actions/workflow-syntax#permissions
func TestPermissionScopeValue(t *testing.T) {
	for _, c := range []struct{ name, src, want string }{
		{"read", "on: push\npermissions:\n  vulnerability-alerts: read\njobs:\n  a: {runs-on: x, steps: [{run: x}]}\n", ""},
		{"none", "on: push\npermissions:\n  vulnerability-alerts: none\njobs:\n  a: {runs-on: x, steps: [{run: x}]}\n", ""},
		{"write", "on: push\npermissions:\n  vulnerability-alerts: write\njobs:\n  a: {runs-on: x, steps: [{run: x}]}\n",
			"w.yml:3:25: error [permission-scope-value] \"write\" is not an access level of permission scope \"vulnerability-alerts\": GitHub offers read or none; GitHub rejects the workflow job= fix=\n"},
		{"job", "on: push\njobs:\n  a:\n    permissions: {contents: read, vulnerability-alerts: admin}\n    runs-on: x\n    steps: [{run: x}]\n",
			"w.yml:4:57: error [permission-scope-value] \"admin\" is not an access level of permission scope \"vulnerability-alerts\": GitHub offers read or none; GitHub rejects the workflow job=a fix=\n"},
		{"code-quality write", "on: push\npermissions:\n  code-quality: write\njobs:\n  a: {runs-on: x, steps: [{run: x}]}\n", ""},
		{"code-quality admin", "on: push\npermissions:\n  code-quality: admin\njobs:\n  a: {runs-on: x, steps: [{run: x}]}\n",
			"w.yml:3:17: error [permission-scope-value] \"admin\" is not an access level of permission scope \"code-quality\": GitHub offers read, write or none; GitHub rejects the workflow job= fix=\n"},
		{"an older scope is actionlint's", "on: push\npermissions:\n  models: write\njobs:\n  a: {runs-on: x, steps: [{run: x}]}\n", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := render(Run(loadSrc(t, c.src), "", nil, []*Rule{PermissionScopeValue})); got != c.want {
				t.Errorf("got\n%s\nwant\n%s", got, c.want)
			}
		})
	}
}
