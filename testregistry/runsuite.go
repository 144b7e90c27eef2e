package testregistry

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"path"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/cicheck/cicheck/finding"
	"github.com/cicheck/cicheck/internal/textdist"
	"github.com/cicheck/cicheck/pyparse"
)

// This file is sglang's test/run_suite.py flow over a scanned registry:
// its suite tables, validate_all_suites, filter_tests and auto_partition
// with the live estimates of --partition-model-file.

// loadSuiteTables reads the tables named by cfg.Suites.Tables from
// cfg.Suites.File. nil with a finding when any table is not a literal the
// way run_suite.py writes it: its suite checks are then skipped.
func loadSuiteTables(fsys fs.FS, cfg Config) (*SuiteTables, []finding.Finding) {
	names := cfg.Suites.Tables
	file := cfg.Suites.File
	src, err := readBounded(fsys, file, kindModule, typeUnknown, nil)
	if err != nil {
		var ue *UnreadableError
		if errors.As(err, &ue) {
			return nil, []finding.Finding{unreadableFinding(ue)}
		}
		return nil, []finding.Finding{newFinding(RuleSuitesUnknown, file, 1, 1,
			fmt.Sprintf("cannot read %s; suite checks are skipped", file))}
	}
	minor := targetMinor(cfg.Python)
	unknown := func(sym string, b *pyparse.Binding) (*SuiteTables, []finding.Finding) {
		line, col := 1, 1
		if b != nil {
			line, col = b.Line, b.Col
		}
		return nil, []finding.Finding{newFinding(RuleSuitesUnknown, file, line, col,
			fmt.Sprintf("cannot load %s statically; suite checks are skipped", sym))}
	}
	// One reading of the file for the five names.
	bound, err := pyparse.FindBindings(string(src), []string{names.HW, names.PerCommit, names.Nightly, names.Other, names.Checked}, minor)
	bind := func(sym string) (*pyparse.Binding, bool) {
		b := bound[sym]
		if err != nil || b == nil || b.Err != nil || b.Mutated != nil || b.Rebound != nil {
			return b, false
		}
		return b, true
	}
	t := &SuiteTables{Checked: map[string]bool{}, pos: map[[2]string][2]int{}}
	// HW_MAPPING first: it names the backend of each enum member.
	member := map[string]string{} // enum member -> --hw value
	hb, ok := bind(names.HW)
	if !ok || hb.Value.Class != "Dict" {
		return unknown(names.HW, hb)
	}
	for i, k := range hb.Value.Keys {
		v := hb.Value.Elts[i]
		if k == nil || k.Class != "Constant" || k.Type != "str" || v.Class != "Attribute" {
			return unknown(names.HW, hb)
		}
		if !slices.Contains(t.HW, k.Str) {
			t.HW = append(t.HW, k.Str)
		}
		member[v.Name] = k.Str
	}
	backendOf := func(n *pyparse.Node) (string, bool) {
		if n == nil || n.Class != "Attribute" {
			return "", false
		}
		if b, ok := member[n.Name]; ok {
			return b, true
		}
		return strings.ToLower(n.Name), true // a member --hw cannot name
	}
	for _, tb := range []struct {
		sym string
		dst *map[string][]string
	}{{names.PerCommit, &t.PerCommit}, {names.Nightly, &t.Nightly}, {names.Other, &t.Other}} {
		b, ok := bind(tb.sym)
		if !ok || b.Value.Class != "Dict" {
			return unknown(tb.sym, b)
		}
		m := map[string][]string{}
		for i, k := range b.Value.Keys {
			backend, ok := backendOf(k)
			v := b.Value.Elts[i]
			if !ok || v.Class != "List" && v.Class != "Tuple" {
				return unknown(tb.sym, b)
			}
			suites := []string{}
			for _, e := range v.Elts {
				if e.Class != "Constant" || e.Type != "str" {
					return unknown(tb.sym, b)
				}
				suites = append(suites, e.Str)
				if k := [2]string{backend, e.Str}; t.pos[k] == [2]int{} {
					t.pos[k] = [2]int{e.Line, e.Col}
				}
			}
			m[backend] = suites // a repeated key: the last wins, as in a dict
		}
		*tb.dst = m
	}
	cb, ok := bind(names.Checked)
	emptySet := ok && cb.Value.Class == "Call" && cb.Value.Fn.Class == "Name" && cb.Value.Fn.Name == "set" &&
		len(cb.Value.Elts) == 0 && len(cb.Value.Kws) == 0 // set(): no backend is checked
	if !ok || !emptySet && cb.Value.Class != "Set" && cb.Value.Class != "List" && cb.Value.Class != "Tuple" {
		return unknown(names.Checked, cb)
	}
	for _, e := range cb.Value.Elts {
		backend, ok := backendOf(e)
		if !ok {
			return unknown(names.Checked, cb)
		}
		t.Checked[backend] = true
	}
	return t, nil
}

// union is every suite of each backend in any table (the Registry's
// Suites for the sglang layout).
func (t *SuiteTables) union() map[string][]string {
	m := map[string][]string{}
	for _, tb := range []map[string][]string{t.PerCommit, t.Nightly, t.Other} {
		for b, ss := range tb {
			for _, s := range ss {
				if !slices.Contains(m[b], s) {
					m[b] = append(m[b], s)
				}
			}
			if m[b] == nil {
				m[b] = []string{}
			}
		}
	}
	return m
}

// runSuiteChecks are the checks of the sglang layout over all
// registrations: validate_all_suites (every registration, disabled ones
// too, on a suite-checked backend must name a suite of that backend's
// tables), and a file registered twice for one suite (filter_tests keeps
// both: the file runs twice).
func (r *Registry) runSuiteChecks() []finding.Finding {
	var out []finding.Finding
	if t := r.Tables; t != nil {
		for _, g := range r.Registrations {
			if !t.Checked[g.Backend] || !g.NoSuite && t.Valid(g.Backend, g.Suite) {
				continue
			}
			msg := fmt.Sprintf("Tests registered to invalid suites: backend=%s, suite='%s'", strings.ToUpper(g.Backend), g.suiteRepr())
			if m := textdist.Closest(g.Suite, r.Suites[g.Backend]); m != "" && !g.NoSuite {
				msg += fmt.Sprintf("; did you mean %s?", pyRepr(m))
			}
			out = append(out, newFinding(RuleUnknownSuite, g.File, g.Line, g.Column, msg))
		}
	}
	for _, g := range r.registeredTwice() {
		out = append(out, asWarning(newFinding(RuleDuplicate, g.File, g.Line, g.Column,
			fmt.Sprintf("%s is registered twice for backend %s and suite %s; run_suite.py runs it twice", g.File, strings.ToUpper(g.Backend), g.Suite))))
	}
	return out
}

// registeredTwice lists each registration whose file already registered
// the same backend and suite. A file's registrations are adjacent (they
// are appended file by file), so a duplicate is looked for among the
// file's own: a map of every registration was a fifth of the memory a
// scan's serial part touched. A registration without a suite is never
// one.
func (r *Registry) registeredTwice() []Registration {
	type key struct{ backend, suite string }
	var seen []key
	var out []Registration
	for i, g := range r.Registrations {
		if i == 0 || g.File != r.Registrations[i-1].File {
			seen = seen[:0]
		}
		if g.NoSuite {
			continue
		}
		if k := (key{g.Backend, g.Suite}); slices.Contains(seen, k) {
			out = append(out, g)
		} else {
			seen = append(seen, k)
		}
	}
	return out
}

// runSuiteWorkflowChecks are CheckRunSuiteWorkflows over the scanned
// registry: its tables, where they list each suite, and which suites have
// enabled registrations.
func (r *Registry) runSuiteWorkflowChecks(wfs []WorkflowFile) []finding.Finding {
	if r.Tables == nil || r.cfg.Workflows == "" {
		return nil
	}
	enabled := map[SuiteKey]int{}
	for _, g := range r.Registrations {
		if g.Enabled() && !g.NoSuite {
			enabled[SuiteKey{HW: g.Backend, Suite: g.Suite, Nightly: g.Nightly}]++
		}
	}
	return CheckRunSuiteWorkflows(wfs, r.Tables, RunSuiteOptions{Script: r.cfg.Suites.File, TablesFile: r.cfg.Suites.File,
		SuitePos: r.Tables.Pos, Enabled: enabled})
}

// RunRequest is a run of sglang's test/run_suite.py as its command line
// states it.
type RunRequest struct {
	HW, Suite string
	Nightly   bool
	// PartID and PartSize are --auto-partition-id and
	// --auto-partition-size (nil: not given).
	PartID, PartSize *int
	// ModelFile is --partition-model-file, relative to the repository
	// root ("" when not given).
	ModelFile string
}

// Unit is what a run executes at once: a file, or a bundle of the files
// of one in_process_group run in one interpreter.
type Unit struct {
	File    string   `json:"file,omitempty"`
	Group   string   `json:"group,omitempty"`
	Members []string `json:"members,omitempty"`
	EstTime float64  `json:"est_time"`
	// Live: EstTime is the partition model's measurement, not est_time.
	Live bool `json:"live,omitempty"`
}

// name is the unit's filename in auto_partition's sense, relative to the
// repository: a file's path, or "group:<key>".
func (u Unit) name() string {
	if u.Group != "" {
		return "group:" + u.Group
	}
	return u.File
}

// Run is what run_suite.py runs for a RunRequest.
type Run struct {
	Request RunRequest
	// UnknownSuite: the suite is not in the table the run reads
	// (NIGHTLY_SUITES with --nightly, else PER_COMMIT_SUITES); run_suite.py
	// prints a warning and runs whatever is registered to it.
	UnknownSuite bool
	// Units run in this order. Without partitioning each enabled
	// registration is its own unit, in collection order.
	Units []Unit
	// Skipped are the selected registrations that are disabled.
	Skipped []Registration
	// LiveEntries is the number of live estimates read from the model
	// file, -1 when none were (in-source est_time is used).
	LiveEntries int
}

// hwBackend is the backend --hw names, with the reference's argparse
// refusal otherwise.
func (t *SuiteTables) hwBackend(hw string) error {
	if slices.Contains(t.HW, hw) {
		return nil
	}
	quoted := make([]string, len(t.HW))
	for i, h := range t.HW {
		quoted[i] = pyRepr(h)
	}
	return usagef("argument --hw: invalid choice: %s (choose from %s)", pyRepr(hw), strings.Join(quoted, ", "))
}

// SelectRun resolves q as run_suite.py does after collection (which must
// have succeeded: r has no errors): filter_tests, then auto_partition with
// the live estimates of q.ModelFile, read from fsys.
func (r *Registry) SelectRun(fsys fs.FS, q RunRequest) (Run, error) {
	if r.Tables == nil {
		return Run{}, errors.New("the suite tables of " + r.cfg.Suites.File + " could not be read statically; cicheck cannot select")
	}
	if err := r.Tables.hwBackend(q.HW); err != nil {
		return Run{}, err
	}
	if err := PartitionArgs(q.PartID, q.PartSize); err != nil {
		return Run{}, &UsageError{err.Error()}
	}
	run := Run{Request: q, LiveEntries: -1}
	valid := r.Tables.PerCommit[q.HW]
	if q.Nightly {
		valid = r.Tables.Nightly[q.HW]
	}
	run.UnknownSuite = !slices.Contains(valid, q.Suite)
	var enabled []Registration
	for _, g := range r.Registrations {
		if g.Backend != q.HW || g.NoSuite || g.Suite != q.Suite || g.Nightly != q.Nightly {
			continue
		}
		if g.Enabled() {
			enabled = append(enabled, g)
		} else {
			run.Skipped = append(run.Skipped, g)
		}
	}
	if q.PartSize == nil {
		for _, g := range enabled {
			run.Units = append(run.Units, Unit{File: g.File, EstTime: g.EstTime})
		}
		return run, nil
	}
	live, err := loadLiveEst(fsys, q.ModelFile, q.Suite)
	if err != nil {
		return Run{}, err
	}
	if live != nil {
		run.LiveEntries = len(live)
	}
	run.Units = autoPartition(enabled, *q.PartID, *q.PartSize, live)
	return run, nil
}

// errNaN is a partition estimate that is NaN.
var errNaN = errors.New("NaN")

// bundleImportCost is _BUNDLE_IMPORT_COST_SEC: the seconds a bundle saves
// per member after the first (one cold `import sglang` each).
const bundleImportCost = 10.0

// autoPartition is ci_register.py's auto_partition: in_process_group
// members become one unit, units are sorted by (-est, filename) and
// dealt greedily to the partition with the smallest sum (the lowest index
// on ties); the units of partition rank are returned in that order.
func autoPartition(files []Registration, rank, size int, live map[string]float64) []Unit {
	if len(files) == 0 || size <= 0 {
		return nil
	}
	var units []Unit
	groups := map[string]int{} // group -> index in bundles
	var bundles [][]Registration
	var keys []string
	for _, f := range files {
		if f.Group == "" {
			est, ok := live[f.File]
			units = append(units, Unit{File: f.File, EstTime: cmpOr(ok, est, f.EstTime), Live: ok})
			continue
		}
		i, ok := groups[f.Group]
		if !ok {
			i = len(bundles)
			groups[f.Group] = i
			bundles = append(bundles, nil)
			keys = append(keys, f.Group)
		}
		bundles[i] = append(bundles[i], f)
	}
	for i, members := range bundles {
		u := Unit{Group: keys[i]}
		if est, ok := live["group:"+keys[i]]; ok {
			u.EstTime, u.Live = est, true
		} else {
			sum := 0.0
			for _, m := range members {
				sum += m.EstTime
			}
			u.EstTime = max(sum-float64(len(members)-1)*bundleImportCost, 1.0)
		}
		slices.SortStableFunc(members, func(a, b Registration) int { return strings.Compare(a.File, b.File) })
		for _, m := range members {
			u.Members = append(u.Members, m.File)
		}
		units = append(units, u)
	}
	slices.SortStableFunc(units, func(a, b Unit) int {
		switch {
		case a.EstTime > b.EstTime:
			return -1
		case a.EstTime < b.EstTime:
			return 1
		}
		return compareFilename(a, b)
	})
	// As Shard: only the first len(units) partitions can be used, so a
	// huge --auto-partition-size allocates nothing.
	bins := min(size, len(units))
	if rank >= bins {
		return []Unit{}
	}
	sums := make([]float64, bins)
	parts := make([][]Unit, bins)
	for _, u := range units {
		best := 0
		for i := 1; i < bins; i++ {
			if sums[i] < sums[best] {
				best = i
			}
		}
		parts[best] = append(parts[best], u)
		sums[best] += u.EstTime
	}
	if parts[rank] == nil {
		return []Unit{}
	}
	return parts[rank]
}

func cmpOr(ok bool, a, b float64) float64 {
	if ok {
		return a
	}
	return b
}

// compareFilename orders units as auto_partition's tie-breaker does: a
// file's filename is its absolute path, which sorts before any
// "group:<key>" ('/' < 'g'); files among themselves by path, groups by
// key.
func compareFilename(a, b Unit) int {
	switch {
	case a.Group == "" && b.Group != "":
		return -1
	case a.Group != "" && b.Group == "":
		return 1
	}
	return strings.Compare(a.name(), b.name())
}

// maxModelFile bounds the partition model file read.
const maxModelFile = 16 << 20

// loadLiveEst is run_suite.py's load_live_est: est[suite] of the
// partition model, keyed by repository-relative path or "group:<key>";
// nil (in-source est_time) when the file is not given or missing, is not
// JSON, or has no estimates for the suite. Where run_suite.py itself
// would crash on the file (est not an object, a value float() refuses,
// text that is not UTF-8), so does the selection, with an error saying
// why; NaN is refused too: LPT over NaN depends on Python's sort
// internals. Infinities are kept, as float() reads them.
func loadLiveEst(fsys fs.FS, file, suite string) (map[string]float64, error) {
	if file == "" {
		return nil, nil
	}
	name := path.Clean(file)
	if !fs.ValidPath(name) {
		return nil, usagef("--partition-model-file %s is not a path inside the repository", strconv.Quote(file))
	}
	if st, err := fs.Stat(fsys, name); err == nil && st.IsDir() {
		return nil, nil // open() raises IsADirectoryError, an OSError: in-source est_time
	}
	src, err := readBounded(fsys, name, fileKind{"partition model file", maxModelFile}, typeUnknown, nil)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil // run_suite.py: os.path.exists is false
		}
		return nil, fmt.Errorf("--partition-model-file %s: %w", name, err)
	}
	crash := func(why string) error {
		return fmt.Errorf("%s: %s; run_suite.py would crash on this file", name, why)
	}
	if !utf8.Valid(src) {
		return nil, crash("not UTF-8 text")
	}
	doc, ok := decodeJSON(src)
	if !ok {
		// Python's json also reads NaN, Infinity and -Infinity.
		if doc, ok = decodeJSON(pyJSONLiterals(src)); !ok {
			return nil, nil // json.JSONDecodeError: in-source est_time
		}
	}
	top, ok := doc.(map[string]any)
	if !ok {
		return nil, nil
	}
	est, ok := top["est"]
	if !ok {
		return nil, nil // .get("est", {}) then .get(suite): None
	}
	estObj, ok := est.(map[string]any)
	if !ok {
		return nil, crash(`"est" is not an object (AttributeError)`)
	}
	se, ok := estObj[suite].(map[string]any)
	if !ok || len(se) == 0 {
		return nil, nil
	}
	out := make(map[string]float64, len(se))
	for k, v := range se {
		f, err := pyFloat(v)
		if errors.Is(err, errNaN) {
			return nil, fmt.Errorf("%s: est[%s][%s] is NaN: LPT over NaN depends on the internals of Python's sort, which cicheck does not reproduce", name, pyRepr(suite), pyRepr(k))
		}
		if err != nil {
			return nil, crash(fmt.Sprintf("est[%s][%s]: %v", pyRepr(suite), pyRepr(k), err))
		}
		out[k] = f
	}
	return out, nil
}

// decodeJSON decodes one JSON document, numbers kept as written.
func decodeJSON(src []byte) (any, bool) {
	dec := json.NewDecoder(bytes.NewReader(src))
	dec.UseNumber()
	var doc any
	if err := dec.Decode(&doc); err != nil || dec.More() {
		return nil, false
	}
	return doc, true
}

// nanMark stands for a bare NaN in a JSON document (pyJSONLiterals).
const nanMark = "\x00NaN"

// pyJSONLiterals rewrites the constants Python's json accepts and
// encoding/json does not, outside strings: Infinity as 1e999 (which
// reads as +Inf), NaN as the string nanMark.
func pyJSONLiterals(src []byte) []byte {
	var out []byte
	in, esc := false, false
	for i := 0; i < len(src); i++ {
		c := src[i]
		switch {
		case in:
			switch {
			case esc:
				esc = false
			case c == '\\':
				esc = true
			case c == '"':
				in = false
			}
		case c == '"':
			in = true
		case bytes.HasPrefix(src[i:], []byte("Infinity")):
			out = append(out, "1e999"...)
			i += len("Infinity") - 1
			continue
		case bytes.HasPrefix(src[i:], []byte("NaN")):
			out = append(out, `"\u0000NaN"`...)
			i += len("NaN") - 1
			continue
		}
		out = append(out, c)
	}
	return out
}

// pyFloat is Python's float() of a JSON value; NaN is refused.
func pyFloat(v any) (float64, error) {
	var f float64
	switch v := v.(type) {
	case json.Number:
		x, err := strconv.ParseFloat(v.String(), 64)
		if err != nil && !errors.Is(err, strconv.ErrRange) {
			return 0, err
		}
		f = x
	case bool:
		if v {
			f = 1
		}
	case string:
		if v == nanMark {
			return 0, errNaN
		}
		x, ok := pyFloatString(v)
		if !ok {
			return 0, fmt.Errorf("could not convert string to float: %s (ValueError)", pyRepr(v))
		}
		f = x
	default:
		return 0, fmt.Errorf("float() argument must be a string or a real number (TypeError)")
	}
	if math.IsNaN(f) {
		return 0, errNaN
	}
	return f, nil
}

// pyFloatString parses a string as Python's float() does: surrounding
// whitespace, underscores between digits, inf, infinity and nan in any
// case.
func pyFloatString(s string) (float64, bool) {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, false
	}
	body := strings.TrimLeft(s, "+-")
	if len(s)-len(body) > 1 {
		return 0, false
	}
	switch strings.ToLower(body) {
	case "inf", "infinity":
		if strings.HasPrefix(s, "-") {
			return math.Inf(-1), true
		}
		return math.Inf(1), true
	case "nan":
		return math.NaN(), true // refused by the caller
	}
	if strings.Contains(s, "_") {
		for i := 0; i < len(s); i++ {
			if s[i] == '_' && (i == 0 || i == len(s)-1 || !isDigit(s[i-1]) || !isDigit(s[i+1])) {
				return 0, false
			}
		}
		s = strings.ReplaceAll(s, "_", "")
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !isDigit(c) && c != '.' && c != 'e' && c != 'E' && c != '+' && c != '-' {
			return 0, false // hex, "0x1p3" and the like
		}
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return 0, false
	}
	return f, true
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }
