package checks

import (
	"strings"
	"unicode"

	"github.com/cicheck/cicheck/finding"
	"github.com/cicheck/cicheck/internal/ghschema"
	"github.com/cicheck/cicheck/workflowgraph"
)

// RefineRunnerLabels applies what cicheck knows about runners to
// actionlint's runner-label errors ("label X is unknown", followed by every
// label GitHub hosts). A label GitHub routes to a self-hosted or larger
// runner is legitimate, so a custom label is never an error:
//
//   - a label cicheck classifies as an accelerator or a heavy runner (its
//     vocabulary, gpu.runner-labels, heavy.runner-labels), or written
//     beside self-hosted in the job's runs-on, is dropped;
//   - a retired GitHub-hosted image is dropped here: runner-image-retired
//     reports it with its date;
//   - one edit from a GitHub-hosted label (ubuntu-lates) stays an error
//     naming the label it meant: no runner will ever pick the job up;
//   - any other label is a notice that it names a self-hosted or larger
//     runner, pointing at gpu.runner-labels when the label names hardware.
func RefineRunnerLabels(fs []finding.Finding, w *workflowgraph.Workflow, c *workflowgraph.Classifier) []finding.Finding {
	out := fs[:0]
	var selfHosted map[string]bool // built on the first unknown label: one pass over the jobs, not one per finding
	for _, f := range fs {
		label, ok := unknownRunnerLabel(f)
		if !ok {
			out = append(out, f)
			continue
		}
		// An empty label is actionlint's syntax-check error already.
		if label == "" || c.MatchLabel(label) || c.MatchHeavyLabel(label) {
			continue
		}
		if selfHosted == nil {
			selfHosted = besideSelfHosted(w)
		}
		if selfHosted[foldKey(label)] {
			continue
		}
		if _, retired := ghschema.Retired(label); retired {
			continue
		}
		if near := ghschema.NearHosted(label); near != "" {
			f.Message = "label \"" + label + "\" is not a GitHub-hosted runner label: did you mean \"" + near + "\"? (no runner picks the job up; for a self-hosted runner's label, add self-hosted to runs-on)"
			out = append(out, f)
			continue
		}
		f.Severity = finding.Notice
		f.Message = "label \"" + label + "\" is not a GitHub-hosted runner label: the job runs on a self-hosted or larger runner that has it (declare it in .github/actionlint.yaml, self-hosted-runner.labels)"
		if namesHardware(label) {
			f.Message += "; if it is an accelerator runner, add it to gpu.runner-labels in .cicheck.yaml"
		}
		out = append(out, f)
	}
	return out
}

// namesHardware: a token of the label (split as the accelerator vocabulary
// splits, on - . _ / :) describes a machine (big-box-7, highmem, 32core,
// 4xlarge, arm64) rather than a purpose (docker-build).
func namesHardware(label string) bool {
	for _, tok := range strings.FieldsFunc(strings.ToLower(label), func(r rune) bool { return strings.ContainsRune("-._/:", r) }) {
		switch tok {
		case "big", "box", "metal", "baremetal", "large", "xlarge", "huge", "beefy", "cpu", "cpus", "vcpu", "vcpus",
			"cores", "mem", "highmem", "bigmem", "ram", "arm64", "aarch64", "x64", "amd64", "x86":
			return true
		}
		if hardwareSize().MatchString(tok) {
			return true
		}
	}
	return false
}

// hardwareSize is a size token: 32core, 16c, 64gb, 4xlarge.
var hardwareSize = pattern(`^\d+(cores?|c|cpus?|vcpus?|g|gb|xlarge|xl)$`)

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

// besideSelfHosted is the set of labels some job of w lists together with
// self-hosted, keyed by foldKey. Built once per workflow: asking per
// finding made a workflow of n jobs with an unknown label cost n².
func besideSelfHosted(w *workflowgraph.Workflow) map[string]bool {
	set := map[string]bool{}
	if w == nil {
		return set
	}
	for _, j := range w.Jobs {
		self := false
		for _, l := range j.Runner.Labels {
			self = self || strings.EqualFold(l, "self-hosted")
		}
		if !self {
			continue
		}
		for _, l := range j.Runner.Labels {
			set[foldKey(l)] = true
		}
	}
	return set
}

// foldKey maps s to one representative of its case-fold class, so that
// foldKey(a) == foldKey(b) exactly when strings.EqualFold(a, b): each rune
// becomes the smallest rune of its simple-folding orbit (ToLower alone
// would part ſ from s and K from the Kelvin sign, which EqualFold joins).
func foldKey(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		least := r
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			least = min(least, f)
		}
		b.WriteRune(least)
	}
	return b.String()
}
