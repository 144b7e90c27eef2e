//go:build !unix

package testregistry

// No non-blocking or directory-only open here: the type checks before
// opening are the guard.
const (
	openFlags    = 0
	openDirFlags = 0
)
