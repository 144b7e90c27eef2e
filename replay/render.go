package replay

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/cicheck/cicheck/internal/jsonw"

	"github.com/cicheck/cicheck/internal/plural"
	"github.com/cicheck/cicheck/internal/safetext"
)

// Formats lists the output formats of Write.
func Formats() []string { return []string{"text", "markdown", "json"} }

// Write renders r. Runner-hours are shown for jobs with configured
// minutes; they count the commits whose verdicts are known.
func Write(w io.Writer, format string, r *Result) error {
	switch format {
	case "json":
		return jsonw.Write(w, r)
	case "markdown":
		_, err := io.WriteString(w, markdown(r))
		return err
	case "text":
		_, err := io.WriteString(w, text(r))
		return err
	}
	return fmt.Errorf("unknown format %q (valid: %s)", format, strings.Join(Formats(), ", "))
}

// Totals sums the jobs; hours is over the jobs with minutes (ok false
// when none has).
func (r *Result) Totals() (old, new, unknown int, hours float64, ok bool) {
	for _, j := range r.Jobs {
		old += j.Old
		new += j.New
		unknown += j.Unknown
		if j.HasMinutes {
			hours += j.Hours()
			ok = true
		}
	}
	return old, new, unknown, hours, ok
}

func refText(ref string) string {
	if ref == "worktree" {
		return "the working tree"
	}
	if len(ref) == 40 && strings.Trim(ref, "0123456789abcdef") == "" {
		return short(ref) // a merge base found for the user
	}
	return ref
}

// Summary is the head line of the human formats.
func Summary(r *Result) string {
	old, nw, unk, hours, ok := r.Totals()
	s := fmt.Sprintf("%s replayed (%s) under the workflows at %s (old) and %s (new): heavy/GPU wakes %d -> %d (%s)",
		plural.Count(r.Commits, "commit"), r.Event, refText(r.Old), refText(r.New), old, nw, signed(nw-old))
	if unk > 0 {
		s += fmt.Sprintf(", %d undecided", unk)
	}
	if ok {
		s += fmt.Sprintf(", %s runner-hours", signedHours(hours))
	}
	return s
}

func signed(n int) string {
	if n > 0 {
		return fmt.Sprintf("+%d", n)
	}
	return fmt.Sprint(n)
}

func signedHours(h float64) string {
	s := fmt.Sprintf("%+.1f", h)
	if s == "-0.0" || s == "+0.0" {
		return "0.0"
	}
	return s
}

func hoursCell(j *Job) string {
	if !j.HasMinutes {
		return "-"
	}
	return signedHours(j.Hours())
}

// unknownCell shows the undecided commits per side.
func unknownCell(j *Job) string {
	if j.Unknown == 0 {
		return "0"
	}
	return fmt.Sprintf("%d (old %d, new %d)", j.Unknown, j.OldUnknown, j.NewUnknown)
}

func short(sha string) string {
	if len(sha) > 12 {
		return sha[:12]
	}
	return sha
}

// text escapes what came from the repository (workflow and job names,
// commit subjects, reasons quoting file names) with safetext.Line and
// defuses any line that would start a workflow command: replay's output
// is read in CI logs.
func text(r *Result) string {
	line := safetext.Line
	var b strings.Builder
	fmt.Fprintln(&b, line(Summary(r)))
	if len(r.Jobs) == 0 {
		fmt.Fprintln(&b, "no heavy or GPU job on either side")
		return b.String()
	}
	fmt.Fprintln(&b)
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "workflow\tjob\tclass\told\tnew\tchange\tunknown\thours\t")
	for _, j := range r.Jobs {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%d\t%s\t%s\t%s\t\n", line(j.Workflow), line(j.Job), j.Class, j.Old, j.New, signed(j.Diff()), unknownCell(j), hoursCell(j))
	}
	old, nw, unk, hours, ok := r.Totals()
	h := "-"
	if ok {
		h = signedHours(hours)
	}
	fmt.Fprintf(tw, "total\t\t\t%d\t%d\t%s\t%d\t%s\t\n", old, nw, signed(nw-old), unk, h)
	_ = tw.Flush() // writes to a strings.Builder
	for _, j := range r.Jobs {
		if len(j.Changed) == 0 {
			continue
		}
		fmt.Fprintf(&b, "\n%s %s: %s changed verdict", line(j.Workflow), line(j.Job), plural.Count(j.ChangedTotal, "commit"))
		if j.ChangedTotal > len(j.Changed) {
			fmt.Fprintf(&b, ", e.g.")
		}
		fmt.Fprintln(&b)
		for _, c := range j.Changed {
			fmt.Fprintf(&b, "  %s %s -> %s  %s\n      %s\n", line(short(c.Commit)), c.Old, c.New, line(c.Subject), line(c.Why))
		}
	}
	// tabwriter pads the first columns; trailing blanks help nobody.
	lines := strings.Split(b.String(), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return string(safetext.DefuseCommands([]byte(strings.Join(lines, "\n"))))
}

// markdown escapes what came from the repository: names as code spans,
// subjects and reasons as literal text (internal/safetext).
func markdown(r *Result) string {
	var b strings.Builder
	fmt.Fprintf(&b, "**cicheck replay**: %s\n\n", safetext.Markdown(Summary(r)))
	if len(r.Jobs) == 0 {
		fmt.Fprintln(&b, "No heavy or GPU job on either side.")
		return b.String()
	}
	fmt.Fprintln(&b, "| Workflow | Job | Class | Old | New | Change | Unknown | Runner-hours |")
	fmt.Fprintln(&b, "|---|---|---|--:|--:|--:|--:|--:|")
	for _, j := range r.Jobs {
		fmt.Fprintf(&b, "| %s | %s | %s | %d | %d | %s | %s | %s |\n", safetext.CodeCell(j.Workflow), safetext.CodeCell(j.Job), j.Class, j.Old, j.New, signed(j.Diff()), unknownCell(j), hoursCell(j))
	}
	old, nw, unk, hours, ok := r.Totals()
	h := "-"
	if ok {
		h = signedHours(hours)
	}
	fmt.Fprintf(&b, "| **total** | | | %d | %d | %s | %d | %s |\n", old, nw, signed(nw-old), unk, h)
	var any bool
	for _, j := range r.Jobs {
		if len(j.Changed) > 0 {
			any = true
		}
	}
	if !any {
		return b.String()
	}
	fmt.Fprintln(&b, "\n<details><summary>Commits whose verdict changed</summary>")
	fmt.Fprintln(&b, "\n| Job | Commit | Old | New | Why |")
	fmt.Fprintln(&b, "|---|---|---|---|---|")
	for _, j := range r.Jobs {
		for _, c := range j.Changed {
			fmt.Fprintf(&b, "| %s | %s %s | %s | %s | %s |\n", safetext.CodeCell(j.Job), safetext.CodeCell(short(c.Commit)), safetext.Markdown(c.Subject), c.Old, c.New, safetext.Markdown(c.Why))
		}
	}
	fmt.Fprintln(&b, "\n</details>")
	return b.String()
}
