package explain

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/rhysd/actionlint"

	"github.com/cicheck/cicheck/workflowgraph"
)

// Advisory is one workflow-change warning: a heavy job whose definition
// changed but that will not run for this diff and lacks the opt-in label.
type Advisory struct {
	File, Job, Label string
	Message          string
}

// JobDefinitions returns each job's definition in a canonical form, keyed
// by lower-cased job id: the job as actionlint parsed it, encoded without
// positions or quoting, so that a comment, quoting, key-order or
// flow/block-style edit compares equal and any change to what GitHub reads
// does not. A file that does not parse yields nil.
func JobDefinitions(src []byte) map[string]string {
	// The base side comes from git unchecked: an alias bomb there must not
	// reach actionlint either.
	if workflowgraph.CheckWorkflowBytes("", src) != nil {
		return nil
	}
	ast, _ := actionlint.Parse(src)
	return jobDefinitions(ast)
}

func jobDefinitions(ast *actionlint.Workflow) map[string]string {
	if ast == nil {
		return nil
	}
	out := map[string]string{}
	for id, j := range ast.Jobs {
		if j == nil {
			continue
		}
		b, err := json.Marshal(j)
		if err != nil {
			continue // a value JSON cannot hold (NaN): no comparison
		}
		var v any
		if json.Unmarshal(b, &v) != nil {
			continue
		}
		b, err = json.Marshal(strip(v))
		if err != nil {
			continue
		}
		out[strings.ToLower(id)] = string(b)
	}
	return out
}

// strip drops where a value was written and how it was quoted (Pos,
// RunPos, Quoted) from an encoded AST; maps encode with sorted keys.
func strip(v any) any {
	switch t := v.(type) {
	case map[string]any:
		for _, k := range []string{"Pos", "RunPos", "Quoted"} {
			delete(t, k)
		}
		for k, x := range t {
			t[k] = strip(x)
		}
	case []any:
		for i, x := range t {
			t[i] = strip(x)
		}
	}
	return v
}

// Advise compares heavy jobs' definitions at base (its source; nil: the
// workflow is new) and head (the tree the explanation was made from) for
// one explained workflow and returns the advisories. labels is the pull
// request's label set; optIn the label that opts into heavy jobs ("" when
// none is configured).
func Advise(w *Workflow, base []byte, head *actionlint.Workflow, labels []string, optIn string) []Advisory {
	if optIn != "" && slices.Contains(labels, optIn) {
		return nil
	}
	b, h := JobDefinitions(base), jobDefinitions(head)
	if h == nil {
		return nil
	}
	var out []Advisory
	for _, j := range w.Jobs {
		if !j.Heavy || j.Verdict != Skip {
			continue
		}
		// The definitions are keyed by lower-cased id (a key re-cased between
		// base and head is the same job).
		if def, ok := h[strings.ToLower(j.ID)]; !ok || (b != nil && b[strings.ToLower(j.ID)] == def) {
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
