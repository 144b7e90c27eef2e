package testregistry

import (
	"fmt"
	"os"
	"path"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/cicheck/cicheck/finding"
)

// rsTables is a small set of suite tables in sglang's shape, invented
// for these tests.
func rsTables() *SuiteTables {
	return &SuiteTables{
		PerCommit: map[string][]string{
			"cpu":  {"unit-cpu"},
			"cuda": {"quick-1-gpu", "main-4-gpu-h100", "big-8-gpu-b200"},
			"amd":  {"quick-1-gpu-amd", "wide-8-gpu-amd-mi35x"},
			"npu":  {"npu-smoke-2-npu-a3"},
		},
		Nightly: map[string][]string{
			"cuda": {"nightly-8-gpu-h200"},
			"amd":  {"nightly-amd-1-gpu"},
		},
		Other:   map[string][]string{"cuda": {"soak"}},
		Checked: map[string]bool{"cuda": true, "cpu": true},
		HW:      []string{"cpu", "cuda", "amd", "npu", "xpu"},
	}
}

// rsFiles loads workflows given by name (under .github/workflows).
func rsFiles(t *testing.T, files map[string]string) []WorkflowFile {
	t.Helper()
	m := fstest.MapFS{}
	for name, body := range files {
		m[".github/workflows/"+name] = &fstest.MapFile{Data: []byte(body)}
	}
	wfs := LoadWorkflows(m, ".github/workflows")
	for _, w := range wfs {
		if w.AST == nil {
			t.Fatalf("%s does not parse", w.Path)
		}
	}
	if len(wfs) != len(files) {
		t.Fatalf("loaded %d of %d workflows", len(wfs), len(files))
	}
	return wfs
}

// rsRender is a call as the tests compare it.
func rsRender(c RunSuiteCall) string {
	s := fmt.Sprintf("%s:%d:%d %s hw=%s suite=%s", path.Base(c.File), c.Line, c.Col, c.Job, c.HW, c.Suite)
	if c.HWExpr {
		s += " hw=?"
	}
	if c.SuiteExpr {
		s += " suite=?"
	}
	if c.Nightly {
		s += " nightly"
	}
	if c.NightlyExpr {
		s += " nightly=?"
	}
	if c.Via != "" {
		s += " via=" + path.Base(c.Via)
	}
	if c.ValueFile != "" {
		s += fmt.Sprintf(" value=%s:%d:%d", path.Base(c.ValueFile), c.ValueLine, c.ValueCol)
	}
	if c.RunnerExpr {
		s += " runner=?"
	} else {
		s += " runner=" + strings.Join(c.Runner, ",")
	}
	return s
}

func TestRunSuiteCallsParsing(t *testing.T) {
	for _, tc := range []struct {
		name, wf string
		want     []string
	}{
		{"literal and = form", `on: push
jobs:
  a:
    runs-on: 1-gpu-h100
    steps:
      - run: python3 test/run_suite.py --hw cuda --suite quick-1-gpu
      - run: python3 test/run_suite.py --hw=cuda --suite=main-4-gpu-h100 --nightly
`, []string{
			"w.yml:6:58 a hw=cuda suite=quick-1-gpu runner=1-gpu-h100",
			"w.yml:7:58 a hw=cuda suite=main-4-gpu-h100 nightly runner=1-gpu-h100",
		}},
		{"quotes, continuation, several invocations, cd", `on: push
jobs:
  a:
    runs-on: [self-hosted, 8-gpu-b200]
    steps:
      - run: |
          cd test && python3 run_suite.py \
            --hw "cuda" \
            --suite 'big-8-gpu-b200' --auto-partition-id 0 --auto-partition-size 2
          echo done; python3 run_suite.py --suite "soak" --hw cuda
`, []string{
			"w.yml:9:21 a hw=cuda suite=big-8-gpu-b200 runner=self-hosted,8-gpu-b200",
			"w.yml:10:51 a hw=cuda suite=soak runner=self-hosted,8-gpu-b200",
		}},
		{"matrix values and include entries pair with the runner", `on: push
jobs:
  m:
    runs-on: ${{ matrix.runner }}
    strategy:
      matrix:
        part: [0, 1]
        include:
          - part: 0
            suite: quick-1-gpu
            runner: 1-gpu-h100
          - part: 1
            suite: wide-8-gpu-amd-mi35x
            runner: linux-mi355-gpu-8
          - part: 2
            suite: big-8-gpu-b200
            runner: 8-gpu-b200
    steps:
      - run: python3 run_suite.py --hw cuda --suite ${{ matrix.suite }} --auto-partition-id ${{ matrix.part }}
`, []string{
			"w.yml:19:53 m hw=cuda suite=quick-1-gpu value=w.yml:10:20 runner=1-gpu-h100",
			"w.yml:19:53 m hw=cuda suite=wide-8-gpu-amd-mi35x value=w.yml:13:20 runner=linux-mi355-gpu-8",
			"w.yml:19:53 m hw=cuda suite=big-8-gpu-b200 value=w.yml:16:20 runner=8-gpu-b200",
		}},
		{"expressions cicheck cannot resolve could be any", `on:
  workflow_dispatch:
    inputs:
      suite: {type: string}
jobs:
  d:
    runs-on: ${{ vars.RUNNER }}
    env:
      HW: cuda
      FLAGS: ${{ inputs.flags }}
    steps:
      - run: python3 run_suite.py --hw $HW --suite ${{ inputs.suite }}
      - run: python3 run_suite.py --hw ${{ vars.HW }} --suite quick-1-gpu $FLAGS
      - run: |
          HW=amd
          python3 run_suite.py --hw $HW --suite quick-1-gpu ${{ inputs.on && '--continue-on-error' || '' }}
`, []string{
			"w.yml:12:52 d hw=cuda suite= suite=? runner=?",
			"w.yml:13:63 d hw= suite=quick-1-gpu hw=? nightly=? runner=?",
			"w.yml:16:49 d hw= suite=quick-1-gpu hw=? runner=?",
		}},
		{"another script, a variable path, no --hw", `on: push
jobs:
  o:
    runs-on: ubuntu-latest
    steps:
      - run: |
          python3 test/lang/run_suite.py --suite per-commit
          python3 $DIR/run_suite.py --hw cuda --suite x
          echo python3 run_suite.py --hw cuda --suite y
          python3 other.py --hw cuda --suite z
`, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			wfs := rsFiles(t, map[string]string{"w.yml": tc.wf})
			var got []string
			for _, c := range FindRunSuiteCalls(wfs, "run_suite.py") {
				got = append(got, rsRender(c))
			}
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
		})
	}
}

// TestRunSuiteCallsScriptPath: a repository path follows cd and
// working-directory, so test/srt/run_suite.py is not test/run_suite.py.
func TestRunSuiteCallsScriptPath(t *testing.T) {
	wfs := rsFiles(t, map[string]string{"w.yml": `on: push
jobs:
  a:
    runs-on: 1-gpu-h100
    steps:
      - run: cd test && python3 run_suite.py --hw cuda --suite quick-1-gpu
      - run: cd test/srt && python3 run_suite.py --hw cuda --suite old-1
      - run: python3 run_suite.py --hw cuda --suite main-4-gpu-h100
        working-directory: test
      - run: python3 test/run_suite.py --hw cuda --suite big-8-gpu-b200
      - run: cd $X && python3 run_suite.py --hw cuda --suite unseen
`})
	var got []string
	for _, c := range FindRunSuiteCalls(wfs, "test/run_suite.py") {
		got = append(got, c.Suite)
	}
	want := []string{"quick-1-gpu", "main-4-gpu-h100", "big-8-gpu-b200"}
	if !slices.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}

// TestRunSuiteCallsReusable: a reusable workflow's inputs take its
// callers' with: values, matrix values of the caller included.
func TestRunSuiteCallsReusable(t *testing.T) {
	wfs := rsFiles(t, map[string]string{
		"_stage.yml": `on:
  workflow_call:
    inputs:
      suite: {type: string, required: true}
      runner: {type: string, required: true}
      hw: {type: string, default: cuda}
jobs:
  run:
    runs-on: ${{ inputs.runner }}
    steps:
      - run: python3 run_suite.py --hw ${{ inputs.hw }} --suite ${{ inputs.suite }}
`,
		"pr.yml": `on: push
jobs:
  quick:
    uses: ./.github/workflows/_stage.yml
    with:
      suite: quick-1-gpu
      runner: 1-gpu-h100
  amd:
    strategy:
      matrix:
        s: [quick-1-gpu-amd, wide-8-gpu-amd-mi35x]
    uses: ./.github/workflows/_stage.yml
    with:
      suite: ${{ matrix.s }}
      runner: linux-mi325-gpu-8
      hw: amd
`,
	})
	var got []string
	for _, c := range FindRunSuiteCalls(wfs, "run_suite.py") {
		got = append(got, rsRender(c))
	}
	want := []string{
		"_stage.yml:11:65 run hw=cuda suite=quick-1-gpu via=pr.yml:quick value=pr.yml:6:14 runner=1-gpu-h100",
		"_stage.yml:11:65 run hw=amd suite=quick-1-gpu-amd via=pr.yml:amd value=pr.yml:11:13 runner=linux-mi325-gpu-8",
		"_stage.yml:11:65 run hw=amd suite=wide-8-gpu-amd-mi35x via=pr.yml:amd value=pr.yml:11:30 runner=linux-mi325-gpu-8",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// rsFindings renders findings as "rule severity file:line:col message".
func rsFindings(fs []finding.Finding) []string {
	var out []string
	for _, f := range fs {
		out = append(out, fmt.Sprintf("%s %s %s:%d:%d %s", f.Rule, f.Severity, path.Base(f.File), f.Line, f.Column, f.Message))
	}
	return out
}

// rsCovered is a workflow that runs every per-commit suite of rsTables on
// its runner, so that a test's workflow adds only the finding it is about.
const rsCovered = `on: push
jobs:
  cpu:
    runs-on: ubuntu-latest
    steps:
      - run: python3 run_suite.py --hw cpu --suite unit-cpu
  cuda:
    runs-on: ${{ matrix.r }}
    strategy:
      matrix:
        include:
          - {s: quick-1-gpu, r: 1-gpu-h100}
          - {s: main-4-gpu-h100, r: 4-gpu-h100}
          - {s: big-8-gpu-b200, r: 8-gpu-b200}
    steps:
      - run: python3 run_suite.py --hw cuda --suite ${{ matrix.s }}
  amd:
    runs-on: ${{ matrix.r }}
    strategy:
      matrix:
        include:
          - {s: quick-1-gpu-amd, r: linux-mi325-gpu-1}
          - {s: wide-8-gpu-amd-mi35x, r: linux-mi355-gpu-8}
    steps:
      - run: python3 run_suite.py --hw amd --suite ${{ matrix.s }}
  npu:
    runs-on: linux-arm64-npu-2
    steps:
      - run: python3 run_suite.py --hw npu --suite npu-smoke-2-npu-a3
`

func TestRunSuiteCheckRules(t *testing.T) {
	for _, tc := range []struct {
		name, wf string
		enabled  map[SuiteKey]int
		want     []string
	}{
		{"clean", "", nil, nil},
		{"unknown suite with did-you-mean", `on: push
jobs:
  x:
    runs-on: 1-gpu-h100
    steps:
      - run: python3 run_suite.py --hw cuda --suite quick-1-gpuu
`, nil, []string{
			"reg-workflow-unknown-suite error x.yml:6:53 suite 'quick-1-gpuu' is in no suite table of --hw cuda: run_suite.py only prints a warning, finds no test, and the job passes having run nothing; did you mean 'quick-1-gpu'?",
		}},
		{"suite of another backend", `on: push
jobs:
  x:
    runs-on: linux-mi325-gpu-1
    steps:
      - run: python3 run_suite.py --hw amd --suite quick-1-gpu
`, nil, []string{
			"reg-workflow-unknown-suite error x.yml:6:52 suite 'quick-1-gpu' is in no suite table of --hw amd: run_suite.py only prints a warning, finds no test, and the job passes having run nothing ('quick-1-gpu' is a suite of --hw cuda)",
		}},
		{"unknown hw", `on: push
jobs:
  x:
    runs-on: 1-gpu-h100
    steps:
      - run: python3 run_suite.py --hw cdua --suite quick-1-gpu
`, nil, []string{
			"reg-workflow-unknown-suite error x.yml:6:53 --hw 'cdua' is not a backend run_suite.py accepts (cpu, cuda, amd, npu, xpu): argparse rejects it and the job fails; did you mean 'cuda'?",
		}},
		{"typo in a matrix value points at the entry", `on: push
jobs:
  x:
    runs-on: 1-gpu-h100
    strategy:
      matrix:
        suite: [quick-1-gpu, quick-1-gpy]
    steps:
      - run: python3 run_suite.py --hw cuda --suite ${{ matrix.suite }}
`, nil, []string{
			"reg-workflow-unknown-suite error x.yml:7:30 suite 'quick-1-gpy' is in no suite table of --hw cuda: run_suite.py only prints a warning, finds no test, and the job passes having run nothing; did you mean 'quick-1-gpu'? (passed to --suite at .github/workflows/x.yml:9:53)",
		}},
		{"per-commit suite run nightly", `on: schedule
jobs:
  x:
    runs-on: 1-gpu-h100
    steps:
      - run: python3 run_suite.py --hw cuda --suite quick-1-gpu --nightly
`, nil, []string{
			"reg-workflow-wrong-table warning x.yml:6:53 suite 'quick-1-gpu', run with --nightly, is not in NIGHTLY_SUITES[cuda] (it is in PER_COMMIT_SUITES): run_suite.py prints a warning, and runs only tests registered for it with nightly=True",
		}},
		{"other suite run per commit with registered tests", `on: push
jobs:
  x:
    runs-on: 1-gpu-h100
    steps:
      - run: python3 run_suite.py --hw cuda --suite soak
`, map[SuiteKey]int{{"cuda", "soak", false}: 2}, []string{
			"reg-workflow-wrong-table notice x.yml:6:53 suite 'soak', run without --nightly, is not in PER_COMMIT_SUITES[cuda] (it is in OTHER_SUITES): run_suite.py prints a warning, and still runs the 2 test(s) registered for it with nightly=False",
		}},
		{"nightly suite run without the flag, nothing registered", `on: push
jobs:
  x:
    runs-on: 8-gpu-h200
    steps:
      - run: python3 run_suite.py --hw cuda --suite nightly-8-gpu-h200
`, map[SuiteKey]int{{"cuda", "nightly-8-gpu-h200", true}: 3}, []string{
			"reg-workflow-wrong-table warning x.yml:6:53 suite 'nightly-8-gpu-h200', run without --nightly, is not in PER_COMMIT_SUITES[cuda] (it is in NIGHTLY_SUITES): run_suite.py prints a warning, and no enabled test is registered for it with nightly=False, so the job runs nothing and passes",
		}},
		{"model mismatch", `on: push
jobs:
  x:
    runs-on: 8-gpu-h200
    steps:
      - run: python3 run_suite.py --hw cuda --suite big-8-gpu-b200
`, nil, []string{
			"reg-suite-runner-mismatch warning x.yml:6:53 suite 'big-8-gpu-b200' (--hw cuda) runs on runs-on ['8-gpu-h200']: the suite is named for b200, the runner for h200",
		}},
		{"vendor mismatch", `on: push
jobs:
  x:
    runs-on: 1-gpu-h100
    steps:
      - run: python3 run_suite.py --hw amd --suite quick-1-gpu-amd
`, nil, []string{
			"reg-suite-runner-mismatch warning x.yml:6:52 suite 'quick-1-gpu-amd' (--hw amd) runs on runs-on ['1-gpu-h100']: the runner names nvidia hardware (h100), not amd",
		}},
		{"family and count", `on: push
jobs:
  x:
    runs-on: linux-mi355-gpu-2
    steps:
      - run: python3 run_suite.py --hw amd --suite wide-8-gpu-amd-mi35x
`, nil, []string{
			"reg-suite-runner-mismatch warning x.yml:6:52 suite 'wide-8-gpu-amd-mi35x' (--hw amd) runs on runs-on ['linux-mi355-gpu-2']: the suite is named for 8 devices, the runner for 2",
		}},
		{"gpu suite on a hosted runner, cpu suite on a gpu runner", `on: push
jobs:
  x:
    runs-on: ubuntu-latest
    steps:
      - run: python3 run_suite.py --hw cuda --suite quick-1-gpu
  y:
    runs-on: 1-gpu-h100
    steps:
      - run: python3 run_suite.py --hw cpu --suite unit-cpu
`, nil, []string{
			"reg-suite-runner-mismatch warning x.yml:6:53 suite 'quick-1-gpu' (--hw cuda) runs on runs-on ['ubuntu-latest']: a GitHub-hosted runner has no accelerator, so the suite's tests cannot run as written",
			"reg-suite-runner-mismatch warning x.yml:10:52 suite 'unit-cpu' (--hw cpu) runs on runs-on ['1-gpu-h100']: a CPU suite on an accelerator runner holds scarce hardware it does not use",
		}},
		{"runner cicheck cannot resolve, or naming nothing", `on: push
jobs:
  x:
    runs-on: ${{ vars.R }}
    steps:
      - run: python3 run_suite.py --hw cuda --suite big-8-gpu-b200
  y:
    runs-on: [self-hosted, farm]
    steps:
      - run: python3 run_suite.py --hw cuda --suite big-8-gpu-b200
`, nil, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			files := map[string]string{"covered.yml": rsCovered}
			if tc.wf != "" {
				files["x.yml"] = tc.wf
			}
			fs := CheckRunSuiteWorkflows(rsFiles(t, files), rsTables(), RunSuiteOptions{TablesFile: "test/run_suite.py", Enabled: tc.enabled})
			got := rsFindings(fs)
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
		})
	}
}

// TestRunSuiteNoWorkflow: per-commit suites no call runs, and the guards
// (a suite that could be any, a backend never called, nothing registered).
func TestRunSuiteNoWorkflow(t *testing.T) {
	partial := `on: push
jobs:
  cuda:
    runs-on: 1-gpu-h100
    steps:
      - run: python3 run_suite.py --hw cuda --suite quick-1-gpu
      - run: python3 run_suite.py --hw cuda --suite main-4-gpu-h100 --nightly
  amd:
    runs-on: linux-mi325-gpu-1
    steps:
      - run: python3 run_suite.py --hw amd --suite quick-1-gpu-amd
      - run: python3 run_suite.py --hw amd --suite ${{ inputs.s }}
`
	pos := func(hw, s string) (int, int) { return len(hw) + len(s), 5 }
	for _, tc := range []struct {
		name    string
		enabled map[SuiteKey]int
		want    []string
	}{
		{"registrations unknown", nil, []string{
			"reg-suite-no-workflow notice run_suite.py:1:1 no workflow runs run_suite.py --hw cpu, so none of its 1 per-commit suite(s) ('unit-cpu') runs in this repository's CI; if they run elsewhere, this is expected",
			"reg-suite-no-workflow warning run_suite.py:19:5 per-commit suite 'main-4-gpu-h100' (--hw cuda) is run by no workflow: its tests never run",
			"reg-suite-no-workflow warning run_suite.py:18:5 per-commit suite 'big-8-gpu-b200' (--hw cuda) is run by no workflow: its tests never run",
			"reg-suite-no-workflow notice run_suite.py:1:1 no workflow runs run_suite.py --hw npu, so none of its 1 per-commit suite(s) ('npu-smoke-2-npu-a3') runs in this repository's CI; if they run elsewhere, this is expected",
		}},
		{"registrations known", map[SuiteKey]int{{"cuda", "big-8-gpu-b200", false}: 4, {"npu", "npu-smoke-2-npu-a3", false}: 1}, []string{
			"reg-suite-no-workflow warning run_suite.py:18:5 per-commit suite 'big-8-gpu-b200' (--hw cuda) is run by no workflow: its 4 registered test(s) never run",
			"reg-suite-no-workflow notice run_suite.py:21:5 no workflow runs run_suite.py --hw npu, so none of its 1 per-commit suite(s) ('npu-smoke-2-npu-a3') runs in this repository's CI; if they run elsewhere, this is expected",
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := RunSuiteOptions{TablesFile: "test/run_suite.py", Enabled: tc.enabled}
			if tc.enabled != nil {
				o.SuitePos = pos
			}
			if tc.enabled == nil {
				o.SuitePos = func(hw, s string) (int, int) {
					if hw == "cuda" {
						return pos(hw, s)
					}
					return 0, 0
				}
			}
			var got []string
			for _, f := range rsFindings(CheckRunSuiteWorkflows(rsFiles(t, map[string]string{"p.yml": partial}), rsTables(), o)) {
				if strings.HasPrefix(f, RuleSuiteNoWorkflow) {
					got = append(got, f)
				}
			}
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
		})
	}
	// Nothing read: no evidence.
	if fs := CheckRunSuiteWorkflows(nil, rsTables(), RunSuiteOptions{}); len(fs) != 0 {
		t.Errorf("no workflows: %v", fs)
	}
}

// TestRunSuiteNearMisses: each guard, with the case just across it.
func TestRunSuiteNearMisses(t *testing.T) {
	check := func(t *testing.T, wf string) []string {
		t.Helper()
		fs := CheckRunSuiteWorkflows(rsFiles(t, map[string]string{"covered.yml": rsCovered, "x.yml": wf}), rsTables(), RunSuiteOptions{TablesFile: "test/run_suite.py"})
		var rules []string
		for _, f := range fs {
			rules = append(rules, f.Rule+"@"+path.Base(f.File)+":"+fmt.Sprint(f.Line))
		}
		return rules
	}
	for _, tc := range []struct {
		name, wf string
		want     []string
	}{
		// An include entry that matches a row's value extends that leg:
		// its runner pairs with the leg's suite (b200 with b200); one that
		// matches nothing adds a leg of its own.
		{"include extends a leg", `on: push
jobs:
  x:
    runs-on: ${{ matrix.r }}
    strategy:
      matrix:
        s: [big-8-gpu-b200, main-4-gpu-h100]
        include:
          - {s: big-8-gpu-b200, r: 8-gpu-b200}
          - {s: main-4-gpu-h100, r: 4-gpu-h100}
    steps:
      - run: python3 run_suite.py --hw cuda --suite ${{ matrix.s }}
`, nil},
		{"include extends a leg (mispaired)", `on: push
jobs:
  x:
    runs-on: ${{ matrix.r }}
    strategy:
      matrix:
        s: [big-8-gpu-b200, main-4-gpu-h100]
        include:
          - {s: big-8-gpu-b200, r: 4-gpu-h100}
          - {s: main-4-gpu-h100, r: 4-gpu-h100}
    steps:
      - run: python3 run_suite.py --hw cuda --suite ${{ matrix.s }}
`, []string{"reg-suite-runner-mismatch@x.yml:7"}},
		{"exclude removes a leg", `on: push
jobs:
  x:
    runs-on: 1-gpu-h100
    strategy:
      matrix:
        s: [quick-1-gpu, quick-1-gpx]
        exclude:
          - s: quick-1-gpx
    steps:
      - run: python3 run_suite.py --hw cuda --suite ${{ matrix.s }}
`, nil},
		{"exclude removes another leg", `on: push
jobs:
  x:
    runs-on: 1-gpu-h100
    strategy:
      matrix:
        s: [quick-1-gpu, quick-1-gpx]
        exclude:
          - s: quick-1-gpu
    steps:
      - run: python3 run_suite.py --hw cuda --suite ${{ matrix.s }}
`, []string{"reg-workflow-unknown-suite@x.yml:7"}},
		{"the variable is assigned in the script", `on: push
jobs:
  x:
    runs-on: 1-gpu-h100
    env: {S: quick-1-gpx}
    steps:
      - run: |
          S=quick-1-gpu
          python3 run_suite.py --hw cuda --suite $S
`, nil},
		{"the variable comes from env", `on: push
jobs:
  x:
    runs-on: 1-gpu-h100
    env: {S: quick-1-gpx}
    steps:
      - run: python3 run_suite.py --hw cuda --suite "$S"
`, []string{"reg-workflow-unknown-suite@x.yml:7"}},
		{"a flag that could be --nightly", `on: push
jobs:
  x:
    runs-on: 1-gpu-h100
    steps:
      - run: python3 run_suite.py --hw cuda --suite nightly-8-gpu-h200 ${{ inputs.nightly_flag }}
`, nil},
		{"a flag that cannot be --nightly", `on: push
jobs:
  x:
    runs-on: 8-gpu-h200
    steps:
      - run: python3 run_suite.py --hw cuda --suite nightly-8-gpu-h200 ${{ inputs.c && '--continue-on-error' || '' }}
`, []string{"reg-workflow-wrong-table@x.yml:6"}},
		{"echo is not a run", `on: push
jobs:
  x:
    runs-on: 1-gpu-h100
    steps:
      - run: echo "python3 run_suite.py --hw cuda --suite quick-1-gpx"
`, nil},
		{"a run behind env assignments and timeout", `on: push
jobs:
  x:
    runs-on: 1-gpu-h100
    steps:
      - run: CI=1 timeout 600 python3 run_suite.py --hw cuda --suite quick-1-gpx
`, []string{"reg-workflow-unknown-suite@x.yml:6"}},
		{"a comment is not a run", `on: push
jobs:
  x:
    runs-on: 1-gpu-h100
    steps:
      - run: |
          # python3 run_suite.py --hw cuda --suite quick-1-gpx
          true
`, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := check(t, tc.wf); !slices.Equal(got, tc.want) {
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}
}

// TestRunSuiteSglangReference runs the checks over sglang's real
// workflows and run_suite.py tables, when SGLANG_REF_WF names a directory
// holding them (.github/workflows/*.yml and tables.txt; see
// readRefTables). It prints the calls and findings for review.
func TestRunSuiteSglangReference(t *testing.T) {
	dir := os.Getenv("SGLANG_REF_WF")
	if dir == "" {
		t.Skip("SGLANG_REF_WF is not set")
	}
	tables := readRefTables(t, path.Join(dir, "test/run_suite.py"))
	wfs := LoadWorkflows(os.DirFS(dir), ".github/workflows")
	calls := FindRunSuiteCalls(wfs, "test/run_suite.py")
	t.Logf("%d workflows, %d calls", len(wfs), len(calls))
	for _, c := range calls {
		t.Logf("call %s", rsRender(c))
	}
	fs := CheckRunSuiteWorkflows(wfs, tables, RunSuiteOptions{Script: "test/run_suite.py", TablesFile: "test/run_suite.py"})
	byRule := map[string]int{}
	for _, f := range fs {
		byRule[f.Rule+" "+f.Severity.String()]++
		t.Logf("finding %s %s %s:%d:%d [%s] %s", f.Rule, f.Severity, f.File, f.Line, f.Column, f.Job, f.Message)
	}
	t.Logf("findings by rule: %v", byRule)
}

// readRefTables reads the suite tables of an sglang run_suite.py by a
// small line scan (the engine's parser is not this test's concern): the
// three dicts' HWBackend.X: [ "suite", ... ] entries and HW_MAPPING.
func readRefTables(t *testing.T, file string) *SuiteTables {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	tables := &SuiteTables{PerCommit: map[string][]string{}, Nightly: map[string][]string{}, Other: map[string][]string{}}
	var cur map[string][]string
	backend := ""
	inHW := false
	for _, line := range strings.Split(string(b), "\n") {
		l := strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(l, "HW_MAPPING = {"):
			inHW = true
			continue
		case strings.HasPrefix(l, "PER_COMMIT_SUITES = {"):
			cur = tables.PerCommit
			continue
		case strings.HasPrefix(l, "NIGHTLY_SUITES = {"):
			cur = tables.Nightly
			continue
		case strings.HasPrefix(l, "OTHER_SUITES = {"):
			cur = tables.Other
			continue
		case l == "}":
			cur, inHW = nil, false
			continue
		}
		if inHW {
			if k, _, ok := strings.Cut(l, ":"); ok {
				tables.HW = append(tables.HW, strings.Trim(k, `"`))
			}
			continue
		}
		if cur == nil || strings.HasPrefix(l, "#") {
			continue
		}
		if b, ok := strings.CutPrefix(l, "HWBackend."); ok {
			name, rest, _ := strings.Cut(b, ":")
			backend = strings.ToLower(name)
			cur[backend] = cur[backend][:len(cur[backend]):len(cur[backend])]
			if strings.Contains(rest, "[]") {
				cur[backend] = []string{}
			}
			l = rest
		}
		for _, part := range strings.Split(l, ",") {
			part = strings.TrimSpace(part)
			if i := strings.Index(part, "#"); i >= 0 {
				part = strings.TrimSpace(part[:i])
			}
			if strings.HasPrefix(part, `"`) && strings.HasSuffix(part, `"`) && len(part) > 1 {
				cur[backend] = append(cur[backend], strings.Trim(part, `"`))
			}
		}
	}
	return tables
}
