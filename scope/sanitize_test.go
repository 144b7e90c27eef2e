package scope

import (
	"testing"
)

func TestSanitize(t *testing.T) {
	tests := []struct{ in, want string }{
		{"Ask @flashinfer-bot to run it", "Ask flashinfer-bot to run it"},
		{"@FlashInfer-Bot run tests/a.py", "FlashInfer-Bot run tests/a.py"},
		{"Run `@flashinfer-bot run tests/a.py` to narrow it", "Run `@flashinfer-bot run tests/a.py` to narrow it"},
		{"```\n@flashinfer-bot run tests/a.py\n```\n@flashinfer-bot", "```\n@flashinfer-bot run tests/a.py\n```\nflashinfer-bot"},
		{"@flashinfer-bot2 is another account", "@flashinfer-bot2 is another account"},
		{"x@flashinfer-bot@flashinfer-bot.", "xflashinfer-botflashinfer-bot."},
		{"İ @flashinfer-bot", "İ flashinfer-bot"},
		// Dropping one "@" of a run left a mention.
		{"@@flashinfer-bot run tests/attention", "flashinfer-bot run tests/attention"},
		{"@@@FLASHINFER-BOT stop", "FLASHINFER-BOT stop"},
		// Near miss: an "@" that is not before the login stays.
		{"a@ @flashinfer-bot", "a@ flashinfer-bot"},
		// The parser drops \r before it reads a line.
		{"@\rflashinfer-bot run tests/a.py", "flashinfer-bot run tests/a.py"},
		// The GitLab trigger is a command to the parser too.
		{"/bot run tests/a.py", "bot run tests/a.py"},
		{"`x`/BOT run tests/a.py", "`x`BOT run tests/a.py"},
		{"/@flashinfer-bot run all", "/flashinfer-bot run all"},
		// Near misses: /bot inside a longer token is no trigger.
		{"see docs/bot and /bots", "see docs/bot and /bots"},
		// A whole-comment label command goes into code.
		{"/clear-labels\n", "`/clear-labels`\n"},
		{" /run-ci-megatron ", " `/run-ci-megatron` "},
		{"/rerun-test tests/e2e/x/test_a.py", "`/rerun-test tests/e2e/x/test_a.py`"},
		// Near miss: a marker in prose is not a command (it fails, loudly).
		{"run /clear-labels later", "run /clear-labels later"},
	}
	for _, tt := range tests {
		if got := Sanitize(tt.in, "flashinfer-bot"); got != tt.want {
			t.Errorf("Sanitize(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	// Removing a sigil exposes another: repeat until nothing changes.
	if got := Sanitize("/@bot run all", "bot"); got != "bot run all" {
		t.Errorf("Sanitize(/@bot) = %q", got)
	}
	for in, want := range map[string]int{
		"a @flashinfer-bot b `@flashinfer-bot` @FLASHINFER-BOT": 2,
		"/bot stop":           1,
		"/@flashinfer-bot":    1,
		"/clear-labels":       1,
		"`/clear-labels` now": 0,
	} {
		if n := SelfTriggers(in, "flashinfer-bot"); n != want {
			t.Errorf("SelfTriggers(%q) = %d, want %d", in, n, want)
		}
	}
}

// TestSanitizedIsNotACommand: what Sanitize prints, Classify reads as no
// command, for the inputs that once came out as one.
func TestSanitizedIsNotACommand(t *testing.T) {
	for _, in := range []string{
		"@@flashinfer-bot run tests/attention",
		"/bot run tests/a.py",
		"/@flashinfer-bot run all",
		"@\rflashinfer-bot run tests/a.py",
		"\x1c/clear-labels\u00a0",
		"/run-ci-megatron",
	} {
		assertInert(t, in, Sanitize(in, "flashinfer-bot"), "flashinfer-bot")
	}
	assertInert(t, "/@bot run all", Sanitize("/@bot run all", "bot"), "bot")
}

// assertInert fails when sanitized text is a command under either profile.
func assertInert(t *testing.T, in, s, bot string) {
	t.Helper()
	for _, profile := range []string{"flashinfer", "miles"} {
		c := resolved(t, profile)
		c.Bot = bot
		if ls := commandLines(s, c); len(ls) > 0 {
			t.Fatalf("Sanitize(%q) = %q has a command line %q (%s)", in, s, ls[0].tokens, profile)
		}
		cmd, err := Classify(s, ClassifyOptions{Config: c, Validate: OptionsFrom(c)})
		if err != nil {
			t.Fatal(err)
		}
		if cmd.Outcome == Accepted || cmd.Outcome == Advisory {
			t.Fatalf("Sanitize(%q) = %q classifies as %s %s (%s)", in, s, cmd.Outcome, cmd.Name, profile)
		}
	}
}

// FuzzSanitize: command parse never accepts what command sanitize printed,
// and the sanitized text has nothing left to sanitize. Seeds are in
// testdata/fuzz/FuzzSanitize.
func FuzzSanitize(f *testing.F) {
	f.Add("@flashinfer-bot run tests/a.py")
	f.Add("Try `@flashinfer-bot run all`\n```\n@flashinfer-bot stop\n```")
	f.Add("İİ@FLASHINFER-BOT")
	f.Add("@flashinfer`x`-bot run tests/a.py")
	f.Fuzz(func(t *testing.T, text string) {
		// "bot" as a login makes "/bot" and "@bot" overlap.
		for _, bot := range []string{"flashinfer-bot", "bot"} {
			s := Sanitize(text, bot)
			if n := SelfTriggers(s, bot); n != 0 {
				t.Fatalf("sanitized text %q still has %d triggers", s, n)
			}
			assertInert(t, text, s, bot)
		}
	})
}
