package lint

import (
	"errors"
	"fmt"

	"github.com/cicheck/cicheck/checks"

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
	shareFS(targets)
	callees := workflowgraph.NewCallees()
	for i, t := range targets {
		w, fs, err := workflowgraph.LoadShared(callees, t.Root, t.FS(), t.Rel)
		out[i] = loaded(t, w, fs, err)
	}
	return out
}

// LoadPaths loads the workflow files paths name (the repository's
// .github/workflows when none), for the commands that read workflows
// without linting them.
func LoadPaths(wd string, paths []string) ([]Loaded, error) {
	targets, err := Discover(wd, paths, func(string, ...any) {})
	if err != nil {
		return nil, err
	}
	return LoadTargets(targets), nil
}

// LoadOne loads the single workflow file path names, alone, as GitHub
// evaluates one workflow: no cache of local callees shared with others.
// An unreadable file is an error; one that does not parse has a nil
// Workflow and its Parse findings.
func LoadOne(wd, path string) (Loaded, error) {
	targets, err := Discover(wd, []string{path}, func(string, ...any) {})
	if err != nil {
		return Loaded{}, err
	}
	if len(targets) != 1 {
		return Loaded{}, fmt.Errorf("%s: not a single workflow file", path)
	}
	t := targets[0]
	w, parse, err := workflowgraph.Load(t.FS(), t.Rel)
	l := loaded(t, w, parse, err)
	return l, l.Err
}

// loaded is a load's outcome. A file GitHub refuses as a workflow (empty,
// binary, an alias bomb, a link out of the repository) is a syntax
// finding of a file that does not parse, as lint reports it, not an
// unreadable path: the commands report it and exit 1, not 2.
func loaded(t Target, w *workflowgraph.Workflow, parse []finding.Finding, err error) Loaded {
	var inv *workflowgraph.InvalidFile
	if errors.As(err, &inv) {
		return Loaded{Target: t, Parse: []finding.Finding{checks.InvalidFile(t.Display, inv)}}
	}
	if err != nil {
		return Loaded{Target: t, Err: Relabel(err, t.Rel, t.Display)}
	}
	return Loaded{Target: t, Workflow: w, Parse: parse}
}

// ParseErrors are the Parse findings as one-line messages naming the file
// as displayed.
func (l Loaded) ParseErrors() []string {
	out := make([]string, len(l.Parse))
	for i, f := range l.Parse {
		out[i] = fmt.Sprintf("%s:%d:%d: %s [%s]", l.Target.Display, f.Line, f.Column, f.Message, f.Rule)
	}
	return out
}
