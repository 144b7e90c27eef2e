package checks

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os/exec"
	"strings"
	"time"

	"github.com/rhysd/actionlint"

	"github.com/cicheck/cicheck/finding"
)

// ShellcheckTimeout bounds one shellcheck run: a pathological script must
// not hang the lint (actionlint's own integration deadlocks on large ones).
const ShellcheckTimeout = 20 * time.Second

// Shellcheck runs shellcheck on every bash/sh `run:` script, one process
// per script with a timeout.
type Shellcheck struct {
	exe     string
	timeout time.Duration
}

// NewShellcheck finds the executable (a name on PATH or a path).
func NewShellcheck(exe string) (*Shellcheck, error) {
	p, err := exec.LookPath(exe)
	if err != nil {
		return nil, fmt.Errorf("--shellcheck: %s not found: %w", exe, err)
	}
	return &Shellcheck{exe: p, timeout: ShellcheckTimeout}, nil
}

type shellcheckIssue struct {
	Line, Column int
	Level        string
	Code         int
	Message      string
}

// Check lints the scripts of one parsed workflow.
func (s *Shellcheck) Check(file string, src []byte, w *actionlint.Workflow) []finding.Finding {
	if w == nil {
		return nil
	}
	var out []finding.Finding
	wfShell := defaultShell(w.Defaults)
	for id, j := range w.Jobs {
		if j == nil {
			continue
		}
		jobShell := defaultShell(j.Defaults)
		if j.ID != nil {
			id = j.ID.Value // the key as written; actionlint's map key is lower-cased
		}
		for _, st := range j.Steps {
			if st == nil {
				continue
			}
			run, ok := st.Exec.(*actionlint.ExecRun)
			if !ok || run.Run == nil || run.Run.Pos == nil {
				continue
			}
			shell := "bash"
			for _, sh := range []string{jobShell, wfShell} {
				if sh != "" {
					shell = sh
				}
			}
			if jobShell != "" {
				shell = jobShell
			}
			if run.Shell != nil {
				shell = run.Shell.Value
			}
			sh := strings.Fields(shell + " ")[0]
			if sh != "bash" && sh != "sh" {
				continue
			}
			issues, problem := s.run(sanitize(run.Run.Value), sh)
			for _, is := range issues {
				line, col := run.Run.Pos.Line, run.Run.Pos.Col
				if literalBlock(src, line) && is.Line >= 1 {
					line += is.Line
					col = is.Column + leading(sourceLine(src, line))
				}
				sev := finding.Warning
				switch is.Level {
				case "error":
					sev = finding.Error
				case "info", "style":
					sev = finding.Notice
				}
				out = append(out, finding.Finding{Rule: "shellcheck", Severity: sev, File: file, Line: line, Column: col, Job: id,
					Message: fmt.Sprintf("SC%d: %s", is.Code, strings.TrimSuffix(is.Message, "."))})
			}
			if problem != "" {
				out = append(out, finding.Finding{Rule: "shellcheck", Severity: finding.Notice, File: file, Line: run.Run.Pos.Line, Column: run.Run.Pos.Col, Job: id, Message: problem})
			}
		}
	}
	return finding.Sort(out)
}

func defaultShell(d *actionlint.Defaults) string {
	if d != nil && d.Run != nil && d.Run.Shell != nil {
		return d.Run.Shell.Value
	}
	return ""
}

// literalBlock reports whether the `run:` on this line starts a `|` block,
// whose lines map one to one onto the file.
func literalBlock(src []byte, line int) bool {
	t := strings.TrimSpace(sourceLine(src, line))
	if i := strings.Index(t, " #"); i >= 0 {
		t = strings.TrimSpace(t[:i])
	}
	return strings.HasSuffix(t, "|") || strings.HasSuffix(t, "|-") || strings.HasSuffix(t, "|+")
}

// sanitize replaces ${{ }} with underscores of the same length, as
// actionlint does, so shellcheck sees a word and columns stay put.
func sanitize(s string) string {
	var b strings.Builder
	for {
		i := strings.Index(s, "${{")
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		j := strings.Index(s[i:], "}}")
		if j < 0 {
			b.WriteString(s)
			return b.String()
		}
		b.WriteString(s[:i])
		b.WriteString(strings.Repeat("_", j+2))
		s = s[i+j+2:]
	}
}

// run checks one script; the string explains a timeout or failure.
// Safe for concurrent use.
func (s *Shellcheck) run(script, sh string) ([]shellcheckIssue, string) {
	ctx, cancel := context.WithTimeout(context.Background(), s.timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, s.exe, "--norc", "-f", "json", "--shell", sh, "-e", "SC1091,SC2194,SC2050,SC2153,SC2154,SC2157,SC2043", "-")
	cmd.Stdin = strings.NewReader(script)
	// Killing the process is not enough when it left a child holding
	// stdout (a wrapper script): without WaitDelay, Run waits for that
	// child, and the timeout bounds nothing.
	cmd.WaitDelay = time.Second
	var stdout bytes.Buffer
	cmd.Stdout = &stdout
	err := cmd.Run()
	if ctx.Err() != nil {
		return nil, fmt.Sprintf("shellcheck timed out after %s on this script; skipped", s.timeout)
	}
	var issues []shellcheckIssue
	if jerr := json.Unmarshal(stdout.Bytes(), &issues); jerr != nil {
		if err != nil {
			return nil, fmt.Sprintf("shellcheck failed on this script: %v", err)
		}
		return nil, ""
	}
	return issues, ""
}
