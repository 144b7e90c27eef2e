package testregistry

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/cicheck/cicheck/finding"
)

// TestDetectProfileNameBoundary: a marker call counts only as a whole
// name; the byte before it decides, at each edge of the name bytes
// [0-9A-Za-z_] and the non-ASCII bytes of an identifier.
func TestDetectProfileNameBoundary(t *testing.T) {
	for _, c := range []struct {
		before string
		want   Profile
	}{
		{"", ProfileMiles},
		{" ", ProfileMiles},
		{"/", ProfileMiles}, // just below '0'
		{"0", ProfileNeutral},
		{"5", ProfileNeutral},
		{"9", ProfileNeutral},
		{":", ProfileMiles}, // just above '9'
		{"@", ProfileMiles}, // just below 'A'
		{"A", ProfileNeutral},
		{"M", ProfileNeutral},
		{"Z", ProfileNeutral},
		{"[", ProfileMiles}, // just above 'Z'
		{"_", ProfileNeutral},
		{"`", ProfileMiles}, // just below 'a'
		{"a", ProfileNeutral},
		{"m", ProfileNeutral},
		{"z", ProfileNeutral},
		{"{", ProfileMiles},        // just above 'z'
		{"\u0400", ProfileNeutral}, // its last byte is 0x80
		{"\x7f", ProfileMiles},
	} {
		files := map[string]string{"tests/e2e/test_a.py": "x = 1\n" + c.before + "register_cpu_ci(1, 'stage-a-cpu')\n"}
		if got := DetectProfile(mapFS(files)); got != c.want {
			t.Errorf("%q before the call: DetectProfile = %q, want %q", c.before, got, c.want)
		}
	}
}

// workflowFindings scans a miles repository whose suites module lists
// suites (CPU) and whose .github/workflows holds wfs, with the labels
// module replaced when labels is not nil; it returns the workflow
// findings as "rule file:line:col name".
func workflowFindings(t *testing.T, suites []string, labels *string, wfs map[string]string) []string {
	t.Helper()
	files := map[string]string{"tests/e2e/test_a.py": "register_cpu_ci(1, 'stage-a-cpu')\n"}
	var sb strings.Builder
	sb.WriteString("from enum import Enum\n\nclass HWBackend(Enum):\n    CPU = \"cpu\"\n\nCI_SUITES = {\n    HWBackend.CPU: [")
	for i, s := range suites {
		if i > 0 {
			sb.WriteString(", ")
		}
		sb.WriteString(pyRepr(s))
	}
	sb.WriteString("],\n}\n")
	files["tests/ci/run_suite.py"] = sb.String()
	for name, src := range wfs {
		files[".github/workflows/"+name] = src
	}
	m := repo(files)
	if labels != nil {
		m["tests/ci/labels.py"].Data = []byte(*labels)
	}
	r, err := Scan(m, DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range r.Findings {
		if f.Rule == RuleSuiteNoConsumer || f.Rule == RuleUnknownRequest {
			// The quoted name: "suite 'x' (CPU) is ..." or "'run-ci-x' is ...".
			name := strings.Fields(f.Message)[0]
			if f.Rule == RuleSuiteNoConsumer {
				name = strings.Fields(f.Message)[1]
			}
			got = append(got, fmt.Sprintf("%s %s:%d:%d %s", f.Rule, f.File, f.Line, f.Column, name))
		}
	}
	return got
}

// TestWorkflowSuitesNearMiss: which files of the workflows directory are
// read, and which suite names a --suite argument passes.
func TestWorkflowSuitesNearMiss(t *testing.T) {
	const run = "jobs:\n  a:\n    runs-on: x\n    steps:\n      - run: python tests/ci/run_suite.py --suite "
	for _, c := range []struct {
		name   string
		suites []string
		wfs    map[string]string
		want   string // the suites left unconsumed, or "none read"
	}{
		{"a .yaml file", []string{"s-1"}, map[string]string{"a.yaml": run + "s-1\n"}, ""},
		{"a .txt file is no workflow", []string{"s-1"}, map[string]string{"a.txt": run + "s-1\n", "b.yml": run + "stage-a-cpu\n"}, "s-1"},
		{"a directory named .yml", []string{"s-1"}, map[string]string{"d.yml/a.yml": run + "s-1\n", "b.yml": run + "stage-a-cpu\n"}, "s-1"},
		// A file that does not parse is no evidence; with nothing else
		// read no suite is reported.
		{"only a broken file", []string{"s-1"}, map[string]string{"a.yml": "jobs: [\n  run: x --suite stage-a-cpu\n"}, ""},
		{"a broken file beside a good one", []string{"s-1"}, map[string]string{"a.yml": "jobs: [\n  run: x --suite s-1\n", "b.yml": run + "stage-a-cpu\n"}, "s-1"},
		// Name bytes at the edges of [0-9A-Za-z] end the name or not.
		{"digits and letters", []string{"s0", "s9", "sa", "sz", "sA", "sZ", "sM", "s_.-"}, map[string]string{"a.yml": run + "s0 --suite s9 --suite sa --suite sz --suite sA --suite sZ --suite sM --suite s_.-\n"}, ""},
		{"a byte past the name", []string{"s"}, map[string]string{"a.yml": run + "s[ --suite=s@ --suite s{ --suite s: --suite s/\n"}, ""},
		{"no name after the flag", []string{"s-1"}, map[string]string{"a.yml": run + "\"\"\n      - run: x --suite=\n      - run: x --suite\n      - run: 'x --suite  '\n"}, "s-1"},
	} {
		got := workflowFindings(t, c.suites, nil, c.wfs)
		var names []string
		for _, g := range got {
			if strings.HasPrefix(g, RuleSuiteNoConsumer) {
				names = append(names, strings.Trim(g[strings.LastIndex(g, " ")+1:], "'"))
			}
		}
		if s := strings.Join(names, " "); s != c.want {
			t.Errorf("%s: unconsumed %q, want %q (%q)", c.name, s, c.want, got)
		}
	}
}

// TestSuiteArgsExact: the names a command line passes, no empty ones.
func TestSuiteArgsExact(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string
	}{
		{"--suite=;--suite a", []string{"a"}},
		{"--suite '' --suite=\"b\"", []string{"b"}},
		{"--suite", nil},
		{"--suite=", nil},
		{"--suite  ", nil},
		{"--suite '", nil},
	} {
		if got := suiteArgs(c.in); !slices.Equal(got, c.want) {
			t.Errorf("suiteArgs(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestWorkflowRequestsNearMiss: quoted run-ci-<x> requests for unknown
// labels, placed where the name is written; only with KNOWN_LABELS
// loaded; a string on the first or the last line of a file too.
func TestWorkflowRequestsNearMiss(t *testing.T) {
	const head = "jobs:\n  a:\n    runs-on: x\n    steps:\n"
	broken := "KNOWN_LABELS = [x for x in y]\n"
	for _, c := range []struct {
		name   string
		labels *string
		wf     string
		want   string // "line:col name" of each request, in order
	}{
		{"a double-quoted whole value", nil, head + "      - run: x\n        env:\n          L: \"run-ci-bogus\"\n", "7:15 'run-ci-bogus'"},
		{"a single-quoted whole value", nil, head + "      - run: x\n        env:\n          L: 'run-ci-bogus'\n", "7:15 'run-ci-bogus'"},
		{"quoted inside a quoted value", nil, head + "      - run: \"say 'run-ci-bogus' now\"\n", "5:20 'run-ci-bogus'"},
		{"a known label", nil, head + "      - run: \"say 'run-ci-megatron' now\"\n", ""},
		{"labels not loaded", &broken, head + "      - run: \"say 'run-ci-bogus' now\"\n", ""},
		// Quotes on both sides of the name.
		{"a closing quote only", nil, head + "      - run: echo (run-ci-bogus' x\n", ""},
		{"an opening quote only", nil, head + "      - run: echo 'run-ci-bogus\n", ""},
		{"the value ends with the quote", nil, head + "      - run: echo 'run-ci-bogus'\n", "5:20 'run-ci-bogus'"},
		// Placed at the quoted occurrence, not at an earlier bare one or
		// one that continues the name.
		{"a bare occurrence first", nil, head + "      - run: echo run-ci-bogus 'run-ci-bogus'\n", "5:33 'run-ci-bogus'"},
		{"a bare occurrence at the value's start", nil, head + "      - run: run-ci-bogus 'run-ci-bogus'\n", "5:28 'run-ci-bogus'"},
		{"a longer name first", nil, head + "      - run: echo 'run-ci-bogusx 'run-ci-bogus'\n", "5:35 'run-ci-bogus'"},
		// The first and the last line of a file.
		{"first line", nil, "name: 'run-ci-bogus'\n" + head + "      - run: x\n", "1:8 'run-ci-bogus'"},
		{"last line, no final newline", nil, head + "      - run: x\n        env:\n          L: 'run-ci-bogus'", "7:15 'run-ci-bogus'"},
	} {
		got := workflowFindings(t, nil, c.labels, map[string]string{"a.yml": c.wf})
		var reqs []string
		for _, g := range got {
			if rest, ok := strings.CutPrefix(g, RuleUnknownRequest+" .github/workflows/a.yml:"); ok {
				reqs = append(reqs, rest)
			}
		}
		if s := strings.Join(reqs, ", "); s != c.want {
			t.Errorf("%s: requests %q, want %q", c.name, s, c.want)
		}
	}
}

// TestLoadLabelsRebindingNearMiss: KNOWN_LABELS read in a for statement's
// iterable is not rebound, a name in its target is, however its target
// list is bracketed; a set() of two arguments is a call.
func TestLoadLabelsRebindingNearMiss(t *testing.T) {
	for _, c := range []struct{ src, keys, why string }{
		{"KNOWN_LABELS = ['a']\nfor a[0] in KNOWN_LABELS: pass\n", "a", ""},
		{"KNOWN_LABELS = ['a']\nfor (a) in KNOWN_LABELS: pass\n", "a", ""},
		{"KNOWN_LABELS = ['a']\nfor a[b in c], KNOWN_LABELS in d: pass\n", "-", "2:16 it is rebound after its assignment on line 1"},
		{"KNOWN_LABELS = ['a']\nasync for KNOWN_LABELS in x: pass\n", "-", "2:11 it is rebound after its assignment on line 1"},
		{"KNOWN_LABELS = ['a']\nx = 1; KNOWN_LABELS, y = 2, 3\n", "-", "2:8 it is rebound after its assignment on line 1"},
		{"KNOWN_LABELS = ['a']\nf(x).a, KNOWN_LABELS = 1, 2\n", "-", "2:9 it is rebound after its assignment on line 1"},
		{"KNOWN_LABELS = ['a']\nf(x, KNOWN_LABELS)\n", "a", ""},
		{"KNOWN_LABELS = set(['a'], ['b'])\n", "-", "1:16 the value is a Call, not a literal"},
		{"KNOWN_LABELS = set(['a'])\n", "a", ""},
	} {
		ls, fs := loadLabels(fstest.MapFS{"tests/ci/labels.py": {Data: []byte(c.src)}}, DefaultConfig())
		keys := "-"
		if ls != nil {
			var k []string
			for _, x := range ls.keys {
				k = append(k, x.name)
			}
			keys = strings.Join(k, ",")
		}
		why := ""
		if len(fs) > 0 {
			why = fmt.Sprintf("%d:%d %s", fs[0].Line, fs[0].Column, strings.TrimSuffix(strings.TrimPrefix(fs[0].Message, "cannot load KNOWN_LABELS statically: "), "; label checks are skipped"))
		}
		if keys != c.keys || why != c.why {
			t.Errorf("%q: keys %q, %q; want %q, %q", c.src, keys, why, c.keys, c.why)
		}
	}
}

// TestLabelsFileMissing: a labels module that is not there is named as
// missing; one that cannot be read gives the read error.
func TestLabelsFileMissing(t *testing.T) {
	_, fs := loadLabels(fstest.MapFS{}, DefaultConfig())
	if len(fs) != 1 || !strings.Contains(fs[0].Message, ": tests/ci/labels.py does not exist;") {
		t.Errorf("missing: %v", fs)
	}
	_, fs = loadLabels(fstest.MapFS{"tests/ci/labels.py/x": {}}, DefaultConfig())
	if len(fs) != 1 || strings.Contains(fs[0].Message, "does not exist") || fs[0].Rule != RuleLabelsNotLiteral {
		t.Errorf("a directory: %v", fs)
	}
}

// TestBadLabelsNotUnused: a reserved or malformed label, reported as such,
// is not reported again as used by no registration.
func TestBadLabelsNotUnused(t *testing.T) {
	r, err := Scan(repo(map[string]string{
		"tests/ci/labels.py":  "KNOWN_LABELS = {'nightly': 'x', 'a b': 'y', 'spare': 'z'}\n",
		"tests/e2e/test_a.py": "register_cpu_ci(1, 'stage-a-cpu')\n",
	}), DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range r.Findings {
		switch f.Rule {
		case RuleLabelsUnused, RuleLabelsReserved, RuleLabelsBadKey:
			got = append(got, f.Rule+" "+itoaT(f.Column))
		}
	}
	want := []string{RuleLabelsReserved + " 17", RuleLabelsBadKey + " 33", RuleLabelsUnused + " 45"}
	if !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestLoadSuitesFallback: CI_SUITES is read only as a literal dict of
// string lists that nothing changes later; otherwise the miles profile
// (no registry.suites.map) has no suites.
func TestLoadSuitesFallback(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"CI_SUITES = {HWBackend.CPU: ['a', 'b']}\n", "map[cpu:[a b]]"},
		{"X = 1\n", "nil"},
		{"CI_SUITES = yield\n", "nil"},
		{"CI_SUITES = {HWBackend.CPU: ['a']}\nCI_SUITES['x'] = []\n", "nil"},
		{"CI_SUITES = {HWBackend.CPU: ['a']}\nfor CI_SUITES in x: pass\n", "nil"},
		{"CI_SUITES = {HWBackend.CPU: ['a', 1]}\n", "nil"},
		{"CI_SUITES = {HWBackend.CPU: ['a', b'b']}\n", "nil"},
	} {
		r, err := Scan(repo(map[string]string{"tests/ci/run_suite.py": c.src}), DefaultConfig())
		if err != nil {
			t.Fatal(err)
		}
		got := fmt.Sprint(r.Suites)
		if r.Suites == nil {
			got = "nil"
		}
		if got != c.want {
			t.Errorf("%q: suites %s, want %s", c.src, got, c.want)
		}
	}
}

// TestDomainLabelNearMiss: a GPU marker's missing domain label is
// reported only when the call's labels can be judged: not after a
// starred or **kwargs argument or an extra positional one, and not when
// labels is already wrong.
func TestDomainLabelNearMiss(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"register_cuda_ci(60, 'stage-b-2-gpu-h200', labels=[])\n", RuleNoDomainLabel},
		{"register_cuda_ci(60, 'stage-b-2-gpu-h200')\n", RuleNoDomainLabel},
		{"register_cuda_ci(60, 'stage-b-2-gpu-h200', ['megatron'])\n", RuleTooManyPos},
		{"register_cuda_ci(60, 'stage-b-2-gpu-h200', **kw)\n", RuleKwargs},
		{"register_cuda_ci(60, 'stage-b-2-gpu-h200', labels=[x])\n", RuleLabelsType},
		{"register_cuda_ci(60, 'stage-b-2-gpu-h200', labels=[1])\n", RuleLabelsType},
		{"register_cuda_ci(60, 'stage-b-2-gpu-h200', labels='megatron')\n", RuleLabelsType},
		{"register_cuda_ci(60, 'stage-b-2-gpu-h200', labels=['megatron'])\n", ""},
	} {
		var rules []string
		for _, f := range regFindings(t, DefaultConfig(), "tests/e2e/test_a.py", c.src) {
			if f.Severity == finding.Error {
				rules = append(rules, f.Rule)
			}
		}
		if got := strings.Join(rules, " "); got != c.want {
			t.Errorf("%q: %s, want %s", c.src, got, c.want)
		}
	}
}

// TestSemanticDefaultOnlyUnderItsRoot: a call that repeats tests/fast's
// implicit registration is redundant there and nowhere else.
func TestSemanticDefaultOnlyUnderItsRoot(t *testing.T) {
	const call = "register_cpu_ci(est_time=10, suite='stage-a-cpu')\n"
	for _, c := range []struct {
		file, src string
		want      bool
	}{
		{"tests/fast/test_a.py", call, true},
		{"tests/e2e/test_a.py", call, false},
		{"tests/fast/test_a.py", "register_cpu_ci(10, 'stage-a-cpu')\n", false},
		{"tests/fast/test_a.py", "register_cpu_ci(est_time=11, suite='stage-a-cpu')\n", false},
		{"tests/fast/test_a.py", "register_cpu_ci(est_time=10, suite='stage-b-cpu')\n", false},
		{"tests/fast/test_a.py", "register_cpu_ci(est_time=10, suite='stage-a-cpu', nightly=True)\n", false},
	} {
		got := false
		for _, f := range regFindings(t, DefaultConfig(), c.file, c.src) {
			got = got || f.Rule == RuleSemanticDefault
		}
		if got != c.want {
			t.Errorf("%s %q: semantic default %v, want %v", c.file, c.src, got, c.want)
		}
	}
}

// TestExtraParamValues: configured parameters' values are kept on the
// registration; a string-list element must be a string, and a parameter
// without allowed values takes any.
func TestExtraParamValues(t *testing.T) {
	cfg := DefaultConfig()
	cfg.ExtraParams = map[string]map[string]Param{
		"register_cuda_ci": {"hw": {Type: "str_list", Allowed: []string{"h100"}}, "tag": {Type: "str"}},
	}
	for _, c := range []struct{ src, errs, extra string }{
		{"register_cuda_ci(1, 'stage-b-2-gpu-h200', labels=['megatron'], hw=['h100'], tag='any')\n", "", "map[hw:[h100] tag:any]"},
		{"register_cuda_ci(1, 'stage-b-2-gpu-h200', labels=['megatron'], tag='other')\n", "", "map[tag:other]"},
		{"register_cuda_ci(1, 'stage-b-2-gpu-h200', labels=['megatron'], hw=['h100', 1])\n", RuleNotLiteral + " 1:76", "none"},
		{"register_cuda_ci(1, 'stage-b-2-gpu-h200', labels=['megatron'], hw=['h100', x])\n", RuleNotLiteral + " 1:76", "none"},
	} {
		r, err := Scan(repo(map[string]string{"tests/e2e/test_a.py": c.src}), cfg)
		if err != nil {
			t.Fatal(err)
		}
		var errs []string
		for _, f := range r.Findings {
			if f.File == "tests/e2e/test_a.py" && f.Severity == finding.Error {
				errs = append(errs, fmt.Sprintf("%s %d:%d", f.Rule, f.Line, f.Column))
			}
		}
		extra := "none"
		if len(r.Registrations) == 1 {
			extra = fmt.Sprint(r.Registrations[0].Extra)
		}
		if got := strings.Join(errs, ", "); got != c.errs || extra != c.extra {
			t.Errorf("%q: %q, extra %s; want %q, %s", c.src, got, extra, c.errs, c.extra)
		}
	}
}

// TestPyReprEscapes: repr of characters Python does not print, at the
// edges of the \x, \u and \U forms (repr('\uffff') is '\uffff').
func TestPyReprEscapes(t *testing.T) {
	for _, c := range []struct{ s, want string }{
		{"\u00ad", `'\xad'`},
		{"\u00ff", "'\u00ff'"},
		{"\u0378", `'\u0378'`},
		{"\uffff", `'\uffff'`},
		{"\U000e0001", `'\U000e0001'`},
	} {
		if got := pyRepr(c.s); got != c.want {
			t.Errorf("pyRepr(%q) = %s, want %s", c.s, got, c.want)
		}
	}
}

// TestTopLevelCallsNearMiss: only module-level statements are searched
// for marker calls: not the statements after ';' in a one-line if body;
// a trailing ';' ends a statement, and a statement that is no marker call
// need not parse as an expression.
func TestTopLevelCallsNearMiss(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"register_cpu_ci(1, 'stage-a-cpu')\n", "1 stage-a-cpu"},
		{"register_cpu_ci(1, 'stage-a-cpu');\n", "1 stage-a-cpu"},
		{"x = 1; register_cpu_ci(1, 'stage-a-cpu')\n", "1 stage-a-cpu"},
		{"if x: pass; register_cpu_ci(1, 'stage-a-cpu')\n", "0"},
		{"while x: pass; register_cpu_ci(1, 'stage-a-cpu')\n", "0"},
		{"assert (x)\nregister_cpu_ci(1, 'stage-a-cpu')\n", "1 stage-a-cpu"},
		{"del (x)\nregister_cpu_ci(1, 'stage-a-cpu')\n", "1 stage-a-cpu"},
	} {
		r, err := Scan(repo(map[string]string{"tests/e2e/test_a.py": c.src}), DefaultConfig())
		if err != nil {
			t.Fatal(err)
		}
		got := itoaT(len(r.Registrations))
		for _, g := range r.Registrations {
			got += " " + g.Suite
		}
		for _, f := range r.Findings {
			if f.Rule == RuleSyntaxError {
				got += " " + f.Rule
			}
		}
		if got != c.want {
			t.Errorf("%q: %s, want %s", c.src, got, c.want)
		}
	}
}

// TestOnlyLabelsCountAsUsed: the strings of another list argument do not
// make a label used.
func TestOnlyLabelsCountAsUsed(t *testing.T) {
	r, err := Scan(repo(map[string]string{
		"tests/ci/labels.py":  "KNOWN_LABELS = ['megatron', 'spare']\n",
		"tests/e2e/test_a.py": "register_cuda_ci(1, 'stage-b-2-gpu-h200', labels=['megatron'], other=['spare'])\n",
	}), DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	var unused []string
	for _, f := range r.Findings {
		if f.Rule == RuleLabelsUnused {
			unused = append(unused, f.Message)
		}
	}
	if want := []string{"label 'spare' is used by no registration"}; !slices.Equal(unused, want) {
		t.Errorf("unused %q, want %q", unused, want)
	}
}

// TestRocmMentionNamesSorted: the names a textual mention lists are
// sorted, whatever the configuration's map order.
func TestRocmMentionNamesSorted(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Markers = map[string]Marker{"reg_cpu": {Backend: "cpu"}, "reg_rocm_b": {Backend: "rocm"}, "reg_rocm_a": {Backend: "rocm"}, "reg_rocm_c": {Backend: "rocm"}}
	for range 4 {
		r, err := Scan(repo(map[string]string{"tests/fast/test_a.py": "from x import reg_rocm_b as r\n"}), cfg)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, f := range r.Findings {
			if f.Rule == RuleRocmAliasQuirk {
				got = append(got, f.Message)
			}
		}
		if len(got) != 1 || !strings.HasPrefix(got[0], "file mentions reg_rocm_a or reg_rocm_b or reg_rocm_c textually") {
			t.Fatalf("got %q", got)
		}
	}
}

// TestDiscoverRootsNearMiss: a root that is a file is skipped, and test
// files are found down to 40 directories below a root, no deeper.
func TestDiscoverRootsNearMiss(t *testing.T) {
	deep := func(n int) string { return "tests/e2e/" + strings.Repeat("d/", n) + "test_a.py" }
	fsys := mapFS(map[string]string{"tests/fast": "not a directory", deep(40): "", deep(41): ""})
	got, err := Discover(fsys, DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{deep(40)}; !slices.Equal(got, want) {
		t.Errorf("Discover = %q, want %q", got, want)
	}
}

// TestSkippedStagesNearMiss: a stage is not requested by the label of a
// disabled test, and a registration of a suite CI_SUITES does not list
// makes no stage runnable.
func TestSkippedStagesNearMiss(t *testing.T) {
	const c8, c4 = "stage-c-8-gpu-h200", "stage-c-4-gpu-h200"
	suites := strings.Replace(runSuitePy, `"stage-c-4-gpu-h200", `, "", 1)
	r, err := Scan(repo(map[string]string{
		"tests/ci/run_suite.py": suites,
		"tests/e2e/test_a.py":   "register_cuda_ci(100, '" + c8 + "', labels=['fsdp'])\n",
		"tests/e2e/test_d.py":   "register_cuda_ci(100, '" + c8 + "', labels=['lora'], disabled='flaky')\n",
		"tests/e2e/test_u.py":   "register_cuda_ci(100, '" + c4 + "', labels=['fsdp'])\n",
	}), DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	pc := r.Config().Policy
	for _, c := range []struct {
		raw     []string
		changed string
		c8, c4  bool // skipped
	}{
		{[]string{"run-ci-fsdp"}, "docs/x.txt", false, true},
		{[]string{"run-ci-lora"}, "docs/x.txt", true, true},
		{nil, "tests/e2e/test_a.py", false, true},
		{nil, "tests/e2e/test_u.py", true, true},
	} {
		ch, ok := ParseNameStatusZ([]byte("M\x00" + c.changed + "\x00"))
		if !ok {
			t.Fatal("diff unusable")
		}
		p, _, err := ResolvePolicy("weekly", c.raw, r.Known, pc)
		if err != nil {
			t.Fatal(err)
		}
		skipped := r.SkippedStages(p, c.raw, ch, true)
		if slices.Contains(skipped, c8) != c.c8 || slices.Contains(skipped, c4) != c.c4 {
			t.Errorf("%v, %s: skipped %v; want %s %v, %s %v", c.raw, c.changed, skipped, c8, c.c8, c4, c.c4)
		}
	}
}

// TestWorkflowInputsCustomPrefix: PR labels are kept by the configured
// prefix, not by run-ci-.
func TestWorkflowInputsCustomPrefix(t *testing.T) {
	pc := DefaultConfig().Policy
	pc.LabelPrefix = "ci-"
	in := WorkflowInputs{EventName: "pull_request", PRLabelsJSON: `["ci-foo", "run-ci-bar", "ci-", "nightly"]`}
	cadence, raw, err := ResolveWorkflowInputs(in, pc)
	if err != nil {
		t.Fatal(err)
	}
	if cadence != "nightly" || !slices.Equal(raw, []string{"ci-foo", "nightly"}) {
		t.Errorf("cadence %q raw %q", cadence, raw)
	}
}
