package safetext

import (
	"strings"
	"testing"
	"unicode"
)

// hostile is the file name of issue 27 and its relatives: a workflow
// command on its own line, terminal escapes, bidi, a markdown link, an
// image and HTML.
var hostile = []string{
	"inj\n::warning file=x::INJECTED\nz.rs",
	"a\r::error::b",
	"\x1b[2J\x1b]8;;https://evil\x07x\x1b]8;;\x07",
	"\u202egnp.exe",
	"\u0085next",
	"[click](https://evil)",
	"![img](https://evil/x.png)",
	"<img src=x onerror=alert(1)>",
	"``a`b``` | c",
	"www.evil.com and https://evil and a@b.co",
	"# heading",
	"1. item",
}

func TestBlock(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain", "plain"},
		{"a\nb", "a\n  b"},
		{"a\r\nb", "a\n  b"},
		{"a\rb", `a\x0db`},
		{"tab\tkept", "tab\tkept"},
		{"\x1b[2J", `\x1b[2J`},
		{"\u0085", `\x85`},
		{"\u2066x\u2069", `\u2066x\u2069`},
		{"bad \xff byte", "bad \uFFFD byte"},
	}
	for _, tt := range tests {
		if got := Block(tt.in, "  "); got != tt.want {
			t.Errorf("Block(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestLine(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain/name.yml", "plain/name.yml"},
		{"inj\n::warning file=x::INJECTED\nz.rs", `inj\x0a::warning file=x::INJECTED\x0az.rs`},
		{"a\tb", `a\x09b`},
		{"\u202e", `\u202e`},
		{"\xff", "\uFFFD"},
	}
	for _, tt := range tests {
		if got := Line(tt.in); got != tt.want {
			t.Errorf("Line(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestDefuseCommands(t *testing.T) {
	in := "ok\n::warning::x\n \t::error::y\nmid ::notice::z\n"
	want := "ok\n\\x3a:warning::x\n \t\\x3a:error::y\nmid ::notice::z\n"
	if got := string(DefuseCommands([]byte(in))); got != want {
		t.Errorf("DefuseCommands = %q, want %q", got, want)
	}
}

func TestCommand(t *testing.T) {
	if got := CommandData("100%\r\nx\x1b"); got != `100%25%0D%0Ax\x1b` {
		t.Errorf("CommandData = %q", got)
	}
	if got := CommandProperty("a,b:c\n"); got != "a%2Cb%3Ac%0A" {
		t.Errorf("CommandProperty = %q", got)
	}
}

func TestMarkdown(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", "-"},
		{"GB10, self-hosted", "GB10, self-hosted"},
		{"rust=true (.github/workflows/ci.yml)", "rust=true (.github/workflows/ci.yml)"},
		{"[click](https://evil)", `\[click\](https\://evil)`},
		{"![img](x.png)", `!\[img\](x.png)`},
		{"<img src=x>", "&lt;img src=x&gt;"},
		{"a|b", `a\|b`},
		{"*b* _i_ ~s~ `c`", "\\*b\\* \\_i\\_ \\~s\\~ \\`c\\`"},
		{"www.evil.com", `www\.evil.com`},
		{"a@b.co", `a\@b.co`},
		{"label ci:full present", "label ci:full present"},
		{"mailto:x", `mailto\:x`},
		{"-", "-"},
		{"- x", `\- x`},
		{"# h", `\# h`},
		{"12. x", `12\. x`},
		{"a\nb", `a\\x0ab`},
	}
	for _, tt := range tests {
		if got := Markdown(tt.in); got != tt.want {
			t.Errorf("Markdown(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestCode(t *testing.T) {
	tests := []struct{ in, want string }{
		{"ci.yml", "`ci.yml`"},
		{"a`b", "``a`b``"},
		{"`a", "`` `a ``"},
		{"a``b`", "``` a``b` ```"},
		{"x\ny", "`x\\x0ay`"},
	}
	for _, tt := range tests {
		if got := Code(tt.in); got != tt.want {
			t.Errorf("Code(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	if got := CodeCell("a|b"); got != "`a\\|b`" {
		t.Errorf("CodeCell = %q", got)
	}
}

// checkTotal asserts what no escaped output may hold, whatever the input.
func checkTotal(t *testing.T, in string) {
	t.Helper()
	for name, out := range map[string]string{
		"Line": Line(in), "Block": Block(in, "  "), "CommandData": CommandData(in),
		"CommandProperty": CommandProperty(in), "Markdown": Markdown(in), "Code": Code(in), "HTML": HTML(in),
	} {
		for _, r := range out {
			if IsUnsafe(r) && !(name == "Block" && r == '\n') {
				t.Fatalf("%s(%q) = %q holds %U raw", name, in, out, r)
			}
		}
		if name != "Block" && strings.ContainsAny(out, "\n\r") {
			t.Fatalf("%s(%q) = %q breaks the line", name, in, out)
		}
	}
	for _, l := range strings.Split(string(DefuseCommands([]byte(in))), "\n") {
		if strings.HasPrefix(strings.TrimLeftFunc(l, unicode.IsSpace), "::") {
			t.Fatalf("DefuseCommands(%q) leaves a command line %q", in, l)
		}
	}
	md := Markdown(in)
	for i := 0; i < len(md); i++ {
		switch md[i] {
		case '<', '>':
			t.Fatalf("Markdown(%q) = %q holds HTML", in, md)
		case '[', ']', '`', '|', '*', '_':
			// Escaped, so no link, image, code span or emphasis opens.
			n := 0 // backslashes right before: an odd count escapes it
			for n < i && md[i-1-n] == '\\' {
				n++
			}
			if n%2 == 0 {
				t.Fatalf("Markdown(%q) = %q: %q at %d is not escaped", in, md, md[i], i)
			}
		}
	}
	if p := CommandProperty(in); strings.ContainsAny(p, ":,") {
		t.Fatalf("CommandProperty(%q) = %q holds a separator", in, p)
	}
	// A code span's content is never parsed, so only its fence matters:
	// the content holds no backtick run as long as the fence.
	c := Code(in)
	n := strings.IndexFunc(c, func(r rune) bool { return r != '`' })
	if n < 0 || strings.Contains(c[n:len(c)-n], strings.Repeat("`", n)) {
		t.Fatalf("Code(%q) = %q: the content closes the span", in, c)
	}
}

func TestHostile(t *testing.T) {
	for _, s := range hostile {
		checkTotal(t, s)
	}
}

func FuzzSafetext(f *testing.F) {
	for _, s := range hostile {
		f.Add(s)
	}
	f.Fuzz(checkTotal)
}

func TestOutput(t *testing.T) {
	in := "job\x1b[2J\tx\n::warning::y\r\n\u202ez\n"
	want := "job\\x1b[2J\tx\n\\x3a:warning::y\\x0d\n\\u202ez\n"
	if got := Output(in); got != want {
		t.Errorf("Output = %q, want %q", got, want)
	}
	if got := Output("plain\ttext\n"); got != "plain\ttext\n" {
		t.Errorf("Output changed clean text: %q", got)
	}
}
