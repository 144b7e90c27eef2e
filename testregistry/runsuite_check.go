package testregistry

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/cicheck/cicheck/finding"
	"github.com/cicheck/cicheck/internal/ghschema"
	"github.com/cicheck/cicheck/internal/textdist"
	"github.com/cicheck/cicheck/workflowgraph"
)

// SuiteKey is what filter_tests selects registrations by: the backend
// (its --hw value), the effective suite and the nightly flag.
type SuiteKey struct {
	HW, Suite string
	Nightly   bool
}

// RunSuiteOptions is the rest of CheckRunSuiteWorkflows's input.
type RunSuiteOptions struct {
	// Script is the run_suite.py the workflows invoke: a file name, or
	// its repository path (then cd commands are followed); see
	// FindRunSuiteCalls. Default "run_suite.py".
	Script string
	// TablesFile is the file the tables were read from, where the
	// findings about a suite (reg-suite-no-workflow) are placed; SuitePos,
	// when set, gives a suite's line and column in it (0, 0: unknown).
	TablesFile string
	SuitePos   func(hw, suite string) (line, col int)
	// Enabled counts the enabled registrations (disabled= unset) by what
	// filter_tests selects them with; nil when not known. With it, a
	// per-commit suite with nothing registered needs no workflow, and a
	// suite outside its table whose tests still run is only a notice.
	Enabled map[SuiteKey]int
}

// CheckRunSuiteWorkflows checks the workflows' run_suite.py calls against
// the suite tables (issue 30, step 4):
//
//   - reg-workflow-unknown-suite (error): --suite names no suite of the
//     --hw backend in any table (filter_tests only prints a warning, finds
//     no test, and the job passes having run nothing), or --hw is not one
//     run_suite.py accepts (argparse rejects it);
//   - reg-workflow-wrong-table (warning, notice when the registrations it
//     selects exist): the suite is not in the table --nightly selects;
//   - reg-suite-no-workflow (warning): a per-commit suite that no call
//     runs; one notice per backend instead when no workflow calls
//     run_suite.py for that backend at all;
//   - reg-suite-runner-mismatch (warning): the hardware a suite's name
//     says (a model such as h100 or mi35x, a device count, cpu) is not the
//     hardware of the runner that the call's job runs on.
//
// Values cicheck cannot resolve (inputs of a workflow nothing in wfs
// calls, vars, step outputs, shell variables) could be anything: they
// never make a finding, and a suite or --hw that could be anything counts
// as running every suite of its backend (of every backend).
func CheckRunSuiteWorkflows(wfs []WorkflowFile, t *SuiteTables, o RunSuiteOptions) []finding.Finding {
	if t == nil {
		return nil
	}
	if o.Script == "" {
		o.Script = "run_suite.py"
	}
	calls := FindRunSuiteCalls(wfs, o.Script)
	var out []finding.Finding
	seen := map[string]bool{}
	add := func(f finding.Finding) {
		k := f.Rule + "\x00" + f.File + "\x00" + strconv.Itoa(f.Line) + "\x00" + strconv.Itoa(f.Column) + "\x00" + f.Message
		if !seen[k] {
			seen[k] = true
			out = append(out, f)
		}
	}
	for _, c := range calls {
		file, line, col := c.File, c.Line, c.Col
		where := ""
		if c.ValueFile != "" {
			file, line, col = c.ValueFile, c.ValueLine, c.ValueCol
			where = fmt.Sprintf(" (passed to --suite at %s:%d:%d)", c.File, c.Line, c.Col)
		}
		if !c.HWExpr && len(t.HW) > 0 && !slices.Contains(t.HW, c.HW) {
			msg := fmt.Sprintf("--hw %s is not a backend run_suite.py accepts (%s): argparse rejects it and the job fails",
				pyRepr(c.HW), strings.Join(t.HW, ", "))
			if s := textdist.Closest(c.HW, t.HW); s != "" {
				msg += "; did you mean " + pyRepr(s) + "?"
			}
			add(jobFinding(RuleWorkflowUnknownSuite, c.File, c.Line, c.Col, c.Job, msg))
			continue
		}
		if c.HWExpr || c.SuiteExpr {
			continue
		}
		if !t.Valid(c.HW, c.Suite) {
			msg := fmt.Sprintf("suite %s is in no suite table of --hw %s: run_suite.py only prints a warning, finds no test, and the job passes having run nothing",
				pyRepr(c.Suite), c.HW)
			var others []string
			for _, hw := range t.HW {
				if hw != c.HW && t.Valid(hw, c.Suite) {
					others = append(others, hw)
				}
			}
			if s := textdist.Closest(c.Suite, allSuites(t, c.HW)); s != "" {
				msg += "; did you mean " + pyRepr(s) + "?"
			}
			if len(others) > 0 {
				msg += fmt.Sprintf(" (%s is a suite of --hw %s)", pyRepr(c.Suite), strings.Join(others, ", "))
			}
			add(jobFinding(RuleWorkflowUnknownSuite, file, line, col, c.Job, msg+where))
			continue
		}
		if c.NightlyExpr {
			continue
		}
		table, name := t.PerCommit, "PER_COMMIT_SUITES"
		if c.Nightly {
			table, name = t.Nightly, "NIGHTLY_SUITES"
		}
		if !slices.Contains(table[c.HW], c.Suite) {
			flag := "without --nightly"
			if c.Nightly {
				flag = "with --nightly"
			}
			msg := fmt.Sprintf("suite %s, run %s, is not in %s[%s] (it is in %s): run_suite.py prints a warning",
				pyRepr(c.Suite), flag, name, c.HW, strings.Join(tablesOf(t, c.HW, c.Suite), ", "))
			sev := finding.Warning
			n, known := 0, o.Enabled != nil
			if known {
				n = o.Enabled[SuiteKey{c.HW, c.Suite, c.Nightly}]
			}
			switch {
			case known && n > 0:
				sev = finding.Notice
				msg += fmt.Sprintf(", and still runs the %d test(s) registered for it with nightly=%s", n, pyBool(c.Nightly))
			case known:
				msg += fmt.Sprintf(", and no enabled test is registered for it with nightly=%s, so the job runs nothing and passes", pyBool(c.Nightly))
			default:
				msg += fmt.Sprintf(", and runs only tests registered for it with nightly=%s", pyBool(c.Nightly))
			}
			f := jobFinding(RuleWorkflowWrongTable, file, line, col, c.Job, msg+where)
			f.Severity = sev
			add(f)
		}
		if m := runnerMismatch(c); m != "" {
			add(jobFinding(RuleSuiteRunnerMismatch, file, line, col, c.Job,
				fmt.Sprintf("suite %s (--hw %s) runs on runs-on %s: %s", pyRepr(c.Suite), c.HW, quoteList(c.Runner), m)+where))
		}
	}
	for _, f := range noWorkflow(wfs, t, o, calls) {
		add(f)
	}
	return out
}

// noWorkflow is reg-suite-no-workflow: the per-commit suites no call runs.
func noWorkflow(wfs []WorkflowFile, t *SuiteTables, o RunSuiteOptions, calls []RunSuiteCall) []finding.Finding {
	read := slices.ContainsFunc(wfs, func(w WorkflowFile) bool { return w.AST != nil })
	if !read {
		return nil // no workflow read: no evidence either way
	}
	anyHW := map[string]bool{}    // a call with this --hw (or any)
	anySuite := map[string]bool{} // a per-commit call whose suite could be any
	ran := map[SuiteKey]bool{}
	for _, c := range calls {
		hws := []string{c.HW}
		if c.HWExpr {
			hws = t.HW
			if len(hws) == 0 {
				hws = sortedKeys(t.PerCommit)
			}
		}
		for _, hw := range hws {
			anyHW[hw] = true
			if c.Nightly && !c.NightlyExpr {
				continue
			}
			if c.SuiteExpr {
				anySuite[hw] = true
			} else {
				ran[SuiteKey{hw, c.Suite, false}] = true
			}
		}
	}
	var out []finding.Finding
	for _, hw := range sortedKeys(t.PerCommit) {
		suites := t.PerCommit[hw]
		if len(suites) == 0 || anySuite[hw] {
			continue
		}
		if !anyHW[hw] {
			var need []string
			for _, s := range suites {
				if o.Enabled == nil || o.Enabled[SuiteKey{hw, s, false}] > 0 {
					need = append(need, s)
				}
			}
			if len(need) == 0 {
				continue
			}
			line, col := tableSuitePos(o, hw, need[0])
			f := newFinding(RuleSuiteNoWorkflow, o.TablesFile, line, col,
				fmt.Sprintf("no workflow runs run_suite.py --hw %s, so none of its %d per-commit suite(s) (%s) runs in this repository's CI; if they run elsewhere, this is expected",
					hw, len(need), strings.Join(quoteEach(need), ", ")))
			f.Severity = finding.Notice
			out = append(out, f)
			continue
		}
		for _, s := range suites {
			if ran[SuiteKey{hw, s, false}] {
				continue
			}
			if o.Enabled != nil && o.Enabled[SuiteKey{hw, s, false}] == 0 {
				continue // nothing registered: nothing is lost
			}
			line, col := tableSuitePos(o, hw, s)
			msg := fmt.Sprintf("per-commit suite %s (--hw %s) is run by no workflow: its tests never run", pyRepr(s), hw)
			if o.Enabled != nil {
				msg = fmt.Sprintf("per-commit suite %s (--hw %s) is run by no workflow: its %d registered test(s) never run",
					pyRepr(s), hw, o.Enabled[SuiteKey{hw, s, false}])
			}
			out = append(out, newFinding(RuleSuiteNoWorkflow, o.TablesFile, line, col, msg))
		}
	}
	return out
}

func tableSuitePos(o RunSuiteOptions, hw, s string) (int, int) {
	if o.SuitePos != nil {
		if l, c := o.SuitePos(hw, s); l > 0 {
			return l, c
		}
	}
	return 1, 1
}

func jobFinding(rule, file string, line, col int, job, msg string) finding.Finding {
	f := newFinding(rule, file, line, col, msg)
	f.Job = job
	return f
}

func allSuites(t *SuiteTables, hw string) []string {
	var out []string
	for _, m := range []map[string][]string{t.PerCommit, t.Nightly, t.Other} {
		out = append(out, m[hw]...)
	}
	return out
}

func tablesOf(t *SuiteTables, hw, suite string) []string {
	var out []string
	for i, m := range []map[string][]string{t.PerCommit, t.Nightly, t.Other} {
		if slices.Contains(m[hw], suite) {
			out = append(out, []string{"PER_COMMIT_SUITES", "NIGHTLY_SUITES", "OTHER_SUITES"}[i])
		}
	}
	return out
}

func quoteEach(xs []string) []string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = pyRepr(x)
	}
	return out
}

func quoteList(xs []string) string { return "[" + strings.Join(quoteEach(xs), ", ") + "]" }

// backendVendor is the hardware catalogue's vendor of each --hw backend
// that is an accelerator's (cpu is none).
var backendVendor = map[string]string{
	"cuda": "nvidia", "amd": "amd", "npu": "huawei", "xpu": "intel", "musa": "moorethreads", "mlx": "apple",
}

// hwProfile is what names say of hardware: the vendors and models the
// hardware catalogue recognises in them, a generic accelerator word, a
// device count, a CPU or build role, a GitHub-hosted image.
type hwProfile struct {
	vendors, models []string
	generic, role   bool
	hosted          bool
	count           int
}

// nameProfile reads the tokens of names (split on - . _ / : and blanks).
func nameProfile(names []string) hwProfile {
	var p hwProfile
	cat := workflowgraph.Hardware()
	hostedAll := len(names) > 0
	for _, n := range names {
		l := strings.ToLower(n)
		if !slices.Contains(ghschema.HostedLabels, l) {
			if _, retired := ghschema.Retired(l); !retired {
				hostedAll = false
			}
		} else {
			continue
		}
		toks := strings.FieldsFunc(l, func(r rune) bool {
			return r == '-' || r == '.' || r == '_' || r == '/' || r == ':' || r == ' ' || r == '\t'
		})
		for i, tok := range toks {
			kind, _ := workflowgraph.Accelerator(tok)
			switch kind {
			case "":
			case workflowgraph.AccelGPU:
				p.generic = true
				if n := deviceCount(toks, i); n > 0 {
					p.count = n
				}
			default:
				if !slices.Contains(p.vendors, kind) {
					p.vendors = append(p.vendors, kind)
				}
				p.models = append(p.models, tok)
			}
			if slices.Contains(cat.Generic.Roles, tok) || slices.ContainsFunc(cat.Generic.RolesNumbered, func(r string) bool {
				return strings.HasPrefix(tok, r) && allDigitsStr(tok[len(r):])
			}) {
				p.role = true
			}
		}
	}
	p.hosted = hostedAll
	return p
}

// deviceCount is the count a generic accelerator token at i carries:
// "8gpu", "gpu8", or a number token beside it ("8-gpu", "gpu-8").
func deviceCount(toks []string, i int) int {
	t := toks[i]
	d := strings.TrimLeft(t, "0123456789")
	if n, err := strconv.Atoi(t[:len(t)-len(d)]); err == nil && n > 0 {
		return n
	}
	e := strings.TrimRight(t, "0123456789")
	if n, err := strconv.Atoi(t[len(e):]); err == nil && n > 0 {
		return n
	}
	if i > 0 {
		if n, err := strconv.Atoi(toks[i-1]); err == nil && n > 0 {
			return n
		}
	}
	if i+1 < len(toks) {
		if n, err := strconv.Atoi(toks[i+1]); err == nil && n > 0 {
			return n
		}
	}
	return 0
}

// sameModel: equal model tokens, or a family written with x for its
// last digits (mi35x is mi350 and mi355x; mi300 is mi300x).
func sameModel(a, b string) bool {
	if a == b {
		return true
	}
	fam := func(x, y string) bool {
		p, ok := strings.CutSuffix(x, "x")
		return ok && len(p) >= 3 && strings.HasPrefix(y, p)
	}
	return fam(a, b) || fam(b, a)
}

// runnerMismatch says how the call's runner is not the hardware its
// suite's name says, "" when it is or cannot be told: a runner with an
// unresolved label, or a self-hosted one naming no hardware, says nothing.
func runnerMismatch(c RunSuiteCall) string {
	if c.RunnerExpr || len(c.Runner) == 0 {
		return ""
	}
	r := nameProfile(c.Runner)
	if c.HW == "cpu" {
		if len(r.vendors) > 0 || r.generic {
			return "a CPU suite on an accelerator runner holds scarce hardware it does not use"
		}
		return ""
	}
	want := backendVendor[c.HW]
	if want == "" {
		return ""
	}
	s := nameProfile([]string{c.Suite})
	switch {
	case r.hosted:
		return "a GitHub-hosted runner has no accelerator, so the suite's tests cannot run as written"
	case r.role && len(r.vendors) == 0 && !r.generic:
		return "the runner's labels name a CPU or build machine, not a " + want + " accelerator"
	case len(r.vendors) > 0 && !slices.Contains(r.vendors, want):
		return fmt.Sprintf("the runner names %s hardware (%s), not %s", strings.Join(r.vendors, ", "), strings.Join(r.models, ", "), want)
	}
	sm := s.models
	if len(sm) > 0 && len(r.models) > 0 {
		match := false
		for _, a := range sm {
			for _, b := range r.models {
				if sameModel(a, b) {
					match = true
				}
			}
		}
		if !match {
			return fmt.Sprintf("the suite is named for %s, the runner for %s", strings.Join(sm, ", "), strings.Join(r.models, ", "))
		}
	}
	if s.count > 0 && r.count > 0 && r.count < s.count {
		return fmt.Sprintf("the suite is named for %d devices, the runner for %d", s.count, r.count)
	}
	return ""
}
