package scope

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/cicheck/cicheck/internal/safetext"
)

// The text formats pass everything that came from a comment, a PR body or
// a status (targets, reasons quoting them, notes) through safetext.Line:
// a rejected target is echoed, and it must not reach a terminal or a CI
// log as an escape sequence or a line of its own.

func outcomeWord(accepted bool) string {
	if accepted {
		return "accepted"
	}
	return "rejected"
}

func reasonMessages(rs []Reason) []string {
	out := make([]string, 0, len(rs))
	for _, r := range rs {
		out = append(out, r.Message)
	}
	return out
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// WriteResult writes a check's outcome, targets and reasons as text or
// versioned JSON.
func WriteResult(w io.Writer, format string, res Result) error {
	if format == "json" {
		return writeJSON(w, struct {
			Version int      `json:"version"`
			Outcome string   `json:"outcome"`
			Targets []string `json:"targets"`
			Reasons []string `json:"reasons"`
		}{1, outcomeWord(res.Accepted()), nonNil(res.Targets), reasonMessages(res.Reasons)})
	}
	fmt.Fprintln(w, outcomeWord(res.Accepted()))
	for _, t := range res.Targets {
		fmt.Fprintf(w, "target: %s\n", safetext.Line(t))
	}
	for _, r := range res.Reasons {
		fmt.Fprintf(w, "reason: %s\n", safetext.Line(r.Message))
	}
	return nil
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// describe shows a blank description visibly; "(empty)" cannot be a
// target, the charset has no parentheses.
func describe(d string) string {
	if d == "" {
		return "(empty)"
	}
	return d
}

// WritePlan writes the commit statuses that publish a scope, and its
// fingerprint.
func WritePlan(w io.Writer, format string, plan []Status, fp string) error {
	if format == "json" {
		return writeJSON(w, struct {
			Version     int      `json:"version"`
			Statuses    []Status `json:"statuses"`
			Fingerprint string   `json:"fingerprint"`
		}{1, plan, fp})
	}
	for _, st := range plan {
		fmt.Fprintf(w, "%s: %s\n", safetext.Line(st.Context), safetext.Line(describe(st.Description)))
	}
	fmt.Fprintf(w, "fingerprint: %s\n", fp)
	return nil
}

// WriteReassembly writes what scope join reassembled from the statuses.
func WriteReassembly(w io.Writer, format string, r Reassembly) error {
	if format == "json" {
		type jf struct {
			Rule     string `json:"rule"`
			Severity string `json:"severity"`
			Message  string `json:"message"`
		}
		fs := make([]jf, 0, len(r.Findings))
		for _, x := range r.Findings {
			fs = append(fs, jf{x.Rule, x.Severity.String(), x.Message})
		}
		return writeJSON(w, struct {
			Version     int      `json:"version"`
			Outcome     string   `json:"outcome"`
			Scope       string   `json:"scope"`
			Targets     []string `json:"targets"`
			Fingerprint string   `json:"fingerprint"`
			Previous    int      `json:"previous"`
			Findings    []jf     `json:"findings"`
		}{1, outcomeWord(r.Accepted()), r.Scope, nonNil(r.Targets), r.Fingerprint, r.Previous, fs})
	}
	{
		fmt.Fprintln(w, outcomeWord(r.Accepted()))
		if r.Scope == "" {
			fmt.Fprintln(w, "scope: (full suite)")
		} else {
			fmt.Fprintf(w, "scope: %s\n", safetext.Line(r.Scope))
		}
		fmt.Fprintf(w, "fingerprint: %s\n", r.Fingerprint)
		fmt.Fprintf(w, "previous: %d\n", r.Previous)
		for _, x := range r.Findings {
			fmt.Fprintf(w, "%s: %s [%s]\n", x.Severity, safetext.Line(x.Message), x.Rule)
		}
	}
	return nil
}

// WriteCommand writes how a PR comment was classified.
func WriteCommand(w io.Writer, format string, cmd Command) error {
	if format == "json" {
		return writeJSON(w, struct {
			Version int      `json:"version"`
			Outcome string   `json:"outcome"`
			Command string   `json:"command"`
			Targets []string `json:"targets"`
			Reason  string   `json:"reason"`
		}{1, string(cmd.Outcome), cmd.Name, nonNil(cmd.Targets), cmd.Reason})
	}
	{
		fmt.Fprintln(w, cmd.Outcome)
		if cmd.Name != "" {
			fmt.Fprintf(w, "command: %s\n", cmd.Name)
		}
		if cmd.Line > 0 {
			fmt.Fprintf(w, "line: %d\n", cmd.Line)
		}
		for _, t := range cmd.Targets {
			fmt.Fprintf(w, "target: %s\n", safetext.Line(t))
		}
		fmt.Fprintf(w, "reason: %s\n", safetext.Line(cmd.Reason))
		for _, n := range cmd.Notes {
			fmt.Fprintf(w, "note: %s\n", safetext.Line(n))
		}
	}
	return nil
}
