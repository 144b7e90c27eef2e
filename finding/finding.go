// Package finding holds the one result type every cicheck engine produces:
// a positioned, rule-tagged message with an optional suggested fix.
//
// Findings from actionlint, from cicheck's own workflow rules and from the
// test-registry scanner are all converted into this type at their boundary,
// so reporters and baselines never need to know where a finding came from.
package finding

import (
	"cmp"
	"fmt"
	"slices"
)

// Severity orders findings for --fail-on; higher is worse.
type Severity int

const (
	Notice Severity = iota + 1
	Warning
	Error
)

// String returns the lower-case name used in every output format.
func (s Severity) String() string {
	switch s {
	case Notice:
		return "notice"
	case Warning:
		return "warning"
	case Error:
		return "error"
	}
	return fmt.Sprintf("severity(%d)", int(s))
}

// ParseSeverity accepts the names printed by String.
func ParseSeverity(s string) (Severity, error) {
	switch s {
	case "notice":
		return Notice, nil
	case "warning":
		return Warning, nil
	case "error":
		return Error, nil
	}
	return 0, fmt.Errorf("unknown severity %q (valid: error, warning, notice)", s)
}

// MarshalText makes a Severity encode as its name in JSON and YAML.
func (s Severity) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// UnmarshalText is the inverse of MarshalText.
func (s *Severity) UnmarshalText(b []byte) error {
	v, err := ParseSeverity(string(b))
	if err != nil {
		return err
	}
	*s = v
	return nil
}

// Finding is one problem at one place. Line and Column are 1-based; zero
// means unknown (a whole-file finding). The JSON field names are part of the
// documented output schema (version 1) and must not change.
type Finding struct {
	Rule     string   `json:"rule"`
	Severity Severity `json:"severity"`
	File     string   `json:"file"`
	Line     int      `json:"line"`
	Column   int      `json:"column"`
	Message  string   `json:"message"`
	Job      string   `json:"job"`
	Fix      string   `json:"fix"`
	// Edit is Fix as an edit that keeps the author's text, for the rules
	// whose fix --fix applies; the zero value when there is none.
	Edit CondEdit `json:"-"`
	// IDs lists, one per line, the job ids of the finding's workflow that
	// are not lower-case (usually none). Messages and Job show ids as
	// written, but cicheck once showed them lower-cased, and GitHub matches
	// them case-insensitively: report.Fingerprint folds these, so baselines
	// and SARIF alerts keep their identity. A string keeps Finding
	// comparable.
	IDs string `json:"-"`
}

// CondEdit is a fix of a job's if: that keeps the author's condition
// character for character: Terms, joined with " && ", go before it (a
// job without an if: gets them as its whole condition), and with Cancel
// each always() call in it becomes !cancelled().
type CondEdit struct {
	Terms  string
	Cancel bool
}

// IsZero reports no edit.
func (e CondEdit) IsZero() bool { return e == CondEdit{} }

// Compare orders findings by (file, line, column, rule, message), then by the
// remaining fields so that the order is total and output is deterministic.
func Compare(a, b Finding) int {
	return cmp.Or(
		cmp.Compare(a.File, b.File),
		cmp.Compare(a.Line, b.Line),
		cmp.Compare(a.Column, b.Column),
		cmp.Compare(a.Rule, b.Rule),
		cmp.Compare(a.Message, b.Message),
		cmp.Compare(a.Severity, b.Severity),
		cmp.Compare(a.Job, b.Job),
		cmp.Compare(a.Fix, b.Fix),
		cmp.Compare(a.Edit.Terms, b.Edit.Terms),
		cmp.Compare(boolInt(a.Edit.Cancel), boolInt(b.Edit.Cancel)),
	)
}

// Sort sorts findings in place with Compare and drops exact duplicates,
// which arise when two workflows share a local action.
func Sort(fs []Finding) []Finding {
	slices.SortFunc(fs, Compare)
	return slices.Compact(fs)
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
