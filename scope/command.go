package scope

import (
	"errors"
	"io/fs"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"unicode"
)

// Outcome is how the bot answers a comment (spec A1). The vocabulary is
// load-bearing: automation tells the four apart.
type Outcome string

const (
	Accepted     Outcome = "accepted"     // react +1, the command takes effect
	Advisory     Outcome = "advisory"     // react +1 and post a recommendation; no run
	Rejected     Outcome = "rejected"     // react confused and post a note; nothing changes
	Unrecognized Outcome = "unrecognized" // no reaction, nothing happens
)

// Command names as reported in Command.Name.
const (
	CmdRun           = "run"
	CmdRunAll        = "run-all"
	CmdRerun         = "rerun"
	CmdRerunFailed   = "rerun-failed"
	CmdStop          = "stop"
	CmdAddLabel      = "add-label"
	CmdClearLabels   = "clear-labels"
	CmdRerunFailedCI = "rerun-failed-ci"
	CmdRerunTest     = "rerun-test"
)

// Command is the classification of one PR comment.
type Command struct {
	Outcome Outcome
	// Name is the recognised command ("" when none was recognised).
	Name string
	// Targets is the validated scope of a run, the label of add-label or
	// the path of rerun-test; empty for everything else and whenever the
	// command is rejected, so a rejected command can never be widened.
	Targets []string
	// Reason explains the outcome, with the spec's wording where it has one.
	Reason string
	// Line is the 1-based line of the command line (0: whole comment).
	Line int
	// Trigger is the command line's trigger, lower-cased ("@<bot>" or
	// "/bot"); empty for gateway commands and unrecognized comments.
	Trigger string
	// Args are the arguments as written after a bot verb (unvalidated).
	Args []string
	// Notes are informational findings (extra-command-lines, unknown-verb,
	// grep-divergence).
	Notes []string
}

// ClassifyOptions are the inputs of Classify beyond the body.
type ClassifyOptions struct {
	// Config must be resolved (Config.Resolve).
	Config Config
	// Author is the comment author's login; "" when unknown.
	Author string
	// Permission is the author's repository permission (admin, maintain,
	// write, triage, read, none); "" skips authorization.
	Permission string
	// UserID is the author's numeric id (0: unknown), for policy groups
	// that grant add_label by user id.
	UserID int64
	// Policy loads the access policy; called only for a recognised
	// label-gateway command (an unrelated comment never loads it). Nil,
	// or a nil policy, means no allowlist check.
	Policy func() (*Policy, error)
	// ResolveTestFile, when set, must accept a /rerun-test path (exactly
	// one enabled CPU/CUDA registration); its error is the rejection reason.
	ResolveTestFile func(path string) error
	// Compat "grep" reads bot commands as the reference handler's
	// whole-body grep does (spec A2); "" is cicheck's own reading.
	Compat string
	// Validate carries the scope rules for run targets; FS and HasTest in
	// it add the existence and registry checks.
	Validate Options
}

// Reasons with the spec's exact wording.
const (
	ReasonRunFull        = `run full is no longer valid; use "run all"`
	ReasonGatewayFail    = "comment must contain one exact /<label>, /rerun-test <test-file>, /clear-labels, or /rerun-failed-ci command"
	ReasonLabelNotPolicy = "requested label is not exposed by policy"
	ReasonUnauthorized   = "comment author is not authorized for the requested operation"
)

// gatewayMarkers are the substrings that make a comment a (possibly
// malformed) label-gateway command (spec B1 rule 5).
var gatewayMarkers = []string{"/run-ci", "/rerun-test", "/bypass-fastfail", "/clear-labels", "/rerun-failed-ci"}

var addLabelRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^/(run-ci-[A-Za-z0-9][A-Za-z0-9_.-]*|bypass-fastfail)$`)
})

// rerunTestRE builds the /rerun-test grammar for the configured roots:
// one or more ASCII spaces, then a test_*.py path whose segments cannot be
// empty, hidden or "..".
func rerunTestRE(c Config) *regexp.Regexp {
	roots := c.RerunTestRoots
	if len(roots) == 0 {
		roots = []string{c.Root}
	}
	alts := make([]string, 0, len(roots))
	for _, r := range roots {
		if r = strings.Trim(r, "/"); r != "" {
			alts = append(alts, regexp.QuoteMeta(r))
		}
	}
	seg := `[A-Za-z0-9_][A-Za-z0-9_.-]*`
	if len(alts) == 0 {
		return regexp.MustCompile(`^/rerun-test +(` + seg + `(?:/` + seg + `)*/test_` + seg + `\.py)$`)
	}
	return regexp.MustCompile(`^/rerun-test +((?:` + strings.Join(alts, "|") + `)(?:/` + seg + `)*/test_` + seg + `\.py)$`)
}

// pyStrip trims what Python's str.strip trims: Unicode whitespace plus the
// information separators U+001C..U+001F, which Go's unicode.IsSpace omits.
func pyStrip(s string) string {
	return strings.TrimFunc(s, func(r rune) bool { return unicode.IsSpace(r) || r >= 0x1c && r <= 0x1f })
}

// missingFile is why the /rerun-test file p is not a file of the working
// tree fsys, or "" when it is one.
func missingFile(fsys fs.FS, p string) string {
	st, err := fs.Stat(fsys, p)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return p + " does not exist in the repository (a /rerun-test of a missing file runs nothing)"
	case err != nil:
		return p + " cannot be read in the repository: " + err.Error()
	case !st.Mode().IsRegular():
		return p + " is not a regular file in the repository"
	}
	return ""
}

// Classify decides what a PR comment asks for. It recognises both
// vocabularies: the label gateway (whole comment, case-sensitive, spec B1)
// and the scoped-run bot (first unfenced command line, spec A2/A3). A
// malformed command is rejected, never treated as unrelated and never
// turned into a different command. The error is the policy loader's.
func Classify(body string, o ClassifyOptions) (Command, error) {
	c := o.Config
	if o.Author != "" && c.Bot != "" && strings.EqualFold(o.Author, c.Bot) {
		return Command{Outcome: Unrecognized, Reason: "comment authored by the bot account itself"}, nil
	}
	if cmd, ok := classifyGateway(body, o); ok {
		cmd, err := authorizeGateway(cmd, o)
		if err == nil && cmd.Outcome == Accepted && cmd.Name == CmdRerunTest && o.Validate.FS != nil {
			// With the working tree (--exists), a file that is not there is
			// named as such, not left to a generic rejection later.
			if reason := missingFile(o.Validate.FS, cmd.Targets[0]); reason != "" {
				return Command{Outcome: Rejected, Name: CmdRerunTest, Reason: reason}, nil
			}
		}
		if err == nil && cmd.Outcome == Accepted && cmd.Name == CmdRerunTest && o.ResolveTestFile != nil {
			// A path that resolves to nothing fails loudly instead of
			// silently running nothing.
			if rerr := o.ResolveTestFile(cmd.Targets[0]); rerr != nil {
				return Command{Outcome: Rejected, Name: CmdRerunTest, Reason: rerr.Error()}, nil
			}
		}
		return cmd, err
	}
	cmd := classifyRest(body, o)
	// The grep reading is the GitHub handler's; the GitLab "/bot" surface
	// is a different system, so it is not compared.
	if c.Bot != "" && cmd.Trigger != "/bot" {
		g := ReadLikeGrep(body, c.Bot)
		if o.Compat == "grep" {
			own := cmd
			cmd = classifyGrep(g, o)
			if d := grepDivergence(own, g); d != "" {
				cmd.Notes = append(cmd.Notes, "grep-divergence: cicheck's own reading differs ("+string(own.Outcome)+" "+own.Name+")")
			}
		} else if d := grepDivergence(cmd, g); d != "" {
			cmd.Notes = append(cmd.Notes, d)
		}
	}
	return cmd, nil
}

// classifyRest classifies a comment that is not an exact gateway command.
func classifyRest(body string, o ClassifyOptions) Command {
	c := o.Config
	if cmd, ok := classifyBot(body, o); ok {
		return cmd
	}
	stripped := pyStrip(body)
	if c.ProseMentions != "ignore" {
		for _, m := range gatewayMarkers {
			if strings.Contains(stripped, m) {
				return Command{Outcome: Rejected, Reason: ReasonGatewayFail}
			}
		}
	}
	if c.ProseMentions == "fail" && mentionsBot(stripped, c.Bot) {
		return Command{Outcome: Rejected, Reason: "bot mention outside a command line; put the command at the start of its own line"}
	}
	return Command{Outcome: Unrecognized, Reason: "no command line"}
}

func mentionsBot(s, bot string) bool {
	l := strings.ToLower(s)
	if bot != "" && strings.Contains(l, "@"+strings.ToLower(bot)) {
		return true
	}
	return strings.Contains(l, "/bot ")
}

// classifyGateway applies spec B1 rules 1-4 to the whole stripped comment.
func classifyGateway(body string, o ClassifyOptions) (Command, bool) {
	s := pyStrip(body)
	switch s {
	case "/clear-labels":
		return Command{Outcome: Accepted, Name: CmdClearLabels, Reason: "remove every run-ci* label, nightly and bypass-fastfail"}, true
	case "/rerun-failed-ci":
		return Command{Outcome: Accepted, Name: CmdRerunFailedCI, Reason: "rerun the failed jobs of the latest allowlisted runs on the head commit"}, true
	}
	if m := addLabelRE().FindStringSubmatch(s); m != nil {
		return Command{Outcome: Accepted, Name: CmdAddLabel, Targets: []string{m[1]}, Reason: "add label " + m[1]}, true
	}
	if m := rerunTestRE(o.Config).FindStringSubmatch(s); m != nil {
		return Command{Outcome: Accepted, Name: CmdRerunTest, Targets: []string{m[1]}, Reason: "run " + m[1] + " on the pull request head"}, true
	}
	return Command{}, false
}

func gatewayPolicyKey(name string) string {
	switch name {
	case CmdAddLabel:
		return PolicyAddLabel
	case CmdClearLabels:
		return PolicyClearLabels
	case CmdRerunFailedCI:
		return PolicyRerunFailedCI
	}
	return PolicyRunTestFile
}

// authorizeGateway checks a parsed gateway command against the policy, in
// the reference's order: the label allowlist, then the commenter.
func authorizeGateway(cmd Command, o ClassifyOptions) (Command, error) {
	var p *Policy
	if o.Policy != nil {
		var err error
		if p, err = o.Policy(); err != nil {
			return Command{}, err
		}
	}
	reject := func(reason string) (Command, error) {
		return Command{Outcome: Rejected, Name: cmd.Name, Reason: reason}, nil
	}
	if p == nil {
		if cmd.Name == CmdAddLabel {
			cmd.Notes = append(cmd.Notes, "no access policy given: the label allowlist was not checked")
		}
		if o.Permission != "" && o.Permission != "write" && o.Permission != "admin" {
			return reject(ReasonUnauthorized)
		}
		return cmd, nil
	}
	if cmd.Name == CmdAddLabel && !p.LabelAllowed(cmd.Targets[0]) {
		return reject(ReasonLabelNotPolicy)
	}
	if (o.Permission != "" || o.UserID != 0) && !p.Allows(gatewayPolicyKey(cmd.Name), o.Permission, o.UserID) {
		return reject(ReasonUnauthorized)
	}
	return cmd, nil
}

// botPermissions may issue scoped-run bot commands (spec A3).
var botPermissions = map[string]bool{"admin": true, "maintain": true, "write": true, "triage": true}

// classifyBot finds the first unfenced command line and classifies it.
func classifyBot(body string, o ClassifyOptions) (Command, bool) {
	lines := commandLines(body, o.Config)
	if len(lines) == 0 {
		return Command{}, false
	}
	first := lines[0]
	cmd := classifyBotLine(first.tokens, o)
	cmd.Line = first.line
	cmd.Trigger = strings.ToLower(first.tokens[0])
	if len(lines) > 1 {
		cmd.Notes = append(cmd.Notes, "extra-command-lines: only the first command line counts; later ones (line "+joinLines(lines[1:])+") are ignored")
	}
	if cmd.Outcome != Unrecognized && o.Permission != "" && !botPermissions[o.Permission] {
		return Command{Outcome: Rejected, Name: cmd.Name, Reason: ReasonUnauthorized, Line: cmd.Line, Trigger: cmd.Trigger, Notes: cmd.Notes}, true
	}
	return cmd, true
}

func joinLines(ls []cmdLine) string {
	parts := make([]string, len(ls))
	for i, l := range ls {
		parts[i] = strconv.Itoa(l.line)
	}
	return strings.Join(parts, ", ")
}

func classifyBotLine(tokens []string, o ClassifyOptions) Command {
	if len(tokens) < 2 {
		return Command{Outcome: Unrecognized, Reason: "no verb after the trigger", Notes: []string{"unknown-verb: the trigger has no verb"}}
	}
	verb := strings.ToLower(tokens[1])
	args := tokens[2:]
	name := ""
	switch verb {
	case "run":
		cmd := classifyRun(args, o)
		cmd.Args = args
		return cmd
	case "rerun":
		name = CmdRerun
		if len(args) > 0 && strings.EqualFold(args[0], "failed") {
			name, args = CmdRerunFailed, args[1:]
		}
	case "stop":
		name = CmdStop
	default:
		return Command{Outcome: Unrecognized, Reason: "unknown verb " + strconv.Quote(tokens[1]), Notes: []string{"unknown-verb: " + strconv.Quote(tokens[1]) + " is not run, rerun, rerun failed or stop"}}
	}
	spelled := strings.ReplaceAll(name, "-", " ")
	var notes []string
	if len(args) > 0 {
		if o.Config.RerunArgs != "ignore" {
			return Command{Outcome: Rejected, Name: name, Reason: spelled + " takes no arguments: " + strings.Join(args, " ")}
		}
		notes = append(notes, "ignored arguments after "+spelled+": "+strings.Join(args, " "))
	}
	reasons := map[string]string{
		CmdRerun:       "rerun every run of the pull request",
		CmdRerunFailed: "rerun the failed and cancelled runs of the pull request",
		CmdStop:        "cancel the runs of the pull request",
	}
	return Command{Outcome: Accepted, Name: name, Reason: reasons[name], Notes: notes}
}

func classifyRun(args []string, o ClassifyOptions) Command {
	switch {
	case len(args) == 0:
		return Command{Outcome: Advisory, Name: CmdRun, Reason: "bare run asks the recommender for a scope; only a full_suite decision starts a run"}
	case len(args) == 1 && args[0] == "all":
		return Command{Outcome: Accepted, Name: CmdRunAll, Targets: []string{}, Reason: "run all: the full suite, with an empty scope"}
	case len(args) == 1 && args[0] == "full":
		return Command{Outcome: Rejected, Name: CmdRun, Reason: ReasonRunFull}
	}
	res := Validate(args, o.Validate)
	if !res.Accepted() {
		msgs := make([]string, len(res.Reasons))
		for i, r := range res.Reasons {
			msgs[i] = r.Message
		}
		return Command{Outcome: Rejected, Name: CmdRun, Reason: strings.Join(msgs, "; ")}
	}
	n := len(res.Targets)
	plural := "s"
	if n == 1 {
		plural = ""
	}
	return Command{Outcome: Accepted, Name: CmdRun, Targets: res.Targets, Reason: "scope of " + strconv.Itoa(n) + " target" + plural + " validated"}
}

// cmdLine is one command line: its 1-based number and its tokens after
// inline code was removed.
type cmdLine struct {
	line   int
	tokens []string
}

// commandLines returns the command lines of body in order (spec A2):
// fenced code, quoted replies and (optionally) indented code are skipped,
// inline code spans are removed, and a line is a command line only when
// its first token is the trigger — a mention later in a line is prose.
func commandLines(body string, c Config) []cmdLine {
	body = strings.ReplaceAll(body, "\r", "")
	var out []cmdLine
	var fenceChar byte
	fenceLen := 0
	prevBlank, inList := true, false
	for i, line := range strings.Split(body, "\n") {
		if fenceLen > 0 {
			if closesFence(line, fenceChar, fenceLen) {
				fenceLen = 0
			}
			prevBlank = false
			continue
		}
		if ch, n := opensFence(line); n > 0 {
			fenceChar, fenceLen = ch, n
			prevBlank = false
			continue
		}
		trimmed := strings.TrimLeft(line, " \t")
		if trimmed == "" {
			prevBlank = true
			continue
		}
		if trimmed[0] == '>' {
			prevBlank = false
			continue
		}
		indented := strings.HasPrefix(line, "    ") || strings.HasPrefix(line, "\t")
		if !indented {
			// A list lasts while its items and their indented
			// continuations do; a blank line then plain text ends it.
			inList = isListItem(trimmed) || (inList && !prevBlank)
		}
		prevBlank = false
		if c.IndentedCode && indented && !inList {
			continue // indented code
		}
		// The trigger is found with code spans read as blanks (code never
		// issues a command), but the verb and arguments are the rest of the
		// line as written and split as `scope check` splits its arguments: a
		// code span there is text the grammar does not allow, so it rejects
		// the request instead of vanishing (tests/`id` must not become
		// tests/, the whole tree).
		if trigger, end := firstToken(line); isTrigger(trigger, c.Bot) {
			out = append(out, cmdLine{line: i + 1, tokens: append([]string{trigger}, SplitArgs(line[end:])...)})
		}
	}
	return out
}

// isTrigger folds ASCII case only, as GitHub does for logins: Unicode
// folding would take "@flaſhinfer-bot" (long s) or a Kelvin sign for the
// bot, which GitHub does not render as a mention and Sanitize does not see.
func isTrigger(tok, bot string) bool {
	if asciiEqualFold(tok, "/bot") {
		return true
	}
	return bot != "" && asciiEqualFold(tok, "@"+bot)
}

func asciiEqualFold(a, b string) bool {
	return len(a) == len(b) && asciiLower(a) == asciiLower(b)
}

func isListItem(s string) bool {
	if len(s) >= 2 && strings.IndexByte("-*+", s[0]) >= 0 && (s[1] == ' ' || s[1] == '\t') {
		return true
	}
	i := 0
	for i < len(s) && i < 9 && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return i > 0 && i+1 < len(s) && (s[i] == '.' || s[i] == ')') && (s[i+1] == ' ' || s[i+1] == '\t')
}

// opensFence reports a fence opener: at most 3 spaces, then at least 3
// backticks or tildes.
func opensFence(line string) (byte, int) {
	i := 0
	for i < len(line) && i < 3 && line[i] == ' ' {
		i++
	}
	if i >= len(line) || (line[i] != '`' && line[i] != '~') {
		return 0, 0
	}
	ch := line[i]
	n := 0
	for i+n < len(line) && line[i+n] == ch {
		n++
	}
	if n < 3 {
		return 0, 0
	}
	return ch, n
}

// closesFence reports a line holding only ch repeated at least n times,
// plus whitespace.
func closesFence(line string, ch byte, n int) bool {
	t := strings.Trim(line, " \t")
	if len(t) < n {
		return false
	}
	for i := 0; i < len(t); i++ {
		if t[i] != ch {
			return false
		}
	}
	return true
}

// firstToken returns a line's first token and the offset just past it,
// with inline code spans (spec A2 step 4: a backtick run and the next run of
// the same length) read as blanks. A span is a separator, never glue:
// "@bot`x`-name" must not join into a login GitHub would not render as a
// mention. An unmatched backtick run is literal text.
func firstToken(line string) (string, int) {
	i := 0
	for i < len(line) {
		if isASCIISpace(rune(line[i])) {
			i++
			continue
		}
		if line[i] == '`' {
			if end := codeSpanEnd(line, i, runLen(line, i)); end >= 0 {
				i = end
				continue
			}
		}
		break
	}
	start := i
	for i < len(line) && !isASCIISpace(rune(line[i])) {
		if line[i] == '`' {
			n := runLen(line, i)
			if codeSpanEnd(line, i, n) >= 0 {
				break
			}
			i += n
			continue
		}
		i++
	}
	return line[start:i], i
}

// codeSpanEnd returns the index just past the backtick run that closes the
// code span opened by the n backticks at i (CommonMark: a run of the same
// length), or -1 when nothing closes it.
func codeSpanEnd(line string, i, n int) int {
	for j := i + n; j < len(line); {
		if line[j] != '`' {
			j++
			continue
		}
		m := runLen(line, j)
		if m == n {
			return j + m
		}
		j += m
	}
	return -1
}

func runLen(s string, i int) int {
	n := 0
	for i+n < len(s) && s[i+n] == '`' {
		n++
	}
	return n
}
