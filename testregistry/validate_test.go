package testregistry

import (
	"fmt"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/cicheck/cicheck/finding"
)

var milesLabels = []string{"megatron", "model-scripts", "sglang", "fsdp", "short", "long", "ckpt", "lora", "eval",
	"precision", "ft-short", "ft-long", "weight-update", "fully-async", "replay", "qwen35", "mooncake", "miles-plugin", "amd"}

func labelsPy(keys []string) string {
	var sb strings.Builder
	sb.WriteString("KNOWN_LABELS: dict[str, str] = {\n")
	for _, k := range keys {
		sb.WriteString("    \"" + k + "\": \"about " + k + "\",\n")
	}
	sb.WriteString("}\n")
	return sb.String()
}

const runSuitePy = `from enum import Enum

class HWBackend(Enum):
    CPU = "cpu"
    CUDA = "cuda"
    ROCM = "rocm"

CI_SUITES = {
    HWBackend.CPU: ["stage-a-cpu", "stage-b-cpu"],
    HWBackend.CUDA: ["stage-b-2-gpu-h200", "stage-c-8-gpu-h100", "stage-c-8-gpu-h200", "stage-c-4-gpu-h200", "stage-c-2-gpu-h200"],
    HWBackend.ROCM: ["stage-c-4-gpu-mi350", "nightly-stage-c-8-gpu-mi350", "nightly-stage-c-4-gpu-mi350", "nightly-stage-c-2-gpu-mi350"],
}
`

// repo builds a MapFS with the miles label and suite files plus files.
func repo(files map[string]string) fstest.MapFS {
	m := fstest.MapFS{
		"tests/ci/labels.py":    {Data: []byte(labelsPy(milesLabels))},
		"tests/ci/run_suite.py": {Data: []byte(runSuitePy)},
	}
	for k, v := range files {
		m[k] = &fstest.MapFile{Data: []byte(v)}
	}
	return m
}

// regFindings scans one e2e file and returns its findings (rule: message)
// in emission order, ignoring label-usage notices.
func regFindings(t *testing.T, cfg Config, file, src string) []finding.Finding {
	t.Helper()
	r, err := Scan(repo(map[string]string{file: src}), cfg)
	if err != nil {
		t.Fatal(err)
	}
	var out []finding.Finding
	for _, f := range r.Findings {
		if f.File == file {
			out = append(out, f)
		}
	}
	return out
}

// TestCallErrors has one row per message of spec §5, in the spec's order.
func TestCallErrors(t *testing.T) {
	const fe = "tests/e2e/x/test_a.py"
	tests := []struct {
		name, src string
		rule, msg string // the first error-severity finding
		at        string // "line:col"
	}{
		{"starred", "register_cuda_ci(*a, labels=['megatron'])\n", RuleStarredArgs, "starred arguments are not supported in register_cuda_ci()", "1:18"},
		{"too many positional", "register_cpu_ci(1, 'stage-a-cpu', [])\n", RuleTooManyPos, "too many positional arguments in register_cpu_ci(); only ['est_time', 'suite'] may be positional (labels and later are keyword-only)", "1:35"},
		{"positional est_time not literal", "register_cpu_ci(T, 'stage-a-cpu')\n", RuleNotLiteral, "est_time in register_cpu_ci() must be a literal constant", "1:17"},
		{"negative est_time is not literal", "register_cpu_ci(-5, 'stage-a-cpu')\n", RuleNotLiteral, "est_time in register_cpu_ci() must be a literal constant", "1:17"},
		{"positional suite not literal", "register_cpu_ci(1, SUITE)\n", RuleNotLiteral, "suite in register_cpu_ci() must be a literal constant", "1:20"},
		{"f-string suite", "register_cpu_ci(1, f'stage-{x}')\n", RuleNotLiteral, "suite in register_cpu_ci() must be a literal constant", "1:20"},
		{"kwargs", "register_cpu_ci(1, 'stage-a-cpu', **extra)\n", RuleKwargs, "**kwargs are not supported in register_cpu_ci()", "1:35"},
		{"duplicated by positional", "register_cpu_ci(1, 'stage-a-cpu', est_time=2)\n", RuleDuplicateArg, "duplicated argument 'est_time' in register_cpu_ci()", "1:35"},
		{"duplicated by keyword", "register_cpu_ci(1, 'stage-a-cpu', nightly=True, nightly=False)\n", RuleDuplicateArg, "duplicated argument 'nightly' in register_cpu_ci()", "1:49"},
		{"unknown hardware", "register_cuda_ci(1, 'stage-b-2-gpu-h200', labels=['megatron'], hardware=['h200'])\n", RuleUnknownArg, "unknown argument 'hardware' in register_cuda_ci()", "1:64"},
		{"unknown num_gpus", "register_cuda_ci(1, 'stage-b-2-gpu-h200', num_gpus=2, labels=['megatron'])\n", RuleUnknownArg, "unknown argument 'num_gpus' in register_cuda_ci()", "1:43"},
		{"labels constant", "register_cpu_ci(1, 'stage-a-cpu', labels='megatron')\n", RuleLabelsType, "labels in register_cpu_ci() must be a list of string literals or None (got Constant)", "1:42"},
		{"labels name", "register_cpu_ci(1, 'stage-a-cpu', labels=LABELS)\n", RuleLabelsType, "labels in register_cpu_ci() must be a list of string literals or None (got Name)", "1:42"},
		{"labels tuple", "register_cpu_ci(1, 'stage-a-cpu', labels=('megatron',))\n", RuleLabelsType, "labels in register_cpu_ci() must be a list of string literals or None (got Tuple)", "1:42"},
		{"labels call", "register_cpu_ci(1, 'stage-a-cpu', labels=list())\n", RuleLabelsType, "labels in register_cpu_ci() must be a list of string literals or None (got Call)", "1:42"},
		{"labels listcomp", "register_cpu_ci(1, 'stage-a-cpu', labels=[x for x in y])\n", RuleLabelsType, "labels in register_cpu_ci() must be a list of string literals or None (got ListComp)", "1:42"},
		{"labels non-literal element", "register_cpu_ci(1, 'stage-a-cpu', labels=['megatron', X])\n", RuleLabelsType, "labels in register_cpu_ci() must be a list of string literals (non-literal element)", "1:55"},
		{"labels int element", "register_cpu_ci(1, 'stage-a-cpu', labels=[1])\n", RuleLabelsType, "labels in register_cpu_ci() must be a list of string literals (got int element)", "1:43"},
		{"labels None element", "register_cpu_ci(1, 'stage-a-cpu', labels=[None])\n", RuleLabelsType, "labels in register_cpu_ci() must be a list of string literals (got NoneType element)", "1:43"},
		{"labels bytes element", "register_cpu_ci(1, 'stage-a-cpu', labels=[b'x'])\n", RuleLabelsType, "labels in register_cpu_ci() must be a list of string literals (got bytes element)", "1:43"},
		{"labels bool element", "register_cpu_ci(1, 'stage-a-cpu', labels=[True])\n", RuleLabelsType, "labels in register_cpu_ci() must be a list of string literals (got bool element)", "1:43"},
		{"keyword not literal", "register_cpu_ci(1, 'stage-a-cpu', nightly=NIGHTLY)\n", RuleNotLiteral, "nightly in register_cpu_ci() must be a literal constant", "1:43"},
		{"est_time required (wins)", "register_cpu_ci()\n", RuleMissingArg, "est_time is required in register_cpu_ci()", "1:1"},
		{"suite required", "register_cpu_ci(est_time=1)\n", RuleMissingArg, "suite is required in register_cpu_ci()", "1:1"},
		{"est_time str", "register_cpu_ci('1', 'stage-a-cpu')\n", RuleWrongType, "est_time must be a number in register_cpu_ci()", "1:17"},
		{"est_time None", "register_cpu_ci(None, 'stage-a-cpu')\n", RuleWrongType, "est_time must be a number in register_cpu_ci()", "1:17"},
		{"est_time complex", "register_cpu_ci(2j, 'stage-a-cpu')\n", RuleWrongType, "est_time must be a number in register_cpu_ci()", "1:17"},
		{"est_time ellipsis", "register_cpu_ci(..., 'stage-a-cpu')\n", RuleWrongType, "est_time must be a number in register_cpu_ci()", "1:17"},
		{"suite int", "register_cpu_ci(1, 2)\n", RuleWrongType, "suite must be a string in register_cpu_ci()", "1:20"},
		{"suite bytes", "register_cpu_ci(1, b'stage-a-cpu')\n", RuleWrongType, "suite must be a string in register_cpu_ci()", "1:20"},
		{"gpu without labels", "register_cuda_ci(1, 'stage-b-2-gpu-h200')\n", RuleNoDomainLabel, "labels in register_cuda_ci() must contain at least one domain label", "1:1"},
		{"gpu labels None", "register_rocm_ci(1, 'stage-c-4-gpu-mi350', labels=None)\n", RuleNoDomainLabel, "labels in register_rocm_ci() must contain at least one domain label", "1:51"},
		{"gpu labels empty", "register_cuda_ci(1, 'stage-b-2-gpu-h200', labels=[])\n", RuleNoDomainLabel, "labels in register_cuda_ci() must contain at least one domain label", "1:50"},
		{"nightly int", "register_cpu_ci(1, 'stage-a-cpu', nightly=1)\n", RuleWrongType, "nightly must be a boolean in register_cpu_ci()", "1:43"},
		{"disabled bool", "register_cpu_ci(1, 'stage-a-cpu', disabled=True)\n", RuleWrongType, "disabled must be a string or None in register_cpu_ci()", "1:44"},
		{"unknown label", "register_cuda_ci(1, 'stage-b-2-gpu-h200', labels=['megatron', 'megatorn'])\n", RuleUnknownLabel,
			"unknown labels ['megatorn'] in register_cuda_ci(); valid labels: [amd, ckpt, eval, fsdp, ft-long, ft-short, fully-async, long, lora, megatron, miles-plugin, model-scripts, mooncake, precision, qwen35, replay, sglang, short, weight-update]. To add a new label: edit tests/ci/labels.py + create matching `run-ci-<label>` in GitHub repo Settings -> Labels.", "1:63"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fs := regFindings(t, DefaultConfig(), fe, tt.src)
			for _, f := range fs {
				if f.Severity != finding.Error {
					continue
				}
				if f.Rule != tt.rule || f.Message != tt.msg {
					t.Fatalf("first error = %s: %s\nwant %s: %s", f.Rule, f.Message, tt.rule, tt.msg)
				}
				if at := strings.Join([]string{itoaT(f.Line), itoaT(f.Column)}, ":"); at != tt.at {
					t.Errorf("position = %s, want %s", at, tt.at)
				}
				return
			}
			t.Fatalf("no error; findings: %v", fs)
		})
	}
}

// TestCallAccepted covers the literals §4 accepts.
func TestCallAccepted(t *testing.T) {
	tests := []struct {
		name, src string
		check     func(Registration) bool
	}{
		{"bool est_time", "register_cpu_ci(True, 'stage-a-cpu')\n", func(r Registration) bool { return r.EstTime == 1 }},
		{"float", "register_cpu_ci(1.5e2, 'stage-a-cpu')\n", func(r Registration) bool { return r.EstTime == 150 }},
		{"underscore int", "register_cpu_ci(1_000, 'stage-a-cpu')\n", func(r Registration) bool { return r.EstTime == 1000 }},
		{"hex", "register_cpu_ci(0x10, 'stage-a-cpu')\n", func(r Registration) bool { return r.EstTime == 16 }},
		{"implicit concatenation", "register_cpu_ci(1, 'stage-' 'a-cpu')\n", func(r Registration) bool { return r.Suite == "stage-a-cpu" }},
		{"escapes", "register_cpu_ci(1, 'stage-\\x61-cpu')\n", func(r Registration) bool { return r.Suite == "stage-a-cpu" }},
		{"labels None", "register_cpu_ci(1, 'stage-a-cpu', labels=None)\n", func(r Registration) bool { return len(r.Labels) == 0 }},
		{"labels kept in order with duplicates", "register_cuda_ci(1, 'stage-b-2-gpu-h200', labels=['lora', 'fsdp', 'lora'])\n",
			func(r Registration) bool { return strings.Join(r.Labels, ",") == "lora,fsdp,lora" }},
		{"empty disabled counts", "register_cpu_ci(1, 'stage-a-cpu', disabled='')\n", func(r Registration) bool { return !r.Enabled() }},
		{"disabled None", "register_cpu_ci(1, 'stage-a-cpu', disabled=None)\n", func(r Registration) bool { return r.Enabled() }},
		{"keywords", "register_cpu_ci(suite='stage-b-cpu', est_time=3, nightly=True)\n", func(r Registration) bool { return r.Nightly && r.Suite == "stage-b-cpu" }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := Scan(repo(map[string]string{"tests/e2e/test_a.py": tt.src}), DefaultConfig())
			if err != nil {
				t.Fatal(err)
			}
			if len(r.Registrations) != 1 || !tt.check(r.Registrations[0]) {
				t.Fatalf("registrations = %+v; findings %v", r.Registrations, r.Findings)
			}
		})
	}
}

// TestAllErrorsReported: unlike the reference, independent errors of one
// call and of several files are all reported.
func TestAllErrorsReported(t *testing.T) {
	r, err := Scan(repo(map[string]string{
		"tests/e2e/test_a.py": "register_cuda_ci(1, 'stage-b-2-gpu-h200', labels=['megatorn'], hardware=['h200'])\n",
		"tests/e2e/test_b.py": "import os\n",
	}), DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range r.Findings {
		if f.Severity == finding.Error {
			got = append(got, f.File+":"+f.Rule)
		}
	}
	want := "tests/e2e/test_a.py:reg-unknown-label,tests/e2e/test_a.py:reg-unknown-arg,tests/e2e/test_b.py:reg-no-registry"
	if strings.Join(got, ",") != want {
		t.Errorf("got %v\nwant %v", got, want)
	}
}

func TestFileRules(t *testing.T) {
	tests := []struct {
		name, file, src string
		rule, msg       string
		implicit        bool
	}{
		{"gpu in fast", "tests/fast/test_a.py", "register_cuda_ci(1, 'stage-b-2-gpu-h200', labels=['megatron'])\n", RuleGPUInImplicit,
			"register_cuda_ci is forbidden in tests/fast/; move the file to tests/fast-gpu/ instead", false},
		{"rocm in fast says cuda", "tests/fast/test_a.py", "register_rocm_ci(1, 'stage-c-4-gpu-mi350', labels=['amd'])\n", RuleGPUInImplicit,
			"register_cuda_ci is forbidden in tests/fast/; move the file to tests/fast-gpu/ instead", false},
		{"mention in comment", "tests/fast/test_a.py", "# see register_cpu_ci\n", RuleMentionNoCall,
			"file mentions register_cpu_ci or register_cuda_ci textually but no top-level call was parsed; check for aliased import, non-toplevel call, or attribute access", false},
		{"aliased cuda", "tests/fast/test_a.py", "from x import register_cuda_ci as r\nr(1, 's')\n", RuleMentionNoCall,
			"file mentions register_cpu_ci or register_cuda_ci textually but no top-level call was parsed; check for aliased import, non-toplevel call, or attribute access", false},
		{"rocm alias quirk", "tests/fast/test_a.py", "from x import register_rocm_ci as r\nr(1, 's', labels=['amd'])\n", RuleRocmAliasQuirk,
			"file mentions register_rocm_ci textually but no top-level call was parsed; the reference collector would silently register it as an implicit CPU test", false},
		{"implicit", "tests/fast/test_a.py", "def test_x():\n    assert True\n", "", "", true},
		{"no registry", "tests/fast-gpu/test_a.py", "def test_x():\n    pass\n", RuleNoRegistry, "No CI registry found in tests/fast-gpu/test_a.py", false},
		{"nested call is no registry", "tests/ci/test_a.py", "if True:\n    register_cpu_ci(1, 'stage-a-cpu')\n", RuleNoRegistry, "No CI registry found in tests/ci/test_a.py", false},
		{"syntax error", "tests/e2e/test_a.py", "register_cpu_ci(1, 'stage-a-cpu'\n", RuleSyntaxError, "'(' was never closed", false},
		{"syntax error in fast is not implicit", "tests/fast/test_a.py", "x = '\n", RuleSyntaxError, "unterminated string literal (detected at line 1)", false},
		{"duplicate backend suite", "tests/e2e/test_a.py", "register_cpu_ci(1, 'stage-a-cpu')\nregister_cpu_ci(2, 'stage-a-cpu')\n", RuleDuplicate,
			"tests/e2e/test_a.py is registered twice for backend CPU and suite stage-a-cpu", false},
		{"unknown suite", "tests/e2e/test_a.py", "register_cuda_ci(1, 'stage-c-8-gpu-b200', labels=['megatron'])\n", RuleUnknownSuite,
			"suite 'stage-c-8-gpu-b200' is not in CI_SUITES for backend CUDA; this registration is never selected", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := Scan(repo(map[string]string{tt.file: tt.src}), DefaultConfig())
			if err != nil {
				t.Fatal(err)
			}
			var errs []finding.Finding
			for _, f := range r.Findings {
				if f.File == tt.file && f.Severity == finding.Error {
					errs = append(errs, f)
				}
			}
			if tt.implicit {
				if len(errs) != 0 || len(r.Registrations) != 1 || !r.Registrations[0].Implicit || r.Registrations[0].Suite != "stage-a-cpu" || r.Registrations[0].EstTime != 1 {
					t.Fatalf("want one implicit registration, got %+v %v", r.Registrations, errs)
				}
				return
			}
			if len(errs) == 0 || errs[0].Rule != tt.rule || errs[0].Message != tt.msg {
				t.Fatalf("errors = %v\nwant %s: %s", errs, tt.rule, tt.msg)
			}
		})
	}
}

func TestWarnings(t *testing.T) {
	tests := []struct {
		name, file, src, rule string
		sev                   finding.Severity
	}{
		{"est_time bool", "tests/e2e/test_a.py", "register_cpu_ci(True, 'stage-a-cpu')\n", RuleEstTimeBool, finding.Warning},
		{"duplicate label", "tests/e2e/test_a.py", "register_cuda_ci(1, 'stage-b-2-gpu-h200', labels=['lora', 'lora'])\n", RuleDuplicateLabel, finding.Warning},
		{"semantic default", "tests/fast/test_a.py", "register_cpu_ci(est_time=10, suite='stage-a-cpu')\n", RuleSemanticDefault, finding.Warning},
		// Explicitly disabled: a notice at most (the issue: miles' disabled
		// registrations on retired pools warned).
		{"unknown suite disabled", "tests/e2e/test_a.py", "register_cuda_ci(1, 'stage-c-8-gpu-b200', labels=['megatron'], disabled='no b200')\n", RuleUnknownSuite, finding.Notice},
		{"unknown suite disabled empty", "tests/e2e/test_a.py", "register_cuda_ci(1, 'stage-c-8-gpu-b200', labels=['megatron'], disabled='')\n", RuleUnknownSuite, finding.Notice},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fs := regFindings(t, DefaultConfig(), tt.file, tt.src)
			for _, f := range fs {
				if f.Severity == finding.Error {
					t.Fatalf("unexpected error %v", f)
				}
				if f.Rule == tt.rule && f.Severity == tt.sev {
					return
				}
			}
			t.Fatalf("no %s in %v", tt.rule, fs)
		})
	}
}

func TestExtraParams(t *testing.T) {
	cfg := DefaultConfig()
	cfg.ExtraParams = map[string]map[string]Param{
		"register_cuda_ci": {"hardware": {Required: true, Type: "str_list", Allowed: []string{"h100", "h200", "b200"}}},
	}
	tests := []struct{ src, rule, msg string }{
		{"register_cuda_ci(1, 'stage-b-2-gpu-h200', labels=['megatron'])\n", RuleMissingArg, "hardware is required in register_cuda_ci()"},
		{"register_cuda_ci(1, 'stage-b-2-gpu-h200', labels=['megatron'], hardware='h200')\n", RuleNotLiteral, "hardware in register_cuda_ci() must be a list of string literals (got Constant)"},
		{"register_cuda_ci(1, 'stage-b-2-gpu-h200', labels=['megatron'], hardware=['a100'])\n", RuleBadValue, "hardware value 'a100' in register_cuda_ci() is not one of [h100, h200, b200]"},
		{"register_cpu_ci(1, 'stage-a-cpu', hardware=['h200'])\n", RuleUnknownArg, "unknown argument 'hardware' in register_cpu_ci()"},
		{"register_cuda_ci(1, 'stage-b-2-gpu-h200', labels=['megatron'], hardware=['h200'])\n", "", ""},
	}
	for _, tt := range tests {
		fs := regFindings(t, cfg, "tests/e2e/test_a.py", tt.src)
		var errs []finding.Finding
		for _, f := range fs {
			if f.Severity == finding.Error {
				errs = append(errs, f)
			}
		}
		if tt.rule == "" {
			if len(errs) > 0 {
				t.Errorf("%s: unexpected %v", tt.src, errs)
			}
			continue
		}
		if len(errs) == 0 || errs[0].Rule != tt.rule || errs[0].Message != tt.msg {
			t.Errorf("%s: got %v, want %s: %s", tt.src, errs, tt.rule, tt.msg)
		}
	}
}

func itoaT(i int) string {
	const digits = "0123456789"
	if i < 10 {
		return digits[i : i+1]
	}
	return itoaT(i/10) + digits[i%10:i%10+1]
}

// TestDuplicateRegistrationAcrossFiles: a (backend, suite) pair registered
// twice in one file is a duplicate even with another registration between
// the two; the same pair in two files is not.
func TestDuplicateRegistrationAcrossFiles(t *testing.T) {
	r, err := Scan(repo(map[string]string{
		"tests/e2e/test_a.py": "register_cpu_ci(1, 'stage-a-cpu')\nregister_cpu_ci(1, 'stage-b-cpu')\nregister_cpu_ci(2, 'stage-a-cpu')\n",
		"tests/e2e/test_b.py": "register_cpu_ci(1, 'stage-a-cpu')\nregister_cpu_ci(1, 'stage-b-cpu')\n",
		"tests/e2e/test_c.py": "register_cpu_ci(1, 'stage-b-cpu')\n",
	}), DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	var dups []string
	for _, f := range r.Findings {
		if f.Rule == RuleDuplicate {
			dups = append(dups, fmt.Sprintf("%s:%d", f.File, f.Line))
		}
	}
	if strings.Join(dups, " ") != "tests/e2e/test_a.py:3" {
		t.Errorf("duplicates at %v, want tests/e2e/test_a.py:3 only", dups)
	}
}
