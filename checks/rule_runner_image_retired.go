package checks

import (
	"slices"
	"strings"

	"github.com/rhysd/actionlint"

	"github.com/cicheck/cicheck/finding"
	"github.com/cicheck/cicheck/internal/ghschema"
	"github.com/cicheck/cicheck/workflowgraph"
)

// RunnerImageRetired reports a job on a GitHub-hosted image GitHub has
// retired. actionlint 1.7.12 calls most of them unknown labels (the
// runner-label finding is replaced by this one) and still lists macos-14,
// retired on 2026-11-02.
var RunnerImageRetired = &Rule{
	ID:       "runner-image-retired",
	Severity: finding.Warning,
	Doc:      "a job runs on a GitHub-hosted runner image that GitHub has retired, so it never starts",
	Help: "GitHub keeps the latest two versions of each hosted image and retires the oldest after a deprecation period with brownouts; " +
		"a job whose `runs-on` names a retired image fails without running. The finding names the retirement date, GitHub's announcement and the image to move to.\n\n" +
		"A label written beside `self-hosted`, or declared in `.github/actionlint.yaml` (`self-hosted-runner.labels`), is a self-hosted runner's own label and is not reported.\n\n" +
		"Retired images and their dates (internal/ghschema): ubuntu-20.04 (2025-04-15), windows-2019 (2025-06-30), macos-11 (2024-06-28), macos-12 (2024-12-03), " +
		"macos-13, macos-13-large, macos-13-xlarge (2025-12-04), macos-14, macos-14-large, macos-14-xlarge (2026-11-02).",
	Bad: `on: push
jobs:
  test: {runs-on: ubuntu-20.04, steps: [{run: make test}]}
`,
	Good: `on: push
jobs:
  test: {runs-on: ubuntu-24.04, steps: [{run: make test}]}
`,
	Run: func(p *Pass) {
		for _, j := range p.Workflow.Jobs {
			if slices.ContainsFunc(j.Runner.Labels, func(l string) bool { return strings.EqualFold(l, "self-hosted") }) {
				continue
			}
			for _, l := range j.Runner.Labels {
				im, ok := ghschema.Retired(l)
				if !ok {
					continue
				}
				line, col := labelPos(j, l)
				p.Reportf(j, line, col, "%s"+retiredSuffix+" %s: a job on it fails without running; use %s (%s)", im.Label, im.Retired, im.Use, im.Source)
			}
		}
	},
}

// retiredSuffix follows the label in the rule's message.
const retiredSuffix = " is a GitHub-hosted image retired on"

// retiredLabel is the label a runner-image-retired message names.
func retiredLabel(msg string) string {
	l, _, _ := strings.Cut(msg, retiredSuffix)
	return l
}

// labelPos locates a resolved runner label of j: the `with:` value that
// passes it to a reusable workflow, where runs-on writes it, else the
// matrix value it comes from, else runs-on itself, else the job.
func labelPos(j *workflowgraph.Job, label string) (int, int) {
	if j.AST == nil {
		return j.Line, j.Column
	}
	if wc := j.AST.WorkflowCall; wc != nil {
		// A label passed to a reusable workflow (with: runner: …): the
		// first such input in the file.
		var best *actionlint.Pos
		for _, in := range wc.Inputs {
			if v := in.Value; v != nil && v.Pos != nil && strings.EqualFold(strings.TrimSpace(v.Value), label) &&
				(best == nil || v.Pos.Line < best.Line || v.Pos.Line == best.Line && v.Pos.Col < best.Col) {
				best = v.Pos
			}
		}
		if best != nil {
			return best.Line, best.Col
		}
	}
	if j.AST.RunsOn == nil {
		return j.Line, j.Column
	}
	for _, s := range j.AST.RunsOn.Labels {
		if s != nil && s.Pos != nil && !s.ContainsExpression() && strings.EqualFold(s.Value, label) {
			return s.Pos.Line, s.Pos.Col
		}
	}
	if pos := matrixValuePos(j.AST.Strategy, label); pos != nil {
		return pos.Line, pos.Col
	}
	for _, s := range append(slices.Clip(j.AST.RunsOn.Labels), j.AST.RunsOn.LabelsExpr) {
		if s != nil && s.Pos != nil {
			return s.Pos.Line, s.Pos.Col
		}
	}
	return j.Line, j.Column
}

// matrixValuePos is the position of the first string value of the matrix
// (a row's value or an include's) equal to label.
func matrixValuePos(st *actionlint.Strategy, label string) *actionlint.Pos {
	if st == nil || st.Matrix == nil {
		return nil
	}
	var best *actionlint.Pos
	consider := func(v actionlint.RawYAMLValue) {
		s, ok := v.(*actionlint.RawYAMLString)
		if !ok || !strings.EqualFold(s.Value, label) {
			return
		}
		// Rows are a map: take the first in the file, for a stable result.
		if p := s.Pos(); p != nil && (best == nil || p.Line < best.Line || p.Line == best.Line && p.Col < best.Col) {
			best = p
		}
	}
	for _, row := range st.Matrix.Rows {
		for _, v := range row.Values {
			consider(v)
		}
	}
	if inc := st.Matrix.Include; inc != nil {
		for _, c := range inc.Combinations {
			for _, a := range c.Assigns {
				consider(a.Value)
			}
		}
	}
	return best
}
