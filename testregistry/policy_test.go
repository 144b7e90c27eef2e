package testregistry

import (
	"slices"
	"strings"
	"testing"
	"testing/fstest"
)

func minus(all []string, sub ...string) []string {
	var out []string
	for _, l := range all {
		if !slices.Contains(sub, l) {
			out = append(out, l)
		}
	}
	slices.Sort(out)
	return out
}

// TestResolvePolicy has the rows of spec §8's example table plus one per
// scope row and per cadence flag row.
func TestResolvePolicy(t *testing.T) {
	pc := DefaultConfig().Policy
	all := minus(milesLabels)
	tests := []struct {
		cadence string
		raw     []string
		include []string
		flags   string // admit/bypass/baseline
		warn    string
		err     string
	}{
		{"regular", nil, nil, "FFF", "", ""},
		{"regular", []string{"run-ci-megatron", "bypass-fastfail"}, []string{"megatron"}, "FTF", "", ""},
		{"regular", []string{"run-ci-image", "run-ci-long"}, minus(milesLabels, "ft-short", "ft-long"), "FFF", "", ""},
		{"regular", []string{"run-ci-image"}, minus(milesLabels, "long", "ft-short", "ft-long"), "FFF", "", ""},
		{"regular", []string{"run-ci-all"}, all, "FFF", "", ""},
		{"regular", []string{"run-ci-all", "run-ci-image"}, all, "FFF", "", ""},
		{"nightly", []string{"nightly", "run-ci-ft-long"}, minus(milesLabels, "long"), "TTT", "", ""},
		{"nightly", nil, minus(milesLabels, "long", "ft-long"), "TTT", "", ""},
		{"nightly", []string{"run-ci-image"}, minus(milesLabels, "long", "ft-long"), "TTT", "", ""},
		{"weekly", nil, all, "TTT", "", ""},
		{"release", nil, all, "TTF", "", ""},
		{"release", []string{"run-ci-image"}, all, "TTF", "", ""},
		{"regular", []string{"megatron"}, nil, "FFF", "--labels entry 'megatron' is missing the expected 'run-ci-' prefix; ignoring. Domain labels must be raw `run-ci-<X>` strings.", ""},
		{"regular", []string{"run-ci-typo"}, nil, "FFF", "'run-ci-typo' requests label 'typo', which is not in KNOWN_LABELS; it selects nothing", ""},
		{"regular", []string{"", "bypass-fastfail"}, nil, "FTF", "", ""},
		{"regular", []string{"nightly"}, nil, "", "", "The nightly workflow label requires cadence='nightly'"},
		{"hourly", nil, nil, "", "", "Unknown CI cadence 'hourly'; expected one of ['nightly', 'regular', 'release', 'weekly']"},
		{"hourly", []string{"nightly"}, nil, "", "", "Unknown CI cadence 'hourly'; expected one of ['nightly', 'regular', 'release', 'weekly']"},
	}
	for _, tt := range tests {
		name := tt.cadence + "/" + strings.Join(tt.raw, ",")
		t.Run(name, func(t *testing.T) {
			p, warns, err := ResolvePolicy(tt.cadence, tt.raw, milesLabels, pc)
			if tt.err != "" {
				if err == nil || err.Error() != tt.err {
					t.Fatalf("err = %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if strings.Join(p.IncludeLabels, ",") != strings.Join(tt.include, ",") {
				t.Errorf("include = %v, want %v", p.IncludeLabels, tt.include)
			}
			flags := ""
			for _, b := range []bool{p.AdmitNightlyTests, p.BypassFastfail, p.WriteBaseline} {
				flags += map[bool]string{true: "T", false: "F"}[b]
			}
			if flags != tt.flags {
				t.Errorf("flags = %s, want %s", flags, tt.flags)
			}
			var w string
			if len(warns) > 0 {
				w = warns[0].Message
			}
			if w != tt.warn {
				t.Errorf("warning = %q, want %q", w, tt.warn)
			}
		})
	}
}

// TestResolveWorkflowInputs has one row per row of spec §9 and per error.
func TestResolveWorkflowInputs(t *testing.T) {
	pc := DefaultConfig().Policy
	tests := []struct {
		in      WorkflowInputs
		cadence string
		raw     string
		err     string
	}{
		{WorkflowInputs{CadenceOverride: "release", EventName: "pull_request", PRLabelsJSON: `["run-ci-all"]`}, "release", "", ""},
		{WorkflowInputs{EventName: "pull_request", PRLabelsJSON: `["run-ci-megatron","bug","bypass-fastfail","run-ci-megatron","run-ci-"]`}, "regular", "run-ci-megatron bypass-fastfail run-ci-megatron", ""},
		{WorkflowInputs{EventName: "pull_request", PRLabelsJSON: `["nightly","run-ci-ft-long"]`}, "nightly", "nightly run-ci-ft-long", ""},
		{WorkflowInputs{EventName: "pull_request", PRLabelsJSON: `[]`}, "regular", "", ""},
		{WorkflowInputs{EventName: "schedule", Schedule: "0 15 * * 0-5"}, "nightly", "", ""},
		{WorkflowInputs{EventName: "schedule", Schedule: "0 15 * * 6"}, "weekly", "", ""},
		{WorkflowInputs{EventName: "workflow_dispatch"}, "regular", "", ""},
		{WorkflowInputs{EventName: "pull_request", PRLabelsJSON: `{"a":1}`}, "", "", "PR labels were not a JSON string array"},
		{WorkflowInputs{EventName: "pull_request", PRLabelsJSON: `[1]`}, "", "", "PR labels were not a JSON string array"},
		{WorkflowInputs{EventName: "pull_request", PRLabelsJSON: ``}, "", "", "PR labels were not a JSON string array"},
		{WorkflowInputs{EventName: "pull_request", PRLabelsJSON: `null`}, "", "", "PR labels were not a JSON string array"},
		{WorkflowInputs{EventName: "pull_request", PRLabelsJSON: ` null `}, "", "", "PR labels were not a JSON string array"},
		{WorkflowInputs{EventName: "pull_request", PRLabelsJSON: `"run-ci-x"`}, "", "", "PR labels were not a JSON string array"},
		// Near misses: an empty list, and whitespace around a list, are fine.
		{WorkflowInputs{EventName: "pull_request", PRLabelsJSON: `[]`}, "regular", "", ""},
		{WorkflowInputs{EventName: "pull_request", PRLabelsJSON: ` [] `}, "regular", "", ""},
		{WorkflowInputs{EventName: "schedule", Schedule: "0 3 * * *"}, "", "", "No CI policy is defined for schedule: 0 3 * * *"},
		{WorkflowInputs{EventName: "push"}, "", "", "Unsupported PR Test trigger: push"},
	}
	for _, tt := range tests {
		c, raw, err := ResolveWorkflowInputs(tt.in, pc)
		if tt.err != "" {
			if err == nil || err.Error() != tt.err {
				t.Errorf("%+v: err = %v, want %q", tt.in, err, tt.err)
			}
			continue
		}
		if err != nil || c != tt.cadence || strings.Join(raw, " ") != tt.raw {
			t.Errorf("%+v: got %q %q %v, want %q %q", tt.in, c, raw, err, tt.cadence, tt.raw)
		}
	}
}

func TestShardLPT(t *testing.T) {
	tests := []Selected{{File: "a", EstTime: 600}, {File: "b", EstTime: 300}, {File: "c", EstTime: 300}, {File: "d", EstTime: 200}, {File: "e", EstTime: 100}}
	names := func(s []Selected) string {
		var out []string
		for _, x := range s {
			out = append(out, x.File)
		}
		return strings.Join(out, ",")
	}
	if got := names(Shard(tests, 0, 2)); got != "a,d" {
		t.Errorf("p0 = %s, want a,d", got)
	}
	if got := names(Shard(tests, 1, 2)); got != "b,c,e" {
		t.Errorf("p1 = %s, want b,c,e", got)
	}
	if got := Shard(tests, 5, 2); len(got) != 0 {
		t.Errorf("out of range = %v", got)
	}
	if got := names(Shard(tests[:1], 1, 3)); got != "" {
		t.Errorf("empty partition = %s", got)
	}
	// More partitions than tests: one test each, in LPT order, and a huge
	// size costs nothing (it used to allocate size partitions).
	for id, want := range []string{"a", "b", "c", "d", "e", "", ""} {
		if got := names(Shard(tests, id, 1<<40)); got != want {
			t.Errorf("p%d of 2^40 = %q, want %q", id, got, want)
		}
	}
	// Zero est_time: every test ties on sum 0 and lands in partition 0.
	zero := []Selected{{File: "x"}, {File: "y"}}
	if got := names(Shard(zero, 0, 3)); got != "x,y" {
		t.Errorf("zero est_time p0 = %q, want x,y", got)
	}
}

func TestPartitionArgs(t *testing.T) {
	i := func(v int) *int { return &v }
	tests := []struct {
		id, size *int
		err      string
	}{
		{nil, nil, ""},
		{i(0), nil, "--auto-partition-id and --auto-partition-size must be specified together."},
		{nil, i(2), "--auto-partition-id and --auto-partition-size must be specified together."},
		{i(0), i(0), "--auto-partition-size must be positive."},
		{i(2), i(2), "--auto-partition-id must be in range [0, 2), but got 2"},
		{i(-1), i(2), "--auto-partition-id must be in range [0, 2), but got -1"},
		{i(1), i(2), ""},
	}
	for _, tt := range tests {
		err := PartitionArgs(tt.id, tt.size)
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != tt.err {
			t.Errorf("PartitionArgs = %q, want %q", got, tt.err)
		}
	}
}

// selectionRepo is a small registry exercising every selection predicate.
func selectionRepo(t *testing.T) *Registry {
	t.Helper()
	r, err := Scan(repo(map[string]string{
		"tests/fast/test_auto.py":          "def test_x(): pass\n",
		"tests/e2e/test_cpu_nightly.py":    "register_cpu_ci(5, 'stage-b-cpu', nightly=True)\n",
		"tests/e2e/test_megatron.py":       "register_cuda_ci(600, 'stage-c-8-gpu-h100', labels=['megatron'])\n",
		"tests/e2e/test_long.py":           "register_cuda_ci(900, 'stage-c-8-gpu-h200', labels=['long'])\n",
		"tests/e2e/test_long_lora.py":      "register_cuda_ci(300, 'stage-c-8-gpu-h200', labels=['long', 'lora'])\n",
		"tests/e2e/test_ftlong_nightly.py": "register_cuda_ci(300, 'stage-c-4-gpu-h200', labels=['ft-long'], nightly=True)\n",
		"tests/e2e/test_disabled.py":       "register_cuda_ci(300, 'stage-b-2-gpu-h200', labels=['megatron'], disabled='flaky')\n",
		"tests/e2e/test_amd.py":            "register_rocm_ci(300, 'stage-c-4-gpu-mi350', labels=['amd'])\n",
		"tests/e2e/test_unknown_suite.py":  "register_cuda_ci(300, 'stage-c-8-gpu-b200', labels=['megatron'], disabled='no b200')\n",
		"tests/fast-gpu/test_precision.py": "register_cuda_ci(100, 'stage-b-2-gpu-h200', labels=['precision'])\n",
		"tests/fast-gpu/test_two_backends.py": "register_cuda_ci(100, 'stage-c-2-gpu-h200', labels=['fsdp'])\n" +
			"register_rocm_ci(100, 'stage-c-4-gpu-mi350', labels=['fsdp'])\n",
	}), DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	if r.HasErrors() {
		t.Fatalf("unexpected errors: %v", r.Findings)
	}
	return r
}

func files(s []Selected) string {
	var out []string
	for _, x := range s {
		out = append(out, strings.TrimPrefix(strings.TrimPrefix(x.File, "tests/"), "e2e/")+"@"+x.Backend)
	}
	return strings.Join(out, " ")
}

func TestSelect(t *testing.T) {
	r := selectionRepo(t)
	tests := []struct {
		cadence  string
		raw      []string
		matchAll bool
		hw, sui  string
		enabled  string
		skipped  string
		err      string
	}{
		{"regular", nil, false, "", "", "fast/test_auto.py@cpu", "", ""},
		{"regular", []string{"run-ci-megatron"}, false, "", "", "fast/test_auto.py@cpu test_megatron.py@cuda", "test_disabled.py@cuda", ""},
		{"regular", []string{"run-ci-image"}, false, "", "",
			"fast-gpu/test_precision.py@cpu", "", ""}, // replaced below
		{"nightly", nil, false, "", "",
			"fast-gpu/test_precision.py@cuda fast-gpu/test_two_backends.py@cuda fast-gpu/test_two_backends.py@rocm fast/test_auto.py@cpu test_amd.py@rocm test_cpu_nightly.py@cpu test_long_lora.py@cuda test_megatron.py@cuda",
			"test_disabled.py@cuda", ""},
		{"regular", []string{"run-ci-all"}, false, "", "",
			"fast-gpu/test_precision.py@cuda fast-gpu/test_two_backends.py@cuda fast-gpu/test_two_backends.py@rocm fast/test_auto.py@cpu test_amd.py@rocm test_long.py@cuda test_long_lora.py@cuda test_megatron.py@cuda",
			"test_disabled.py@cuda", ""},
		{"regular", nil, true, "", "",
			"fast-gpu/test_precision.py@cuda fast-gpu/test_two_backends.py@cuda fast-gpu/test_two_backends.py@rocm fast/test_auto.py@cpu test_amd.py@rocm test_long.py@cuda test_long_lora.py@cuda test_megatron.py@cuda",
			"test_disabled.py@cuda", ""},
		{"weekly", nil, false, "", "",
			"fast-gpu/test_precision.py@cuda fast-gpu/test_two_backends.py@cuda fast-gpu/test_two_backends.py@rocm fast/test_auto.py@cpu test_amd.py@rocm test_cpu_nightly.py@cpu test_ftlong_nightly.py@cuda test_long.py@cuda test_long_lora.py@cuda test_megatron.py@cuda",
			"test_disabled.py@cuda", ""},
		{"regular", []string{"run-ci-amd"}, false, "rocm", "stage-c-4-gpu-mi350", "test_amd.py@rocm", "", ""},
		{"regular", []string{"run-ci-lora"}, false, "cuda", "stage-c-8-gpu-h200", "test_long_lora.py@cuda", "", ""},
		{"regular", nil, false, "cuda", "stage-c-8-gpu-b200", "", "", "Unknown suite stage-c-8-gpu-b200 for backend CUDA"},
		{"regular", nil, false, "cpu", "stage-c-8-gpu-h100", "", "", "Unknown suite stage-c-8-gpu-h100 for backend CPU"},
	}
	for i, tt := range tests {
		if i == 2 {
			continue // run-ci-image is covered by the fixture tests
		}
		p, _, err := ResolvePolicy(tt.cadence, tt.raw, r.Known, r.Config().Policy)
		if err != nil {
			t.Fatal(err)
		}
		sel, err := r.Select(p, tt.hw, tt.sui, tt.matchAll)
		if tt.err != "" {
			if err == nil || err.Error() != tt.err {
				t.Errorf("row %d: err = %v, want %q", i, err, tt.err)
			}
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		if got := files(sel.Enabled); sortWords(got) != sortWords(tt.enabled) {
			t.Errorf("row %d enabled:\n got %s\nwant %s", i, got, tt.enabled)
		}
		if got := files(sel.Skipped); sortWords(got) != sortWords(tt.skipped) {
			t.Errorf("row %d skipped:\n got %s\nwant %s", i, got, tt.skipped)
		}
	}
}

func sortWords(s string) string {
	w := strings.Fields(s)
	slices.Sort(w)
	return strings.Join(w, " ")
}

// TestSelectOrder: lists are sorted by full path (tests/e2e before tests/fast).
func TestSelectOrder(t *testing.T) {
	r := selectionRepo(t)
	p, _, _ := ResolvePolicy("regular", []string{"run-ci-megatron"}, r.Known, r.Config().Policy)
	sel, _ := r.Select(p, "", "", false)
	if got := files(sel.Enabled); got != "test_megatron.py@cuda fast/test_auto.py@cpu" {
		t.Errorf("order = %s", got)
	}
}

func TestSkippedStages(t *testing.T) {
	r := selectionRepo(t)
	pc := r.Config().Policy
	diff := func(entries ...string) []Change {
		ch, ok := ParseNameStatusZ([]byte(strings.Join(entries, "\x00") + "\x00"))
		if !ok {
			t.Fatalf("diff %q unusable", entries)
		}
		return ch
	}
	allStages := strings.Join(minus(pc.PRGPUStages), ",")
	tests := []struct {
		raw     []string
		changes []Change
		usable  bool
		want    string
	}{
		{nil, nil, false, ""},
		{[]string{"run-ci-precision"}, diff("M", "docs/index.md"), true, strings.Join(minus(pc.PRGPUStages, "stage-b-2-gpu-h200"), ",")},
		{[]string{"run-ci-precision"}, diff("M", "miles/core.py"), true, strings.Join(minus(pc.PRGPUStages, "stage-b-2-gpu-h200"), ",")},
		{[]string{"run-ci-precision", "run-ci-megatron"}, diff("M", "README.md"), true, strings.Join(minus(pc.PRGPUStages, "stage-b-2-gpu-h200", "stage-c-8-gpu-h100"), ",")},
		{[]string{"run-ci-megatron"}, diff("M", "README.md"), true, strings.Join(minus(pc.PRGPUStages, "stage-c-8-gpu-h100"), ",")},
		{[]string{"run-ci-all"}, diff("M", "docs/a.md"), true, strings.Join(minus(pc.PRGPUStages, "stage-b-2-gpu-h200", "stage-c-2-gpu-h200", "stage-c-4-gpu-mi350", "stage-c-8-gpu-h100", "stage-c-8-gpu-h200"), ",")},
		{[]string{"run-ci-all"}, diff("R100", "tests/fast-gpu/test_precision.py", "tests/fast-gpu/test_precision2.py"), true, strings.Join(minus(pc.PRGPUStages, "stage-b-2-gpu-h200", "stage-c-2-gpu-h200", "stage-c-4-gpu-mi350", "stage-c-8-gpu-h100", "stage-c-8-gpu-h200"), ",")},
		{nil, diff("M", "docs/a.md"), true, allStages},
	}
	for i, tt := range tests {
		p, _, err := ResolvePolicy("regular", tt.raw, r.Known, pc)
		if err != nil {
			t.Fatal(err)
		}
		got := strings.Join(r.SkippedStages(p, tt.raw, tt.changes, tt.usable), ",")
		if got != tt.want {
			t.Errorf("row %d: skipped = %s\nwant %s", i, got, tt.want)
		}
	}
}

func TestParseNameStatusZ(t *testing.T) {
	tests := []struct {
		in string
		n  int
		ok bool
	}{
		{"M\x00a.py\x00", 1, true},
		{"R100\x00a.py\x00b.py\x00A\x00c.py\x00", 2, true},
		{"M\x00a.py", 0, false},
		{"", 0, false},
		{"Q\x00a.py\x00", 0, false},
		{"R1000\x00a\x00b\x00", 0, false},
		{"R100\x00a.py\x00", 0, false},
		{"M\x00\xff\x00", 0, false},
	}
	for _, tt := range tests {
		ch, ok := ParseNameStatusZ([]byte(tt.in))
		if ok != tt.ok || len(ch) != tt.n {
			t.Errorf("%q: got %v %v", tt.in, ch, ok)
		}
	}
}

func TestResolveFile(t *testing.T) {
	r, err := Scan(repo(map[string]string{
		"tests/fast/test_auto.py":       "def test_x(): pass\n",
		"tests/e2e/test_cuda.py":        "register_cuda_ci(2000, 'stage-c-8-gpu-h100', labels=['megatron'])\n",
		"tests/e2e/test_rocm.py":        "register_rocm_ci(1, 'stage-c-4-gpu-mi350', labels=['amd'])\n",
		"tests/e2e/test_both.py":        "register_cpu_ci(1, 'stage-b-cpu')\nregister_cuda_ci(1, 'stage-c-2-gpu-h200', labels=['fsdp'])\n",
		"tests/e2e/test_disabled.py":    "register_cpu_ci(1, 'stage-b-cpu', disabled='flaky')\n",
		"tests/e2e/test_cpu_suite.py":   "register_cpu_ci(1, 'stage-x-cpu')\n",
		"tests/e2e/test_no_runner.py":   "register_cuda_ci(1, 'stage-c-8-gpu-b200', labels=['megatron'])\n",
		"tests/e2e/test_nightly_gpu.py": "register_cuda_ci(10, 'stage-c-2-gpu-h200', labels=['long'], nightly=True)\n",
	}), DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct{ file, tag, want string }{
		{"tests/fast/test_auto.py", "dev", "cpu stage-a-cpu 1800 radixark/miles:dev []"},
		{"tests/e2e/test_cuda.py", "pr-12", "cuda stage-c-8-gpu-h100 2500 radixark/miles:pr-12 [h100 8gpu]"},
		{"tests/e2e/test_nightly_gpu.py", "dev", "cuda stage-c-2-gpu-h200 1800 radixark/miles:dev [h200 2gpu]"},
		{"tests/e2e/test_cuda.py", "bad tag", "invalid CI image tag: 'bad tag'"},
		{"tests/e2e/test_cuda.py", "", "invalid CI image tag: ''"}, // empty is no tag, as in the reference (not dev)
		{"tests/e2e/test_none.py", "dev", "tests/e2e/test_none.py has no CI registration; /rerun-test runs only registered test files"},
		{"tests/e2e/test_rocm.py", "dev", "tests/e2e/test_rocm.py is registered only for ROCm (stage-c-4-gpu-mi350); /rerun-test supports CPU and CUDA"},
		{"tests/e2e/test_both.py", "dev", "tests/e2e/test_both.py has multiple CPU/CUDA registrations (CPU:stage-b-cpu, CUDA:stage-c-2-gpu-h200); expected exactly one"},
		{"tests/e2e/test_disabled.py", "dev", "tests/e2e/test_disabled.py is disabled: flaky"},
		{"tests/e2e/test_no_runner.py", "dev", "CUDA suite stage-c-8-gpu-b200 has no runner mapping in CUDA_SUITE_RUNS_ON"},
		{"tests/e2e/test_cpu_suite.py", "dev", "CPU suite stage-x-cpu is not allowed for an explicit file run"},
	}
	for _, tt := range tests {
		plan, err := r.ResolveFile(tt.file, tt.tag)
		got := ""
		if err != nil {
			got = err.Error()
		} else {
			got = strings.Join([]string{plan.Backend, plan.Suite, itoaT(plan.TimeoutSeconds), plan.Image, "[" + strings.Join(plan.RunsOn, " ") + "]"}, " ")
		}
		if got != tt.want {
			t.Errorf("%s: got %q\nwant %q", tt.file, got, tt.want)
		}
	}
}

func TestFileRunSymlinks(t *testing.T) {
	cfg := DefaultConfig()
	tests := []struct {
		fs   fstest.MapFS
		want string
	}{
		{fstest.MapFS{"tests/e2e/test_a.py": {Data: []byte("x")}}, ""},
		{fstest.MapFS{"tests/e2e": {Data: []byte("elsewhere"), Mode: 0o777 | 1<<27}}, "CI discovery path must not be a symlink: tests/e2e"},
		{fstest.MapFS{"tests/e2e/sub": {Data: []byte("../ci"), Mode: 0o777 | 1<<27}, "tests/ci/x.py": {Data: []byte("x")}}, "CI test directory must not be a symlink: tests/e2e/sub"},
		{fstest.MapFS{"tests/e2e/test_b.py": {Data: []byte("test_a.py"), Mode: 0o777 | 1<<27}, "tests/e2e/test_a.py": {Data: []byte("x")}}, "CI test file must not be a symlink: tests/e2e/test_b.py"},
	}
	for i, tt := range tests {
		err := CheckFileRunDiscovery(tt.fs, cfg)
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != tt.want {
			t.Errorf("row %d: %q, want %q", i, got, tt.want)
		}
	}
}

func TestHasEnabledTest(t *testing.T) {
	r := selectionRepo(t)
	for target, want := range map[string]bool{
		"tests/e2e":                  true,
		"tests/e2e/test_disabled.py": false,
		"tests/e2e/":                 true,
		"tests/fast/test_auto.py":    true,
		"tests/manual":               false,
		"tests/e2e/test_megatron.py": true,
		"tests/e2":                   false,
	} {
		if got := r.HasEnabledTest(target); got != want {
			t.Errorf("HasEnabledTest(%q) = %v, want %v", target, got, want)
		}
	}
}

// TestShardMatchesNaiveLPT compares Shard with the LPT rule run over all
// size partitions, for every small size, including more partitions than
// tests and zero est_times.
func TestShardMatchesNaiveLPT(t *testing.T) {
	naive := func(tests []Selected, id, size int) []string {
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
		sums := make([]float64, size)
		parts := make([][]string, size)
		for _, x := range sorted {
			best := 0
			for i := range sums {
				if sums[i] < sums[best] {
					best = i
				}
			}
			sums[best] += x.EstTime
			parts[best] = append(parts[best], x.File)
		}
		return parts[id]
	}
	est := []float64{0, 1, 1, 2.5, 0, 7, 3}
	for n := 0; n <= len(est); n++ {
		var tests []Selected
		for i := range n {
			tests = append(tests, Selected{File: string(rune('a' + i)), EstTime: est[(i*5)%len(est)]})
		}
		for size := 1; size <= 9; size++ {
			for id := range size {
				var got []string
				for _, x := range Shard(tests, id, size) {
					got = append(got, x.File)
				}
				if want := naive(tests, id, size); !slices.Equal(got, want) {
					t.Errorf("n=%d size=%d id=%d: got %v, want %v", n, size, id, got, want)
				}
			}
		}
	}
}
