package workflowgraph

import (
	"strings"
	"testing"
)

// TestRefusals: a job-level if: may read github, needs, vars and inputs
// and call the status functions; anything else makes GitHub refuse the
// file. A step-level if: may read more (near miss).
func TestRefusals(t *testing.T) {
	w := load(t, map[string]string{"w.yml": `on: push
jobs:
  ok:
    if: github.ref == 'refs/heads/main' && vars.X == '1' && inputs.y && always() && NaN != Infinity
    runs-on: x
    steps:
      - if: matrix.a && env.B && secrets.C && hashFiles('x')
        run: echo
  needs-ok:
    needs: ok
    if: needs.ok.result == 'success' && success()
    runs-on: x
    steps: [{run: echo}]
  bad-matrix:
    if: matrix.gpu
    runs-on: x
    steps: [{run: echo}]
  bad-hash:
    if: ${{ hashFiles('a') != '' }}
    runs-on: x
    steps: [{run: echo}]
  bad-steps:
    if: steps.a.outputs.b
    runs-on: x
    steps: [{run: echo}]
`}, "w.yml")
	var got []string
	for _, r := range Refusals(w) {
		got = append(got, r.Job+": "+r.Reason)
	}
	want := []string{
		"bad-matrix: the if: of job bad-matrix reads the matrix context, which a job-level if: does not have",
		"bad-hash: the if: of job bad-hash calls hashFiles(), which a job-level if: cannot",
		"bad-steps: the if: of job bad-steps reads the steps context, which a job-level if: does not have",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
