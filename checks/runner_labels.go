package checks

import (
	"strings"

	"github.com/cicheck/cicheck/finding"
	"github.com/cicheck/cicheck/workflowgraph"
)

// RefineRunnerLabels applies what cicheck knows about runners to
// actionlint's runner-label errors ("label X is unknown", followed by every
// label GitHub hosts): a label cicheck classifies as an accelerator or a
// heavy runner (its vocabulary, gpu.runner-labels, heavy.runner-labels),
// or written beside self-hosted in the job's runs-on, is a self-hosted
// runner's label and not an error. Any other unknown label stays an error,
// in one short line that says where to declare it.
func RefineRunnerLabels(fs []finding.Finding, w *workflowgraph.Workflow, c *workflowgraph.Classifier) []finding.Finding {
	out := fs[:0]
	for _, f := range fs {
		label, ok := unknownRunnerLabel(f)
		if !ok {
			out = append(out, f)
			continue
		}
		if c.MatchLabel(label) || c.MatchHeavyLabel(label) || besideSelfHosted(w, label) {
			continue
		}
		f.Message = "label \"" + label + "\" is not a label of a GitHub-hosted runner: for a self-hosted runner, add self-hosted to runs-on or list the label in .github/actionlint.yaml (self-hosted-runner.labels)"
		out = append(out, f)
	}
	return out
}

// unknownRunnerLabel extracts X from actionlint's `label "X" is unknown`.
func unknownRunnerLabel(f finding.Finding) (string, bool) {
	if f.Rule != alRunnerLabel.kind {
		return "", false
	}
	m := alRunnerLabel.re().FindStringSubmatch(f.Message)
	if m == nil {
		return "", false
	}
	return m[1], true
}

// besideSelfHosted: some job of w (or of a workflow it calls) lists label
// together with self-hosted.
func besideSelfHosted(w *workflowgraph.Workflow, label string) bool {
	if w == nil {
		return false
	}
	for _, j := range w.Jobs {
		has, self := false, false
		for _, l := range j.Runner.Labels {
			has = has || strings.EqualFold(l, label)
			self = self || strings.EqualFold(l, "self-hosted")
		}
		if has && self {
			return true
		}
	}
	return false
}
