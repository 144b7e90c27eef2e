package cli

import (
	"bytes"
	"errors"
	"fmt"
	"io"

	"github.com/cicheck/cicheck/internal/safetext"
)

// Error is an error with the exit code it ends the run with. A plain error
// returned by a command is bad input (exit 2), unless it has an
// ExitCode() int method, whose code it ends the run with.
type Error struct {
	Code int
	Err  error // nil: nothing to print
	Bare bool  // printed as is, without the program's name
}

func (e *Error) Error() string {
	if e.Err == nil {
		return fmt.Sprintf("exit %d", e.Code)
	}
	return e.Err.Error()
}

func (e *Error) Unwrap() error { return e.Err }

// Usagef is bad usage or unusable input (exit 2).
func Usagef(format string, a ...any) error {
	return &Error{Code: ExitUsage, Err: fmt.Errorf(format, a...)}
}

// Failf is a finding or a refusal reported in one line (exit 1).
func Failf(format string, a ...any) error {
	return &Error{Code: ExitFindings, Err: fmt.Errorf(format, a...)}
}

// Fail is err as a finding or refusal (exit 1).
func Fail(err error) error { return &Error{Code: ExitFindings, Err: err} }

// Internal is a failure that is cicheck's fault, such as a writer's (exit 3).
func Internal(err error) error { return &Error{Code: ExitInternal, Err: err} }

// Exit ends the run with code, printing nothing more.
func Exit(code int) error { return &Error{Code: code} }

// Raw ends the run with code after printing msg as is.
func Raw(code int, msg string) error { return &Error{Code: code, Err: errors.New(msg), Bare: true} }

// Report prints err (if it says anything) on e's stderr and returns its
// exit code.
func (a *App) Report(e *Env, err error) int {
	if err == nil {
		return ExitOK
	}
	x := asError(err)
	switch {
	case x.Err == nil:
	case x.Bare:
		fmt.Fprintln(e.Stderr, x.Err)
	default:
		// An error often names a file or quotes its content: shown escaped
		// (internal/safetext), it cannot move the cursor or issue a
		// workflow command in a CI log.
		fmt.Fprint(e.Stderr, safetext.Output(fmt.Sprintf("%s: %v\n", a.Name, err)))
	}
	return x.Code
}

// asError is err with its exit code.
func asError(err error) *Error {
	var x *Error
	var coded interface{ ExitCode() int }
	switch {
	case errors.As(err, &x):
	case errors.As(err, &coded):
		x = &Error{Code: coded.ExitCode(), Err: err}
	default:
		x = &Error{Code: ExitUsage, Err: err}
	}
	return x
}

// ExitCode is the exit code err ends the run with (ExitOK for nil).
func ExitCode(err error) int {
	if err == nil {
		return ExitOK
	}
	return asError(err).Code
}

// Wrote ends a command once its output is written: a write error is
// cicheck's (exit 3); otherwise failed (findings at or above --fail-on, a
// rejected scope) ends the run with exit 1.
func Wrote(writeErr error, failed bool) error {
	switch {
	case writeErr != nil:
		return Internal(writeErr)
	case failed:
		return Exit(ExitFindings)
	}
	return nil
}

// Buffered writes a whole report to w, or nothing: write renders it into
// memory first, so an error half-way never leaves half a report on w.
func Buffered(w io.Writer, write func(io.Writer) error) error {
	var buf bytes.Buffer
	if err := write(&buf); err != nil {
		return Internal(err)
	}
	_, err := w.Write(buf.Bytes())
	return Wrote(err, false)
}
