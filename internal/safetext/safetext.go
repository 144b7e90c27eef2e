// Package safetext is the one place cicheck escapes text that came from a
// repository (file names, job names, labels, comment text) for the three
// kinds of output a person or a CI log reads: a terminal or log line, a
// GitHub workflow command, and markdown (a step summary or a comment).
// Every function is total: whatever the input, the result cannot move the
// cursor, reorder what the reader sees, issue a workflow command, or
// render as a link, an image or HTML.
package safetext

import (
	"bytes"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// IsUnsafe reports runes that must not reach a terminal raw: C0 and C1
// controls other than tab (ESC starts terminal sequences), bidi controls
// (they reorder what the reader sees) and the Unicode line separators.
func IsUnsafe(r rune) bool {
	return (r != '\t' && unicode.IsControl(r)) || unicode.Is(unicode.Bidi_Control, r) || r == '\u2028' || r == '\u2029'
}

// EscapeRune is the visible, Go-like spelling of an unsafe rune.
func EscapeRune(r rune) string {
	if r < 0x100 {
		return fmt.Sprintf(`\x%02x`, r)
	}
	return fmt.Sprintf(`\u%04x`, r)
}

// Block makes s safe for a terminal: line breaks continue on a new line
// after indent, other unsafe runes are shown escaped, and invalid UTF-8
// becomes U+FFFD. For multi-line values such as messages.
func Block(s, indent string) string {
	if clean(s, true) {
		return s
	}
	var b strings.Builder
	s = strings.ReplaceAll(s, "\r\n", "\n")
	for _, r := range s {
		switch {
		case r == '\n':
			b.WriteString("\n" + indent)
		case IsUnsafe(r):
			b.WriteString(EscapeRune(r))
		default:
			b.WriteRune(r) // RuneError from invalid bytes is written as U+FFFD
		}
	}
	return b.String()
}

// Line makes s safe as part of one line: every unsafe rune, line breaks
// and tabs included, is shown escaped, so a file name cannot start a line
// of its own (where "::warning" would be a workflow command) or break a
// column.
func Line(s string) string {
	if clean(s, false) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if r == '\t' || IsUnsafe(r) {
			b.WriteString(EscapeRune(r))
		} else {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// clean reports whether s needs no escaping (tabs allowed or not).
func clean(s string, tabs bool) bool {
	for _, r := range s {
		if r == utf8.RuneError || IsUnsafe(r) || (!tabs && r == '\t') {
			return false
		}
	}
	return true
}

// DefuseCommands escapes the first colon of every line of text output that
// would start with "::" once leading white space is trimmed (the runner
// trims it): GitHub reads such a line on a step's output as a workflow
// command, and a name quoted from a pull request must not issue one when
// cicheck's text output is shown in a CI log. Output meant to hold
// workflow commands applies this to everything but its own commands.
func DefuseCommands(out []byte) []byte {
	if !bytes.Contains(out, []byte("::")) {
		return out
	}
	var b bytes.Buffer
	b.Grow(len(out) + 8)
	for _, l := range bytes.SplitAfter(out, []byte("\n")) {
		trimmed := bytes.TrimLeftFunc(l, unicode.IsSpace)
		if bytes.HasPrefix(trimmed, []byte("::")) {
			b.Write(l[:len(l)-len(trimmed)])
			b.WriteString(`\x3a`)
			b.Write(trimmed[1:])
			continue
		}
		b.Write(l)
	}
	return b.Bytes()
}

// Workflow-command escaping follows actions/toolkit's command.ts: data
// escapes %, CR and LF; a property value also escapes ":" and "," (the
// property separators). Other unsafe runes are shown escaped as in Line,
// since the log prints them to a terminal-like viewer.
var (
	dataEscaper     = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A")
	propertyEscaper = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C")
)

// CommandData escapes the message part of a workflow command.
func CommandData(s string) string { return dataEscaper.Replace(controls(s)) }

// CommandProperty escapes a property value of a workflow command.
func CommandProperty(s string) string { return propertyEscaper.Replace(controls(s)) }

// controls escapes unsafe runes other than CR and LF (which the command
// escaping encodes) and tabs.
func controls(s string) string {
	if clean(s, true) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if r != '\r' && r != '\n' && IsUnsafe(r) {
			b.WriteString(EscapeRune(r))
		} else {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// Markdown makes s literal text in markdown, inline and inside a table
// cell: unsafe runes and line breaks are shown escaped; "&", "<" and ">"
// become entities (no HTML); the characters that open a link, an image,
// emphasis, a code span, a cell separator or a GFM autolink (":" of
// "://", "mailto:" or "xmpp:", "@" of an address, "." after "www") are
// backslash-escaped, as is a leading block marker. Empty is "-".
func Markdown(s string) string {
	if s == "" || s == "-" {
		return "-"
	}
	var b strings.Builder
	line := Line(s)
	for i, r := range line {
		switch {
		case r == '&':
			b.WriteString("&amp;")
		case r == '<':
			b.WriteString("&lt;")
		case r == '>':
			b.WriteString("&gt;")
		case strings.ContainsRune("\\`*_[]|~@", r),
			r == ':' && (strings.HasPrefix(line[i+1:], "//") || hasSuffixFold(line[:i], "mailto") || hasSuffixFold(line[:i], "xmpp")),
			i == 0 && strings.ContainsRune("#-+=", r),
			r == '.' && i >= 3 && strings.EqualFold(line[i-3:i], "www"),
			(r == '.' || r == ')') && i > 0 && allDigits(line[:i]):
			b.WriteByte('\\')
			b.WriteRune(r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

func hasSuffixFold(s, suffix string) bool {
	return len(s) >= len(suffix) && strings.EqualFold(s[len(s)-len(suffix):], suffix)
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// Code is s as a markdown code span, whose content is never parsed: unsafe
// runes are shown escaped, and the fence is one backtick longer than the
// longest run inside, padded when the content touches it.
func Code(s string) string {
	s = Line(s)
	longest, run := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	fence := strings.Repeat("`", longest+1)
	if s == "" || s[0] == '`' || s[len(s)-1] == '`' || s[0] == ' ' || s[len(s)-1] == ' ' {
		s = " " + s + " "
	}
	return fence + s + fence
}

// CodeCell is Code inside a GFM table cell, where a pipe splits the row
// even in a code span unless it is escaped.
func CodeCell(s string) string { return strings.ReplaceAll(Code(s), "|", `\|`) }

// HTML makes s literal text inside raw HTML (a <summary>, where markdown
// is not parsed): unsafe runes shown escaped, HTML special characters as
// entities, and brackets too, so not even a renderer that does parse
// markdown there finds a link.
func HTML(s string) string { return htmlEscaper.Replace(Line(s)) }

var htmlEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&#34;", "'", "&#39;", "[", "&#91;", "]", "&#93;")

// Output is the last pass of a text output assembled from names whose
// fields were not escaped one by one (a graph, a runner table, a verdict
// list): every unsafe rune except the output's own line breaks and tabs is
// spelled out, then no line may start a workflow command. A name holding a
// line break still breaks its line, but the line it starts is inert.
func Output(s string) string {
	if !clean(s, true) || strings.Contains(s, "::") {
		var b strings.Builder
		for _, r := range s {
			if r != '\n' && IsUnsafe(r) {
				b.WriteString(EscapeRune(r))
			} else {
				b.WriteRune(r)
			}
		}
		s = string(DefuseCommands([]byte(b.String())))
	}
	return s
}
