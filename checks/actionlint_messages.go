package checks

import (
	"regexp"
	"sync"

	"github.com/rhysd/actionlint"
)

// alMessage is an actionlint error cicheck recognises. actionlint reports
// an error as a kind and an English message only, so where cicheck must
// tell errors of one kind apart it matches the message: every pattern is
// here, pinned to the actionlint version go.mod requires, and
// TestActionlintMessages makes actionlint produce each one, so an upgrade
// that rewords a message fails that test instead of silently changing
// what cicheck drops or re-kinds.
type alMessage struct {
	kind string
	re   func() *regexp.Regexp // compiled on first use: start-up pays nothing
}

func pattern(s string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(s) })
}

var (
	// An unknown need: cicheck's unknown-needs reports it with a fix.
	alUnknownNeed = alMessage{"job-needs", pattern(`^job "[^"]+" needs job "[^"]+" which does not exist in this workflow`)}
	// A needs cycle: cicheck's needs-cycle reports it.
	alNeedsCycle = alMessage{"job-needs", pattern(`^cyclic dependencies in "needs" job configurations are detected`)}
	// A local reusable workflow that cannot be read: reported by whichever
	// rule reaches actionlint's cache first (kind varies between runs).
	alReusableWorkflow = alMessage{"", pattern(`^could not (read|parse) reusable workflow file`)}
	// A local action that cannot be read, likewise.
	alLocalAction = alMessage{"", pattern(`^(could not (read|parse) action metadata|invalid local action)`)}
	// A constant if: condition; the expression is the first group. A
	// constant-false one on a job is job-disabled's, on a step a notice.
	alConstantCond = alMessage{"if-cond", pattern(`^constant expression "(.*)" in condition\. remove the if: section$`)}
	// An unknown runner label; the label is the first group.
	alRunnerLabel = alMessage{"runner-label", pattern(`^label "([^"]*)" is unknown`)}
)

// is reports whether e is this message (of its kind, when it has one).
func (m alMessage) is(e *actionlint.Error) bool {
	return (m.kind == "" || e.Kind == m.kind) && m.re().MatchString(e.Message)
}
