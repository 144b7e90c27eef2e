package explain

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/cicheck/cicheck/internal/jsonw"

	"github.com/cicheck/cicheck/internal/plural"
	"github.com/cicheck/cicheck/internal/safetext"
	"github.com/cicheck/cicheck/workflowgraph/render"
)

// Formats lists the output formats of Write.
func Formats() []string { return []string{"text", "markdown", "json", "github"} }

// Summary is the head line of every human format, as plain text.
func Summary(r *Report, nfiles int) string {
	return summary(r, nfiles, func(s string) string { return s })
}

// summary is Summary with each name from the repository passed through esc.
func summary(r *Report, nfiles int, esc func(string) string) string {
	var woken []string
	for _, w := range r.Workflows {
		for _, j := range w.Jobs {
			if (j.Heavy || j.GPU) && j.Verdict == Run {
				woken = append(woken, fmt.Sprintf("%s (%s)", esc(j.ID), esc(j.Runner)))
			}
		}
	}
	var maybe int
	for _, w := range r.Workflows {
		for _, j := range w.Jobs {
			if (j.Heavy || j.GPU) && j.Verdict == Unknown {
				maybe++
			}
		}
	}
	s := plural.Count(nfiles, "changed file") + "; "
	switch len(woken) {
	case 0:
		s += "wakes no heavy or GPU job"
	default:
		s += fmt.Sprintf("wakes %s: %s", plural.Count(len(woken), "heavy/GPU job"), strings.Join(woken, ", "))
	}
	if maybe > 0 {
		s += fmt.Sprintf("; %d more undecided", maybe)
	}
	return s
}

func trigText(w *Workflow) string {
	switch {
	case w.Triggered == nil:
		return "trigger unknown"
	case *w.Triggered:
		return "triggered"
	}
	return "not triggered"
}

func matchText(f *Filter) string {
	if f.Match == nil {
		return "unknown"
	}
	if *f.Match {
		return "true"
	}
	return "false"
}

func countText(f *Filter) string {
	if f.Count == nil {
		return "?"
	}
	return fmt.Sprint(*f.Count)
}

func classText(j *Job) string {
	var c []string
	if j.Heavy {
		c = append(c, "heavy")
	}
	if j.GPU {
		c = append(c, "gpu")
	}
	if len(c) == 0 {
		return "-"
	}
	return strings.Join(c, ",")
}

func witnessText(f *Filter) string {
	switch {
	case f.Witness != nil:
		return f.Witness.File + " (" + f.Witness.Pattern + ")"
	case f.Match == nil && f.Reason != "":
		return f.Reason
	}
	return "-"
}

// Write renders the report. advisories are printed as warnings (never a
// failure); nfiles is the number of changed files.
func Write(w io.Writer, format string, r *Report, nfiles int, advisories []Advisory) error {
	switch format {
	case "json":
		return jsonw.Write(w, r)
	case "markdown":
		return writeMarkdown(w, r, nfiles, advisories)
	case "text", "github":
		return writeText(w, format, r, nfiles, advisories)
	}
	return fmt.Errorf("unknown format %q (valid: %s)", format, strings.Join(Formats(), ", "))
}

// The text and github formats escape every name from the repository (a
// file, job, filter or step name, a runner label, a reason quoting them)
// with safetext.Line, so none can break a line, and then defuse any line
// that would start a workflow command; the github format's own commands
// are written after that, with workflow-command escaping.
func writeText(out io.Writer, format string, r *Report, nfiles int, advisories []Advisory) error {
	var b strings.Builder
	line := safetext.Line
	fmt.Fprintln(&b, summary(r, nfiles, line))
	for _, w := range r.Workflows {
		fmt.Fprintf(&b, "\n%s: %s (%s)\n", line(w.File), trigText(w), line(w.TriggerReason))
		if len(w.Filters) > 0 {
			fmt.Fprintln(&b, "  filters:")
			tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
			for _, f := range w.Filters {
				fmt.Fprintf(tw, "    %s/%s\t%s\t%s\t%s\t%s\n", line(f.Job), line(f.Step), line(f.Name), matchText(f), countText(f), line(witnessText(f)))
			}
			tw.Flush()
		}
		if len(w.Jobs) > 0 {
			fmt.Fprintln(&b, "  jobs:")
			tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
			for _, j := range w.Jobs {
				runner := j.Runner
				if runner == "" {
					runner = "-"
				}
				fmt.Fprintf(tw, "    %s\t%s\t%s\t%s\t%s\n", j.Verdict, line(j.ID), classText(j), line(runner), line(j.Reason))
			}
			tw.Flush()
		}
	}
	if format != "github" {
		for _, a := range advisories {
			fmt.Fprintf(&b, "warning: %s\n", line(a.Message))
		}
	}
	// tabwriter pads the last column too; trailing blanks help nobody.
	var lines []string
	for _, l := range strings.Split(b.String(), "\n") {
		lines = append(lines, strings.TrimRight(l, " "))
	}
	text := safetext.DefuseCommands([]byte(strings.Join(lines, "\n")))
	if format == "github" {
		var c bytes.Buffer
		prop, data := safetext.CommandProperty, safetext.CommandData
		// Annotations on the run: what wakes a heavy or GPU runner.
		for _, w := range r.Workflows {
			for _, j := range w.Jobs {
				if (j.Heavy || j.GPU) && j.Verdict == Run {
					fmt.Fprintf(&c, "::notice file=%s,title=%s::%s\n", prop(w.File), prop(j.ID+" wakes "+j.Runner), data(j.Reason))
				}
			}
		}
		for _, a := range advisories {
			fmt.Fprintf(&c, "::warning file=%s,title=%s::%s\n", prop(a.File), prop("heavy job changed without "+labelOr(a.Label)), data(a.Message))
		}
		text = append(text, c.Bytes()...)
	}
	_, err := out.Write(text)
	return err
}

func labelOr(l string) string {
	if l == "" {
		return "opt-in label"
	}
	return l
}

// The markdown format (the Action's step summary, a pull-request comment)
// escapes every name from the repository in one of three ways: a code span
// for identifiers (safetext.Code, safetext.CodeCell in a table), literal
// text for prose that quotes them (safetext.Markdown), and HTML entities
// inside raw HTML (safetext.HTML).
func writeMarkdown(out io.Writer, r *Report, nfiles int, advisories []Advisory) error {
	var b strings.Builder
	md, code, cell := safetext.Markdown, safetext.Code, safetext.CodeCell
	fmt.Fprintf(&b, "**cicheck explain-diff**: %s\n", summary(r, nfiles, md))
	for _, w := range r.Workflows {
		fmt.Fprintf(&b, "\n#### %s: %s\n\n", code(w.File), trigText(w))
		if len(w.Jobs) > 0 {
			fmt.Fprintln(&b, "| Job | Verdict | Runner | Class | Why |")
			fmt.Fprintln(&b, "|---|---|---|---|---|")
			for _, j := range w.Jobs {
				v := j.Verdict
				if v == Run && (j.Heavy || j.GPU) {
					v = "**run**"
				}
				fmt.Fprintf(&b, "| %s | %s | %s | %s | %s |\n", cell(j.ID), v, md(j.Runner), classText(j), md(j.Reason))
			}
		}
		if len(w.Filters) > 0 {
			fmt.Fprintf(&b, "\n<details><summary>paths-filter results (%d)</summary>\n\n", len(w.Filters))
			fmt.Fprintln(&b, "| Step | Filter | Match | Files | First match |")
			fmt.Fprintln(&b, "|---|---|---|---|---|")
			for _, f := range w.Filters {
				fmt.Fprintf(&b, "| %s | %s | %s | %s | %s |\n", cell(f.Job+"/"+f.Step), cell(f.Name), matchText(f), countText(f), md(witnessText(f)))
			}
			fmt.Fprintln(&b, "\n</details>")
		}
	}
	for _, w := range r.Workflows {
		writeMermaid(&b, w)
	}
	if len(advisories) > 0 {
		fmt.Fprintln(&b)
		for _, a := range advisories {
			fmt.Fprintf(&b, "> [!WARNING]\n> %s\n", md(a.Message))
		}
	}
	_, err := io.WriteString(out, b.String())
	return err
}

// maxGraphJobs bounds the graph: a larger one is unreadable in a comment.
const maxGraphJobs = 120

// writeMermaid draws the workflow's jobs and needs as a Mermaid flowchart
// (GitHub renders it in comments and step summaries) in the graph's scheme
// (render.MermaidScenario): the fill says GPU, heavy or both, grey a job
// the scenario skips, a dashed border one it leaves undecided, a hexagon an
// explicit status check; a legend says so.
func writeMermaid(b *strings.Builder, w *Workflow) {
	if len(w.Jobs) == 0 {
		return
	}
	fmt.Fprintf(b, "\n<details><summary>job graph of <code>%s</code></summary>\n\n", safetext.HTML(w.File))
	if len(w.Jobs) > maxGraphJobs {
		fmt.Fprintf(b, "%d jobs: too many to draw (at most %d).\n\n</details>\n", len(w.Jobs), maxGraphJobs)
		return
	}
	nodes := make([]render.Node, len(w.Jobs))
	for i, j := range w.Jobs {
		first := j.ID
		switch {
		case j.GPU && j.Heavy:
			first += " [GPU, heavy]"
		case j.GPU:
			first += " [GPU]"
		case j.Heavy:
			first += " [heavy]"
		}
		st := render.Unknown
		switch j.Verdict {
		case Run:
			st = render.Run
		case Skip:
			st = render.Skip
		}
		nodes[i] = render.Node{ID: j.ID, Lines: []string{first, string(j.Verdict)}, GPU: j.GPU, Heavy: j.Heavy, Explicit: j.Explicit, State: st, Needs: j.Needs}
	}
	b.WriteString("```mermaid\n")
	_ = render.MermaidScenario(b, nodes) // a strings.Builder never fails
	b.WriteString("```\n\n</details>\n")
}
