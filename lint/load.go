package lint

import (
	"os"

	"github.com/cicheck/cicheck/finding"
	"github.com/cicheck/cicheck/workflowgraph"
)

// Loaded is one discovered workflow file, loaded.
type Loaded struct {
	Target Target
	// Workflow is nil when the file does not parse.
	Workflow *workflowgraph.Workflow
	// Parse holds actionlint's syntax findings.
	Parse []finding.Finding
	// Err is why the file could not be read, naming it as displayed.
	Err error
}

// LoadTargets loads each target, sharing one cache of local reusable
// workflows, for the commands that read workflows without linting them.
func LoadTargets(targets []Target) []Loaded {
	out := make([]Loaded, len(targets))
	callees := workflowgraph.NewCallees()
	for i, t := range targets {
		w, fs, err := workflowgraph.LoadShared(callees, t.Root, os.DirFS(t.Root), t.Rel)
		if err != nil {
			err = Relabel(err, t.Rel, t.Display)
		}
		out[i] = Loaded{Target: t, Workflow: w, Parse: fs, Err: err}
	}
	return out
}
