package report

import (
	"testing"

	"github.com/cicheck/cicheck/finding"
)

// TestFingerprintFoldsJobIDs: a finding that shows job ids as written has
// the fingerprint it had when cicheck printed them lower-cased; ids fold
// longest first, so Build inside Build-Docs is not folded on its own. The
// near miss: text that only looks like an id but is not listed keeps its
// case.
func TestFingerprintFoldsJobIDs(t *testing.T) {
	old := finding.Finding{Rule: "gpu-gate", File: "ci.yml", Job: "build-docs", Message: "build-docs needs build; see GPU"}
	now := finding.Finding{Rule: "gpu-gate", File: "ci.yml", Job: "Build-Docs", Message: "Build-Docs needs Build; see GPU", IDs: "Build\nBuild-Docs"}
	if Fingerprint(now) != Fingerprint(old) {
		t.Errorf("fingerprint changed with the ids' case")
	}
	if got := foldIDs("Build-Docs needs Build", "Build\nBuild-Docs"); got != "build-docs needs build" {
		t.Errorf("foldIDs = %q", got)
	}
	notListed := now
	notListed.IDs = "Build-Docs"
	if Fingerprint(notListed) == Fingerprint(old) {
		t.Errorf("an id not listed must keep its case")
	}
	if fps := Fingerprints(old); len(fps) != 1 || fps[0] != Fingerprint(old) {
		t.Errorf("a lower-case finding has one fingerprint: %v", fps)
	}
}
