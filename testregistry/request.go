package testregistry

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/cicheck/cicheck/finding"
)

// SelectRequest is a selection as 'registry select' states it.
type SelectRequest struct {
	Cadence   string // "": regular
	Nightly   bool   // shorthand for Cadence nightly
	Labels    []string
	MatchAll  bool
	HW, Suite string // one backend's suite, or every suite when both are ""
	Partition string // "I/N": partition I of N (LPT over est_time)
}

// UsageError is a request the command line got wrong.
type UsageError struct{ msg string }

func (e *UsageError) Error() string { return e.msg }

func usagef(format string, a ...any) error { return &UsageError{fmt.Sprintf(format, a...)} }

// Check normalises q's cadence and reads its partition, without a
// registry: what can be wrong with the request alone.
func (q *SelectRequest) Check() (partID, partSize *int, err error) {
	if q.Nightly && q.Cadence != "" {
		return nil, nil, usagef("--nightly and --cadence are mutually exclusive")
	}
	if q.Nightly {
		q.Cadence, q.Nightly = "nightly", false
	}
	if q.Cadence == "" {
		q.Cadence = "regular"
	}
	if (q.HW == "") != (q.Suite == "") {
		return nil, nil, usagef("--hw and --suite must be given together")
	}
	if q.Partition != "" {
		i, n, ok := strings.Cut(q.Partition, "/")
		a, err1 := strconv.Atoi(i)
		b, err2 := strconv.Atoi(n)
		if !ok || err1 != nil || err2 != nil {
			return nil, nil, usagef("invalid --partition %q (want I/N, e.g. 0/4)", q.Partition)
		}
		partID, partSize = &a, &b
		if q.HW == "" {
			return nil, nil, usagef("--partition needs --hw and --suite")
		}
	}
	if err := PartitionArgs(partID, partSize); err != nil {
		return nil, nil, &UsageError{err.Error()}
	}
	return partID, partSize, nil
}

// SelectFor resolves q's policy (with its warnings) and selects its tests
// from r, a registry without errors, as configured by cfg.
func (r *Registry) SelectFor(q SelectRequest, cfg Config) (RunPolicy, []PolicyWarning, Selection, error) {
	partID, partSize, err := q.Check()
	if err != nil {
		return RunPolicy{}, nil, Selection{}, err
	}
	p, warns, err := ResolvePolicy(q.Cadence, q.Labels, r.Known, cfg.Policy)
	if err != nil {
		return p, warns, Selection{}, err
	}
	if q.HW != "" && !slices.Contains(r.Backends(cfg), q.HW) {
		// Otherwise "Unknown suite S for backend CUDA" blames the suite
		// when the backend is what is wrong (backends are lower-case).
		return p, warns, Selection{}, usagef("unknown backend %q for --hw (valid: %s)", q.HW, strings.Join(r.Backends(cfg), ", "))
	}
	sel, err := r.Select(p, q.HW, q.Suite, q.MatchAll)
	if err == nil && partID != nil {
		sel.Enabled = Shard(sel.Enabled, *partID, *partSize)
	}
	return p, warns, sel, err
}

// ErrorFindings are r's findings of severity error: a registry with any
// breaks CI collection, so selection refuses it, as the reference does.
func (r *Registry) ErrorFindings() []string {
	var out []string
	for _, f := range r.Findings {
		if f.Severity == finding.Error {
			out = append(out, fmt.Sprintf("%s:%d:%d: %s [%s]", f.File, f.Line, f.Column, f.Message, f.Rule))
		}
	}
	return out
}

// WriteWorkflowPolicy prints wp as ci_policy.py does: GITHUB_OUTPUT lines
// on out, warnings and the resolved policy on log.
func WriteWorkflowPolicy(out, log io.Writer, wp WorkflowPolicy) error {
	for _, w := range wp.PolicyWarnings {
		fmt.Fprintf(log, "warning: %s\n", w.Message)
	}
	if wp.DiffUnusable {
		fmt.Fprintln(log, "Changed-file diff is unavailable or empty; GPU stage pruning is disabled.")
	}
	p, raw := wp.Policy, strings.Join(wp.RawLabels, " ")
	sj, err := json.Marshal(wp.SkippedStages)
	if err != nil {
		return err
	}
	fmt.Fprintf(log, "Resolved CI policy: cadence=%s labels=[%s] bypass_fastfail=%t skipped_stages=%s\n", p.Cadence, raw, p.BypassFastfail, sj)
	_, err = fmt.Fprintf(out, "cadence=%s\nraw_labels=%s\nbypass_fastfail=%t\nskipped_stages=%s\n", p.Cadence, raw, p.BypassFastfail, sj)
	return err
}
