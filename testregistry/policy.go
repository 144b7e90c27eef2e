package testregistry

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"regexp"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/cicheck/cicheck/finding"
)

// Cadences in the order the reference prints them.
func Cadences() []string { return []string{"nightly", "regular", "release", "weekly"} }

// RunPolicy is the resolved CI label policy (spec §8).
type RunPolicy struct {
	Cadence           string   `json:"cadence"`
	IncludeLabels     []string `json:"include_labels"` // sorted
	AdmitNightlyTests bool     `json:"admit_nightly_tests"`
	BypassFastfail    bool     `json:"bypass_fastfail"`
	WriteBaseline     bool     `json:"write_baseline"`
}

// Includes reports whether label l is in the include set.
func (p RunPolicy) Includes(l string) bool {
	_, ok := slices.BinarySearch(p.IncludeLabels, l)
	return ok
}

// PolicyWarning is a non-fatal remark of ResolvePolicy; Rule is empty for
// the reference's own warning and RuleUnknownRequest for cicheck's extra.
type PolicyWarning struct {
	Rule    string
	Message string
}

// ResolvePolicy maps a cadence and raw workflow labels to a RunPolicy
// (spec §8). known is KNOWN_LABELS.
func ResolvePolicy(cadence string, raw, known []string, pc Policy) (RunPolicy, []PolicyWarning, error) {
	if !slices.Contains(Cadences(), cadence) {
		return RunPolicy{}, nil, fmt.Errorf("Unknown CI cadence %s; expected one of %s", pyRepr(cadence), pyList(Cadences())) //nolint:staticcheck // reference wording
	}
	has := func(l string) bool { return slices.Contains(raw, l) }
	if has("nightly") && cadence != "nightly" {
		return RunPolicy{}, nil, errors.New("The nightly workflow label requires cadence='nightly'") //nolint:staticcheck // reference wording
	}
	all := map[string]bool{}
	for _, k := range known {
		all[k] = true
	}
	prefix := pc.LabelPrefix
	var warns []PolicyWarning
	requested := map[string]bool{}
	for _, r := range raw {
		switch {
		case r == "" || r == "nightly" || r == "bypass-fastfail":
		case strings.HasPrefix(r, prefix):
			x := r[len(prefix):]
			if all[x] {
				requested[x] = true
			} else if x != "all" && x != "image" {
				warns = append(warns, PolicyWarning{RuleUnknownRequest,
					fmt.Sprintf("%s requests label %s, which is not in KNOWN_LABELS; it selects nothing", pyRepr(r), pyRepr(x))})
			}
		default:
			warns = append(warns, PolicyWarning{"", fmt.Sprintf("--labels entry %s is missing the expected %s prefix; ignoring. Domain labels must be raw `%s<X>` strings.", pyRepr(r), pyRepr(prefix), prefix)})
		}
	}
	scope := map[string]bool{}
	minus := func(sub []string) {
		for k := range all {
			if !slices.Contains(sub, k) {
				scope[k] = true
			}
		}
	}
	switch {
	case has(prefix+"all") || cadence == "weekly" || cadence == "release":
		minus(nil)
	case cadence == "nightly":
		minus(pc.NightlySubtract)
	case has(prefix + "image"):
		minus(pc.ImageSubtract)
	}
	for k := range requested {
		scope[k] = true
	}
	p := RunPolicy{Cadence: cadence, IncludeLabels: sortedKeys(scope)}
	switch cadence {
	case "regular":
		p.BypassFastfail = has("bypass-fastfail")
	case "nightly", "weekly":
		p.AdmitNightlyTests, p.BypassFastfail, p.WriteBaseline = true, true, true
	case "release":
		p.AdmitNightlyTests, p.BypassFastfail = true, true
	}
	return p, warns, nil
}

// WorkflowInputs are the environment of the policy job (spec §9).
type WorkflowInputs struct {
	EventName       string // EVENT_NAME
	Schedule        string // SCHEDULE
	PRLabelsJSON    string // PR_LABELS_JSON
	CadenceOverride string // CADENCE_OVERRIDE
}

var prLabelRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^run-ci-[A-Za-z0-9][A-Za-z0-9_.-]*$`) })

// ResolveWorkflowInputs adapts workflow inputs to a cadence and raw labels
// (spec §9); the caller then runs ResolvePolicy.
func ResolveWorkflowInputs(in WorkflowInputs, pc Policy) (cadence string, raw []string, err error) {
	raw = []string{}
	switch {
	case in.CadenceOverride != "":
		return in.CadenceOverride, raw, nil
	case in.EventName == "pull_request":
		// Decoded into any, not []any: json.Unmarshal maps "null" to a nil
		// slice without error, while the reference rejects anything but a
		// list.
		var v any
		if err := json.Unmarshal([]byte(in.PRLabelsJSON), &v); err != nil {
			return "", nil, errors.New("PR labels were not a JSON string array")
		}
		labels, ok := v.([]any)
		if !ok {
			return "", nil, errors.New("PR labels were not a JSON string array")
		}
		re := prLabelRe()
		if pc.LabelPrefix != "run-ci-" {
			re = regexp.MustCompile(`^` + regexp.QuoteMeta(pc.LabelPrefix) + `[A-Za-z0-9][A-Za-z0-9_.-]*$`)
		}
		for _, l := range labels {
			s, ok := l.(string)
			if !ok {
				return "", nil, errors.New("PR labels were not a JSON string array")
			}
			if s == "nightly" || s == "bypass-fastfail" || re.MatchString(s) {
				raw = append(raw, s)
			}
		}
		if slices.Contains(raw, "nightly") {
			return "nightly", raw, nil
		}
		return "regular", raw, nil
	case in.EventName == "schedule":
		switch in.Schedule {
		case pc.NightlyCron:
			return "nightly", raw, nil
		case pc.WeeklyCron:
			return "weekly", raw, nil
		}
		return "", nil, fmt.Errorf("No CI policy is defined for schedule: %s", in.Schedule) //nolint:staticcheck // reference wording
	case in.EventName == "workflow_dispatch":
		return "regular", raw, nil
	}
	return "", nil, fmt.Errorf("Unsupported PR Test trigger: %s", in.EventName) //nolint:staticcheck // reference wording
}

var backendNames = map[string]string{"cpu": "CPU", "cuda": "CUDA", "rocm": "ROCM", "amd": "AMD", "npu": "NPU", "xpu": "XPU", "musa": "MUSA", "mlx": "MLX"}

// Selected is one registration picked for a (backend, suite) run.
type Selected struct {
	File    string `json:"file"`
	Suite   string `json:"suite"`
	Backend string `json:"backend"`
	Reason  string `json:"reason,omitempty"` // disabled reason, for skipped tests
	// Disabled is set for disabled registrations (Reason may be "").
	Disabled bool    `json:"-"`
	EstTime  float64 `json:"-"`
	// Nightly and UnknownSuite qualify an ExplainLabels entry: the label
	// adds the test only on cadences admitting nightly=True tests, or never
	// (a suite no backend lists is never selected).
	Nightly      bool `json:"-"`
	UnknownSuite bool `json:"-"`
}

// Selection is the result of Select.
type Selection struct {
	Enabled []Selected // these run
	Skipped []Selected // selected but disabled
}

// selects is the §10 predicate without the backend/suite match.
func selects(g *Registration, p RunPolicy, include func(string) bool) bool {
	if g.Nightly && !p.AdmitNightlyTests {
		return false
	}
	if len(g.Labels) == 0 {
		return true
	}
	for _, l := range g.Labels {
		if include(l) {
			return true
		}
	}
	return false
}

// Select picks the registrations of (hw, suite) under policy p (spec §10).
// With hw == "" and suite == "" it covers every configured suite. With
// matchAll every known label is included. Registrations on suites that no
// backend lists are never selected.
func (r *Registry) Select(p RunPolicy, hw, suite string, matchAll bool) (Selection, error) {
	type hs struct{ hw, suite string }
	var targets []hs
	if hw != "" || suite != "" {
		if r.Suites != nil && !slices.Contains(r.Suites[hw], suite) {
			name := backendNames[hw]
			if name == "" {
				name = strings.ToUpper(hw)
			}
			return Selection{}, fmt.Errorf("Unknown suite %s for backend %s", suite, name) //nolint:staticcheck // reference wording
		}
		targets = []hs{{hw, suite}}
	} else {
		for _, b := range sortedKeys(r.Suites) {
			for _, s := range r.Suites[b] {
				targets = append(targets, hs{b, s})
			}
		}
	}
	want := map[hs]bool{}
	for _, t := range targets {
		want[t] = true
	}
	include := p.Includes
	if matchAll {
		include = func(l string) bool { return slices.Contains(r.Known, l) || p.Includes(l) }
	}
	var sel Selection
	for i := range r.Registrations {
		g := &r.Registrations[i]
		if !want[hs{g.Backend, g.Suite}] || !selects(g, p, include) {
			continue
		}
		s := Selected{File: g.File, Suite: g.Suite, Backend: g.Backend, EstTime: g.EstTime}
		if g.Enabled() {
			sel.Enabled = append(sel.Enabled, s)
		} else {
			s.Reason, s.Disabled = *g.Disabled, true
			sel.Skipped = append(sel.Skipped, s)
		}
	}
	less := func(a, b Selected) int {
		return strings.Compare(a.File+"\x00"+a.Suite+"\x00"+a.Backend, b.File+"\x00"+b.Suite+"\x00"+b.Backend)
	}
	slices.SortStableFunc(sel.Enabled, less)
	slices.SortStableFunc(sel.Skipped, less)
	return sel, nil
}

// PartitionArgs validates --auto-partition-id/--auto-partition-size (nil
// means unset) with the reference's messages.
func PartitionArgs(id, size *int) error {
	if (id == nil) != (size == nil) {
		return errors.New("--auto-partition-id and --auto-partition-size must be specified together.") //nolint:staticcheck // reference wording
	}
	if size == nil {
		return nil
	}
	if *size <= 0 {
		return errors.New("--auto-partition-size must be positive.") //nolint:staticcheck // reference wording
	}
	if *id < 0 || *id >= *size {
		return fmt.Errorf("--auto-partition-id must be in range [0, %d), but got %d", *size, *id)
	}
	return nil
}

// Shard splits tests with the LPT rule: sort by (-est_time, file), give each
// test to the partition with the smallest running sum (lowest index on
// ties), and return partition id (empty when id >= size).
func Shard(tests []Selected, id, size int) []Selected {
	if size <= 0 || id < 0 || id >= size {
		return []Selected{}
	}
	sorted := slices.Clone(tests)
	slices.SortStableFunc(sorted, func(a, b Selected) int {
		switch {
		case a.EstTime > b.EstTime:
			return -1
		case a.EstTime < b.EstTime:
			return 1
		}
		return strings.Compare(a.File, b.File)
	})
	// Only the first len(tests) partitions can ever be used: est_time is
	// never negative, so an unused lower partition (sum 0) always wins the
	// tie. Allocating size of them let --partition 0/99999999999 exhaust
	// memory.
	bins := min(size, len(sorted))
	if id >= bins {
		return []Selected{}
	}
	sums := make([]float64, bins)
	parts := make([][]Selected, bins)
	for _, t := range sorted {
		best := 0
		for i := 1; i < bins; i++ {
			if sums[i] < sums[best] {
				best = i
			}
		}
		sums[best] += t.EstTime
		parts[best] = append(parts[best], t)
	}
	if parts[id] == nil {
		return []Selected{}
	}
	return parts[id]
}

// Change is one entry of `git diff --name-status -z -M`.
type Change struct {
	Status string
	Paths  []string // two for R and C
}

var statusRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(?:[ADMTUXB]|[RC][0-9]{1,3})$`) })

// ParseNameStatusZ parses NUL-separated name-status output. ok is false
// when the diff is unusable (empty, malformed, not UTF-8, or missing its
// trailing NUL): GPU-stage pruning is then disabled.
func ParseNameStatusZ(b []byte) (changes []Change, ok bool) {
	s := string(b)
	if s == "" || !strings.HasSuffix(s, "\x00") || !utf8.ValidString(s) {
		return nil, false
	}
	fields := strings.Split(strings.TrimSuffix(s, "\x00"), "\x00")
	for i := 0; i < len(fields); {
		st := fields[i]
		if !statusRe().MatchString(st) {
			return nil, false
		}
		n := 1
		if st[0] == 'R' || st[0] == 'C' {
			n = 2
		}
		if i+n >= len(fields) {
			return nil, false
		}
		paths := fields[i+1 : i+1+n]
		for _, p := range paths {
			if p == "" {
				return nil, false
			}
		}
		changes = append(changes, Change{Status: st, Paths: slices.Clone(paths)})
		i += 1 + n
	}
	return changes, len(changes) > 0
}

// SkippedStages computes the GPU stages a pull request may skip (spec §11).
// usable is false when the diff could not be used (no pruning).
func (r *Registry) SkippedStages(p RunPolicy, raw []string, changes []Change, usable bool) []string {
	pc := r.cfg.Policy
	if !usable {
		return []string{}
	}
	pr := map[string]bool{}
	for _, s := range pc.PRGPUStages {
		pr[s] = true
	}
	runnable := map[string]bool{}
	byFile := map[string][]string{}
	for i := range r.Registrations {
		g := &r.Registrations[i]
		if pr[g.Suite] {
			byFile[g.File] = append(byFile[g.File], g.Suite)
		} else if _, ok := byFile[g.File]; !ok {
			byFile[g.File] = nil
		}
		if g.Enabled() && pr[g.Suite] && r.suiteKnown(g) && selects(g, p, p.Includes) {
			runnable[g.Suite] = true
		}
	}
	affected := map[string]bool{}
	all := false
outer:
	for _, c := range changes {
		for _, path := range c.Paths {
			if suites, ok := byFile[path]; ok {
				for _, s := range suites {
					affected[s] = true
				}
				continue
			}
			if slices.Contains(pc.DocsPaths, path) || hasAnyPrefix(path, pc.DocsPrefixes) || hasAnySuffix(path, pc.DocsSuffixes) {
				continue
			}
			all = true
			break outer
		}
	}
	if all {
		for s := range pr {
			affected[s] = true
		}
	}
	explicit := map[string]bool{}
	if slices.Contains(raw, "nightly") || slices.Contains(raw, pc.LabelPrefix+"all") || slices.Contains(raw, pc.LabelPrefix+"image") {
		explicit = runnable
	} else {
		req := map[string]bool{}
		for _, l := range raw {
			if strings.HasPrefix(l, pc.LabelPrefix) {
				req[l[len(pc.LabelPrefix):]] = true
			}
		}
		for i := range r.Registrations {
			g := &r.Registrations[i]
			if !g.Enabled() || !pr[g.Suite] || g.Nightly && !p.AdmitNightlyTests {
				continue
			}
			for _, l := range g.Labels {
				if req[l] {
					explicit[g.Suite] = true
				}
			}
		}
	}
	var skipped []string
	for s := range pr {
		if !runnable[s] || !affected[s] && !explicit[s] {
			skipped = append(skipped, s)
		}
	}
	slices.Sort(skipped)
	if skipped == nil {
		skipped = []string{}
	}
	return skipped
}

func (r *Registry) suiteKnown(g *Registration) bool {
	return r.Suites == nil || slices.Contains(r.Suites[g.Backend], g.Suite)
}

func hasAnyPrefix(s string, ps []string) bool {
	for _, p := range ps {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

func hasAnySuffix(s string, ps []string) bool {
	for _, p := range ps {
		if strings.HasSuffix(s, p) {
			return true
		}
	}
	return false
}

// HasEnabledTest reports whether target (a repository-relative file or
// directory) holds at least one registered, enabled test.
func (r *Registry) HasEnabledTest(target string) bool {
	target = strings.TrimSuffix(strings.TrimPrefix(target, "./"), "/")
	for i := range r.Registrations {
		g := &r.Registrations[i]
		if g.Enabled() && (target == "" || target == "." || g.File == target || strings.HasPrefix(g.File, target+"/")) {
			return true
		}
	}
	return false
}

// LabelUse is one known label and the tests its run-ci-<label> adds.
type LabelUse struct {
	Label string     `json:"label"`
	Tests []Selected `json:"tests"`
}

// ExplainLabels lists, for each known label, the registrations that
// carry it (what `run-ci-<label>` adds on a regular pull request).
func (r *Registry) ExplainLabels() []LabelUse {
	var out []LabelUse
	for _, l := range r.Known {
		u := LabelUse{Label: l, Tests: []Selected{}}
		for i := range r.Registrations {
			g := &r.Registrations[i]
			if slices.Contains(g.Labels, l) {
				s := Selected{File: g.File, Suite: g.Suite, Backend: g.Backend, EstTime: g.EstTime,
					Nightly: g.Nightly, UnknownSuite: r.Suites != nil && !slices.Contains(r.Suites[g.Backend], g.Suite)}
				if !g.Enabled() {
					s.Reason, s.Disabled = *g.Disabled, true
				}
				u.Tests = append(u.Tests, s)
			}
		}
		slices.SortStableFunc(u.Tests, func(a, b Selected) int {
			return strings.Compare(a.File+"\x00"+a.Suite, b.File+"\x00"+b.Suite)
		})
		out = append(out, u)
	}
	return out
}

// WorkflowPolicy is what ci_policy.py writes to GITHUB_OUTPUT.
type WorkflowPolicy struct {
	Policy         RunPolicy
	RawLabels      []string
	SkippedStages  []string
	DiffUnusable   bool // a pull_request without a usable diff: no pruning
	PolicyWarnings []PolicyWarning
}

// ResolveWorkflowPolicy is ci_policy.py's main: the run's policy from the
// workflow inputs and, on a pull_request event, the GPU stages the changed
// files let it skip. diff is the `git diff --name-status -z` output file
// (nil when absent or unreadable).
func ResolveWorkflowPolicy(fsys fs.FS, cfg Config, in WorkflowInputs, diff []byte) (WorkflowPolicy, error) {
	var out WorkflowPolicy
	cadence, raw, err := ResolveWorkflowInputs(in, cfg.Policy)
	if err != nil {
		return out, err
	}
	known, _ := KnownLabels(fsys, cfg)
	p, warns, err := ResolvePolicy(cadence, raw, known, cfg.Policy)
	if err != nil {
		return out, err
	}
	out.Policy, out.RawLabels, out.PolicyWarnings, out.SkippedStages = p, raw, warns, []string{}
	// The reference prunes on every pull_request event, a cadence override
	// included: a workflow_call inherits its caller's event.
	if in.EventName != "pull_request" {
		return out, nil
	}
	changes, usable := ParseNameStatusZ(diff)
	if !usable {
		out.DiffUnusable = true
		return out, nil
	}
	r, err := Scan(fsys, cfg)
	if err != nil {
		return out, err
	}
	for _, f := range r.Findings {
		if f.Severity == finding.Error {
			return out, fmt.Errorf("%s:%d:%d: %s", f.File, f.Line, f.Column, f.Message)
		}
	}
	out.SkippedStages = r.SkippedStages(p, raw, changes, true)
	return out, nil
}
