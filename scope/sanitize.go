package scope

import (
	"strings"
)

// Sanitize prepares text the bot posts (advisory rationale, model output,
// validation errors) so that it can never address the bot: every "@<bot>"
// mention outside code loses its "@", case-insensitively (spec A2 rule 8).
// Code spans and fenced blocks are left alone, so copyable example
// commands survive; the command parser never reads code.
func Sanitize(text, bot string) string {
	if bot == "" {
		return text
	}
	return walkOutsideCode(text, func(s string) string { return unmention(s, bot) })
}

// Mentions counts the "@<bot>" mentions Sanitize would remove: a reply
// with any would address the bot (self-trigger).
func Mentions(text, bot string) int {
	if bot == "" {
		return 0
	}
	n := 0
	walkOutsideCode(text, func(s string) string {
		n += len(mentionIndexes(s, bot))
		return s
	})
	return n
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

func unmention(s, bot string) string {
	idx := mentionIndexes(s, bot)
	if len(idx) == 0 {
		return s
	}
	var b strings.Builder
	prev := 0
	for _, at := range idx {
		b.WriteString(s[prev:at])
		prev = at + 1 // drop the "@"
	}
	b.WriteString(s[prev:])
	return b.String()
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
