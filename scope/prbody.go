package scope

import (
	"fmt"
	"regexp"
	"strings"
)

// BodyTargets extracts the targets a PR body declares (for root) in its one
// fenced block tagged block (flashinfer's ```experimental-tests): one target per
// line, "#" starts a comment, blank lines are ignored. The messages are the
// reference's (scripts/pr_checks/experimental_test_scope.py). Line endings
// are normalised first, as the reference's text-mode file read does
// (universal newlines): a body from the GitHub web editor has CRLF endings.
func BodyTargets(body, block, root string) ([]string, error) {
	body = strings.ReplaceAll(body, "\r", "")
	re := regexp.MustCompile("(?ms)^[ \t]*```[ \t]*" + regexp.QuoteMeta(block) + "[ \t]*\n(.*?)^[ \t]*```[ \t]*$")
	blocks := re.FindAllStringSubmatch(body, -1)
	switch {
	case len(blocks) == 0:
		return nil, fmt.Errorf("no ```%s block found in the PR body. Experimental PRs must declare their test scope; see .github/pull_request_template.md", block)
	case len(blocks) > 1:
		return nil, fmt.Errorf("found %d %s blocks; expected 1", len(blocks), block)
	}
	var targets []string
	for _, raw := range strings.Split(blocks[0][1], "\n") {
		line, _, _ := strings.Cut(raw, "#")
		// The reference splits on whitespace later (TEST_PATH), so a
		// line holding two paths is two targets.
		targets = append(targets, SplitArgs(line)...)
	}
	if len(targets) == 0 {
		return nil, fmt.Errorf("the %s block is empty; declare at least one target under %s", block, root)
	}
	return targets, nil
}
