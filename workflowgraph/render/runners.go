package render

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/cicheck/cicheck/internal/jsonw"

	"github.com/cicheck/cicheck/internal/plural"
	"github.com/cicheck/cicheck/internal/safetext"
	"github.com/cicheck/cicheck/workflowgraph"
)

// RunnerRow is one runner, as written, with its class and the jobs on it.
type RunnerRow struct {
	Runner string `json:"runner"`
	workflowgraph.JobClass
	Jobs []string `json:"jobs"`
}

// Runners collects the runners of workflows' jobs.
type Runners struct {
	cl   *workflowgraph.Classifier
	rows map[string]*RunnerRow
	// custom counts the jobs on each custom label of a self-hosted runner
	// that cicheck does not classify as an accelerator's.
	custom map[string]int
}

// NewRunners collects runners classified by cl.
func NewRunners(cl *workflowgraph.Classifier) *Runners {
	return &Runners{cl: cl, rows: map[string]*RunnerRow{}, custom: map[string]int{}}
}

// Add adds w's jobs, named file:job.
func (r *Runners) Add(file string, w *workflowgraph.Workflow) {
	for _, j := range w.Jobs {
		c := r.cl.Classify(j)
		runner := runnerKey(j.Runner)
		key := runner + "\x00" + c.Class + "\x00" + c.Reason
		row := r.rows[key]
		if row == nil {
			row = &RunnerRow{Runner: runner, JobClass: c}
			r.rows[key] = row
		}
		row.Jobs = append(row.Jobs, file+":"+j.ID)
		if c.Class == workflowgraph.ClassSelfHosted {
			for _, l := range workflowgraph.CustomLabels(j.Runner) {
				r.custom[l]++
			}
		}
	}
}

var globEscape = strings.NewReplacer(`\`, `\\`, "*", `\*`, "?", `\?`, "[", `\[`, "]", `\]`, "{", `\{`, "}", `\}`)

// WriteSuggestion writes the custom labels of self-hosted runners that
// cicheck leaves unclassified, most jobs first, as a gpu.runner-labels
// snippet for .cicheck.yaml: the user keeps the lines that name
// accelerators. Labels are written as quoted YAML strings.
func (r *Runners) WriteSuggestion(w io.Writer) error {
	type row struct {
		label string
		jobs  int
	}
	var rows []row
	for l, n := range r.custom {
		rows = append(rows, row{l, n})
	}
	sort.Slice(rows, func(a, b int) bool {
		if rows[a].jobs != rows[b].jobs {
			return rows[a].jobs > rows[b].jobs
		}
		return rows[a].label < rows[b].label
	})
	var b strings.Builder
	if len(rows) == 0 {
		b.WriteString("# every self-hosted runner label is classified: nothing to suggest\n")
		_, err := io.WriteString(w, b.String())
		return err
	}
	b.WriteString("# Custom runner labels cicheck does not classify as accelerators, with the\n")
	b.WriteString("# jobs on each. Keep in .cicheck.yaml the ones that name accelerator runners.\n")
	b.WriteString("gpu:\n  runner-labels:\n")
	for _, x := range rows {
		// gpu.runner-labels are globs: a metacharacter in a label is escaped;
		// a JSON string is a YAML double-quoted scalar.
		q, _ := json.Marshal(globEscape.Replace(x.label))
		fmt.Fprintf(&b, "    - %s # %d %s\n", q, x.jobs, plural.Word(x.jobs, "job"))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// Rows are the runners, accelerators first, then self-hosted, unknown and
// GitHub-hosted, each by runner and reason; jobs sorted.
func (r *Runners) Rows() []*RunnerRow {
	out := make([]*RunnerRow, 0, len(r.rows))
	for _, row := range r.rows {
		sort.Strings(row.Jobs)
		out = append(out, row)
	}
	rank := map[string]int{workflowgraph.ClassAccelerator: 0, workflowgraph.ClassSelfHosted: 1, workflowgraph.ClassUnknown: 2, workflowgraph.ClassGitHubHosted: 3}
	sort.Slice(out, func(a, b int) bool {
		if rank[out[a].Class] != rank[out[b].Class] {
			return rank[out[a].Class] < rank[out[b].Class]
		}
		if out[a].Runner != out[b].Runner {
			return out[a].Runner < out[b].Runner
		}
		return out[a].Reason < out[b].Reason
	})
	return out
}

// WriteRunners writes rows as text (a table) or json.
func WriteRunners(w io.Writer, format string, rows []*RunnerRow) error {
	if format == "json" {
		return jsonw.Write(w, struct {
			Version int          `json:"version"`
			Runners []*RunnerRow `json:"runners"`
		}{1, rows})
	}
	var buf strings.Builder
	tw := tabwriter.NewWriter(&buf, 0, 0, 2, ' ', 0)
	for _, r := range rows {
		class := r.Class
		if r.Kind != "" {
			class += " (" + r.Kind + ")"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", r.Runner, class, r.Reason, strings.Join(r.Jobs, " "))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	_, err := io.WriteString(w, safetext.Output(buf.String()))
	return err
}

// runnerKey renders a runner as written: labels, group, symbolic parts.
func runnerKey(r workflowgraph.Runner) string {
	var parts []string
	if len(r.Labels) > 0 {
		parts = append(parts, strings.Join(r.Labels, ", "))
	}
	if r.Group != "" {
		parts = append(parts, "group: "+r.Group)
	}
	parts = append(parts, r.Symbolic...)
	if len(parts) == 0 {
		return "(none)"
	}
	return strings.Join(parts, "; ")
}
