// Package scope validates scoped-run targets and PR-comment commands, and
// splits a scope into commit-status chunks and back, rejecting rather than
// degrading a malformed request.
package scope
