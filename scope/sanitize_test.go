package scope

import (
	"strings"
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
	}
	for _, tt := range tests {
		if got := Sanitize(tt.in, "flashinfer-bot"); got != tt.want {
			t.Errorf("Sanitize(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	if n := Mentions("a @flashinfer-bot b `@flashinfer-bot` @FLASHINFER-BOT", "flashinfer-bot"); n != 2 {
		t.Fatalf("Mentions = %d", n)
	}
}

// FuzzSanitize: the sanitized text never addresses the bot and never
// classifies as a bot command.
func FuzzSanitize(f *testing.F) {
	f.Add("@flashinfer-bot run tests/a.py")
	f.Add("Try `@flashinfer-bot run all`\n```\n@flashinfer-bot stop\n```")
	f.Add("İİ@FLASHINFER-BOT")
	f.Add("@flashinfer`x`-bot run tests/a.py")
	c := resolved(f, "flashinfer")
	f.Fuzz(func(t *testing.T, text string) {
		s := Sanitize(text, c.Bot)
		if n := Mentions(s, c.Bot); n != 0 {
			t.Fatalf("sanitized text %q still has %d mentions", s, n)
		}
		for _, l := range commandLines(s, c) {
			if !strings.EqualFold(l.tokens[0], "/bot") {
				t.Fatalf("sanitized text %q has a command line %q", s, l.tokens)
			}
		}
	})
}
