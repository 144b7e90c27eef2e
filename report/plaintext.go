package report

import (
	"regexp"
	"strings"
	"sync"
)

// linkRE matches a markdown link [text](url).
var linkRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\[([^\]\n]*)\]\(([^)\s]*)\)`) })

// plainText renders the markdown of a rule's documentation as plain text,
// for SARIF's text fields (shown where markdown is not rendered): code
// fences become four-space indented blocks, headings lose their #, inline
// code its backticks, bold its asterisks, a link reads "text (url)". Code
// is left exactly as written.
func plainText(md string) string {
	var b strings.Builder
	inFence := false
	for line := range strings.Lines(md) {
		body := strings.TrimRight(line, "\n")
		if strings.HasPrefix(body, "```") {
			inFence = !inFence
			continue
		}
		switch {
		case inFence:
			if body != "" {
				body = "    " + body
			}
		case strings.HasPrefix(body, "#"):
			body = strings.TrimSpace(strings.TrimLeft(body, "#"))
			body = inline(body)
		default:
			body = inline(body)
		}
		b.WriteString(body)
		if strings.HasSuffix(line, "\n") {
			b.WriteByte('\n')
		}
	}
	return b.String()
}

func inline(s string) string {
	s = linkRE().ReplaceAllString(s, "$1 ($2)")
	s = strings.ReplaceAll(s, "**", "")
	return strings.ReplaceAll(s, "`", "")
}
