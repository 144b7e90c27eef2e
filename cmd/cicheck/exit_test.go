package main

import "github.com/cicheck/cicheck/internal/cli"

// The exit codes the tests expect (see design.md).
const (
	exitOK       = cli.ExitOK
	exitFindings = cli.ExitFindings
	exitUsage    = cli.ExitUsage
	exitInternal = cli.ExitInternal
)
