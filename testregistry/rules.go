package testregistry

import "github.com/cicheck/cicheck/finding"

// Rule describes one finding id this package produces.
type Rule struct {
	ID       string
	Severity finding.Severity // default; some rules downgrade per finding
	Short    string
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
	RuleLabelsNotLiteral = "labels-not-literal"
	RuleLabelsReserved   = "labels-reserved-key"
	RuleLabelsBadKey     = "labels-bad-key"
	RuleLabelsDupKey     = "labels-duplicate-key"
	RuleLabelsUnused     = "labels-unused"
	RuleAllowlistDrift   = "policy-allowlist-drift"
	RuleUnknownRequest   = "policy-unknown-request"
)

// Rules lists every rule with its default severity and a one-line summary,
// for `cicheck rules`, SARIF metadata and documentation.
var Rules = []Rule{
	{RuleSyntaxError, finding.Error, "A test file that Python cannot parse breaks CI collection."},
	{RuleStarredArgs, finding.Error, "register_*_ci() does not accept *args."},
	{RuleTooManyPos, finding.Error, "Only est_time and suite may be passed positionally."},
	{RuleNotLiteral, finding.Error, "Registration arguments must be literal constants."},
	{RuleKwargs, finding.Error, "register_*_ci() does not accept **kwargs."},
	{RuleDuplicateArg, finding.Error, "An argument is given twice."},
	{RuleUnknownArg, finding.Error, "An argument the registration schema does not know."},
	{RuleLabelsType, finding.Error, "labels must be a list of string literals or None."},
	{RuleMissingArg, finding.Error, "A required registration argument is missing."},
	{RuleWrongType, finding.Error, "A registration argument has the wrong type."},
	{RuleBadValue, finding.Error, "A configured parameter has a value outside its allowed set."},
	{RuleNoDomainLabel, finding.Error, "GPU registrations need at least one domain label."},
	{RuleUnknownLabel, finding.Error, "A label outside KNOWN_LABELS."},
	{RuleGPUInImplicit, finding.Error, "GPU registrations are forbidden in the CPU-only implicit root."},
	{RuleMentionNoCall, finding.Error, "The file mentions a marker but no top-level call was parsed."},
	{RuleRocmAliasQuirk, finding.Error, "A ROCm-only mention the reference would silently register as implicit CPU."},
	{RuleNoRegistry, finding.Error, "A test file under a scan root without any registration."},
	{RuleUnknownSuite, finding.Error, "A suite no backend lists is never selected (warning when disabled)."},
	{RuleSuitesUnknown, finding.Notice, "CI_SUITES could not be loaded statically; suite checks skipped."},
	{RuleSuiteNoConsumer, finding.Notice, "A suite that no workflow passes as --suite is never run (external suites are allow-listed)."},
	{RuleDuplicate, finding.Error, "Two registrations of one file on the same backend and suite."},
	{RuleDuplicateLabel, finding.Warning, "A label repeated within one registration."},
	{RuleEstTimeBool, finding.Warning, "A bool est_time is accepted as 0 or 1 second."},
	{RuleSemanticDefault, finding.Warning, "An explicit registration that equals the implicit default."},
	{RuleOrphanTest, finding.Warning, "A test file outside the scan roots is never collected."},
	{RuleLabelsNotLiteral, finding.Error, "KNOWN_LABELS cannot be loaded statically."},
	{RuleLabelsReserved, finding.Error, "A workflow-only scope name used as a domain label."},
	{RuleLabelsBadKey, finding.Error, "A label key whose run-ci-<key> label the workflow adapter drops."},
	{RuleLabelsDupKey, finding.Warning, "A label key given twice."},
	{RuleLabelsUnused, finding.Notice, "A known label that no registration uses."},
	{RuleAllowlistDrift, finding.Error, "The comment-command label allowlist differs from KNOWN_LABELS."},
	{RuleUnknownRequest, finding.Warning, "A run-ci-<x> label whose <x> is not a known label selects nothing."},
}

var ruleSeverity = func() map[string]finding.Severity {
	m := map[string]finding.Severity{}
	for _, r := range Rules {
		m[r.ID] = r.Severity
	}
	return m
}()

func newFinding(rule, file string, line, col int, msg string) finding.Finding {
	return finding.Finding{Rule: rule, Severity: ruleSeverity[rule], File: file, Line: line, Column: col, Message: msg}
}
