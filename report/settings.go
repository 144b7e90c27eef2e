package report

import (
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/cicheck/cicheck/finding"
)

// Settings are a report's choices as a command line states them: the
// format, the lowest severity that fails the run ("never": none) and the
// colour mode (auto, always, never).
type Settings struct {
	Format, FailOn, Color string
}

// Reporter writes findings as Settings ask.
type Reporter struct {
	format    string
	threshold finding.Severity // 0: nothing fails the run
	color     bool
	failures  []string
}

// Failed records errors that fail the run although findings are still
// reported (a path that does not exist beside ones that do): the SARIF
// log's invocation says the run was unsuccessful and lists them.
func (r *Reporter) Failed(msgs ...string) { r.failures = append(r.failures, msgs...) }

// NewReporter checks s. Colour "auto" colours only a terminal out, and
// NO_COLOR (any non-empty value, read with getenv) turns it off.
func NewReporter(s Settings, out io.Writer, getenv func(string) string) (*Reporter, error) {
	r := &Reporter{format: s.Format}
	if s.FailOn != "never" {
		sev, err := finding.ParseSeverity(s.FailOn)
		if err != nil {
			return nil, fmt.Errorf("invalid --fail-on %q (valid: error, warning, notice, never)", s.FailOn)
		}
		r.threshold = sev
	}
	if !slices.Contains(Formats(), s.Format) {
		return nil, fmt.Errorf("invalid --format %q (valid: %s)", s.Format, strings.Join(Formats(), ", "))
	}
	switch s.Color {
	case "always":
		r.color = true
	case "never":
	case "auto":
		if f, ok := out.(*os.File); ok && getenv("NO_COLOR") == "" {
			st, err := f.Stat()
			r.color = err == nil && st.Mode()&os.ModeCharDevice != 0
		}
	default:
		return nil, fmt.Errorf("invalid --color %q (valid: auto, always, never)", s.Color)
	}
	return r, nil
}

// Format is the output format.
func (r *Reporter) Format() string { return r.format }

// Write reports fs on w and says whether one of them is at or above the
// failure threshold. rules is called only for SARIF, the one format that
// carries rule metadata: building it reads every rule's documentation.
func (r *Reporter) Write(w io.Writer, fs []finding.Finding, sources map[string][]byte, version string, rules func() []RuleInfo) (failed bool, err error) {
	opts := Options{Color: r.color, Sources: sources, ToolName: "cicheck"}
	if r.format == "sarif" {
		opts.Rules, opts.ToolVersion, opts.Failures = rules(), version, r.failures
	}
	if err := Write(w, r.format, fs, opts); err != nil {
		return false, fmt.Errorf("writing the report: %w", err)
	}
	for _, f := range fs {
		if r.threshold > 0 && f.Severity >= r.threshold {
			return true, nil
		}
	}
	return false, nil
}

// WriteFailed reports a run that failed with err, in the formats that
// carry a run's status: SARIF writes a valid log whose invocation is
// unsuccessful, err its notification, so an upload step after the failed
// run never reads it as a clean run. The other formats write nothing (the
// CLI prints err on stderr).
func (r *Reporter) WriteFailed(w io.Writer, err error, version string, rules func() []RuleInfo) error {
	if r.format != "sarif" {
		return nil
	}
	return Write(w, "sarif", nil, Options{ToolName: "cicheck", ToolVersion: version, Rules: rules(), Failures: []string{err.Error()}})
}
