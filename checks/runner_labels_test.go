package checks

import (
	"strings"
	"testing"

	"github.com/cicheck/cicheck/finding"
	"github.com/cicheck/cicheck/workflowgraph"
)

func TestRefineRunnerLabels(t *testing.T) {
	w := loadSrc(t, `on: push
jobs:
  a: {runs-on: [self-hosted, box-1], steps: [{run: x}]}
  b: {runs-on: [linux-a100-s2], steps: [{run: x}]}
  c: {runs-on: [box-2], steps: [{run: x}]}
  d: {runs-on: [scarce-1], steps: [{run: x}]}
`)
	unknown := func(l string) finding.Finding {
		return finding.Finding{Rule: "runner-label", Severity: finding.Error, Message: `label "` + l + `" is unknown. available labels are "windows-latest", ...`}
	}
	c := workflowgraph.NewClassifier(nil, nil, []string{"scarce-*"}, nil)
	got := RefineRunnerLabels([]finding.Finding{
		unknown("box-1"),         // beside self-hosted: dropped
		unknown("linux-a100-s2"), // an accelerator: dropped
		unknown("scarce-1"),      // heavy.runner-labels: dropped
		unknown("ubuntu-20.04"),  // retired: runner-image-retired reports it
		unknown(""),              // empty: syntax-check reports it
		unknown("docker-build"),  // a custom label: a notice
		unknown("big-box-7"),     // a custom label naming hardware: a notice pointing at gpu.runner-labels
		unknown("ubuntu-lates"),  // a near miss of a hosted label: an error naming it
		{Rule: "runner-label", Severity: finding.Error, Message: `label "x" is deprecated`}, // not an unknown label: kept as is
		{Rule: "expression", Severity: finding.Error, Message: `label "box-2" is unknown`},  // another rule: kept as is
	}, w, c)
	var lines []string
	for _, f := range got {
		lines = append(lines, f.Severity.String()+" "+f.Message)
	}
	want := []string{
		`notice label "docker-build" is not a GitHub-hosted runner label: the job runs on a self-hosted or larger runner that has it (declare it in .github/actionlint.yaml, self-hosted-runner.labels)`,
		`notice label "big-box-7" is not a GitHub-hosted runner label: the job runs on a self-hosted or larger runner that has it (declare it in .github/actionlint.yaml, self-hosted-runner.labels); if it is an accelerator runner, add it to gpu.runner-labels in .cicheck.yaml`,
		`error label "ubuntu-lates" is not a GitHub-hosted runner label: did you mean "ubuntu-latest"? (no runner picks the job up; for a self-hosted runner's label, add self-hosted to runs-on)`,
		`error label "x" is deprecated`,
		`error label "box-2" is unknown`,
	}
	if strings.Join(lines, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(lines, "\n"), strings.Join(want, "\n"))
	}
	// Without the graph, only classification can drop a label.
	if got := RefineRunnerLabels([]finding.Finding{unknown("box-1")}, nil, c); len(got) != 1 {
		t.Errorf("no workflow: %+v", got)
	}
}

// TestCustomLabelNeverAnError: custom labels, including ones shaped like a
// hosted label, are never errors; each near miss of a hosted label is (so
// the guard fails this test if widened or removed).
func TestCustomLabelNeverAnError(t *testing.T) {
	c := workflowgraph.NewClassifier(nil, nil, nil, nil)
	for _, tt := range []struct {
		label string
		sev   finding.Severity
	}{
		{"docker-build", finding.Notice},
		{"big-box-7", finding.Notice},
		{"ubuntu-latest-64-cores", finding.Notice}, // an organisation's larger runner
		{"ubuntu-24.04-16core", finding.Notice},
		{"windows-latest-16-cores", finding.Notice},
		{"x86", finding.Notice},
		{"release-runner", finding.Notice},
		{"ubuntu-lates", finding.Error},
		{"ubuntu-lastest", finding.Error},
		{"ubuntu-2404", finding.Error},
		{"macos-15-larg", finding.Error},
	} {
		f := finding.Finding{Rule: "runner-label", Severity: finding.Error, Message: `label "` + tt.label + `" is unknown. available labels are "windows-latest"`}
		got := RefineRunnerLabels([]finding.Finding{f}, nil, c)
		if len(got) != 1 || got[0].Severity != tt.sev {
			t.Errorf("%s: %+v, want one %s", tt.label, got, tt.sev)
		}
	}
}

func TestNamesHardware(t *testing.T) {
	for _, tt := range []struct {
		label string
		want  bool
	}{
		{"big-box-7", true}, {"highmem-runner", true}, {"linux-32core", true}, {"c6i.4xlarge", true}, {"arm64-builder", true}, {"16c-64gb", true},
		{"docker-build", false}, {"release", false}, {"boxes", false}, {"core-tests", false}, {"build-7", false}, {"bigquery", false},
	} {
		if got := namesHardware(tt.label); got != tt.want {
			t.Errorf("namesHardware(%q) = %v", tt.label, got)
		}
	}
}

func TestRunnerImageRetired(t *testing.T) {
	for _, c := range []struct{ name, src, want string }{
		{"literal", "on: push\njobs:\n  a: {runs-on: ubuntu-20.04, steps: [{run: x}]}\n",
			"w.yml:3:16: warning [runner-image-retired] ubuntu-20.04 is a GitHub-hosted image retired on 2025-04-15: a job on it fails without running; use ubuntu-24.04 or ubuntu-latest (https://github.com/actions/runner-images/issues/11101) job=a fix=\n"},
		{"actionlint knows it", "on: push\njobs:\n  a: {runs-on: [macos-14], steps: [{run: x}]}\n",
			"w.yml:3:17: warning [runner-image-retired] macos-14 is a GitHub-hosted image retired on 2026-11-02: a job on it fails without running; use macos-15 or macos-latest (https://github.com/actions/runner-images/issues/13518) job=a fix=\n"},
		{"matrix", "on: push\njobs:\n  a:\n    strategy:\n      matrix:\n        os: [ubuntu-24.04, windows-2019]\n    runs-on: ${{ matrix.os }}\n    steps: [{run: x}]\n",
			"w.yml:6:28: warning [runner-image-retired] windows-2019 is a GitHub-hosted image retired on 2025-06-30: a job on it fails without running; use windows-2022 or windows-2025 (https://github.com/actions/runner-images/issues/12045) job=a fix=\n"},
		{"passed to a reusable workflow", "on: push\njobs:\n  a:\n    uses: org/repo/.github/workflows/mac.yml@v1\n    with:\n      timeout: 30\n      runner: macos-13-xlarge\n",
			"w.yml:7:15: warning [runner-image-retired] macos-13-xlarge is a GitHub-hosted image retired on 2025-12-04: a job on it fails without running; use macos-15-xlarge (https://github.com/actions/runner-images/issues/13046) job=a fix=\n"},
		{"beside self-hosted", "on: push\njobs:\n  a: {runs-on: [self-hosted, ubuntu-20.04], steps: [{run: x}]}\n", ""},
		{"current", "on: push\njobs:\n  a: {runs-on: macos-15, steps: [{run: x}]}\n", ""},
		{"deprecated, not yet retired", "on: push\njobs:\n  a: {runs-on: ubuntu-22.04, steps: [{run: x}]}\n", ""},
		{"custom label with a retired name in it", "on: push\njobs:\n  a: {runs-on: ubuntu-20.04-gpu, steps: [{run: x}]}\n", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := render(Run(loadSrc(t, c.src), "", nil, []*Rule{RunnerImageRetired})); got != c.want {
				t.Errorf("got\n%s\nwant\n%s", got, c.want)
			}
		})
	}
}

// TestBesideSelfHostedFolds: the set built once per workflow answers as the
// per-finding EqualFold scan it replaced did, case folding included.
func TestBesideSelfHostedFolds(t *testing.T) {
	w := loadSrc(t, `on: push
jobs:
  a: {runs-on: [Self-Hosted, BOX-1], steps: [{run: x}]}
  b: {runs-on: [linux, box-ſ], steps: [{run: x}]}
  c: {runs-on: [self-hosted, kelvin-`+"\u212a"+`], steps: [{run: x}]}
`)
	set := besideSelfHosted(w)
	for _, tt := range []struct {
		label string
		want  bool
	}{{"box-1", true}, {"Box-1", true}, {"self-hosted", true}, {"box-s", false}, {"kelvin-k", true}, {"KELVIN-K", true}, {"linux", false}} {
		if got := set[foldKey(tt.label)]; got != tt.want {
			t.Errorf("%q beside self-hosted = %v, want %v", tt.label, got, tt.want)
		}
	}
	for _, p := range [][2]string{{"ſ", "s"}, {"ſ", "S"}, {"\u212a", "k"}, {"\u212a", "K"}, {"Σ", "ς"}, {"σ", "ς"}, {"a", "b"}, {"ß", "ss"}, {"\xff", "\xfe"}, {"x\xff", "X\xfe"}} {
		if (foldKey(p[0]) == foldKey(p[1])) != strings.EqualFold(p[0], p[1]) {
			t.Errorf("foldKey(%q) == foldKey(%q) disagrees with EqualFold", p[0], p[1])
		}
	}
}
