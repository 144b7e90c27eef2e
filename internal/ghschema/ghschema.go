// Package ghschema is GitHub's workflow schema as of today where it differs
// from the embedded actionlint (1.7.12, released 2026-03-30, none since):
// the constructs GitHub has shipped that actionlint still rejects, and the
// state of GitHub's hosted runner images.
//
// Each difference is data with its documentation source. cicheck drops
// exactly the actionlint error an item names (kind and whole message) and
// validates the construct itself (checks' concurrency-queue,
// parallel-steps, permission-scope-value and runner-image-retired rules). TestItemsStillRejected makes the embedded
// actionlint produce every dropped error, so an upgrade that accepts the
// construct fails that test and the item is deleted: the layer shrinks as
// actionlint catches up.
package ghschema

import (
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/cicheck/cicheck/internal/textdist"
)

// Item is one construct GitHub accepts and the embedded actionlint rejects.
type Item struct {
	// ID names the item in tests and comments.
	ID string
	// What GitHub accepts, in a few words.
	What string
	// Source is the documentation or changelog that says GitHub accepts it.
	Source string
	// Since is when GitHub shipped it.
	Since string
	// Kind and Message are the actionlint error dropped: its kind and its
	// whole message (a trailing ".*" stands for actionlint's own list of
	// names), or Pattern, a regular expression for the whole message.
	Kind    string
	Message string
	Pattern string
	// Where, when set, must also hold of the error: a message actionlint
	// gives for other problems too is dropped only where the construct is.
	Where func(s *Source, e Err) bool
	// Probe is a workflow on which the embedded actionlint reports it.
	Probe string

	re func() *regexp.Regexp
}

// Err is an actionlint error as the items match it.
type Err struct {
	Kind, Message string
	Line, Column  int
}

// Items are the differences, one per actionlint error dropped.
var Items = []*Item{
	{
		ID:     "concurrency-queue",
		What:   "`queue: single|max` in a workflow's or a job's `concurrency:`",
		Source: "https://docs.github.com/en/actions/how-tos/write-workflows/choose-when-workflows-run/control-workflow-concurrency#example-queueing-multiple-pending-runs",
		Since:  "2026-05-07 (https://github.blog/changelog/2026-05-07-github-actions-concurrency-groups-now-allow-larger-queues/; rhysd/actionlint#657, PR #654)",
		Kind:   "syntax-check",
		// The exact message for this key, with the keys 1.7.12 knows: a
		// release that adds queue lists it among them, and another
		// unexpected key (queues:) is not this message.
		Message: `unexpected key "queue" for "concurrency" section. expected one of "cancel-in-progress", "group"`,
		Probe:   "on: push\nconcurrency:\n  group: g\n  queue: max\njobs:\n  a:\n    runs-on: ubuntu-latest\n    concurrency: {group: j, queue: single}\n    steps: [{run: x}]\n",
	},
	{
		ID:      "runner-ubuntu-26.04",
		What:    "the `ubuntu-26.04` runner image",
		Source:  "https://github.com/actions/runner-images/issues/14747",
		Since:   "2026-06-11 in public preview (https://github.com/actions/runner-images/issues/14226), generally available 2026-09-17",
		Kind:    "runner-label",
		Message: `label "ubuntu-26.04" is unknown. available labels are .*`,
		Probe:   "on: push\njobs:\n  a:\n    runs-on: ubuntu-26.04\n    steps: [{run: x}]\n",
	},
	{
		ID:      "runner-ubuntu-26.04-arm",
		What:    "the `ubuntu-26.04-arm` runner image",
		Source:  "https://github.com/actions/runner-images/issues/14747",
		Since:   "2026-06-11 in public preview (https://github.com/actions/runner-images/issues/14226), generally available 2026-09-17",
		Kind:    "runner-label",
		Message: `label "ubuntu-26.04-arm" is unknown. available labels are .*`,
		Probe:   "on: push\njobs:\n  a:\n    runs-on: [ubuntu-26.04-arm]\n    steps: [{run: x}]\n",
	},
	{
		ID:     "permission-vulnerability-alerts",
		What:   "the `vulnerability-alerts` GITHUB_TOKEN permission scope (read or none), for the Dependabot alerts API",
		Source: "https://docs.github.com/en/actions/reference/workflows-and-actions/workflow-syntax#permissions",
		Since:  "2026-04 (rhysd/actionlint#713, PR #666: documented with read and none)",
		Kind:   "permissions",
		// actionlint lists its scopes after this; another unknown scope is
		// another message.
		Message: `unknown permission scope "vulnerability-alerts". all available permission scopes are .*`,
		Probe:   "on: push\npermissions:\n  vulnerability-alerts: read\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps: [{run: x}]\n",
	},
	{
		ID:     "permission-code-quality",
		What:   "the `code-quality` GITHUB_TOKEN permission scope, which actions/upload-code-coverage needs (code-quality: write)",
		Source: "https://docs.github.com/en/code-security/how-tos/maintain-quality-code/set-up-code-coverage",
		Since:  "2026-05-26 in public preview (https://github.blog/changelog/2026-05-26-code-coverage-in-pull-requests-is-now-in-public-preview/), generally available 2026-07-20; rhysd/actionlint#672, PR #658",
		Kind:   "permissions",
		// Like vulnerability-alerts: the scope's own message, whole.
		Message: `unknown permission scope "code-quality". all available permission scopes are .*`,
		Probe:   "on: push\npermissions:\n  code-quality: write\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps: [{run: x}]\n",
	},
	{
		ID:      "step-background-run",
		What:    "`background: true` on a run: step",
		Source:  parallelStepsDoc,
		Since:   parallelStepsSince,
		Kind:    "syntax-check",
		Message: `unexpected key "background" for step to run shell command. expected one of "continue-on-error", "env", "id", "if", "name", "run", "shell", "timeout-minutes", "working-directory"`,
		Probe:   "on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - {id: s, run: x, background: true}\n      - wait: s\n",
	},
	{
		ID:      "step-background-uses",
		What:    "`background: true` on a uses: step",
		Source:  parallelStepsDoc,
		Since:   parallelStepsSince,
		Kind:    "syntax-check",
		Message: `unexpected key "background" for step to execute action. expected one of "continue-on-error", "env", "id", "if", "name", "timeout-minutes", "uses", "with"`,
		Probe:   "on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - {id: s, uses: actions/checkout@v4, background: true}\n",
	},
	{
		ID:     "step-control",
		What:   "a `wait:`, `wait-all:`, `cancel:` or `parallel:` step, which runs no run: or uses: of its own",
		Source: parallelStepsDoc,
		Since:  parallelStepsSince,
		Kind:   "syntax-check",
		// actionlint says this of any step without run: or uses:; it is
		// dropped only for a step that has one of the control keys.
		Message: `step must run script with "run" section or run action with "uses" section`,
		Where: func(s *Source, e Err) bool {
			st, ok := s.stepAt(e.Line, e.Column)
			return ok && st.Control() != ""
		},
		Probe: "on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - parallel:\n          - run: a\n          - run: b\n      - wait-all:\n",
	},
	{
		ID:     "step-in-parallel-group",
		What:   "`steps.<id>` naming a step inside a `parallel:` group, which actionlint does not read",
		Source: parallelStepsDoc,
		Since:  parallelStepsSince,
		Kind:   "expression",
		// Dropped only where the expression at the error reads steps.<id>
		// and <id> is a step of a parallel group; another unknown step id
		// keeps its error.
		Pattern: `^property "([^"]+)" is not defined in object type \{.*\}$`,
		Where: func(s *Source, e Err) bool {
			m := undefinedPropertyRE().FindStringSubmatch(e.Message)
			if m == nil || !slices.Contains(s.parallelIDs(), strings.ToLower(m[1])) {
				return false
			}
			l := s.line(e.Line)
			return e.Column >= 1 && e.Column <= len(l) && strings.HasPrefix(strings.ToLower(l[e.Column-1:]), "steps."+strings.ToLower(m[1]))
		},
		Probe: "on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - parallel:\n          - {id: fe, run: a}\n          - run: b\n      - run: echo ${{ steps.fe.outcome }}\n",
	},
}

var undefinedPropertyRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^property "([^"]+)" is not defined`) })

const (
	parallelStepsDoc   = "https://docs.github.com/en/actions/reference/workflows-and-actions/workflow-syntax#jobsjob_idstepsbackground"
	parallelStepsSince = "2026-06-25 (https://github.blog/changelog/2026-06-25-actions-steps-can-now-be-run-in-parallel/; rhysd/actionlint#693, PR #694)"
)

// PermissionScopes are the GITHUB_TOKEN scopes GitHub added since
// actionlint 1.7.12, with the access levels documented for each (Items'
// permission-* sources); checks' permission-scope-value validates them.
var PermissionScopes = map[string][]string{
	"vulnerability-alerts": {"read", "none"},
	// The documentation asks for write; read and none are the levels
	// every scope with write has.
	"code-quality": {"read", "write", "none"},
}

func init() {
	for _, it := range Items {
		src := "^" + regexp.QuoteMeta(it.Message) + "$"
		switch {
		case it.Pattern != "":
			src = it.Pattern
		case strings.HasSuffix(it.Message, ".*"):
			// The list after it (the labels or scopes actionlint knows)
			// is actionlint's own and long; what comes before is exact.
			src = "^" + regexp.QuoteMeta(strings.TrimSuffix(it.Message, ".*")) + ".*$"
		}
		it.re = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(src) })
	}
}

// Matches reports whether actionlint error e in the workflow s is this
// item's.
func (it *Item) Matches(e Err, s *Source) bool {
	return e.Kind == it.Kind && it.re().MatchString(e.Message) && (it.Where == nil || it.Where(s, e))
}

// Accepted reports whether GitHub accepts what actionlint error e, in the
// workflow s, rejects: cicheck then drops the error (and checks the
// construct itself).
func Accepted(e Err, s *Source) bool {
	for _, it := range Items {
		if it.Matches(e, s) {
			return true
		}
	}
	return false
}

// Queue values GitHub accepts for `concurrency.queue`, from Items'
// concurrency-queue source: "single (default)" and "max".
var QueueValues = []string{"single", "max"}

// Image is one of GitHub's hosted runner image labels whose state the
// embedded actionlint does not know: added since its release, or retired.
type Image struct {
	Label string
	// Retired is the date GitHub stopped running jobs on it ("" when it is
	// available).
	Retired string
	// Use is what to move to.
	Use string
	// Source is GitHub's announcement.
	Source string
}

// RetiredImages are GitHub-hosted images that no longer run jobs: a job on
// one never starts. (macos-14* is still in actionlint 1.7.12's list; the
// others it reports as unknown labels.)
var RetiredImages = []Image{
	{"ubuntu-20.04", "2025-04-15", "ubuntu-24.04 or ubuntu-latest", "https://github.com/actions/runner-images/issues/11101"},
	{"windows-2019", "2025-06-30", "windows-2022 or windows-2025", "https://github.com/actions/runner-images/issues/12045"},
	{"macos-11", "2024-06-28", "macos-15 or macos-latest", "https://github.blog/changelog/2024-05-20-actions-upcoming-changes-to-github-hosted-macos-runners/"},
	{"macos-12", "2024-12-03", "macos-15 or macos-latest", "https://github.com/actions/runner-images/issues/10721"},
	{"macos-13", "2025-12-04", "macos-15, or macos-15-intel for x86_64", "https://github.com/actions/runner-images/issues/13046"},
	{"macos-13-large", "2025-12-04", "macos-15-large or macos-15-intel", "https://github.com/actions/runner-images/issues/13046"},
	{"macos-13-xlarge", "2025-12-04", "macos-15-xlarge", "https://github.com/actions/runner-images/issues/13046"},
	{"macos-14", "2026-11-02", "macos-15 or macos-latest", "https://github.com/actions/runner-images/issues/13518"},
	{"macos-14-large", "2026-11-02", "macos-15-large or macos-15-intel", "https://github.com/actions/runner-images/issues/13518"},
	{"macos-14-xlarge", "2026-11-02", "macos-15-xlarge", "https://github.com/actions/runner-images/issues/13518"},
}

// Retired returns the retired image label names, if it is one (case-insensitive,
// as GitHub matches labels).
func Retired(label string) (Image, bool) {
	for _, im := range RetiredImages {
		if strings.EqualFold(im.Label, label) {
			return im, true
		}
	}
	return Image{}, false
}

// HostedLabels are the labels of GitHub-hosted runners today: actionlint
// 1.7.12's list (rule_runner_label.go) plus the images added since
// (Items), less the retired ones.
var HostedLabels = []string{
	"windows-latest", "windows-latest-8-cores", "windows-2025", "windows-2025-vs2026", "windows-2022", "windows-11-arm",
	"ubuntu-slim", "ubuntu-latest", "ubuntu-latest-4-cores", "ubuntu-latest-8-cores", "ubuntu-latest-16-cores",
	"ubuntu-26.04", "ubuntu-26.04-arm", "ubuntu-24.04", "ubuntu-24.04-arm", "ubuntu-22.04", "ubuntu-22.04-arm",
	"macos-latest", "macos-latest-xlarge", "macos-latest-large",
	"macos-26-intel", "macos-26-xlarge", "macos-26-large", "macos-26",
	"macos-15-intel", "macos-15-xlarge", "macos-15-large", "macos-15",
}

// NearHosted returns the GitHub-hosted label that label is a typo of: one
// edit (an insertion, deletion, substitution or swap of adjacent
// characters, ignoring case) from a hosted label, for a label of at least
// 8 characters (below that one edit is a different name: x86 and x64).
// Larger runners named by core count (ubuntu-latest-16-cores) are not
// targets: organisations name their own larger runners the same way
// (ubuntu-latest-64-cores is one edit from ubuntu-latest-4-cores). ""
// when label is not a near miss, or is itself a hosted or retired label.
func NearHosted(label string) string {
	l := strings.ToLower(label)
	if _, retired := Retired(l); retired || len(l) < 8 {
		return ""
	}
	best := ""
	for _, h := range HostedLabels {
		if h == l {
			return ""
		}
		if best == "" && !strings.HasSuffix(h, "-cores") && textdist.OSA(l, h) == 1 {
			best = h
		}
	}
	return best
}
