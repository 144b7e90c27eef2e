package checks

import (
	"strconv"

	"github.com/cicheck/cicheck/finding"
	"github.com/cicheck/cicheck/workflowgraph"
)

// mayExceed: the matrix's rows and include entries could make more legs
// than GitHub allows (exclude only removes legs), so counting them is
// worth it; most matrices are far below.
func mayExceed(j *workflowgraph.Job) bool {
	if j.AST == nil || j.AST.Strategy == nil || j.AST.Strategy.Matrix == nil {
		return false
	}
	m := j.AST.Strategy.Matrix
	if m.Expression != nil {
		return true
	}
	n := 1
	for _, r := range m.Rows {
		if r == nil || r.Expression != nil {
			return true
		}
		if n *= len(r.Values); n > workflowgraph.MaxLegs {
			return true
		}
	}
	if m.Include != nil {
		if m.Include.Expression != nil {
			return true
		}
		n += len(m.Include.Combinations)
	}
	return n > workflowgraph.MaxLegs
}

// MatrixTooLarge reports a static matrix that generates more legs than
// GitHub allows: the job fails at once and none of its legs runs.
var MatrixTooLarge = &Rule{
	ID:       "matrix-too-large",
	Severity: finding.Error,
	Doc:      "a matrix generates more than 256 jobs, so GitHub runs none of them",
	Help: "GitHub generates at most 256 jobs from one matrix (\"A matrix will generate a maximum of 256 jobs per " +
		"workflow run\", docs.github.com, Using a matrix for your jobs). A larger product fails the job with " +
		"`Strategy for job '…' produced N configurations which exceeds the maximum of 256 configurations`, and no leg " +
		"runs. cicheck counts the legs of a static matrix (include and exclude applied) without expanding it. Split " +
		"the matrix into several jobs, or list the legs you need with include.",
	Bad: `on: push
jobs:
  test:
    runs-on: ubuntu-latest
    strategy:
      matrix:
        python: ["3.9", "3.10", "3.11", "3.12", "3.13"]
        torch: ["2.3", "2.4", "2.5", "2.6", "2.7", "2.8"]
        cuda: ["11.8", "12.1", "12.4", "12.6", "12.8", "12.9", "13.0"]
        os: [ubuntu-22.04, ubuntu-24.04]
    steps: [{run: make test}]
`,
	Good: `on: push
jobs:
  test:
    runs-on: ubuntu-latest
    strategy:
      matrix:
        python: ["3.9", "3.13"]
        torch: ["2.3", "2.8"]
        cuda: ["11.8", "12.8", "13.0"]
        os: [ubuntu-22.04, ubuntu-24.04]
    steps: [{run: make test}]
`,
	Run: func(p *Pass) {
		for _, j := range p.Workflow.Jobs {
			if !mayExceed(j) {
				continue
			}
			n, ok := workflowgraph.MatrixSize(j)
			if !ok || n <= workflowgraph.MaxLegs {
				continue
			}
			produced := strconv.Itoa(n)
			if n >= 1<<20 {
				produced = "at least " + produced
			}
			pos := j.AST.Strategy.Matrix.Pos
			p.Report(finding.Finding{Job: j.ID, Line: pos.Line, Column: pos.Col,
				Message: "the matrix of " + j.ID + " generates " + produced + " jobs, more than the " +
					strconv.Itoa(workflowgraph.MaxLegs) + " GitHub allows: the job fails and none of its legs runs; split the matrix or list the legs with include"})
		}
	},
}
