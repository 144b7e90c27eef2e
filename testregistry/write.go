package testregistry

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/cicheck/cicheck/internal/jsonw"

	"github.com/cicheck/cicheck/internal/safetext"
)

type selectedJSON struct {
	File    string `json:"file"`
	Suite   string `json:"suite"`
	Backend string `json:"backend"`
}

type skippedJSON struct {
	File    string `json:"file"`
	Suite   string `json:"suite"`
	Backend string `json:"backend"`
	Reason  string `json:"reason"`
}

func writeJSON(w io.Writer, v any) error {
	return jsonw.Write(w, v)
}

// WriteSelection writes a run's policy and the tests it selects (text, or
// versioned JSON). suiteGiven says one backend and suite were asked for: an
// empty answer is then the reference's "No tests to run".
func WriteSelection(w io.Writer, format string, p RunPolicy, sel Selection, suiteGiven bool) error {
	if format == "json" {
		out := struct {
			Version         int            `json:"version"`
			Policy          RunPolicy      `json:"policy"`
			Selected        []selectedJSON `json:"selected"`
			SkippedDisabled []skippedJSON  `json:"skipped_disabled"`
		}{Version: 1, Policy: p, Selected: []selectedJSON{}, SkippedDisabled: []skippedJSON{}}
		if out.Policy.IncludeLabels == nil {
			out.Policy.IncludeLabels = []string{}
		}
		for _, s := range sel.Enabled {
			out.Selected = append(out.Selected, selectedJSON{s.File, s.Suite, s.Backend})
		}
		for _, s := range sel.Skipped {
			out.SkippedDisabled = append(out.SkippedDisabled, skippedJSON{s.File, s.Suite, s.Backend, s.Reason})
		}
		return writeJSON(w, out)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "policy: cadence=%s include_labels=[%s] admit_nightly_tests=%t bypass_fastfail=%t write_baseline=%t\n",
		p.Cadence, strings.Join(p.IncludeLabels, ", "), p.AdmitNightlyTests, p.BypassFastfail, p.WriteBaseline)
	if suiteGiven && len(sel.Enabled) == 0 && len(sel.Skipped) == 0 {
		b.WriteString("No tests to run. Exiting with success.\n")
	} else {
		writeSelected(&b, fmt.Sprintf("selected (%d):", len(sel.Enabled)), sel.Enabled, false)
		writeSelected(&b, fmt.Sprintf("skipped, disabled (%d):", len(sel.Skipped)), sel.Skipped, true)
	}
	_, err := io.WriteString(w, safetext.Output(b.String()))
	return err
}

func writeSelected(b *strings.Builder, title string, list []Selected, reason bool) {
	b.WriteString(title + "\n")
	width := 0
	for _, s := range list {
		width = max(width, len(s.Suite))
	}
	for _, s := range list {
		fmt.Fprintf(b, "  %-4s  %-*s  %s", s.Backend, width, s.Suite, s.File)
		if reason {
			b.WriteString(": " + s.Reason)
		}
		b.WriteString("\n")
	}
}

// WriteFilePlan writes a /rerun-test plan.
func WriteFilePlan(w io.Writer, format string, plan FilePlan) error {
	if plan.RunsOn == nil {
		plan.RunsOn = []string{}
	}
	if format == "json" {
		return writeJSON(w, struct {
			Version int `json:"version"`
			FilePlan
		}{1, plan})
	}
	runsOn, _ := json.Marshal(plan.RunsOn)
	_, err := io.WriteString(w, safetext.Output(fmt.Sprintf("file: %s\nbackend: %s\nsuite: %s\nruns-on: %s\nimage: %s\ntimeout-seconds: %d\n",
		plan.File, plan.Backend, plan.Suite, runsOn, plan.Image, plan.TimeoutSeconds)))
	return err
}

// WriteLabelUses writes, for each known label, the tests its label adds.
func WriteLabelUses(w io.Writer, format string, uses []LabelUse, cfg Config) error {
	if format == "json" {
		type testJSON struct {
			skippedJSON
			Nightly      bool `json:"nightly"`       // added only on cadences admitting nightly tests
			UnknownSuite bool `json:"unknown_suite"` // never selected
		}
		type labelJSON struct {
			Label string     `json:"label"`
			Tests []testJSON `json:"tests"`
		}
		out := struct {
			Version int         `json:"version"`
			Labels  []labelJSON `json:"labels"`
		}{Version: 1, Labels: []labelJSON{}}
		for _, u := range uses {
			l := labelJSON{Label: cfg.Policy.LabelPrefix + u.Label, Tests: []testJSON{}}
			for _, s := range u.Tests {
				l.Tests = append(l.Tests, testJSON{skippedJSON{s.File, s.Suite, s.Backend, s.Reason}, s.Nightly, s.UnknownSuite})
			}
			out.Labels = append(out.Labels, l)
		}
		return writeJSON(w, out)
	}
	var b strings.Builder
	for _, u := range uses {
		fmt.Fprintf(&b, "%s%s (%d):\n", cfg.Policy.LabelPrefix, u.Label, len(u.Tests))
		width := 0
		for _, s := range u.Tests {
			width = max(width, len(s.Suite))
		}
		for _, s := range u.Tests {
			fmt.Fprintf(&b, "  %-4s  %-*s  %s", s.Backend, width, s.Suite, s.File)
			if s.Disabled {
				b.WriteString(" (disabled: " + s.Reason + ")")
			}
			if s.Nightly {
				b.WriteString(" (nightly=True: only on cadences that admit nightly tests)")
			}
			if s.UnknownSuite {
				b.WriteString(" (suite not in " + cfg.Suites.Symbol + ": never selected)")
			}
			b.WriteString("\n")
		}
	}
	_, err := io.WriteString(w, safetext.Output(b.String()))
	return err
}

// Backends lists the backends the markers and the suite table name,
// sorted.
func (r *Registry) Backends(cfg Config) []string {
	var out []string
	for _, m := range cfg.Markers {
		out = append(out, m.Backend)
	}
	for b := range r.Suites {
		out = append(out, b)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// WriteRun writes what a run_suite.py run executes (text, or versioned
// JSON): the request, the units in run order (a bundle with its members)
// and the selected registrations that are disabled.
func WriteRun(w io.Writer, format string, run Run) error {
	q := run.Request
	type partJSON struct {
		ID   int `json:"id"`
		Size int `json:"size"`
	}
	type skipJSON struct {
		File   string `json:"file"`
		Reason string `json:"reason"`
	}
	var part *partJSON
	if q.PartSize != nil {
		part = &partJSON{*q.PartID, *q.PartSize}
	}
	units := run.Units
	if units == nil {
		units = []Unit{}
	}
	skipped := []skipJSON{}
	for _, g := range run.Skipped {
		skipped = append(skipped, skipJSON{g.File, *g.Disabled})
	}
	if format == "json" {
		out := struct {
			Version      int        `json:"version"`
			HW           string     `json:"hw"`
			Suite        string     `json:"suite"`
			Nightly      bool       `json:"nightly"`
			Partition    *partJSON  `json:"partition"`
			UnknownSuite bool       `json:"unknown_suite"`
			LiveEntries  int        `json:"live_entries"`
			Units        []Unit     `json:"units"`
			Skipped      []skipJSON `json:"skipped_disabled"`
		}{1, q.HW, q.Suite, q.Nightly, part, run.UnknownSuite, run.LiveEntries, units, skipped}
		return writeJSON(w, out)
	}
	var b strings.Builder
	partition := "full"
	if part != nil {
		partition = fmt.Sprintf("%d/%d (0-based id=%d)", part.ID+1, part.Size, part.ID)
	}
	fmt.Fprintf(&b, "run: hw=%s suite=%s nightly=%t partition=%s\n", q.HW, q.Suite, q.Nightly, partition)
	if part != nil {
		if run.LiveEntries >= 0 {
			fmt.Fprintf(&b, "estimates: %d live entries from %s\n", run.LiveEntries, q.ModelFile)
		} else {
			b.WriteString("estimates: in-source est_time\n")
		}
	}
	if len(skipped) > 0 {
		fmt.Fprintf(&b, "skipped, disabled (%d):\n", len(skipped))
		for _, s := range skipped {
			fmt.Fprintf(&b, "  %s: %s\n", s.File, s.Reason)
		}
	}
	if len(units) == 0 {
		b.WriteString("No tests found; run_suite.py skips the run and passes.\n")
	} else {
		total := 0.0
		for _, u := range units {
			total += u.EstTime
		}
		fmt.Fprintf(&b, "runs (%d, est total %.1fs):\n", len(units), total)
		for _, u := range units {
			if u.Group == "" {
				fmt.Fprintf(&b, "  %s  (est %s)\n", u.File, fmtEst(u.EstTime))
				continue
			}
			fmt.Fprintf(&b, "  group:%s  (est %s, %d files in one interpreter)\n", u.Group, fmtEst(u.EstTime), len(u.Members))
			for _, m := range u.Members {
				fmt.Fprintf(&b, "    %s\n", m)
			}
		}
	}
	_, err := io.WriteString(w, safetext.Output(b.String()))
	return err
}

// fmtEst prints seconds as Python's repr of a float does for the values
// est_time takes (120.0, 12.5).
func fmtEst(f float64) string {
	s := strconv.FormatFloat(f, 'g', -1, 64)
	if !strings.ContainsAny(s, ".eIN") {
		s += ".0"
	}
	return s
}
