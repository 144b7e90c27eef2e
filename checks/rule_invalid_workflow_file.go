package checks

import (
	"github.com/cicheck/cicheck/finding"
	"github.com/cicheck/cicheck/workflowgraph"
)

// InvalidWorkflowFile: a file in the linted set is not a workflow GitHub can
// read. The driver reports it before any other rule runs, since there is no
// workflow to run them on.
var InvalidWorkflowFile = &Rule{
	ID:       "invalid-workflow-file",
	Severity: finding.Error,
	Doc:      "a file in the workflows directory is not a workflow GitHub can read",
	Help: `GitHub reads every ` + "`.yml`/`.yaml`" + ` file directly in ` + "`.github/workflows`" + ` as a workflow. A file that is empty, holds only comments, is binary or not valid UTF-8, is larger than the limit, or whose YAML top level is not a mapping with ` + "`on`" + ` and ` + "`jobs`" + ` is not a workflow: none of its jobs can run, and actionlint and GitHub's workflow editor report it as an error.

cicheck also reads no further a file whose YAML aliases, expanded, add more than 100,000 nodes (an alias "bomb" of a few hundred bytes expands to billions): the finding points at the alias that passes the budget.

Delete the file, move it out of ` + "`.github/workflows`" + ` (an action's metadata belongs in ` + "`.github/actions/<name>/action.yml`" + `), or restore its content. The finding points at the first offending byte when there is one.`,
	Bad: `# on: push
# jobs:
#   test:
#     runs-on: ubuntu-latest
#     steps: [{run: make test}]
`,
	Good: `on: push
jobs:
  test:
    runs-on: ubuntu-latest
    steps: [{run: make test}]
`,
}

// FileRules are reported about a file as a whole, by the driver.
func FileRules() []*Rule { return []*Rule{InvalidWorkflowFile} }

// InvalidFile is the finding for a file GitHub cannot read as a workflow,
// reported under display.
func InvalidFile(display string, e *workflowgraph.InvalidFile) finding.Finding {
	line, col := e.Line, e.Col
	if line == 0 {
		line, col = 1, 1
	}
	return finding.Finding{File: display, Line: line, Column: col, Rule: InvalidWorkflowFile.ID,
		Severity: InvalidWorkflowFile.Severity, Message: e.Msg}
}
