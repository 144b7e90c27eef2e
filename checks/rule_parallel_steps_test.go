package checks

import "testing"

// TestParallelSteps follows GitHub's workflow syntax for background, wait,
// wait-all, cancel and parallel:
// https://docs.github.com/en/actions/reference/workflows-and-actions/workflow-syntax#jobsjob_idstepsbackground
// Each accepted row is the near miss of a rejected one.
func TestParallelSteps(t *testing.T) {
	const head = "on: push\njobs:\n  a:\n    runs-on: x\n    steps:\n      - {id: server, run: start, background: true}\n      - {id: plain, run: echo}\n"
	for _, c := range []struct{ name, steps, want string }{
		{"wait for a background step", "      - wait: server\n", ""},
		{"wait for several", "      - wait: [server, server]\n", ""},
		{"cancel a background step", "      - cancel: server\n", ""},
		{"ids are case-insensitive", "      - cancel: Server\n", ""},
		{"wait for a parallel group's step", "      - parallel:\n          - {id: fe, run: a}\n      - wait: fe\n", ""},
		{"wait-all", "      - wait-all:\n", ""},
		{"an if: on a run step", "      - {run: x, if: always()}\n", ""},
		{"an expression", "      - wait: ${{ matrix.step }}\n", ""},
		{"unknown id", "      - wait: sever\n",
			"w.yml:8:9: error [parallel-steps] wait names step \"sever\", which no step before it in job a has as its id; did you mean \"server\"? job=a fix=\n"},
		{"a later step's id", "      - cancel: later\n      - {id: later, run: x, background: true}\n",
			"w.yml:8:9: error [parallel-steps] cancel names step \"later\", which no step before it in job a has as its id job=a fix=\n"},
		{"not in the background", "      - wait: plain\n",
			"w.yml:8:9: warning [parallel-steps] wait names step \"plain\", which does not run in the background: there is nothing to wait for job=a fix=\n"},
		{"cancel a list", "      - cancel: [server]\n",
			"w.yml:8:9: error [parallel-steps] cancel takes the id of one background step, not a list; GitHub rejects the workflow job=a fix=\n"},
		{"if on wait", "      - wait: server\n        if: always()\n",
			"w.yml:9:9: error [parallel-steps] a wait step always runs and does not support if:; GitHub rejects the workflow job=a fix=\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := render(Run(loadSrc(t, head+c.steps), "", nil, []*Rule{ParallelSteps})); got != c.want {
				t.Errorf("got\n%s\nwant\n%s", got, c.want)
			}
		})
	}
}
