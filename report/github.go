package report

import (
	"bytes"
	"strconv"
	"strings"

	"github.com/cicheck/cicheck/finding"
	"github.com/cicheck/cicheck/internal/safetext"
)

// The github format prints one workflow command per finding:
//
//	::error file=F,line=L,col=C,title=RULE::MESSAGE
//
// (::warning and ::notice likewise). line and col are omitted when 0, file
// when empty. A suggested fix is appended to the message on its own line
// ("fix: ..."), which GitHub shows inside the annotation. Escaping follows
// actions/toolkit's command.ts: data escapes %, CR and LF; property values
// also escape : and , (the property separators); other control characters
// are shown escaped (internal/safetext).

// escapeData escapes the message part of a workflow command.
func escapeData(s string) string { return safetext.CommandData(s) }

// escapeProperty escapes a property value of a workflow command.
func escapeProperty(s string) string { return safetext.CommandProperty(s) }

// githubCommand maps a severity to its workflow command; anything that is
// not an error or a warning is at most a notice.
func githubCommand(s finding.Severity) string {
	switch s {
	case finding.Error:
		return "error"
	case finding.Warning:
		return "warning"
	}
	return "notice"
}

func writeGitHub(buf *bytes.Buffer, fs []finding.Finding, _ Options) error {
	for _, f := range fs {
		var props []string
		if f.File != "" {
			props = append(props, "file="+escapeProperty(f.File))
		}
		if f.Line > 0 {
			props = append(props, "line="+strconv.Itoa(f.Line))
			if f.Column > 0 {
				props = append(props, "col="+strconv.Itoa(f.Column))
			}
		}
		if f.Rule != "" {
			props = append(props, "title="+escapeProperty(f.Rule))
		}
		msg := f.Message
		if f.Fix != "" {
			msg += "\nfix: " + f.Fix
		}
		buf.WriteString("::")
		buf.WriteString(githubCommand(f.Severity))
		if len(props) > 0 {
			buf.WriteByte(' ')
			buf.WriteString(strings.Join(props, ","))
		}
		buf.WriteString("::")
		buf.WriteString(escapeData(msg))
		buf.WriteByte('\n')
	}
	return nil
}
