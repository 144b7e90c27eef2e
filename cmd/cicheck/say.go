package main

import (
	"fmt"
	"io"

	"github.com/cicheck/cicheck/internal/safetext"
)

// say prints a note or warning on w. Notes name files and quote their
// content, so the line goes through safetext.Output like every other text
// output: control and bidi characters spelled out, no workflow command.
func say(w io.Writer, format string, a ...any) {
	_, _ = io.WriteString(w, safetext.Output(fmt.Sprintf(format, a...)))
}
