// Package testregistry scans Python test files for CI registrations, validates
// them against KNOWN_LABELS and the configured suites, and resolves which tests
// a CI run selects, without running Python. It follows
// ../shared/specs/test-registry.md, written for radixark/miles' tests/ci.
//
// # Profiles
//
// That repository's conventions are the miles profile (Miles), not
// everybody's default. The sglang profile (Sglang) is sgl-project/sglang's
// registry, from which miles took the convention: test/registered/, seven
// markers, its argument grammar (Config.Arguments, validate_sglang.go), the
// main-block rule (Config.RequireMain) and the suite tables of
// test/run_suite.py (SuiteTables, runsuite.go: validate_all_suites,
// filter_tests and auto_partition, and the workflows' run_suite.py calls,
// runsuite_*.go). The two differ in configuration, not in code paths:
// discovery, parsing, findings and the scan are shared. The neutral profile
// (Neutral) assumes no registry, and the auto profile (DefaultConfig, the
// default) settles on miles, then sglang, for a repository with that layout
// and on neutral otherwise (DetectProfile, Config.Resolve). Scan and Present
// resolve the configuration they are given against the repository.
//
// # Scanning
//
// Python source is read by package pyparse, the front-end, which this
// package only calls: pyparse.Scan gives a file's module-level calls to
// the configured markers, with their literal arguments, and whether its
// `if __name__ == "__main__":` block makes a call, or CPython's
// syntax error for the file (reported as reg-syntax-error); and
// pyparse.FindBinding gives the module-level literal bound to KNOWN_LABELS
// or CI_SUITES. The target version is Config.Python (registry.python, 3.11
// to 3.14, default the newest). What the calls mean stays here: the
// argument grammar and validation order of spec §4 and §5 (validate.go),
// the file-level rules of §6 (scan.go), labels and suites (labels.go),
// discovery (discover.go) and the bounded reads (read.go).
//
// The result is checked against Python's own ast module by a golden test
// (bench/registry/collect.py writes testdata/golden.json) and by a
// differential test on generated mutants of real-looking test files
// (tools/registry-diff/gen.py writes testdata/differential.json, replayed
// by TestDifferentialCPython; REGISTRY_PYTHON runs it live). The sglang
// profile is checked against sglang's own ci_register.py and run_suite.py
// (tools/sglang-diff/gen.py writes testdata/sglang-differential.json,
// replayed by TestDifferentialSglang; REGISTRY_PYTHON with SGLANG_REF runs
// it live).
//
// # Findings
//
// Every reference error (spec §5, §6) keeps the reference's wording, minus
// the "{f}: " prefix that finding.Finding's file:line:col replaces. Unlike the
// reference collector, which stops at the first error, Scan reports every
// independent error of every call and file; within one call errors are
// produced in the spec's order, so the first one is the reference's message.
// Columns are 1-based byte offsets (Python's col_offset + 1). Rule ids are
// listed in Rules: reg-* for registrations, labels-* for KNOWN_LABELS,
// policy-* for the label policy and the comment-command allowlist.
//
// # Policy and selection
//
// ResolvePolicy, ResolveWorkflowInputs, (*Registry).Select, Shard,
// (*Registry).SkippedStages and (*Registry).ResolveFile implement spec §8-§12
// with the reference's error messages.
package testregistry
