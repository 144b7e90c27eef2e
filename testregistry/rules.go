package testregistry

import (
	"slices"
	"strings"
	"sync"

	"github.com/cicheck/cicheck/finding"
)

// Rule describes one finding id this package produces.
type Rule struct {
	ID       string
	Severity finding.Severity // default; some rules downgrade per finding
	Short    string
	// Help is the long markdown documentation: why the finding matters and
	// how to fix it.
	Help string
	// Bad and Good are example repositories in txtar form
	// (github.com/rogpeppe/go-internal/txtar): a registry rule is about
	// several files, not one. Checked with DefaultConfig (plus the
	// registry: section of a .cicheck.yaml in the archive, if any), Bad
	// reports the rule and Good reports no error or warning at all.
	Bad, Good string
}

// Rule ids. The reg-* ids cover the reference collector's errors (spec §5,
// §6) plus cicheck's extras (§13); labels-* cover the label file and the
// comment-command allowlist; policy-* the label policy.
const (
	RuleSyntaxError      = "reg-syntax-error"
	RuleStarredArgs      = "reg-starred-args"
	RuleTooManyPos       = "reg-too-many-positional"
	RuleNotLiteral       = "reg-not-literal"
	RuleKwargs           = "reg-kwargs"
	RuleDuplicateArg     = "reg-duplicate-arg"
	RuleUnknownArg       = "reg-unknown-arg"
	RuleLabelsType       = "reg-labels-type"
	RuleMissingArg       = "reg-missing-arg"
	RuleWrongType        = "reg-wrong-type"
	RuleBadValue         = "reg-bad-value"
	RuleNoDomainLabel    = "reg-no-domain-label"
	RuleUnknownLabel     = "reg-unknown-label"
	RuleGPUInImplicit    = "reg-gpu-in-implicit-root"
	RuleMentionNoCall    = "reg-mention-no-call"
	RuleRocmAliasQuirk   = "reg-rocm-alias-quirk"
	RuleNoRegistry       = "reg-no-registry"
	RuleUnknownSuite     = "reg-unknown-suite"
	RuleSuitesUnknown    = "reg-suites-unavailable"
	RuleSuiteNoConsumer  = "reg-suite-no-consumer"
	RuleDuplicate        = "reg-duplicate"
	RuleDuplicateLabel   = "reg-duplicate-label"
	RuleEstTimeBool      = "reg-est-time-bool"
	RuleSemanticDefault  = "reg-semantic-default"
	RuleOrphanTest       = "reg-orphan-test"
	RuleUnreadable       = "reg-unreadable"
	RuleSuiteShape       = "reg-suite-shape"
	RuleNoMain           = "reg-no-main"
	RuleLabelsNotLiteral = "labels-not-literal"
	RuleLabelsReserved   = "labels-reserved-key"
	RuleLabelsBadKey     = "labels-bad-key"
	RuleLabelsDupKey     = "labels-duplicate-key"
	RuleLabelsUnused     = "labels-unused"
	RuleAllowlistDrift   = "policy-allowlist-drift"
	RuleUnknownRequest   = "policy-unknown-request"

	// The sglang layout's workflow checks (CheckRunSuiteWorkflows).
	RuleWorkflowUnknownSuite = "reg-workflow-unknown-suite"
	RuleWorkflowWrongTable   = "reg-workflow-wrong-table"
	RuleSuiteNoWorkflow      = "reg-suite-no-workflow"
	RuleSuiteRunnerMismatch  = "reg-suite-runner-mismatch"
)

// Rules lists every rule with its default severity, a one-line summary, its
// documentation and a bad and a good example repository, for
// `cicheck rules`, SARIF metadata and docs/rules/<id>.md.
func Rules() []Rule { return slices.Clone(rules()) }

// rules builds the list once, on first use: its examples are strings a
// lint run never reads, so no command pays for them at start-up.
var rules = sync.OnceValue(func() []Rule {
	return []Rule{
		{
			ID: RuleSyntaxError, Severity: finding.Error,
			Short: "A test file that Python cannot parse breaks CI collection.",
			Help: mdHelp(`
The collector reads every test file with ‵ast.parse‵, so one syntax error
anywhere in a file (not only in its registration) raises a raw
‵SyntaxError‵ and collection fails for the whole repository.

` + collectorFails + `

Fix the syntax; the message is the one CPython gives (‵'(' was never
closed‵, ‵expected ':'‵, ‵Missing parentheses in call to 'print'‵, ...)
for the Python version in ‵registry.python‵ (default: the newest cicheck
supports, 3.14; the reference's CPU CI runs 3.11), positioned on the
offending token. Grammar newer than that version (a ‵type‵ alias, type
parameters, a PEP 701 f-string under 3.11, a t-string before 3.14) is an
error that names the construct and the version that introduced it.`),
			Bad: exRepo(exFile("tests/e2e/megatron/test_convert.py", `
from tests.ci.ci_register import register_cuda_ci

register_cuda_ci(est_time=900, suite="stage-c-8-gpu-h100", labels=["megatron"]


def test_convert_roundtrip():
    assert convert_checkpoint("tiny-llama", "/tmp/ckpt")
`)),
			Good: exRepo(megatronTest),
		},
		{
			ID: RuleStarredArgs, Severity: finding.Error,
			Short: "register_*_ci() does not accept *args.",
			Help: mdHelp(`
Registrations are read statically, never executed: the collector cannot
see what ‵*args‵ unpacks to, so it rejects the call.

` + collectorFails + `

Write ‵est_time‵ and ‵suite‵ out as literals in each registration.`),
			Bad: exRepo(exFile("tests/e2e/megatron/test_convert.py", `
from tests.ci.ci_register import register_cuda_ci

H100_DEFAULTS = (900, "stage-c-8-gpu-h100")
register_cuda_ci(*H100_DEFAULTS, labels=["megatron"])
`+testBody)),
			Good: exRepo(megatronTest),
		},
		{
			ID: RuleTooManyPos, Severity: finding.Error,
			Short: "Only est_time and suite may be passed positionally.",
			Help: mdHelp(`
‵labels‵, ‵nightly‵ and ‵disabled‵ are keyword-only: a third positional
argument is an error in the collector (and a ‵TypeError‵ if the file is
ever imported).

` + collectorFails + `

Pass the third argument by name, usually ‵labels=[...]‵.`),
			Bad: exRepo(exFile("tests/e2e/megatron/test_convert.py", `
from tests.ci.ci_register import register_cuda_ci

register_cuda_ci(900, "stage-c-8-gpu-h100", ["megatron"])
`+testBody)),
			Good: exRepo(exFile("tests/e2e/megatron/test_convert.py", `
from tests.ci.ci_register import register_cuda_ci

register_cuda_ci(900, "stage-c-8-gpu-h100", labels=["megatron"])
`+testBody)),
		},
		{
			ID: RuleNotLiteral, Severity: finding.Error,
			Short: "Registration arguments must be literal constants.",
			Help: mdHelp(`
The collector evaluates arguments without running Python, so only
constants count: ‵15 * 60‵, ‵-5‵, a name or an f-string is not a literal
(implicit concatenation ‵"stage-" "a-cpu"‵ is).

` + collectorFails + `

Write the value out: ‵est_time=900‵, ‵suite="stage-c-8-gpu-h100"‵.`),
			Bad: exRepo(exFile("tests/e2e/megatron/test_convert.py", `
from tests.ci.ci_register import register_cuda_ci

register_cuda_ci(est_time=15 * 60, suite="stage-c-8-gpu-h100", labels=["megatron"])
`+testBody)),
			Good: exRepo(megatronTest),
		},
		{
			ID: RuleKwargs, Severity: finding.Error,
			Short: "register_*_ci() does not accept **kwargs.",
			Help: mdHelp(`
A shared dict of defaults unpacked with ‵**‵ is invisible to the static
collector, which rejects the call.

` + collectorFails + `

Spell every keyword out in each registration.`),
			Bad: exRepo(exFile("tests/e2e/megatron/test_convert.py", `
from tests.ci.ci_register import register_cuda_ci

H100 = {"est_time": 900, "suite": "stage-c-8-gpu-h100"}
register_cuda_ci(**H100, labels=["megatron"])
`+testBody)),
			Good: exRepo(megatronTest),
		},
		{
			ID: RuleDuplicateArg, Severity: finding.Error,
			Short: "An argument is given twice.",
			Help: mdHelp(`
An argument given both positionally and by keyword, or twice by keyword,
is ambiguous; the collector rejects the call.

` + collectorFails + `

Keep one of the two.`),
			Bad: exRepo(exFile("tests/e2e/megatron/test_convert.py", `
from tests.ci.ci_register import register_cuda_ci

register_cuda_ci(900, "stage-c-8-gpu-h100", suite="stage-c-8-gpu-h100", labels=["megatron"])
`+testBody)),
			Good: exRepo(exFile("tests/e2e/megatron/test_convert.py", `
from tests.ci.ci_register import register_cuda_ci

register_cuda_ci(900, "stage-c-8-gpu-h100", labels=["megatron"])
`+testBody)),
		},
		{
			ID: RuleUnknownArg, Severity: finding.Error,
			Short: "An argument the registration schema does not know.",
			Help: mdHelp(`
The schema is ‵est_time‵, ‵suite‵, ‵labels‵, ‵nightly‵ and ‵disabled‵, plus
any ‵registry.extra-params‵ configured for the marker. Removed keywords
such as ‵num_gpus‵ or ‵always_on‵ are errors: the suite already says which
runner the test needs.

` + collectorFails + `

Drop the argument, or declare it in ‵registry.extra-params‵ if the
repository's ‵ci_register.py‵ really accepts it.`),
			Bad: exRepo(exFile("tests/e2e/megatron/test_convert.py", `
from tests.ci.ci_register import register_cuda_ci

register_cuda_ci(est_time=900, suite="stage-c-8-gpu-h100", labels=["megatron"], num_gpus=8)
`+testBody)),
			Good: exRepo(megatronTest),
		},
		{
			ID: RuleLabelsType, Severity: finding.Error,
			Short: "labels must be a list of string literals or None.",
			Help: mdHelp(`
‵labels="megatron"‵ is a string, not a list; a tuple, a name or a
comprehension cannot be read statically either. The collector rejects the
call.

` + collectorFails + `

Write a list of string literals: ‵labels=["megatron"]‵.`),
			Bad: exRepo(exFile("tests/e2e/megatron/test_convert.py", `
from tests.ci.ci_register import register_cuda_ci

register_cuda_ci(est_time=900, suite="stage-c-8-gpu-h100", labels="megatron")
`+testBody)),
			Good: exRepo(megatronTest),
		},
		{
			ID: RuleMissingArg, Severity: finding.Error,
			Short: "A required registration argument is missing.",
			Help: mdHelp(`
‵est_time‵ and ‵suite‵ are required, and so is any ‵registry.extra-params‵
keyword marked ‵required: true‵. A night of GPU coverage was lost this
way: the repository made ‵hardware=‵ required on CUDA registrations, one
new test was registered without it, and collection failed at plan time.

` + collectorFails + `

Add the argument. ‵cicheck registry check --staged‵ as a pre-commit hook
catches it before the commit.`),
			Bad: exRepo(exFile("tests/e2e/megatron/test_convert.py", `
from tests.ci.ci_register import register_cuda_ci

register_cuda_ci(est_time=900, labels=["megatron"])
`+testBody)),
			Good: exRepo(megatronTest),
		},
		{
			ID: RuleWrongType, Severity: finding.Error,
			Short: "A registration argument has the wrong type.",
			Help: mdHelp(`
‵est_time‵ must be a number (seconds), ‵suite‵ a string, ‵nightly‵ exactly
a bool, ‵disabled‵ a string or ‵None‵; configured extra parameters have
their declared type. Anything else is a collector error.

` + collectorFails + `

Use the right type: ‵est_time=900‵, not ‵est_time="15m"‵.`),
			Bad: exRepo(exFile("tests/e2e/megatron/test_convert.py", `
from tests.ci.ci_register import register_cuda_ci

register_cuda_ci(est_time="15m", suite="stage-c-8-gpu-h100", labels=["megatron"])
`+testBody)),
			Good: exRepo(megatronTest),
		},
		{
			ID: RuleBadValue, Severity: finding.Error,
			Short: "A configured parameter has a value outside its allowed set.",
			Help: mdHelp(`
A keyword declared in ‵registry.extra-params‵ with an ‵allowed‵ list only
takes those values; the repository's ‵ci_register.py‵ rejects anything
else when it collects, which fails CI the same way as any registration
error.

Use one of the allowed values (they are case-sensitive), or extend the
list in both ‵ci_register.py‵ and ‵.cicheck.yaml‵.`),
			Bad: exRepo(hardwareConfig, exFile("tests/e2e/megatron/test_convert.py", `
from tests.ci.ci_register import register_cuda_ci

register_cuda_ci(est_time=900, suite="stage-c-8-gpu-h100", labels=["megatron"], hardware="H100")
`+testBody)),
			Good: exRepo(hardwareConfig, exFile("tests/e2e/megatron/test_convert.py", `
from tests.ci.ci_register import register_cuda_ci

register_cuda_ci(est_time=900, suite="stage-c-8-gpu-h100", labels=["megatron"], hardware="h100")
`+testBody)),
		},
		{
			ID: RuleNoDomainLabel, Severity: finding.Error,
			Short: "GPU registrations need at least one domain label.",
			Help: mdHelp(`
A registration with no labels is always on: it runs whenever its suite
runs. That is the point for cheap CPU tests, but an unlabelled GPU test
would run in every run of its GPU stage, whichever area a pull request
asked for. CUDA and ROCm registrations must therefore name at least one
‵KNOWN_LABELS‵ key; the PR label ‵run-ci-<key>‵ (or the nightly scope)
selects them.

` + collectorFails + `

Add the domain label of the code the test covers.`),
			Bad: exRepo(exFile("tests/e2e/megatron/test_convert.py", `
from tests.ci.ci_register import register_cuda_ci

register_cuda_ci(est_time=900, suite="stage-c-8-gpu-h100")
`+testBody)),
			Good: exRepo(megatronTest),
		},
		{
			ID: RuleUnknownLabel, Severity: finding.Error,
			Short: "A label outside KNOWN_LABELS.",
			Help: mdHelp(`
Labels must be keys of ‵KNOWN_LABELS‵ in ‵tests/ci/labels.py‵: a typo would
otherwise make the test unselectable by any ‵run-ci-<label>‵.

` + collectorFails + `

Fix the typo, or add the label to ‵KNOWN_LABELS‵, to the comment-command
allowlist and as ‵run-ci-<label>‵ in the repository's GitHub labels.`),
			Bad: exRepo(exFile("tests/e2e/megatron/test_convert.py", `
from tests.ci.ci_register import register_cuda_ci

register_cuda_ci(est_time=900, suite="stage-c-8-gpu-h100", labels=["megaton"])
`+testBody)),
			Good: exRepo(megatronTest),
		},
		{
			ID: RuleGPUInImplicit, Severity: finding.Error,
			Short: "GPU registrations are forbidden in the CPU-only implicit root.",
			Help: mdHelp(`
Files under ‵tests/fast/‵ run on CPU runners, and a file there without a
call is registered implicitly for ‵stage-a-cpu‵. A CUDA or ROCm
registration there is a collector error (the message says
‵register_cuda_ci‵ even for ROCm).

` + collectorFails + `

Move the file to ‵tests/fast-gpu/‵.`),
			Bad:  exRepo(exFile("tests/fast/test_fused_adam.py", fusedAdam)),
			Good: exRepo(exFile("tests/fast-gpu/test_fused_adam.py", fusedAdam)),
		},
		{
			ID: RuleMentionNoCall, Severity: finding.Error,
			Short: "The file mentions a marker but no top-level call was parsed.",
			Help: mdHelp(`
In ‵tests/fast/‵ a file without a registration is registered implicitly
(CPU, ‵stage-a-cpu‵, 1 second). A file that names ‵register_cpu_ci‵ or
‵register_cuda_ci‵ but whose call the collector cannot see (an aliased
import, ‵module.register_cpu_ci(...)‵, a call inside ‵if‵ or a function)
is ambiguous, so the collector rejects it.

` + collectorFails + `

Import the marker by name and call it at module level.`),
			Bad: exRepo(exFile("tests/fast/test_tokenizer.py", `
from tests.ci import ci_register

ci_register.register_cpu_ci(est_time=120, suite="stage-b-cpu")


def test_roundtrip():
    assert "hello".encode().decode() == "hello"
`)),
			Good: exRepo(exFile("tests/fast/test_tokenizer.py", `
from tests.ci.ci_register import register_cpu_ci

register_cpu_ci(est_time=120, suite="stage-b-cpu")


def test_roundtrip():
    assert "hello".encode().decode() == "hello"
`), megatronTest),
		},
		{
			ID: RuleRocmAliasQuirk, Severity: finding.Error,
			Short: "A ROCm-only mention the reference would silently register as implicit CPU.",
			Help: mdHelp(`
The reference collector's textual check in ‵tests/fast/‵ looks only for
‵register_cpu_ci‵ and ‵register_cuda_ci‵. A ROCm registration it cannot
parse (aliased, nested, attribute access) is therefore silently turned
into an implicit CPU test: the ROCm test never runs on an MI350 and nobody
is told. cicheck flags it.

Call ‵register_rocm_ci‵ by its bare name at module level, in a GPU root
(‵tests/fast-gpu/‵ or ‵tests/e2e/‵).`),
			Bad: exRepo(exFile("tests/fast/test_rocm_kernels.py", `
from tests.ci import ci_register

ci_register.register_rocm_ci(est_time=600, suite="stage-c-4-gpu-mi350", labels=["megatron"])


def test_rocm_gemm():
    assert gemm_matches_reference()
`)),
			Good: exRepo(exFile("tests/e2e/amd/test_rocm_kernels.py", `
from tests.ci.ci_register import register_rocm_ci

register_rocm_ci(est_time=600, suite="stage-c-4-gpu-mi350", labels=["megatron"])


def test_rocm_gemm():
    assert gemm_matches_reference()
`)),
		},
		{
			ID: RuleNoRegistry, Severity: finding.Error,
			Short: "A test file under a scan root without any registration.",
			Help: mdHelp(`
Outside the implicit root every ‵test_*.py‵ under a scan root must register
itself (‵No CI registry found in <file>‵): CI would otherwise never run
it, and the collector refuses to guess.

` + collectorFails + `

Add a registration at module level.`),
			Bad:  exRepo(exFile("tests/e2e/megatron/test_convert.py", strings.TrimPrefix(testBody, "\n"))),
			Good: exRepo(megatronTest),
		},
		{
			ID: RuleUnknownSuite, Severity: finding.Error,
			Short: "A suite no backend lists is never selected (a notice when the registration is disabled).",
			Help: mdHelp(`
A test runs only when a CI job runs its suite, and jobs run the suites of
‵CI_SUITES‵ in ‵tests/ci/run_suite.py‵. A registration on any other suite
(a typo, a retired runner pool) is accepted by the reference collector and
then silently never selected. A registration explicitly ‵disabled=‵ is
never selected anyway, so its unknown suite is only a notice.

Register on a suite listed for the backend, or add the suite to
‵CI_SUITES‵ and a workflow job that runs it.`),
			Bad: exRepo(exFile("tests/e2e/megatron/test_convert.py", `
from tests.ci.ci_register import register_cuda_ci

register_cuda_ci(est_time=900, suite="stage-c-8-gpu-b200", labels=["megatron"])
`+testBody)),
			Good: exRepo(megatronTest),
		},
		{
			ID: RuleSuiteShape, Severity: finding.Error,
			Short: "A registration must name its suite either as suite= or as the (stage, runner_config) pair.",
			Help: mdHelp(`
Under the sglang argument grammar a suite is written one of two ways:
‵suite="nightly-1-gpu"‵, or ‵stage="base-b", runner_config="1-gpu-large"‵,
which names the suite ‵base-b-test-1-gpu-large‵. Any other combination
(the pair and ‵suite‵ together, ‵stage‵ alone, neither) is rejected, with
the triple of what was given in the message. An argument that is not a
constant (a name, ‵-5‵, an f-string) counts as not given.

` + runSuiteFails + `

Keep exactly one of the two forms.`),
			Bad: sgRepo(exFile("test/registered/unit/test_sampling.py", `
from sglang.test.ci.ci_register import register_cuda_ci

register_cuda_ci(est_time=60, stage="base-b", suite="base-b-test-1-gpu-large")
`+sgMain)),
			Good: sgRepo(sgTest),
		},
		{
			ID: RuleNoMain, Severity: finding.Error,
			Short: "A registered test file must run its tests when executed as a script.",
			Help: mdHelp(`
sglang's runner executes each registered file as ‵python3 file.py -f‵. A
file with an enabled registration and no module-level
‵if __name__ == "__main__":‵ block that makes a call runs nothing and
passes: pytest-style tests in it are silently skipped. The collector
rejects such a file.

` + runSuiteFails + `

Add ‵unittest.main()‵ (for unittest.TestCase) or
‵sys.exit(pytest.main([__file__, "-v"]))‵ (for pytest-style tests) under
‵if __name__ == "__main__":‵.`),
			Bad: sgRepo(exFile("test/registered/unit/test_sampling.py", `
from sglang.test.ci.ci_register import register_cuda_ci

register_cuda_ci(est_time=60, stage="base-b", runner_config="1-gpu-large")


def test_top_p():
    assert sample(top_p=0.9)
`)),
			Good: sgRepo(sgTest),
		},
		{
			ID: RuleSuitesUnknown, Severity: finding.Notice,
			Short: "CI_SUITES could not be loaded statically; suite checks skipped.",
			Help: mdHelp(`
cicheck reads ‵CI_SUITES‵ without running Python: it must be a dict
literal whose keys are ‵HWBackend.CPU‵/‵.CUDA‵/‵.ROCM‵ (or the strings
‵cpu‵/‵cuda‵/‵rocm‵) and whose values are lists of string literals. When it
is computed, ‵reg-unknown-suite‵ and ‵reg-suite-no-consumer‵ cannot run.

Write ‵CI_SUITES‵ as a literal, or give the suites in ‵.cicheck.yaml‵ under
‵registry.suites.map‵.`),
			Bad: exRepo(megatronTest, exFile("tests/ci/run_suite.py", suitesHeader+`
CI_SUITES = {backend: load_suites(f"suites/{backend.value}.txt") for backend in HWBackend}
`)),
			Good: exRepo(megatronTest),
		},
		{
			ID: RuleSuiteNoConsumer, Severity: finding.Notice,
			Short: "A suite that no workflow passes as --suite is never run (external suites are allow-listed).",
			Help: mdHelp(`
A suite in ‵CI_SUITES‵ that no workflow runs (‵run_suite.py --suite <name>‵)
is dead: its tests are collected and validated but never executed. cicheck
reads the workflow files as text; suites run outside the repository are
listed in ‵registry.external-suites‵ (default ‵nightly-*‵).

Add a job that runs the suite, remove the suite, or allow-list it. The
check is textual: a suite passed as ‵--suite ${{ matrix.suite }}‵ is not
seen, so name it literally or allow-list it.`),
			Bad: exRepo(implicitCPUTest, cpuSuites, exFile(".github/workflows/pr-test.yml", `
name: PR Test
on: pull_request
jobs:
  stage-a-cpu:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - run: python tests/ci/run_suite.py --hw cpu --suite stage-a-cpu
`)),
			Good: exRepo(implicitCPUTest, cpuSuites, exFile(".github/workflows/pr-test.yml", `
name: PR Test
on: pull_request
jobs:
  stage-a-cpu:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - run: python tests/ci/run_suite.py --hw cpu --suite stage-a-cpu
  stage-b-cpu:
    needs: stage-a-cpu
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - run: python tests/ci/run_suite.py --hw cpu --suite stage-b-cpu
`)),
		},
		{
			ID: RuleDuplicate, Severity: finding.Error,
			Short: "Two registrations of one file on the same backend and suite.",
			Help: mdHelp(`
The same file registered twice for one backend and suite runs twice in
that job (or, with different ‵nightly‵/‵labels‵, makes it unclear which
registration wins). The reference collector accepts it; cicheck does not.

Merge the two calls into one; use two suites if the test really must run
on two runner pools.`),
			Bad: exRepo(exFile("tests/e2e/megatron/test_convert.py", `
from tests.ci.ci_register import register_cuda_ci

register_cuda_ci(est_time=900, suite="stage-c-8-gpu-h100", labels=["megatron"])
register_cuda_ci(est_time=1800, suite="stage-c-8-gpu-h100", labels=["megatron"], nightly=True)
`+testBody)),
			Good: exRepo(megatronTest),
		},
		{
			ID: RuleDuplicateLabel, Severity: finding.Warning,
			Short: "A label repeated within one registration.",
			Help: mdHelp(`
Labels are a set in effect (a test is selected when any of its labels is
requested), so a repeated label changes nothing; it is usually a
copy-paste slip where a different label was meant.

Remove the repetition, or write the label that was meant.`),
			Bad: exRepo(exFile("tests/e2e/megatron/test_convert.py", `
from tests.ci.ci_register import register_cuda_ci

register_cuda_ci(est_time=900, suite="stage-c-8-gpu-h100", labels=["megatron", "megatron"])
`+testBody)),
			Good: exRepo(megatronTest),
		},
		{
			ID: RuleEstTimeBool, Severity: finding.Warning,
			Short: "A bool est_time is accepted as 0 or 1 second.",
			Help: mdHelp(`
‵est_time‵ drives sharding (longest first) and the ‵/rerun-test‵ timeout.
‵True‵ is a valid constant to the collector and counts as one second, so
the test is scheduled as if it were instant and may push its shard past
the job's time limit.

Give the estimated run time in seconds.`),
			Bad: exRepo(exFile("tests/e2e/megatron/test_convert.py", `
from tests.ci.ci_register import register_cuda_ci

register_cuda_ci(est_time=True, suite="stage-c-8-gpu-h100", labels=["megatron"])
`+testBody)),
			Good: exRepo(megatronTest),
		},
		{
			ID: RuleSemanticDefault, Severity: finding.Warning,
			Short: "An explicit registration that equals the implicit default.",
			Help: mdHelp(`
In ‵tests/fast/‵ a file without a registration is already a CPU
‵stage-a-cpu‵ test. An explicit ‵register_cpu_ci(est_time=10,
suite="stage-a-cpu")‵ adds nothing, and the reference repository's own
lint rejects it.

Delete the call (and its import: a leftover mention of the marker is
‵reg-mention-no-call‵).`),
			Bad: exRepo(exFile("tests/fast/test_config_parse.py", `
from tests.ci.ci_register import register_cpu_ci

register_cpu_ci(est_time=10, suite="stage-a-cpu")
`+cpuBody), megatronTest),
			Good: exRepo(exFile("tests/fast/test_config_parse.py", strings.TrimPrefix(cpuBody, "\n\n")), megatronTest),
		},
		{
			ID: RuleOrphanTest, Severity: finding.Warning,
			Short: "A test file outside the scan roots is never collected.",
			Help: mdHelp(`
Only ‵test_*.py‵ files under the roots (‵tests/fast‵, ‵tests/fast-gpu‵,
‵tests/e2e‵, ‵tests/ci‵) are collected. A test file anywhere else looks
like coverage but never runs in CI.

Move it under a root and register it, or list it in
‵registry.orphan-allowlist‵ if it is deliberately manual (an entry ending
in ‵/‵ exempts a whole directory). The miles profile exempts
‵tests/manual/‵, where miles keeps the tests it runs by hand.`),
			Bad: exRepo(exFile("tests/integration/test_lr_sweep.py", `
def test_lr_sweep():
    assert run_sweep([1e-4, 3e-4]) is not None
`), megatronTest),
			Good: exRepo(exFile("tests/e2e/megatron/test_lr_sweep.py", `
from tests.ci.ci_register import register_cuda_ci

register_cuda_ci(est_time=1200, suite="stage-c-8-gpu-h100", labels=["megatron"], nightly=True)


def test_lr_sweep():
    assert run_sweep([1e-4, 3e-4]) is not None
`), megatronTest),
		},
		{
			ID: RuleUnreadable, Severity: finding.Error,
			Short: "A file the registry will not read: outside the repository, not a regular file, or too large.",
			Help: mdHelp(`
The repository is the boundary of what cicheck reads. A test, suites or
access-policy file is not read when it is a symlink leading outside the
repository (an absolute target, or one climbing above the root), when it
is not a regular file (a FIFO, a device, a socket), or when it is larger
than its limit: 4 MiB for a test file, 16 MiB for the suites module,
4 MiB for the access policy. Nothing of such a file's content is printed.
The reference collector would read it anyway: a FIFO hangs CI
collection, and a symlink to ‵/etc/passwd‵ is read as Python. (The labels
module, 16 MiB at most, is reported as ‵labels-not-literal‵ with the same
reason.)

A directory symlink under a root that leads outside the repository is not
followed (a warning, as the files below it are not collected). Directory
symlinks inside it are followed once each, and each directory they lead
to is listed through them once, so a loop ends; after 200,000 entries
listed through symlinks discovery stops following them (a warning).

Replace the symlink with the file itself, or move the data the test needs
out of the registry's roots.`),
		},
		{
			ID: RuleLabelsNotLiteral, Severity: finding.Error,
			Short: "KNOWN_LABELS cannot be loaded statically.",
			Help: mdHelp(`
The collector and cicheck read ‵KNOWN_LABELS‵ without running Python. It
must be one module-level literal (a dict with string keys, a set, a list
or a tuple of strings) that is not modified afterwards. Otherwise every
label check is skipped, so typos in labels go unnoticed.

Write all labels in the literal itself.`),
			Bad: exRepo(megatronTest, exFile("tests/ci/labels.py", labelsDoc+`
KNOWN_LABELS: dict[str, str] = {
    "megatron": "Megatron-LM training and checkpoint conversion.",
}
KNOWN_LABELS.update(EXTRA_LABELS)
`)),
			Good: exRepo(megatronTest),
		},
		{
			ID: RuleLabelsReserved, Severity: finding.Error,
			Short: "A workflow-only scope name used as a domain label.",
			Help: mdHelp(`
‵all‵, ‵image‵ and ‵nightly‵ are scopes of the CI label policy:
‵run-ci-all‵ selects every label, ‵run-ci-image‵ every label but ‵long‵,
‵ft-short‵ and ‵ft-long‵, and ‵nightly‵ switches the cadence. As a domain label they would
collide with those meanings.

Pick a different key.`),
			Bad: exRepo(megatronTest, exFile("tests/ci/labels.py", labelsDoc+`
KNOWN_LABELS: dict[str, str] = {
    "megatron": "Megatron-LM training and checkpoint conversion.",
    "image": "Docker image build smoke tests.",
}
`)),
			Good: exRepo(megatronTest, exFile("tests/e2e/docker/test_image_smoke.py", `
from tests.ci.ci_register import register_cuda_ci

register_cuda_ci(est_time=300, suite="stage-c-8-gpu-h100", labels=["docker-image"])


def test_image_imports():
    assert import_all_modules()
`), exFile("tests/ci/labels.py", labelsDoc+`
KNOWN_LABELS: dict[str, str] = {
    "megatron": "Megatron-LM training and checkpoint conversion.",
    "docker-image": "Docker image build smoke tests.",
}
`)),
		},
		{
			ID: RuleLabelsBadKey, Severity: finding.Error,
			Short: "A label key whose run-ci-<key> label the workflow adapter drops.",
			Help: mdHelp(`
The workflow adapter keeps only PR labels matching
‵^run-ci-[A-Za-z0-9][A-Za-z0-9_.-]*$‵. A key with a space, a slash or a
leading dash can be registered and documented, but its ‵run-ci-<key>‵
label is silently dropped, so nothing can ever request it.

Use letters, digits, ‵_‵, ‵.‵ and ‵-‵ only, starting with a letter or digit.`),
			Bad: exRepo(megatronTest, exFile("tests/ci/labels.py", labelsDoc+`
KNOWN_LABELS: dict[str, str] = {
    "megatron": "Megatron-LM training and checkpoint conversion.",
    "weight update": "Weight sync between trainer and rollout engines.",
}
`)),
			Good: exRepo(megatronTest, exFile("tests/e2e/sync/test_weight_update.py", `
from tests.ci.ci_register import register_cuda_ci

register_cuda_ci(est_time=600, suite="stage-c-8-gpu-h100", labels=["weight-update"])


def test_weights_match_after_sync():
    assert sync_and_compare()
`), exFile("tests/ci/labels.py", labelsDoc+`
KNOWN_LABELS: dict[str, str] = {
    "megatron": "Megatron-LM training and checkpoint conversion.",
    "weight-update": "Weight sync between trainer and rollout engines.",
}
`)),
		},
		{
			ID: RuleLabelsDupKey, Severity: finding.Warning,
			Short: "A label key given twice.",
			Help: mdHelp(`
Python keeps the last of two equal dict keys, so nothing breaks, but the
first description is silently lost and a merge conflict was usually
resolved by keeping both sides.

Keep one entry.`),
			Bad: exRepo(megatronTest, exFile("tests/ci/labels.py", labelsDoc+`
KNOWN_LABELS: dict[str, str] = {
    "megatron": "Megatron-LM training and checkpoint conversion.",
    "megatron": "Megatron-LM training.",
}
`)),
			Good: exRepo(megatronTest),
		},
		{
			ID: RuleLabelsUnused, Severity: finding.Notice,
			Short: "A known label that no registration uses.",
			Help: mdHelp(`
A ‵run-ci-<label>‵ for a label no test carries selects nothing: a reviewer
who adds it believes GPU tests ran when none did. Usually the tests were
moved or relabelled and the label stayed.

Label the tests that cover the area, or remove the label (from
‵KNOWN_LABELS‵, the comment-command allowlist and the GitHub labels).`),
			Bad: exRepo(megatronTest, exFile("tests/ci/labels.py", labelsDoc+`
KNOWN_LABELS: dict[str, str] = {
    "megatron": "Megatron-LM training and checkpoint conversion.",
    "lora": "LoRA adapters.",
}
`)),
			Good: exRepo(megatronTest, exFile("tests/e2e/lora/test_lora_merge.py", `
from tests.ci.ci_register import register_cuda_ci

register_cuda_ci(est_time=450, suite="stage-c-8-gpu-h100", labels=["lora"])


def test_merged_adapter_matches():
    assert merge_and_compare("tiny-llama")
`), exFile("tests/ci/labels.py", labelsDoc+`
KNOWN_LABELS: dict[str, str] = {
    "megatron": "Megatron-LM training and checkpoint conversion.",
    "lora": "LoRA adapters.",
}
`)),
		},
		{
			ID: RuleAllowlistDrift, Severity: finding.Error,
			Short: "The comment-command label allowlist differs from KNOWN_LABELS.",
			Help: mdHelp(`
Maintainers add ‵run-ci-<label>‵ by PR comment; the access policy's
‵commands.add_label.allowed_labels‵ must be exactly ‵run-ci-<key>‵ for every
‵KNOWN_LABELS‵ key, plus ‵run-ci-image‵ and ‵bypass-fastfail‵. A missing
entry means a new label cannot be requested by comment; an extra one lets
commenters add a label that selects nothing (‵run-ci-all‵ and ‵nightly‵
are deliberately not comment-addable).

Update the allowlist together with ‵tests/ci/labels.py‵.`),
			Bad:  exRepo(megatronTest, accessPolicy(`"run-ci-image", "bypass-fastfail"`)),
			Good: exRepo(megatronTest, accessPolicy(`"run-ci-megatron", "run-ci-image", "bypass-fastfail"`)),
		},
		{
			ID: RuleUnknownRequest, Severity: finding.Warning,
			Short: "A run-ci-<x> label whose <x> is not a known label selects nothing.",
			Help: mdHelp(`
The label policy strips ‵run-ci-‵ and keeps ‵<x>‵ only if it is a
‵KNOWN_LABELS‵ key; anything else is dropped silently. A workflow that
tests for ‵'run-ci-megaton'‵ therefore never fires. cicheck reads quoted
‵run-ci-*‵ strings in the workflow files, and warns about the labels given
to ‵cicheck registry select‵ and ‵cicheck registry policy‵.

Fix the label name, or add the label to ‵KNOWN_LABELS‵.`),
			Bad:  exRepo(megatronTest, cudaSuites, gpuWorkflow("run-ci-megaton")),
			Good: exRepo(megatronTest, cudaSuites, gpuWorkflow("run-ci-megatron")),
		},
		{
			ID: RuleWorkflowUnknownSuite, Severity: finding.Error,
			Short: "A workflow runs run_suite.py with a suite its --hw backend does not have.",
			Help: mdHelp(`
In sglang's layout ‵run_suite.py --hw H --suite S‵ runs the tests
registered for backend ‵H‵ and suite ‵S‵. A suite that is in none of
‵PER_COMMIT_SUITES‵, ‵NIGHTLY_SUITES‵ and ‵OTHER_SUITES‵ for ‵H‵ matches no
registration: ‵filter_tests‵ only prints a warning, the script prints "No
tests found ... Skipping." and exits 0, and the GPU job passes green having
run nothing. A typo in a suite name hides a whole stage.

cicheck reads each invocation in the workflows' ‵run:‵ scripts (‵--suite S‵,
‵--suite=S‵, quoted, across ‵\‵ continuations), expands ‵${{ matrix.x }}‵
over the job's matrix legs and ‵${{ inputs.x }}‵ over the callers of a
reusable workflow, and checks every value it can resolve; a value from
‵vars‵, a step, or an input nothing in the repository passes could be any
and is not reported. The message suggests the nearest suite of the backend
and names the backends the suite belongs to instead. An ‵--hw‵ value
run_suite.py does not accept is reported too: argparse rejects it and the
job fails.

Fix the suite name (or the ‵--hw‵), or add the suite to the backend's table.`),
			Bad:  sgRepo(sgTest, runSuiteWorkflow("unit-test-1-gpu-large", "[self-hosted, 1-gpu-h100]", "--hw cuda --suite base-b-test-1-gpu-lage")),
			Good: sgRepo(sgTest, runSuiteWorkflow("unit-test-1-gpu-large", "[self-hosted, 1-gpu-h100]", "--hw cuda --suite base-b-test-1-gpu-large")),
		},
		{
			ID: RuleWorkflowWrongTable, Severity: finding.Warning,
			Short: "A suite is run with (or without) --nightly but is not in the table that flag selects.",
			Help: mdHelp(`
‵filter_tests‵ selects registrations by backend, suite and the nightly flag,
and warns when the suite is not in ‵NIGHTLY_SUITES[hw]‵ (with ‵--nightly‵)
or ‵PER_COMMIT_SUITES[hw]‵ (without). It does not stop: the tests registered
for the suite with the same nightly flag still run. So the finding is a
warning when cicheck cannot tell or no such test is registered (the job runs
nothing and passes: a per-commit suite run from a nightly job without its
flag, or the reverse), and a notice when registered tests still run (an
‵OTHER_SUITES‵ suite such as ‵stress‵ run per commit only makes the log
warn).

Add or remove ‵--nightly‵, or move the suite to the table its runs use.`),
			Bad:  sgRepo(sgTest, runSuiteWorkflow("nightly-1-gpu", "[self-hosted, 1-gpu-h100]", "--hw cuda --suite nightly-1-gpu")),
			Good: sgRepo(sgTest, runSuiteWorkflow("nightly-1-gpu", "[self-hosted, 1-gpu-h100]", "--hw cuda --suite nightly-1-gpu --nightly", "--hw cuda --suite base-b-test-1-gpu-large")),
		},
		{
			ID: RuleSuiteNoWorkflow, Severity: finding.Warning,
			Short: "A per-commit suite is run by no workflow.",
			Help: mdHelp(`
Every suite in ‵PER_COMMIT_SUITES‵ is meant to run on every pull request,
but it runs only if some workflow calls ‵run_suite.py --hw H --suite S‵
without ‵--nightly‵. cicheck collects the calls (literal suites, matrix
values, the with: values of a reusable workflow's callers); a suite or
‵--hw‵ it cannot resolve could be any, and then no suite of that backend
(or of any backend) is reported. When the registrations are known, a suite
with no enabled test needs no workflow and is not reported.

When no workflow calls run_suite.py for a backend at all, its suites are
not listed one by one: one notice per backend says so, since such a
backend usually runs its CI elsewhere (another repository or runner
farm), and one fact is worth one finding.

Add the suite to a workflow (a stage job or a matrix entry), or remove it
from the table.`),
			Bad:  sgRepo(sgTest, runSuiteWorkflow("unit-test-1-gpu-small", "[self-hosted, 1-gpu-h100]", "--hw cuda --suite base-a-test-1-gpu-small")),
			Good: sgRepo(sgTest, runSuiteWorkflow("unit-test-1-gpu", "[self-hosted, 1-gpu-h100]", "--hw cuda --suite base-a-test-1-gpu-small", "--hw cuda --suite base-b-test-1-gpu-large")),
		},
		{
			ID: RuleSuiteRunnerMismatch, Severity: finding.Warning,
			Short: "A suite named for some hardware runs on a runner for other hardware.",
			Help: mdHelp(`
Suite names say the hardware they need (‵base-c-test-4-gpu-b200‵,
‵stage-b-test-1-gpu-small-amd-mi35x‵, ‵base-a-test-cpu‵). cicheck reads
the tokens of the suite name and of the job's ‵runs-on‵ labels (in the
matrix leg that runs the call) against its hardware catalogue (the same one
‵cicheck runners‵ classifies with) and warns when they disagree: the
runner names another vendor than the ‵--hw‵ backend's, another model of the
same vendor (‵mi35x‵ matches ‵mi355‵), fewer devices than the suite's
‵N-gpu‵, or a GitHub-hosted or CPU/build runner for an accelerator suite;
and for a CPU suite, an accelerator runner. Tests that need missing
hardware usually skip, so the job passes having tested little.

A runner cicheck cannot resolve (an expression it cannot follow) or a
self-hosted label naming no hardware says nothing and is not reported.

Run the suite on the runner its name says, or rename the suite.`),
			Bad:  sgRepo(sgTest, runSuiteWorkflow("unit-test-1-gpu-large", "ubuntu-latest", "--hw cuda --suite base-b-test-1-gpu-large")),
			Good: sgRepo(sgTest, runSuiteWorkflow("unit-test-1-gpu-large", "[self-hosted, 1-gpu-h100]", "--hw cuda --suite base-b-test-1-gpu-large")),
		},
	}
})

// collectorFails is the consequence shared by the reference collector's
// errors (spec §9, seed 003).
const collectorFails = `The test collector stops at the first such error and fails. On a
pull request the policy job collects the registry, so the error fails it
and every stage is skipped, CPU included. On the nightly schedule the
policy job does not collect: the error fails the CPU stage, and a CPU
failure can take the GPU stages behind it down too, for a whole night of
GPU coverage. cicheck reports every such error, in every file, before
merge.`

// mdHelp lets help texts be Go raw strings: raw strings cannot hold a
// backtick, so the markdown writes ‵ for it.
func mdHelp(s string) string { return strings.TrimSpace(strings.ReplaceAll(s, "‵", "`")) + "\n" }

// exFile is one txtar member; body may start with a newline for legibility.
const runSuiteFails = `sglang's test/run_suite.py collects every registered file, with these
checks, before it selects one suite: one such error fails every CI job
that runs a suite, on every backend, per commit and nightly. cicheck
reports every such error, in every file, where the collector stops at the
first.`

func exFile(name, body string) string {
	return "-- " + name + " --\n" + strings.TrimPrefix(body, "\n")
}

// exRepo completes an example repository with the registry's data files (a
// one-label KNOWN_LABELS and a small CI_SUITES) unless it has its own.
func exRepo(files ...string) string {
	s := strings.Join(files, "")
	if !strings.Contains(s, "-- tests/ci/labels.py --") {
		s += defaultLabels
	}
	if !strings.Contains(s, "-- tests/ci/run_suite.py --") {
		s += defaultSuites
	}
	return s
}

const labelsDoc = `"""CI domain labels: the PR label run-ci-<key> selects the tests labelled <key>."""
`

var defaultLabels = exFile("tests/ci/labels.py", labelsDoc+`
KNOWN_LABELS: dict[str, str] = {
    "megatron": "Megatron-LM training and checkpoint conversion.",
}
`)

const suitesHeader = `from enum import Enum


class HWBackend(str, Enum):
    CPU = "cpu"
    CUDA = "cuda"
    ROCM = "rocm"

`

var defaultSuites = exFile("tests/ci/run_suite.py", suitesHeader+`
CI_SUITES = {
    HWBackend.CPU: ["stage-a-cpu", "stage-b-cpu"],
    HWBackend.CUDA: ["stage-c-8-gpu-h100"],
    HWBackend.ROCM: ["stage-c-4-gpu-mi350"],
}
`)

var cpuSuites = exFile("tests/ci/run_suite.py", suitesHeader+`
CI_SUITES = {
    HWBackend.CPU: ["stage-a-cpu", "stage-b-cpu"],
}
`)

var cudaSuites = exFile("tests/ci/run_suite.py", suitesHeader+`
CI_SUITES = {
    HWBackend.CUDA: ["stage-c-8-gpu-h100"],
}
`)

const testBody = `

def test_convert_roundtrip():
    assert convert_checkpoint("tiny-llama", "/tmp/ckpt")
`

const cpuBody = `

def test_parse_defaults():
    assert parse_args([]).lr == 1e-4
`

// sgRepo completes an example repository in sglang's layout with a
// small test/run_suite.py unless it has its own.
func sgRepo(files ...string) string {
	s := strings.Join(files, "")
	if !strings.Contains(s, "-- test/run_suite.py --") {
		s += sgSuites
	}
	return s
}

var sgSuites = exFile("test/run_suite.py", `from sglang.test.ci.ci_register import HWBackend

PER_COMMIT_SUITES = {
    HWBackend.CPU: ["base-a-test-cpu"],
    HWBackend.CUDA: ["base-a-test-1-gpu-small", "base-b-test-1-gpu-large"],
}
NIGHTLY_SUITES = {
    HWBackend.CUDA: ["nightly-1-gpu"],
}
OTHER_SUITES = {}
_SUITE_CHECKED_BACKENDS = {HWBackend.CPU, HWBackend.CUDA}
HW_MAPPING = {"cpu": HWBackend.CPU, "cuda": HWBackend.CUDA}
`)

// runSuiteWorkflow is a pull-request workflow whose one job, on runsOn,
// runs test/run_suite.py once per args (each "--hw H --suite S ...").
func runSuiteWorkflow(job, runsOn string, args ...string) string {
	var b strings.Builder
	b.WriteString("name: pr-test\non: pull_request\njobs:\n  " + job + ":\n    runs-on: " + runsOn +
		"\n    steps:\n      - uses: actions/checkout@v6\n")
	for _, a := range args {
		b.WriteString("      - run: python3 test/run_suite.py " + a + "\n")
	}
	return exFile(".github/workflows/pr-test.yml", b.String())
}

const sgMain = `

class TestSampling(unittest.TestCase):
    def test_top_p(self):
        self.assertTrue(sample(top_p=0.9))


if __name__ == "__main__":
    unittest.main()
`

var sgTest = exFile("test/registered/unit/test_sampling.py", `
import unittest

from sglang.test.ci.ci_register import register_cuda_ci

register_cuda_ci(est_time=60, stage="base-b", runner_config="1-gpu-large")
`+sgMain)

var megatronTest = exFile("tests/e2e/megatron/test_convert.py", `
from tests.ci.ci_register import register_cuda_ci

register_cuda_ci(est_time=900, suite="stage-c-8-gpu-h100", labels=["megatron"])
`+testBody)

var implicitCPUTest = exFile("tests/fast/test_config_parse.py", strings.TrimPrefix(cpuBody, "\n\n"))

const fusedAdam = `
from tests.ci.ci_register import register_cuda_ci

register_cuda_ci(est_time=60, suite="stage-c-8-gpu-h100", labels=["megatron"])


def test_fused_adam_matches_reference():
    assert fused_adam_step_matches()
`

var hardwareConfig = exFile(".cicheck.yaml", `
registry:
  extra-params:
    register_cuda_ci:
      hardware: {required: true, type: str, allowed: [h100, h200, b200]}
`)

func accessPolicy(labels string) string {
	return exFile(".github/workflows/policies/comment-command-access.json", `
{
  "version": 1,
  "groups": {"maintainers": {"repository_permissions": ["admin", "maintain", "write"]}},
  "commands": {
    "add_label": {
      "group": "maintainers",
      "allowed_labels": [`+labels+`]
    }
  }
}
`)
}

func gpuWorkflow(label string) string {
	return exFile(".github/workflows/pr-test.yml", `
name: PR Test
on:
  pull_request:
    types: [opened, synchronize, labeled]
jobs:
  stage-c-8-gpu-h100:
    if: contains(github.event.pull_request.labels.*.name, '`+label+`')
    runs-on: [self-hosted, h100, 8gpu]
    steps:
      - uses: actions/checkout@v4
      - run: python tests/ci/run_suite.py --hw cuda --suite stage-c-8-gpu-h100
`)
}

var ruleSeverity = sync.OnceValue(func() map[string]finding.Severity {
	m := map[string]finding.Severity{}
	for _, r := range rules() {
		m[r.ID] = r.Severity
	}
	return m
})

func newFinding(rule, file string, line, col int, msg string) finding.Finding {
	return finding.Finding{Rule: rule, Severity: ruleSeverity()[rule], File: file, Line: line, Column: col, Message: msg}
}
