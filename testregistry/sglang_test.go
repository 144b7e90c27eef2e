package testregistry

import (
	"fmt"
	"io/fs"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/cicheck/cicheck/finding"
)

// sgTables is a run_suite.py in sglang's layout for the tests.
const sgTables = `from sglang.test.ci.ci_register import HWBackend

HW_MAPPING = {"cpu": HWBackend.CPU, "cuda": HWBackend.CUDA, "amd": HWBackend.AMD}
PER_COMMIT_SUITES = {
    HWBackend.CPU: ["base-a-test-cpu"],
    HWBackend.CUDA: ["base-a-test-1-gpu-small", "base-b-test-1-gpu-large"],
    HWBackend.AMD: ["stage-a-test-1-gpu-small-amd"],
}
NIGHTLY_SUITES = {HWBackend.CUDA: ["nightly-1-gpu"]}
OTHER_SUITES = {HWBackend.CUDA: ["stress"]}
_SUITE_CHECKED_BACKENDS = {HWBackend.CPU, HWBackend.CUDA}
`

const sgMainBlock = "\nif __name__ == \"__main__\":\n    unittest.main()\n"

// sgScan scans a tree of test files (relative to test/registered/, each
// given a main block unless it has one) under the sglang profile.
func sgScan(t *testing.T, files map[string]string) *Registry {
	t.Helper()
	m := map[string]string{"test/run_suite.py": sgTables}
	for name, src := range files {
		if !strings.Contains(src, "__main__") && !strings.HasSuffix(name, "!") {
			src += sgMainBlock
		}
		m["test/registered/"+strings.TrimSuffix(name, "!")] = src
	}
	r, err := Scan(mapFS(m), Sglang())
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// errorsOf lists r's findings of severity error as "rule: message".
func errorsOf(r *Registry) []string {
	var out []string
	for _, f := range r.Findings {
		if f.Severity == finding.Error {
			out = append(out, f.Rule+": "+f.Message)
		}
	}
	return out
}

func TestSglangArguments(t *testing.T) {
	const fn = "register_cuda_ci"
	for _, tc := range []struct {
		call string
		want string // the first error, or the registration as "suite est nightly disabled group"
	}{
		{`register_cuda_ci(est_time=60, suite="base-b-test-1-gpu-large")`, "base-b-test-1-gpu-large 60 false <nil> "},
		{`register_cuda_ci(60, "base-b-test-1-gpu-large", True, "flaky")`, "base-b-test-1-gpu-large 60 true flaky "},
		{`register_cuda_ci(est_time=6.5, stage="base-b", runner_config="1-gpu-large", in_process_group="g")`, "base-b-test-1-gpu-large 6.5 false <nil> g"},
		// bool est_time is an int to isinstance: accepted (with a warning).
		{`register_cuda_ci(est_time=True, suite="base-b-test-1-gpu-large")`, "base-b-test-1-gpu-large 1 false <nil> "},
		// in_process_group="" is falsy: no bundle.
		{`register_cuda_ci(est_time=1, suite="base-b-test-1-gpu-large", in_process_group="")`, "base-b-test-1-gpu-large 1 false <nil> "},
		{`register_cuda_ci(*a)`, "reg-starred-args: starred arguments are not supported in register_cuda_ci()"},
		{`register_cuda_ci(1, "s", False, None, 5)`, "reg-too-many-positional: too many positional arguments in register_cuda_ci()"},
		// Four positionals are fine (a near miss of the above).
		{`register_cuda_ci(1, "base-b-test-1-gpu-large", False, None)`, "base-b-test-1-gpu-large 1 false <nil> "},
		{`register_cuda_ci(**kw)`, "reg-kwargs: **kwargs are not supported in register_cuda_ci()"},
		{`register_cuda_ci(est_time=1, suite="x", labels=["a"])`, "reg-unknown-arg: unknown argument 'labels' in register_cuda_ci()"},
		{`register_cuda_ci(1, "x", suite="y")`, "reg-duplicate-arg: duplicated argument 'suite' in register_cuda_ci()"},
		{`register_cuda_ci(suite="base-b-test-1-gpu-large")`, "reg-missing-arg: est_time is a required constant in register_cuda_ci()"},
		// Not a constant: counts as not given.
		{`register_cuda_ci(est_time=-5, suite="base-b-test-1-gpu-large")`, "reg-missing-arg: est_time is a required constant in register_cuda_ci()"},
		{`register_cuda_ci(est_time=5, suite=SUITE)`, "reg-suite-shape: register_cuda_ci() must specify exactly one of (stage, runner_config) pair or suite; got stage=False, runner_config=False, suite=False"},
		{`register_cuda_ci(est_time=5, stage="a", suite="b")`, "reg-suite-shape: register_cuda_ci() must specify exactly one of (stage, runner_config) pair or suite; got stage=True, runner_config=False, suite=True"},
		{`register_cuda_ci(est_time=5, stage="a", runner_config="b", suite="c")`, "reg-suite-shape: register_cuda_ci() must specify exactly one of (stage, runner_config) pair or suite; got stage=True, runner_config=True, suite=True"},
		{`register_cuda_ci(est_time="5", suite="x")`, "reg-wrong-type: est_time must be a number in register_cuda_ci()"},
		{`register_cuda_ci(est_time=None, suite="x")`, "reg-wrong-type: est_time must be a number in register_cuda_ci()"},
		{`register_cuda_ci(est_time=5, suite=b"x")`, "reg-wrong-type: suite must be a string in register_cuda_ci()"},
		{`register_cuda_ci(est_time=5, stage=1, runner_config="x")`, "reg-wrong-type: stage must be a string in register_cuda_ci()"},
		{`register_cuda_ci(est_time=5, stage="a", runner_config=2)`, "reg-wrong-type: runner_config must be a string in register_cuda_ci()"},
		{`register_cuda_ci(est_time=5, suite="base-b-test-1-gpu-large", nightly=1)`, "reg-wrong-type: nightly must be a boolean in register_cuda_ci()"},
		{`register_cuda_ci(est_time=5, suite="base-b-test-1-gpu-large", disabled=True)`, "reg-wrong-type: disabled must be a string in register_cuda_ci()"},
		{`register_cuda_ci(est_time=5, suite="base-b-test-1-gpu-large", in_process_group=3)`, "reg-wrong-type: in_process_group must be a string in register_cuda_ci()"},
		// suite=None is a valid shape whose effective suite is None, which
		// validate_all_suites rejects on a checked backend.
		{`register_cuda_ci(est_time=5, suite=None)`, "reg-unknown-suite: Tests registered to invalid suites: backend=CUDA, suite='None'"},
		{`register_cuda_ci(est_time=5, stage=None, runner_config="x")`, "reg-unknown-suite: Tests registered to invalid suites: backend=CUDA, suite='None'"},
		// The order of the reference: shape before est_time's type.
		{`register_cuda_ci(est_time="x", stage="a")`, "reg-suite-shape: register_cuda_ci() must specify exactly one of (stage, runner_config) pair or suite; got stage=True, runner_config=False, suite=False"},
	} {
		t.Run(tc.call, func(t *testing.T) {
			r := sgScan(t, map[string]string{"test_x.py": "import unittest\n" + tc.call + "\n"})
			errs := errorsOf(r)
			var got string
			switch {
			case len(errs) > 0:
				got = errs[0]
			case len(r.Registrations) == 1:
				g := r.Registrations[0]
				d := "<nil>"
				if g.Disabled != nil {
					d = *g.Disabled
				}
				got = fmt.Sprintf("%s %v %t %s %s", g.suiteRepr(), g.EstTime, g.Nightly, d, g.Group)
			default:
				got = fmt.Sprintf("%d registrations, %d errors", len(r.Registrations), len(errs))
			}
			if got != tc.want {
				t.Errorf("%s:\n got %s\nwant %s", fn, got, tc.want)
			}
		})
	}
}

func TestSglangFileRules(t *testing.T) {
	reg := `register_cuda_ci(est_time=5, suite="base-b-test-1-gpu-large")` + "\n"
	for _, tc := range []struct {
		name, src string
		want      []string
	}{
		{"no registration", "import os\n", []string{"reg-no-registry: No CI registry found in test/registered/test_x.py"}},
		{"no main!", reg + "def test_a():\n    pass\n", []string{"reg-no-main: missing `if __name__ == \"__main__\":` entry. Pytest-style tests in this file will silently skip under `python3 file.py -f`. Add `unittest.main()` (for unittest.TestCase) or `sys.exit(pytest.main([__file__, \"-v\"]))` (for pytest-style)."}},
		// A disabled file never runs: no main block needed (near miss).
		{"disabled, no main!", `register_cuda_ci(est_time=5, suite="base-b-test-1-gpu-large", disabled="flaky")` + "\n", nil},
		// AMD is not suite-checked: any suite (near miss of the CUDA case).
		{"unchecked backend", `register_amd_ci(est_time=5, suite="anything")` + "\n", nil},
		{"checked backend", `register_cuda_ci(est_time=5, suite="base-b-test-1-gpu-lage")` + "\n",
			[]string{"reg-unknown-suite: Tests registered to invalid suites: backend=CUDA, suite='base-b-test-1-gpu-lage'; did you mean 'base-b-test-1-gpu-large'?"}},
		// Disabled registrations are validated too.
		{"checked, disabled", `register_cpu_ci(est_time=5, suite="nope", disabled="x")` + "\n",
			[]string{"reg-unknown-suite: Tests registered to invalid suites: backend=CPU, suite='nope'"}},
		// A suite of another table of the backend is valid.
		{"other table", `register_cuda_ci(est_time=5, suite="stress")` + "\n", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			name := "test_x.py"
			if strings.HasSuffix(tc.name, "!") {
				name += "!"
			}
			got := errorsOf(sgScan(t, map[string]string{name: "import unittest\n" + tc.src}))
			if !slices.Equal(got, tc.want) {
				t.Errorf("got %q\nwant %q", got, tc.want)
			}
		})
	}
}

func TestSglangDiscovery(t *testing.T) {
	reg := "register_cpu_ci(est_time=5, suite=\"base-a-test-cpu\")\n"
	r := sgScan(t, map[string]string{
		"conftest.py":          "x = 1\n",
		"__init__.py":          "",
		"cpu/utils.py":         "x = 1\n",
		"sub/conftest.py":      "x = 1\n",
		"gpu/utils.py":         reg, // only cpu/utils.py is excluded
		"xconftest.py":         reg, // a name ending in conftest.py is not conftest.py
		"test_top.py":          reg,
		"deep/er/test_deep.py": reg,
		"notes.txt":            "not python",
	})
	want := []string{"test/registered/deep/er/test_deep.py", "test/registered/gpu/utils.py", "test/registered/test_top.py", "test/registered/xconftest.py"}
	if !slices.Equal(r.Files, want) {
		t.Errorf("files = %q\nwant %q", r.Files, want)
	}
	if errs := errorsOf(r); len(errs) > 0 {
		t.Errorf("errors: %q", errs)
	}
}

func TestDetectSglang(t *testing.T) {
	test := "test/registered/test_a.py"
	call := "register_cuda_ci(est_time=1, suite=\"x\")\n"
	for _, tc := range []struct {
		name  string
		files map[string]string
		want  Profile
	}{
		{"tables", map[string]string{"test/run_suite.py": sgTables}, ProfileSglang},
		{"marker calls", map[string]string{test: call}, ProfileSglang},
		// A run_suite.py without the table is somebody else's script.
		{"other run_suite", map[string]string{"test/run_suite.py": "import sys\nSUITES = {}\n"}, ProfileNeutral},
		{"other function", map[string]string{test: "my_register_cuda_ci(1)\n"}, ProfileNeutral},
		// The miles layout wins over a stray sglang table.
		{"miles first", map[string]string{"test/run_suite.py": sgTables, "tests/ci/labels.py": "KNOWN_LABELS = {}\n"}, ProfileMiles},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := DetectProfile(mapFS(tc.files)); got != tc.want {
				t.Errorf("DetectProfile = %q, want %q", got, tc.want)
			}
			cfg, err := DefaultConfig().Resolve(mapFS(tc.files))
			if err != nil || cfg.Profile != tc.want {
				t.Errorf("Resolve = %q, %v; want %q", cfg.Profile, err, tc.want)
			}
		})
	}
}

func TestSuiteTables(t *testing.T) {
	r := sgScan(t, map[string]string{"test_a.py": "register_cpu_ci(est_time=5, suite=\"base-a-test-cpu\")\n"})
	tb := r.Tables
	if tb == nil {
		t.Fatal("tables not read")
	}
	if !slices.Equal(tb.HW, []string{"cpu", "cuda", "amd"}) || !tb.Checked["cuda"] || tb.Checked["amd"] ||
		!slices.Equal(tb.PerCommit["cuda"], []string{"base-a-test-1-gpu-small", "base-b-test-1-gpu-large"}) || !tb.Valid("cuda", "stress") || tb.Valid("cpu", "stress") {
		t.Errorf("tables = %+v", tb)
	}
	// A table that is not a literal: suite checks are skipped, with a notice.
	m := mapFS(map[string]string{
		"test/run_suite.py":         strings.Replace(sgTables, `OTHER_SUITES = {HWBackend.CUDA: ["stress"]}`, `OTHER_SUITES = make_suites()`, 1),
		"test/registered/test_a.py": "register_cpu_ci(est_time=5, suite=\"nope\")\n" + sgMainBlock,
	})
	r2, err := Scan(m, Sglang())
	if err != nil {
		t.Fatal(err)
	}
	if r2.Tables != nil || len(errorsOf(r2)) != 0 || !slices.ContainsFunc(r2.Findings, func(f finding.Finding) bool { return f.Rule == RuleSuitesUnknown }) {
		t.Errorf("non-literal table: tables %v, findings %v", r2.Tables, r2.Findings)
	}
	// A repeated key: the last wins, as in a dict.
	m3 := mapFS(map[string]string{
		"test/run_suite.py":         strings.Replace(sgTables, `NIGHTLY_SUITES = {HWBackend.CUDA: ["nightly-1-gpu"]}`, `NIGHTLY_SUITES = {HWBackend.CUDA: ["old"], HWBackend.CUDA: ["nightly-1-gpu"]}`, 1),
		"test/registered/test_a.py": "register_cuda_ci(est_time=5, suite=\"old\")\n" + sgMainBlock,
	})
	r3, err := Scan(m3, Sglang())
	if err != nil {
		t.Fatal(err)
	}
	if errs := errorsOf(r3); len(errs) != 1 {
		t.Errorf("repeated key: errors %q, want the suite 'old' invalid", errs)
	}
}

func intp(i int) *int { return &i }

func TestSelectRun(t *testing.T) {
	files := map[string]string{
		"a/test_a.py": `register_cuda_ci(est_time=100, suite="base-b-test-1-gpu-large")`,
		"a/test_b.py": `register_cuda_ci(est_time=30, suite="base-b-test-1-gpu-large", in_process_group="g")`,
		"a/test_c.py": `register_cuda_ci(est_time=30, suite="base-b-test-1-gpu-large", in_process_group="g")`,
		// 50 == bundle g's 30+30-10: a file sorts before a group on ties.
		"z/test_d.py": `register_cuda_ci(est_time=50, suite="base-b-test-1-gpu-large")`,
		"a/test_e.py": `register_cuda_ci(est_time=5, suite="base-b-test-1-gpu-large", disabled="flaky")`,
		"a/test_f.py": `register_cuda_ci(est_time=5, suite="base-b-test-1-gpu-large", nightly=True)`,
		"a/test_g.py": `register_cuda_ci(est_time=5, suite="base-a-test-1-gpu-small")`,
		"a/test_h.py": `register_amd_ci(est_time=5, suite="base-b-test-1-gpu-large")`,
	}
	for k, v := range files {
		files[k] = "import unittest\n" + v + "\n"
	}
	r := sgScan(t, files)
	if errs := errorsOf(r); len(errs) > 0 {
		t.Fatal(errs)
	}
	show := func(run Run) string {
		var parts []string
		for _, u := range run.Units {
			parts = append(parts, fmt.Sprintf("%s=%v", strings.TrimPrefix(u.name(), "test/registered/"), u.EstTime))
		}
		return strings.Join(parts, " ")
	}
	q := RunRequest{HW: "cuda", Suite: "base-b-test-1-gpu-large"}
	run, err := r.SelectRun(nil, q)
	if err != nil {
		t.Fatal(err)
	}
	// Unpartitioned: each registration alone, in collection order.
	if got := show(run); got != "a/test_a.py=100 a/test_b.py=30 a/test_c.py=30 z/test_d.py=50" || len(run.Skipped) != 1 || run.UnknownSuite {
		t.Errorf("full run: %s, skipped %d, unknown %t", got, len(run.Skipped), run.UnknownSuite)
	}
	// Two partitions: a(100) to 0; d(50) to 1; group g(50) to 1 (sum 50 < 100), after d on the tie.
	q.PartID, q.PartSize = intp(1), intp(2)
	run, _ = r.SelectRun(nil, q)
	if got := show(run); got != "z/test_d.py=50 group:g=50" {
		t.Errorf("partition 1/2: %s", got)
	}
	q.PartID = intp(0)
	run, _ = r.SelectRun(nil, q)
	if got := show(run); got != "a/test_a.py=100" {
		t.Errorf("partition 0/2: %s", got)
	}
	// More partitions than units: the last ones are empty.
	q.PartID, q.PartSize = intp(7), intp(1000000000)
	if run, _ = r.SelectRun(nil, q); len(run.Units) != 0 {
		t.Errorf("partition 7/1e9: %s", show(run))
	}
	// --nightly reads NIGHTLY_SUITES: this suite is unknown there, and only nightly registrations match.
	q = RunRequest{HW: "cuda", Suite: "base-b-test-1-gpu-large", Nightly: true}
	run, _ = r.SelectRun(nil, q)
	if got := show(run); got != "a/test_f.py=5" || !run.UnknownSuite {
		t.Errorf("nightly: %s, unknown %t", got, run.UnknownSuite)
	}
	for _, bad := range []RunRequest{
		{HW: "rocm", Suite: "x"},
		{HW: "cuda", Suite: "x", PartID: intp(0)},
		{HW: "cuda", Suite: "x", PartID: intp(2), PartSize: intp(2)},
		{HW: "cuda", Suite: "x", PartID: intp(0), PartSize: intp(0)},
	} {
		if _, err := r.SelectRun(nil, bad); err == nil {
			t.Errorf("%+v: no error", bad)
		}
	}
}

func TestLiveEst(t *testing.T) {
	const suite = "s"
	for _, tc := range []struct {
		name, json string
		want       string // sorted k=v, "nil", or "error"
	}{
		{"ok", `{"est": {"s": {"test/registered/a.py": 12, "group:g": "7.5", "x": true}}}`, "group:g=7.5 test/registered/a.py=12 x=1"},
		{"other suite", `{"est": {"t": {"a": 1}}}`, "nil"},
		{"no est", `{"x": 1}`, "nil"},
		{"empty suite", `{"est": {"s": {}}}`, "nil"},
		{"not a dict", `[1, 2]`, "nil"},
		{"suite not a dict", `{"est": {"s": [1]}}`, "nil"},
		{"bad json", `{"est": `, "nil"},
		{"est not a dict", `{"est": [1]}`, "error"},
		{"est null", `{"est": null}`, "error"},
		{"value null", `{"est": {"s": {"a": null}}}`, "error"},
		{"value word", `{"est": {"s": {"a": "fast"}}}`, "error"},
		{"value nan", `{"est": {"s": {"a": NaN}}}`, "error"},
		{"nan elsewhere", `{"est": {"s": {"a": 1}, "t": {"a": NaN}}, "note": "NaN"}`, "a=1"},
		{"infinity", `{"est": {"s": {"a": -Infinity, "b": Infinity, "c": "Infinity"}}}`, "a=-Inf b=+Inf c=+Inf"},
		{"value nan string", `{"est": {"s": {"a": " nan"}}}`, "error"},
		{"value inf string", `{"est": {"s": {"a": "-Infinity"}}}`, "a=-Inf"},
		{"value too large", `{"est": {"s": {"a": 1e999}}}`, "a=+Inf"},
		{"underscores", `{"est": {"s": {"a": " 1_000 "}}}`, "a=1000"},
		{"bad underscores", `{"est": {"s": {"a": "1__0"}}}`, "error"},
		{"duplicate key", `{"est": {"s": {"a": 1, "a": 2}}}`, "a=2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			live, err := loadLiveEst(mapFS(map[string]string{"model.json": tc.json}), "model.json", suite)
			var got string
			switch {
			case err != nil:
				got = "error"
			case live == nil:
				got = "nil"
			default:
				var kv []string
				for k, v := range live {
					kv = append(kv, fmt.Sprintf("%s=%v", k, v))
				}
				slices.Sort(kv)
				got = strings.Join(kv, " ")
			}
			if got != tc.want {
				t.Errorf("got %s (%v), want %s", got, err, tc.want)
			}
		})
	}
	if live, err := loadLiveEst(mapFS(nil), "missing.json", suite); live != nil || err != nil {
		t.Errorf("missing file: %v %v, want nil (in-source est_time)", live, err)
	}
	if _, err := loadLiveEst(mapFS(nil), "../model.json", suite); err == nil {
		t.Error("a path outside the repository is read")
	}
}

func TestSglangGuards(t *testing.T) {
	// An int literal past float's range: float() raises OverflowError;
	// a float literal past it is inf, accepted (the near miss).
	big := strings.Repeat("9", 400)
	r := sgScan(t, map[string]string{
		"test_a.py": "register_cuda_ci(est_time=" + big + ", suite=\"base-b-test-1-gpu-large\")\n",
		"test_b.py": "register_cuda_ci(est_time=" + big + ".0, suite=\"base-b-test-1-gpu-large\")\n",
	})
	if errs := errorsOf(r); len(errs) != 1 || !strings.Contains(errs[0], "int too large to convert to float") || len(r.Registrations) != 1 {
		t.Errorf("huge est_time: errors %q, %d registrations", errs, len(r.Registrations))
	}
	// A directory named like a test file is listed by glob and fails to
	// open; one named otherwise is just a directory.
	m := mapFS(map[string]string{"test/run_suite.py": sgTables})
	m["test/registered/odd.py"] = &fstest.MapFile{Mode: fs.ModeDir | 0o755}
	m["test/registered/odd"] = &fstest.MapFile{Mode: fs.ModeDir | 0o755}
	r2, err := Scan(m, Sglang())
	if err != nil {
		t.Fatal(err)
	}
	if errs := errorsOf(r2); len(errs) != 1 || !strings.Contains(errs[0], "test/registered/odd.py is a directory") {
		t.Errorf("directory odd.py: %q", errs)
	}
	// set() checks no backend; set(x) is not a literal.
	for _, tc := range []struct {
		checked string
		tables  bool
	}{{"set()", true}, {"set(BACKENDS)", false}} {
		m := mapFS(map[string]string{
			"test/run_suite.py":         strings.Replace(sgTables, "{HWBackend.CPU, HWBackend.CUDA}", tc.checked, 1),
			"test/registered/test_a.py": "register_cuda_ci(est_time=5, suite=\"nope\")\n" + sgMainBlock,
		})
		r, err := Scan(m, Sglang())
		if err != nil {
			t.Fatal(err)
		}
		if (r.Tables != nil) != tc.tables || len(errorsOf(r)) != 0 {
			t.Errorf("%s: tables read %t, errors %q", tc.checked, r.Tables != nil, errorsOf(r))
		}
	}
	// A model path that is a directory: open() raises an OSError, caught:
	// in-source est_time.
	m3 := mapFS(nil)
	m3["stats"] = &fstest.MapFile{Mode: fs.ModeDir | 0o755}
	if live, err := loadLiveEst(m3, "stats", "s"); live != nil || err != nil {
		t.Errorf("model directory: %v %v", live, err)
	}
}

// A file registered twice for one suite runs twice (a warning); two
// registrations without a suite are not the same suite (the near miss).
func TestSglangRegisteredTwice(t *testing.T) {
	for _, tc := range []struct {
		suite string
		want  int
	}{{`"anything"`, 1}, {"None", 0}} {
		call := "register_amd_ci(est_time=5, suite=" + tc.suite + ")\n"
		r := sgScan(t, map[string]string{"test_a.py": call + call})
		n := 0
		for _, f := range r.Findings {
			if f.Rule == RuleDuplicate && f.Severity == finding.Warning {
				n++
			}
		}
		if n != tc.want {
			t.Errorf("suite=%s twice: %d duplicate warnings, want %d", tc.suite, n, tc.want)
		}
	}
}
