package testregistry

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/cicheck/cicheck/finding"
	"github.com/cicheck/cicheck/pyparse"
)

// Registration is one CI registration of a test file.
type Registration struct {
	File     string   `json:"file"`
	Line     int      `json:"line"`
	Column   int      `json:"column"`
	Func     string   `json:"func"`
	Backend  string   `json:"backend"` // cpu, cuda or rocm
	EstTime  float64  `json:"est_time"`
	Suite    string   `json:"suite"`
	Labels   []string `json:"labels"`
	Nightly  bool     `json:"nightly"`
	Disabled *string  `json:"disabled"` // nil = enabled; "" still counts as disabled
	Implicit bool     `json:"implicit"`
	// Extra holds the values of configured extra parameters: string,
	// []string, bool or float64.
	Extra map[string]any `json:"extra,omitempty"`
	// Stage and RunnerConfig are the sglang grammar's suite pair; Suite is
	// then "<stage>-test-<runner_config>" (effective_suite). NoSuite: the
	// effective suite is None (suite=None, or stage=None in the pair),
	// which no suite name matches.
	Stage        string `json:"stage,omitempty"`
	RunnerConfig string `json:"runner_config,omitempty"`
	NoSuite      bool   `json:"no_suite,omitempty"`
	// Group is the sglang grammar's in_process_group ("" for none, as for
	// an empty string, which the reference treats as none).
	Group string `json:"in_process_group,omitempty"`
}

// Enabled reports whether the registration runs when selected.
func (r Registration) Enabled() bool { return r.Disabled == nil }

// Registry is the result of scanning a repository.
type Registry struct {
	// Files are the discovered test files in collection order.
	Files []string
	// Registrations holds every valid registration in file order, then
	// source order. Calls with an error are not registrations.
	Registrations []Registration
	// Findings holds every finding, sorted.
	Findings []finding.Finding
	// Known is the sorted list of KNOWN_LABELS keys; KnownOK is false when
	// they could not be loaded (label checks were then skipped).
	Known   []string
	KnownOK bool
	// Suites maps a backend to its suites; nil when unknown.
	Suites map[string][]string
	// Tables are the suite tables of the sglang layout (nil for others,
	// or when they could not be read statically).
	Tables *SuiteTables

	cfg    Config
	firsts []callError
}

// Config returns the configuration the registry was scanned with.
func (r *Registry) Config() Config { return r.cfg }

// HasErrors reports whether any finding is an error (the reference
// collector would have failed).
func (r *Registry) HasErrors() bool {
	for _, f := range r.Findings {
		if f.Severity == finding.Error {
			return true
		}
	}
	return false
}

// Check scans fsys (rooted at the repository) and returns every finding.
func Check(fsys fs.FS, cfg Config) ([]finding.Finding, error) {
	r, err := Scan(fsys, cfg)
	if err != nil {
		return nil, err
	}
	return r.Findings, nil
}

// Present reports whether fsys looks like it holds a test registry: the
// labels file or the suites file exists.
func Present(fsys fs.FS, cfg Config) bool {
	cfg, err := cfg.Resolve(fsys)
	if err != nil {
		return true // a configuration error is the registry's to report
	}
	for _, p := range []string{cfg.Labels.File, cfg.Suites.File} {
		if p == "" {
			continue
		}
		// Lstat: a labels file that is a symlink leading outside the
		// repository is present (and reported), not absent.
		if st, err := fs.Lstat(fsys, p); err == nil && !st.IsDir() {
			return true
		}
	}
	return false
}

// ValidateConfig rejects a registry configuration the scanner cannot work
// with; the message names the offending key.
func ValidateConfig(c Config) error { return c.validate() }

func (c Config) validate() error {
	if _, ok := pythonMinor(c.Python); !ok {
		return fmt.Errorf("registry.python: %q is not one of 3.11, 3.12, 3.13, 3.14", c.Python)
	}
	if _, err := path.Match(c.FileGlob, "x"); err != nil || c.FileGlob == "" {
		return fmt.Errorf("registry.file-glob: invalid pattern %q", c.FileGlob)
	}
	// Repository-relative directories only: any other path (../x, /x) can
	// never be read through the repository's fs.FS, so it would silently
	// collect nothing.
	for _, key := range []struct {
		name string
		dirs []string
	}{{"roots", c.Roots}, {"orphan-search", c.OrphanSearch}} {
		for _, d := range key.dirs {
			if !fs.ValidPath(path.Clean(d)) {
				return fmt.Errorf("registry.%s: %q is not a directory inside the repository (use a relative path such as tests/e2e)", key.name, d)
			}
		}
	}
	// Sorted, so that the first of several problems is always the same one.
	for _, name := range sortedKeys(c.Markers) {
		if m := c.Markers[name]; !validBackend(m.Backend) {
			return fmt.Errorf("registry.markers.%s.backend: %q is not one of %s", name, m.Backend, strings.Join(backendList, ", "))
		}
	}
	if c.ImplicitRoot.Prefix != "" && !validBackend(c.ImplicitRoot.Backend) {
		return fmt.Errorf("registry.implicit-root.backend: %q is not one of %s", c.ImplicitRoot.Backend, strings.Join(backendList, ", "))
	}
	switch c.Arguments {
	case "", ArgumentsMiles, ArgumentsSglang:
	default:
		return fmt.Errorf("registry.arguments: %q is not one of miles, sglang", c.Arguments)
	}
	for _, e := range c.Exclude {
		if !fs.ValidPath(e) || e == "." {
			return fmt.Errorf("registry.exclude: %q is not a relative path such as conftest.py or cpu/utils.py", e)
		}
	}
	if t := c.Suites.Tables; t != nil {
		for _, n := range []struct{ key, v string }{{"per-commit", t.PerCommit}, {"nightly", t.Nightly}, {"other", t.Other}, {"checked", t.Checked}, {"hw", t.HW}} {
			if n.v == "" {
				return fmt.Errorf("registry.suites.tables.%s: a module-level name is required", n.key)
			}
		}
	}
	for _, fn := range sortedKeys(c.ExtraParams) {
		params := c.ExtraParams[fn]
		if _, ok := c.Markers[fn]; !ok {
			return fmt.Errorf("registry.extra-params: %q is not a configured marker", fn)
		}
		for _, kw := range sortedKeys(params) {
			p := params[kw]
			if baseParams[kw] {
				return fmt.Errorf("registry.extra-params.%s.%s: %q is a built-in parameter", fn, kw, kw)
			}
			switch p.Type {
			case "str", "str_list", "bool", "number":
			default:
				return fmt.Errorf("registry.extra-params.%s.%s.type: %q is not one of str, str_list, bool, number", fn, kw, p.Type)
			}
		}
	}
	return nil
}

// backendList are the backends a marker may name: miles' rocm and
// sglang's amd are different backends of different repositories.
var backendList = []string{"cpu", "cuda", "rocm", "amd", "npu", "xpu", "musa", "mlx"}

func validBackend(b string) bool { return slices.Contains(backendList, b) }

// Scan discovers, parses and validates every test file and the label, suite
// and access-policy files. The error is reserved for an invalid
// configuration or an unreadable file; problems in the repository are
// findings.
func Scan(fsys fs.FS, cfg Config) (*Registry, error) { return ScanWith(fsys, cfg, nil) }

// ScanWith is Scan over workflows the caller has already loaded (nil:
// LoadWorkflows reads the configured directory), so a run that has parsed
// them does not parse them again.
func ScanWith(fsys fs.FS, cfg Config, wfs []WorkflowFile) (*Registry, error) {
	cfg, err := cfg.Resolve(fsys)
	if err != nil {
		return nil, err
	}
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	// The workflows and the orphan search need nothing of the scan: read
	// them on the side, so the scan's one-core parts (labels, discovery's
	// end, the merge) overlap with them.
	var side sync.WaitGroup
	var orphans []finding.Finding
	var orphanErr error
	side.Add(1)
	go func() {
		defer side.Done()
		defer func() {
			if r := recover(); r != nil { // a bug: ends the scan, not the process
				orphanErr = &InternalError{fmt.Sprintf("reading workflows and orphan tests: %v", r)}
			}
		}()
		if wfs == nil {
			wfs = LoadWorkflows(fsys, cfg.Workflows)
		}
		orphans, orphanErr = findOrphans(fsys, cfg)
	}()
	defer side.Wait() // on an early return too: nothing outlives Scan
	r := &Registry{cfg: cfg}
	var fnd []finding.Finding

	labels, lf := loadLabels(fsys, cfg)
	fnd = append(fnd, lf...)
	if labels != nil {
		r.KnownOK = true
		// Sorted, then deduplicated: linear in the keys (a Contains per key
		// made 300,000 keys take minutes).
		for _, k := range labels.keys {
			r.Known = append(r.Known, k.name)
		}
		slices.Sort(r.Known)
		r.Known = slices.Compact(r.Known)
	}
	var spos suitePos
	if cfg.Suites.Tables != nil {
		t, tf := loadSuiteTables(fsys, cfg)
		r.Tables = t
		if t != nil {
			r.Suites = t.union()
		}
		fnd = append(fnd, tf...)
	} else {
		suites, pos, sf := loadSuitesPos(fsys, cfg)
		r.Suites, spos = suites, pos
		fnd = append(fnd, sf...)
	}

	found, df, err := discover(fsys, cfg)
	if err != nil {
		return nil, err
	}
	fnd = append(fnd, df...)
	files := make([]string, len(found))
	for i, f := range found {
		files[i] = f.path
	}
	r.Files = files
	results := make([]fileResult, len(files))
	errs := make([]error, len(files))
	known := make(map[string]bool, len(r.Known))
	for _, k := range r.Known {
		known[k] = true
	}
	sc := &scanner{cfg: cfg, minor: targetMinor(cfg.Python), known: known, knownOK: r.KnownOK, knownList: r.Known}
	// Workers take batches of files by an atomic counter: no channel
	// hand-off per file. A batch is up to batchSize files of one
	// directory, opened through that directory (one step per file).
	batches := batchFiles(found)
	var wg sync.WaitGroup
	var next atomic.Int64
	for w := 0; w < min(runtime.GOMAXPROCS(0), len(batches)); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var buf []byte // one read buffer per worker, reused file to file
			var cur int    // the file being scanned, for a panic's message
			defer recoverInto(errs, files, &cur)
			for {
				bi := int(next.Add(1) - 1)
				if bi >= len(batches) {
					return
				}
				b := batches[bi]
				dir, base, closeDir := openBatch(fsys, found, b)
				for i := b.lo; i < b.hi; i++ {
					cur = i
					name := files[i]
					if base != "" {
						name = name[len(base)+1:]
					}
					src, err := readBounded(dir, name, kindTest, found[i].typ, buf)
					var ue *UnreadableError
					switch {
					case errors.As(err, &ue):
						ue.File = files[i]
						results[i].findings = []finding.Finding{unreadableFinding(ue)}
						continue
					case err != nil:
						errs[i] = err
						continue
					}
					buf = src[:0]
					results[i] = sc.scanFile(files[i], string(src))
					results[i].detach() // src is garbage once scanned, whatever the file's size
				}
				closeDir()
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		var ie *InternalError
		if errors.As(err, &ie) {
			return nil, err // cicheck's failure first: it is not the input's
		}
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	used := map[string]bool{}
	var nregs, nfirsts int
	for _, res := range results {
		nregs += len(res.regs)
		nfirsts += len(res.firsts)
	}
	// Sized once: a Registration is large, and doubling the slice would
	// copy every one several times.
	if nregs > 0 { // nil when none, as before
		r.Registrations = make([]Registration, 0, nregs)
	}
	if nfirsts > 0 {
		r.firsts = make([]callError, 0, nfirsts)
	}
	for _, res := range results {
		fnd = append(fnd, res.findings...)
		r.Registrations = append(r.Registrations, res.regs...)
		r.firsts = append(r.firsts, res.firsts...)
		for _, l := range res.labels {
			used[l] = true
		}
	}
	if cfg.Suites.Tables != nil {
		fnd = append(fnd, r.runSuiteChecks()...)
	} else {
		fnd = append(fnd, r.crossChecks(labels, used)...)
	}
	fnd = append(fnd, checkAccessPolicy(fsys, cfg, labels)...)
	side.Wait()
	if orphanErr != nil {
		return nil, orphanErr
	}
	fnd = append(fnd, r.checkWorkflows(wfs, spos)...)
	fnd = append(fnd, r.runSuiteWorkflowChecks(wfs)...)
	fnd = append(fnd, orphans...)
	r.Findings = finding.Sort(fnd)
	return r, nil
}

// detach gives every string of the result its own memory: a substring
// of the source (a suite, a label, a message quoting it) would otherwise
// keep the whole file alive for the rest of the run, up to the size
// limit per test file.
func (res *fileResult) detach() {
	ownAll := func(ss []string) {
		for i := range ss {
			ss[i] = strings.Clone(ss[i])
		}
	}
	for i := range res.regs {
		g := &res.regs[i]
		g.Func = strings.Clone(g.Func)
		g.Backend = strings.Clone(g.Backend)
		g.Suite = strings.Clone(g.Suite)
		ownAll(g.Labels)
		if g.Disabled != nil {
			d := strings.Clone(*g.Disabled)
			g.Disabled = &d
		}
		for k, v := range g.Extra {
			switch v := v.(type) {
			case string:
				g.Extra[k] = strings.Clone(v)
			case []string:
				ownAll(v)
			}
		}
	}
	for i := range res.findings {
		f := &res.findings[i]
		f.Message = strings.Clone(f.Message)
		f.Job = strings.Clone(f.Job)
		f.Fix = strings.Clone(f.Fix)
	}
	ownAll(res.labels)
	for i := range res.firsts {
		res.firsts[i].msg = strings.Clone(res.firsts[i].msg)
	}
}

type fileResult struct {
	regs     []Registration
	findings []finding.Finding
	labels   []string // labels written in any call, valid or not
	firsts   []callError
}

// callError is the first error of one call in spec §5 order: the message
// the reference collector would raise. The golden test compares it.
type callError struct {
	file      string
	line, col int
	msg       string
}

type scanner struct {
	cfg       Config
	minor     int // the target Python 3.minor
	known     map[string]bool
	knownList []string
	knownOK   bool
}

// isMarker reports a configured marker name.
func (s *scanner) isMarker(name string) bool {
	_, ok := s.cfg.Markers[name]
	return ok
}

func (s *scanner) scanFile(file, src string) fileResult {
	var res fileResult
	minor := s.minor
	// Nothing of the calls' tokens and nodes outlives this function: the
	// results hold strings only.
	a := pyparse.GetArena()
	defer pyparse.PutArena(a)
	mod, err := scanModule(src, minor, s.isMarker, a)
	calls := mod.Calls
	if err != nil {
		var se *pyparse.SyntaxError
		if errors.As(err, &se) {
			res.findings = append(res.findings, newFinding(RuleSyntaxError, file, se.Line, se.Col, se.Msg))
		}
		return res
	}
	if len(calls) > 0 {
		res.regs = make([]Registration, 0, len(calls))
	}
	for _, c := range calls {
		for _, kw := range c.Node.Kws {
			if kw.Name == "labels" && kw.Value.Class == "List" {
				for _, e := range kw.Value.Elts {
					if e.Class == "Constant" && e.Type == "str" {
						res.labels = append(res.labels, e.Str)
					}
				}
			}
		}
		var reg Registration
		var ok bool
		var fs []finding.Finding
		if s.cfg.Arguments == ArgumentsSglang {
			reg, ok, fs = s.validateSglangCall(file, c)
		} else {
			reg, ok, fs = s.validateCall(file, c)
		}
		res.findings = append(res.findings, fs...)
		for _, f := range fs {
			if f.Severity == finding.Error {
				res.firsts = append(res.firsts, callError{file, c.Node.Line, c.Node.Col, f.Message})
				break
			}
		}
		if ok {
			res.regs = append(res.regs, reg)
		}
	}
	ir := s.cfg.ImplicitRoot
	if ir.Prefix != "" && strings.HasPrefix(file, ir.Prefix) {
		for _, c := range calls {
			if s.cfg.Markers[c.Fn].Backend != ir.Backend {
				gpuDir := strings.TrimSuffix(ir.Prefix, "/") + "-gpu/"
				res.findings = append(res.findings, newFinding(RuleGPUInImplicit, file, c.Node.Line, c.Node.Col,
					fmt.Sprintf("register_cuda_ci is forbidden in %s; move the file to %s instead", ir.Prefix, gpuDir)))
			}
		}
		if len(calls) > 0 {
			return res
		}
		// The reference only looks for the cpu and cuda names; cicheck
		// also flags the others (rocm), which it would silently register.
		var ref, other []string
		for name, m := range s.cfg.Markers {
			if m.Backend == "rocm" {
				other = append(other, name)
			} else {
				ref = append(ref, name)
			}
		}
		slices.Sort(ref)
		slices.Sort(other)
		if line, col, ok := firstMention(src, ref); ok {
			res.findings = append(res.findings, newFinding(RuleMentionNoCall, file, line, col,
				"file mentions "+strings.Join(ref, " or ")+" textually but no top-level call was parsed; check for aliased import, non-toplevel call, or attribute access"))
			return res
		}
		if line, col, ok := firstMention(src, other); ok {
			res.findings = append(res.findings, newFinding(RuleRocmAliasQuirk, file, line, col,
				"file mentions "+strings.Join(other, " or ")+" textually but no top-level call was parsed; the reference collector would silently register it as an implicit "+strings.ToUpper(ir.Backend)+" test"))
			return res
		}
		res.regs = append(res.regs, Registration{File: file, Line: 1, Column: 1, Backend: ir.Backend,
			EstTime: ir.EstTime, Suite: ir.Suite, Labels: []string{}, Implicit: true})
		return res
	}
	if len(calls) == 0 {
		res.findings = append(res.findings, newFinding(RuleNoRegistry, file, 1, 1, "No CI registry found in "+file))
	}
	if s.cfg.RequireMain && !mod.MainCall {
		// Only an enabled registration runs the file (collect_tests). A
		// call with an error counts as the registration it will be once
		// fixed: enabled unless it says disabled=.
		for _, c := range calls {
			if !callEnabled(c) {
				continue
			}
			line, col := c.Node.Line, c.Node.Col
			if mod.MainLine > 0 { // a main block without a call
				line, col = mod.MainLine, 1
			}
			res.findings = append(res.findings, newFinding(RuleNoMain, file, line, col,
				"missing `if __name__ == \"__main__\":` entry. Pytest-style tests in this file will silently skip under `python3 file.py -f`. "+
					"Add `unittest.main()` (for unittest.TestCase) or `sys.exit(pytest.main([__file__, \"-v\"]))` (for pytest-style)."))
			break
		}
	}
	return res
}

// callEnabled reports a marker call that does not give disabled= (by
// keyword or as the sglang grammar's fourth positional) a string.
func callEnabled(c pyparse.Call) bool {
	if len(c.Node.Elts) >= 4 && isStr(c.Node.Elts[3]) {
		return false
	}
	for _, kw := range c.Node.Kws {
		if kw.Name == "disabled" && isStr(kw.Value) {
			return false
		}
	}
	return true
}

func isStr(n *pyparse.Node) bool { return n.Class == "Constant" && n.Type == "str" }

// firstMention finds the earliest occurrence of any of names in src.
func firstMention(src string, names []string) (line, col int, ok bool) {
	best := -1
	for _, n := range names {
		if i := strings.Index(src, n); i >= 0 && (best < 0 || i < best) {
			best = i
		}
	}
	if best < 0 {
		return 0, 0, false
	}
	line = 1 + strings.Count(src[:best], "\n")
	col = best - strings.LastIndex(src[:best], "\n")
	return line, col, true
}

// crossChecks runs the checks that look at several registrations.
func (r *Registry) crossChecks(labels *labelSet, used map[string]bool) []finding.Finding {
	var out []finding.Finding
	cfg := r.cfg
	for _, g := range r.registeredTwice() {
		out = append(out, newFinding(RuleDuplicate, g.File, g.Line, g.Column,
			fmt.Sprintf("%s is registered twice for backend %s and suite %s", g.File, strings.ToUpper(g.Backend), g.Suite)))
	}
	for _, g := range r.Registrations {
		if r.Suites != nil && !slices.Contains(r.Suites[g.Backend], g.Suite) {
			f := newFinding(RuleUnknownSuite, g.File, g.Line, g.Column,
				fmt.Sprintf("suite %s is not in %s for backend %s; this registration is never selected", pyRepr(g.Suite), cfg.Suites.Symbol, strings.ToUpper(g.Backend)))
			if !g.Enabled() {
				// Explicitly disabled: never selected either way, so the
				// suite is at most worth a notice.
				f.Severity = finding.Notice
			}
			out = append(out, f)
		}
	}
	// With no suites module configured (the neutral profile) there is
	// nothing unavailable to report.
	if r.Suites == nil && cfg.Suites.File != "" {
		out = append(out, newFinding(RuleSuitesUnknown, cfg.Suites.File, 1, 1,
			fmt.Sprintf("cannot load %s statically and registry.suites.map is empty; suite checks are skipped", cfg.Suites.Symbol)))
	}
	if labels != nil {
		for _, k := range labels.keys {
			if !used[k.name] && !k.dup && !k.bad {
				out = append(out, newFinding(RuleLabelsUnused, cfg.Labels.File, k.line, k.col,
					fmt.Sprintf("label %s is used by no registration", pyRepr(k.name))))
			}
		}
	}
	return out
}

// allowedDir: dir, or a directory above it, is an orphan-allowlist entry
// ending in "/" (kept outside CI on purpose).
func allowedDir(allow []string, dir string) bool {
	for _, a := range allow {
		if d, ok := strings.CutSuffix(a, "/"); ok && d != "" && (dir == path.Clean(d) || strings.HasPrefix(dir, path.Clean(d)+"/")) {
			return true
		}
	}
	return false
}

// findOrphans reports test files outside the roots.
func findOrphans(fsys fs.FS, cfg Config) ([]finding.Finding, error) {
	var out []finding.Finding
	underRoot := func(p string) bool {
		for _, r := range cfg.Roots {
			r = path.Clean(r)
			if p == r || strings.HasPrefix(p, r+"/") {
				return true
			}
		}
		return false
	}
	seen := map[string]bool{}
	for _, dir := range cfg.OrphanSearch {
		dir = path.Clean(dir)
		if _, err := fs.Stat(fsys, dir); err != nil {
			continue
		}
		err := fs.WalkDir(fsys, dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return nil
			}
			if p != dir && strings.HasPrefix(d.Name(), ".") || d.IsDir() && d.Name() == "node_modules" {
				if d.IsDir() {
					return fs.SkipDir
				}
				return nil
			}
			if d.IsDir() {
				if underRoot(p) || allowedDir(cfg.OrphanAllowlist, p) {
					return fs.SkipDir
				}
				return nil
			}
			if ok, _ := path.Match(cfg.FileGlob, d.Name()); !ok || underRoot(p) || seen[p] || slices.Contains(cfg.OrphanAllowlist, p) || allowedDir(cfg.OrphanAllowlist, path.Dir(p)) {
				return nil
			}
			seen[p] = true
			out = append(out, newFinding(RuleOrphanTest, p, 1, 1,
				fmt.Sprintf("%s is outside the registry roots (%s) and is never collected by CI", p, strings.Join(cfg.Roots, ", "))))
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}
