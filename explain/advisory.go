package explain

import (
	"fmt"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"
)

// Advisory is one workflow-change warning: a heavy job whose definition
// changed but that will not run for this diff and lacks the opt-in label.
type Advisory struct {
	File, Job, Label string
	Message          string
}

// JobDefinitions returns each job's definition in a canonical form (YAML
// re-encoded without comments or positions), keyed by lower-cased job id,
// so that a comment-only edit compares equal and any real change does not.
// A file that does not parse yields nil.
func JobDefinitions(src []byte) map[string]string {
	var doc yaml.Node
	if err := yaml.Unmarshal(src, &doc); err != nil || len(doc.Content) == 0 {
		return nil
	}
	root := doc.Content[0]
	if root.Kind != yaml.MappingNode {
		return nil
	}
	out := map[string]string{}
	for i := 0; i+1 < len(root.Content); i += 2 {
		if root.Content[i].Value != "jobs" || root.Content[i+1].Kind != yaml.MappingNode {
			continue
		}
		jobs := root.Content[i+1]
		for k := 0; k+1 < len(jobs.Content); k += 2 {
			n := jobs.Content[k+1]
			strip(n)
			b, err := yaml.Marshal(n)
			if err != nil {
				continue
			}
			out[strings.ToLower(jobs.Content[k].Value)] = string(b)
		}
	}
	return out
}

func strip(n *yaml.Node) {
	n.HeadComment, n.LineComment, n.FootComment = "", "", ""
	n.Line, n.Column = 0, 0
	// Keep quoting out of the comparison: 'x' and "x" and x are one value.
	if n.Kind == yaml.ScalarNode {
		n.Style = 0
	}
	for _, c := range n.Content {
		strip(c)
	}
}

// Advise compares heavy jobs' definitions at base and head (base nil: the
// workflow is new) for one explained workflow and returns the advisories.
// labels is the pull request's label set; optIn the label that opts into
// heavy jobs ("" when none is configured).
func Advise(w *Workflow, base, head []byte, labels []string, optIn string) []Advisory {
	if optIn != "" && slices.Contains(labels, optIn) {
		return nil
	}
	b, h := JobDefinitions(base), JobDefinitions(head)
	if h == nil {
		return nil
	}
	var out []Advisory
	for _, j := range w.Jobs {
		if !j.Heavy || j.Verdict != Skip {
			continue
		}
		if def, ok := h[j.ID]; !ok || (b != nil && b[j.ID] == def) {
			continue
		}
		j.Changed = true
		name := j.ID
		if j.Name != "" && !strings.Contains(j.Name, "${{") {
			name = fmt.Sprintf("%s (%s)", j.ID, j.Name)
		}
		msg := fmt.Sprintf("heavy job %s changed in %s but will not run for this diff (runner %s)", name, w.File, j.Runner)
		if optIn != "" {
			msg += fmt.Sprintf("; add the label %s to run it before merging", optIn)
		} else {
			msg += "; no opt-in label is configured (heavy.opt-in-label)"
		}
		out = append(out, Advisory{File: w.File, Job: j.ID, Label: optIn, Message: msg})
	}
	return out
}
