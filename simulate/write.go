package simulate

import (
	"fmt"
	"io"
	"sort"

	"github.com/cicheck/cicheck/internal/jsonw"

	"github.com/cicheck/cicheck/finding"
	"github.com/cicheck/cicheck/internal/safetext"
	"github.com/cicheck/cicheck/workflowgraph"
)

// Doc is the JSON schema of `cicheck simulate --format json` (version 1).
type Doc struct {
	Version int      `json:"version"`
	Jobs    []DocJob `json:"jobs"`
	// Refused lists why GitHub refuses the file; Jobs is then empty.
	Refused []DocRefusal `json:"refused,omitempty"`
}

// DocJob is one job's verdict, result and reason.
type DocJob struct {
	ID      string   `json:"id"`
	Verdict string   `json:"verdict"`
	Result  string   `json:"result"`
	Reason  string   `json:"reason"`
	Legs    []DocLeg `json:"legs,omitempty"`
	// Called lists the called workflow's jobs when the scenario names one.
	Called []DocJob `json:"called,omitempty"`
}

// DocLeg is one matrix leg of a job whose legs the scenario names.
type DocLeg struct {
	Leg    string `json:"leg"`
	Result string `json:"result"`
	Reason string `json:"reason"`
}

// DocRefusal is one reason GitHub refuses the file.
type DocRefusal struct {
	Job    string `json:"job"`
	Line   int    `json:"line"`
	Column int    `json:"column"`
	Reason string `json:"reason"`
}

// RefusedWith is Refused with the file's syntax findings (actionlint's
// parse errors: unknown or misplaced keys, wrong types), in file order:
// GitHub refuses the file for those too.
func (s *Sim) RefusedWith(parse []finding.Finding) []workflowgraph.Refusal {
	refused := s.Refused()
	for _, f := range parse {
		refused = append(refused, workflowgraph.Refusal{Line: f.Line, Column: f.Column, Reason: f.Message})
	}
	sort.SliceStable(refused, func(a, b int) bool {
		if refused[a].Line != refused[b].Line {
			return refused[a].Line < refused[b].Line
		}
		return refused[a].Column < refused[b].Column
	})
	return refused
}

// WriteRefused reports a file GitHub refuses: no job runs.
func WriteRefused(w io.Writer, format, file string, refused []workflowgraph.Refusal) error {
	if format == "json" {
		doc := Doc{Version: 1, Jobs: []DocJob{}}
		for _, r := range refused {
			doc.Refused = append(doc.Refused, DocRefusal{Job: r.Job, Line: r.Line, Column: r.Column, Reason: r.Reason})
		}
		return writeJSON(w, doc)
	}
	b := fmt.Appendf(nil, "%s: workflow invalid: GitHub refuses the file, so no job runs\n", file)
	for _, r := range refused {
		b = fmt.Appendf(b, "%s:%d:%d: %s\n", file, r.Line, r.Column, r.Reason)
	}
	_, err := io.WriteString(w, safetext.Output(string(b)))
	return err
}

// WriteVerdicts writes a run's verdicts: one line per job (legs and called
// jobs indented below it), or versioned JSON.
func WriteVerdicts(w io.Writer, format string, vs []Verdict) error {
	if format == "json" {
		doc := Doc{Version: 1, Jobs: make([]DocJob, len(vs))}
		for i, v := range vs {
			doc.Jobs[i] = DocJob{ID: v.ID, Verdict: string(v.Verdict), Result: string(v.Result), Reason: v.Reason}
			for _, l := range v.Legs {
				doc.Jobs[i].Legs = append(doc.Jobs[i].Legs, DocLeg{Leg: l.Leg, Result: string(l.Result), Reason: l.Reason})
			}
			for _, c := range v.Called {
				doc.Jobs[i].Called = append(doc.Jobs[i].Called, DocJob{ID: c.ID, Verdict: string(c.Verdict), Result: string(c.Result), Reason: c.Reason})
			}
		}
		return writeJSON(w, doc)
	}
	width := 0
	for _, v := range vs {
		width = max(width, len(v.ID))
	}
	var b []byte
	for _, v := range vs {
		b = fmt.Appendf(b, "%-*s  %s: %s\n", width, v.ID, v.Verdict, v.Reason)
		for _, c := range v.Called {
			b = fmt.Appendf(b, "%-*s    %s/%s  %s: %s\n", width, "", v.ID, c.ID, c.Verdict, c.Reason)
		}
		for _, l := range v.Legs {
			b = fmt.Appendf(b, "%-*s    [%s] %s", width, "", l.Leg, l.Result)
			if l.Reason != "" {
				b = fmt.Appendf(b, ": %s", l.Reason)
			}
			b = append(b, '\n')
		}
	}
	_, err := io.WriteString(w, safetext.Output(string(b)))
	return err
}

func writeJSON(w io.Writer, v any) error {
	return jsonw.Write(w, v)
}
