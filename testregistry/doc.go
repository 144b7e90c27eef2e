// Package testregistry scans Python test files for CI registrations, validates
// them against KNOWN_LABELS and the configured suites, and resolves which tests
// a CI run selects, without running Python.
package testregistry
