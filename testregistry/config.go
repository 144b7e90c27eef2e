package testregistry

import (
	"strconv"

	"github.com/cicheck/cicheck/pyparse"
)

// Config is this engine's section of .cicheck.yaml (`registry:`). It is plain
// data with yaml tags; the config package decodes it strictly over the
// chosen profile's values (profiles.go).
type Config struct {
	// Profile names the layout whose conventions are the defaults: miles,
	// neutral, or auto (empty): miles when the repository has its layout,
	// neutral otherwise (Resolve).
	Profile Profile `yaml:"profile,omitempty"`
	// Roots are scanned in this order for FileGlob (recursively).
	Roots []string `yaml:"roots"`
	// FileGlob is matched against base names only.
	FileGlob string `yaml:"file-glob"`
	// Exclude leaves out discovered files whose path ends in "/" + an
	// entry (sglang's run_suite.py skips conftest.py, __init__.py and
	// cpu/utils.py this way).
	Exclude []string `yaml:"exclude"`
	// Arguments names the reference collector whose argument grammar and
	// messages the markers' calls follow: miles (est_time and suite
	// positional, labels, non-literals rejected; the default) or sglang
	// (est_time, suite, nightly and disabled positional, stage,
	// runner_config and in_process_group keyword-only, a suite given as
	// suite= or as the (stage, runner_config) pair, non-literals read as
	// unset).
	Arguments Arguments `yaml:"arguments,omitempty"`
	// RequireMain: a file with an enabled registration must have a
	// module-level `if __name__ == "__main__":` that makes a call, or the
	// CI runner's `python3 file.py` runs nothing (sglang's collector).
	RequireMain bool `yaml:"require-main"`
	// Markers maps a bare callee name to its backend.
	Markers map[string]Marker `yaml:"markers"`
	// ExtraParams adds keyword parameters per marker (the configurable
	// schema), e.g. {register_cuda_ci: {hardware: {required: true, type: str_list}}}.
	ExtraParams map[string]map[string]Param `yaml:"extra-params"`
	// Labels names the module-level literal holding the known domain labels.
	Labels SymbolRef `yaml:"labels"`
	// Suites names the CI_SUITES literal; Map, when set, is used if the
	// file cannot be read statically.
	Suites SuitesRef `yaml:"suites"`
	// ImplicitRoot auto-registers files under Prefix that hold no call.
	ImplicitRoot Implicit `yaml:"implicit-root"`
	// AccessPolicy is the comment-command access policy JSON ("" = none).
	AccessPolicy string `yaml:"access-policy"`
	// OrphanSearch lists the directories searched for test files outside
	// the roots; OrphanAllowlist exempts exact paths, and every file under
	// an entry ending in "/" (a directory kept outside CI on purpose).
	OrphanSearch    []string `yaml:"orphan-search"`
	OrphanAllowlist []string `yaml:"orphan-allowlist"`
	// Workflows is the directory whose workflow files are searched for
	// `--suite <name>` consumers and quoted run-ci-<label> strings.
	Workflows string `yaml:"workflows"`
	// ExternalSuites are suite globs consumed outside the repository, which
	// need no workflow consumer.
	ExternalSuites []string `yaml:"external-suites"`
	// Policy holds the label-policy and selection tables.
	Policy Policy `yaml:"policy"`
	// Python is the Python version the reference collector runs under
	// ("3.11" .. "3.14"; "" means the newest, PythonNewest). Grammar newer
	// than it is a syntax error, and error messages follow its parser.
	Python string `yaml:"python"`

	// overlay re-applies the configuration file's registry section over
	// another profile's values, for an auto profile that Resolve settles
	// as neutral (SetOverlay).
	overlay func(*Config) error
}

// PythonNewest is the newest Python version whose grammar cicheck follows,
// the default of Config.Python; PythonOldest the oldest.
const (
	PythonNewest = "3.14"
	PythonOldest = "3.11"
)

// pythonMinor returns the minor version of a "3.N" target ("" = newest).
func pythonMinor(v string) (int, bool) {
	if v == "" {
		v = PythonNewest
	}
	for m := 11; m <= pyparse.NewestMinor; m++ {
		if v == "3."+strconv.Itoa(m) {
			return m, true
		}
	}
	return 0, false
}

// targetMinor is pythonMinor for a configuration that may not have been
// validated: an unknown version reads as the newest.
func targetMinor(v string) int {
	if m, ok := pythonMinor(v); ok {
		return m
	}
	return pyparse.NewestMinor
}

// Marker describes one registration function.
type Marker struct {
	Backend        string `yaml:"backend"` // cpu, cuda, rocm, amd, npu, xpu, musa or mlx
	LabelsRequired bool   `yaml:"labels-required"`
}

// Param is an extra keyword parameter of a marker.
type Param struct {
	Required bool     `yaml:"required"`
	Type     string   `yaml:"type"` // str, str_list, bool, number
	Allowed  []string `yaml:"allowed"`
}

// SymbolRef names a module-level symbol in a Python file.
type SymbolRef struct {
	File   string `yaml:"file"`
	Symbol string `yaml:"symbol"`
}

// SuitesRef locates CI_SUITES; Map (backend -> suites) is the fallback.
// With Tables set, the suites are instead sglang's three tables in File
// (see SuiteTables), and Symbol and Map are unused.
type SuitesRef struct {
	File   string              `yaml:"file"`
	Symbol string              `yaml:"symbol"`
	Map    map[string][]string `yaml:"map"`
	Tables *TableNames         `yaml:"tables,omitempty"`
}

// TableNames are the module-level names of a run_suite.py's suite tables,
// each a dict from an enum member (HWBackend.CUDA) to a list of suites,
// and of the set of backends whose registrations are suite-checked.
type TableNames struct {
	PerCommit string `yaml:"per-commit"`
	Nightly   string `yaml:"nightly"`
	Other     string `yaml:"other"`
	Checked   string `yaml:"checked"`
	// HW names the dict from --hw values to enum members (HW_MAPPING).
	HW string `yaml:"hw"`
}

// Arguments names a registration argument grammar (Config.Arguments).
type Arguments string

// The argument grammars.
const (
	ArgumentsMiles  Arguments = "miles"
	ArgumentsSglang Arguments = "sglang"
)

// Implicit is the auto-registration applied to call-less files under Prefix.
type Implicit struct {
	Prefix  string  `yaml:"prefix"`
	Backend string  `yaml:"backend"`
	Suite   string  `yaml:"suite"`
	EstTime float64 `yaml:"est-time"`
}

// Policy is the CI label policy: label prefix, scope subtractions, cron
// schedules, PR GPU stages and the /rerun-test tables.
type Policy struct {
	LabelPrefix     string   `yaml:"label-prefix"`
	NightlySubtract []string `yaml:"nightly-subtract"`
	ImageSubtract   []string `yaml:"image-subtract"`
	NightlyCron     string   `yaml:"nightly-cron"`
	WeeklyCron      string   `yaml:"weekly-cron"`
	PRGPUStages     []string `yaml:"pr-gpu-stages"`
	// DocsPaths are exact paths that never affect GPU stages; DocsPrefixes
	// and DocsSuffixes likewise by prefix and suffix.
	DocsPaths    []string `yaml:"docs-paths"`
	DocsPrefixes []string `yaml:"docs-prefixes"`
	DocsSuffixes []string `yaml:"docs-suffixes"`
	// File runs (/rerun-test).
	CUDARunsOn      map[string][]string `yaml:"cuda-runs-on"`
	FileRunCPUSuite []string            `yaml:"file-run-cpu-suites"`
	Image           string              `yaml:"image"`
	MinTimeout      int                 `yaml:"min-timeout"`
	TimeoutFactor   float64             `yaml:"timeout-factor"`
}

// Miles returns the miles profile: radixark/miles' tests/ci conventions
// (its registry modules, test roots, markers, label policy and CI stages).
func Miles() Config {
	return Config{
		Profile:  ProfileMiles,
		Roots:    []string{"tests/fast", "tests/fast-gpu", "tests/e2e", "tests/ci"},
		FileGlob: "test_*.py",
		Markers: map[string]Marker{
			"register_cpu_ci":  {Backend: "cpu"},
			"register_cuda_ci": {Backend: "cuda", LabelsRequired: true},
			"register_rocm_ci": {Backend: "rocm", LabelsRequired: true},
		},
		ExtraParams:  map[string]map[string]Param{},
		Labels:       SymbolRef{File: "tests/ci/labels.py", Symbol: "KNOWN_LABELS"},
		Suites:       SuitesRef{File: "tests/ci/run_suite.py", Symbol: "CI_SUITES"},
		ImplicitRoot: Implicit{Prefix: "tests/fast/", Backend: "cpu", Suite: "stage-a-cpu", EstTime: 1.0},
		AccessPolicy: ".github/workflows/policies/comment-command-access.json",
		OrphanSearch: []string{"."},
		// tests/manual/ holds the tests miles runs by hand, outside CI
		// on purpose.
		OrphanAllowlist: []string{"miles/utils/test_wandb_utils.py", "tests/manual/"},
		Workflows:       ".github/workflows",
		ExternalSuites:  []string{"nightly-*"},
		Python:          PythonNewest,
		Policy: Policy{
			LabelPrefix:     "run-ci-",
			NightlySubtract: []string{"long", "ft-long"},
			ImageSubtract:   []string{"long", "ft-short", "ft-long"},
			NightlyCron:     "0 15 * * 0-5",
			WeeklyCron:      "0 15 * * 6",
			PRGPUStages: []string{"stage-b-2-gpu-h200", "stage-c-2-gpu-h200", "stage-c-4-gpu-h200",
				"stage-c-8-gpu-h100", "stage-c-8-gpu-h200", "stage-c-4-gpu-mi350"},
			DocsPaths:    []string{".pre-commit-config.yaml", "scripts/tools/sync_example_docs.py"},
			DocsPrefixes: []string{"docs/"},
			DocsSuffixes: []string{".md", ".mdx"},
			CUDARunsOn: map[string][]string{
				"stage-b-2-gpu-h200": {"h200", "2gpu"},
				"stage-c-8-gpu-h100": {"h100", "8gpu"},
				"stage-c-8-gpu-h200": {"h200", "8gpu"},
				"stage-c-4-gpu-h200": {"h200", "4gpu"},
				"stage-c-2-gpu-h200": {"h200", "2gpu"},
			},
			FileRunCPUSuite: []string{"stage-a-cpu", "stage-b-cpu"},
			Image:           "radixark/miles",
			MinTimeout:      1800,
			TimeoutFactor:   1.25,
		},
	}
}

// Sglang returns the sglang profile: sgl-project/sglang's CI registry
// (test/registered/, its seven register_*_ci markers, the suite tables of
// test/run_suite.py and the rules of python/sglang/test/ci/ci_register.py).
func Sglang() Config {
	return Config{
		Profile:  ProfileSglang,
		Roots:    []string{"test/registered"},
		FileGlob: "*.py",
		Exclude:  []string{"conftest.py", "__init__.py", "cpu/utils.py"},
		Markers: map[string]Marker{
			"register_cpu_ci":  {Backend: "cpu"},
			"register_cuda_ci": {Backend: "cuda"},
			"register_amd_ci":  {Backend: "amd"},
			"register_npu_ci":  {Backend: "npu"},
			"register_xpu_ci":  {Backend: "xpu"},
			"register_musa_ci": {Backend: "musa"},
			"register_mlx_ci":  {Backend: "mlx"},
		},
		ExtraParams: map[string]map[string]Param{},
		Arguments:   ArgumentsSglang,
		RequireMain: true,
		Suites: SuitesRef{File: "test/run_suite.py", Tables: &TableNames{
			PerCommit: "PER_COMMIT_SUITES", Nightly: "NIGHTLY_SUITES", Other: "OTHER_SUITES",
			Checked: "_SUITE_CHECKED_BACKENDS", HW: "HW_MAPPING"}},
		Workflows: ".github/workflows",
		Python:    PythonNewest,
	}
}
