//go:build !unix

package repofs

// nonblock: named pipes are not files in a directory tree here.
const nonblock = 0
