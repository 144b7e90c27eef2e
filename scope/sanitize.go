package scope

import (
	"strings"
)

// Sanitize prepares text the bot posts (advisory rationale, model output,
// validation errors) so that the command parser reads no command in it
// (spec A2 rule 8): outside code, every "@<bot>" mention loses its run of
// "@" and every "/bot" trigger its "/", case-insensitively, and a comment
// that is a whole label command is put in a code span. Code spans and
// fenced blocks are left alone, so copyable example commands survive; the
// command parser never reads code. The pass repeats until nothing changes,
// since removing a sigil can expose another ("/@bot" becomes "/bot"), and
// carriage returns go first because the parser drops them before it reads
// a line ("@\rbot" is a mention to it).
func Sanitize(text, bot string) string {
	s, _ := sanitize(text, bot)
	return s
}

// SelfTriggers counts the triggers Sanitize neutralises: a reply with any
// would address the bot (self-trigger).
func SelfTriggers(text, bot string) int {
	_, n := sanitize(text, bot)
	return n
}

func sanitize(text, bot string) (string, int) {
	text = strings.ReplaceAll(text, "\r", "")
	total := 0
	for {
		n := 0
		text = walkOutsideCode(text, func(s string) string {
			var k int
			s, k = unmention(s, bot)
			n += k
			s, k = unslashBot(s)
			n += k
			return s
		})
		if core := pyStrip(text); isGatewayCommand(core) {
			// The gateway reads the whole comment; a label command the
			// bot quotes stays copyable inside code.
			i := strings.Index(text, core)
			text = text[:i] + "`" + core + "`" + text[i+len(core):]
			n++
		}
		if n == 0 {
			return text, total
		}
		total += n
	}
}

// isGatewayCommand reports a whole comment the label gateway would take as
// an exact command, under any configuration (rerun-test under any root).
func isGatewayCommand(s string) bool {
	if s == "/clear-labels" || s == "/rerun-failed-ci" || addLabelRE().MatchString(s) {
		return true
	}
	return rerunTestRE(Config{}).MatchString(s)
}

// walkOutsideCode applies f to every part of text outside fenced blocks
// and inline code spans, with the fence rules of the command parser.
func walkOutsideCode(text string, f func(string) string) string {
	lines := strings.Split(text, "\n")
	var fenceChar byte
	fenceLen := 0
	for i, line := range lines {
		if fenceLen > 0 {
			if closesFence(strings.TrimSuffix(line, "\r"), fenceChar, fenceLen) {
				fenceLen = 0
			}
			continue
		}
		if ch, n := opensFence(line); n > 0 {
			fenceChar, fenceLen = ch, n
			continue
		}
		lines[i] = outsideInlineCode(line, f)
	}
	return strings.Join(lines, "\n")
}

// outsideInlineCode applies f to the parts of line outside code spans.
func outsideInlineCode(line string, f func(string) string) string {
	var b strings.Builder
	start, i := 0, 0
	for i < len(line) {
		if line[i] != '`' {
			i++
			continue
		}
		n := runLen(line, i)
		end := codeSpanEnd(line, i, n)
		if end < 0 {
			i += n
			continue
		}
		b.WriteString(f(line[start:i]))
		b.WriteString(line[i:end])
		start, i = end, end
	}
	b.WriteString(f(line[start:]))
	return b.String()
}

// mentionIndexes finds "@<bot>" case-insensitively where the login ends
// (a longer login such as "@bot2" is someone else).
func mentionIndexes(s, bot string) []int {
	// ASCII folding keeps byte offsets valid in s (logins are ASCII).
	l := asciiLower(s)
	m := "@" + asciiLower(bot)
	var out []int
	for off := 0; ; {
		k := strings.Index(l[off:], m)
		if k < 0 {
			return out
		}
		at := off + k
		end := at + len(m)
		if end >= len(l) || !isLoginByte(l[end]) {
			out = append(out, at)
		}
		off = at + 1
	}
}

func isLoginByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-'
}

// unmention drops the whole run of "@" before each mention: dropping one
// would leave "@@bot" a mention.
func unmention(s, bot string) (string, int) {
	if bot == "" {
		return s, 0
	}
	idx := mentionIndexes(s, bot)
	if len(idx) == 0 {
		return s, 0
	}
	var b strings.Builder
	prev := 0
	for _, at := range idx {
		j := at
		for j > prev && s[j-1] == '@' {
			j--
		}
		b.WriteString(s[prev:j])
		prev = at + 1
	}
	b.WriteString(s[prev:])
	return b.String(), len(idx)
}

// unslashBot drops the "/" of every "/bot" that is a whole token (the
// GitLab trigger, which the parser accepts too). s is a part of a line
// between code spans, and a span is a token boundary to the parser.
func unslashBot(s string) (string, int) {
	l := asciiLower(s)
	var b strings.Builder
	prev, n := 0, 0
	for off := 0; ; {
		k := strings.Index(l[off:], "/bot")
		if k < 0 {
			break
		}
		at := off + k
		end := at + len("/bot")
		if (at == 0 || isASCIISpace(rune(s[at-1]))) && (end == len(s) || isASCIISpace(rune(s[end]))) {
			b.WriteString(s[prev:at])
			prev = at + 1
			n++
		}
		off = end
	}
	if n == 0 {
		return s, 0
	}
	b.WriteString(s[prev:])
	return b.String(), n
}

func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}
