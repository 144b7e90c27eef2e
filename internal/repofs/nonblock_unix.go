//go:build unix

package repofs

import "syscall"

// nonblock keeps open from waiting for a writer when a named pipe was put
// in a regular file's place between Stat and Open.
const nonblock = syscall.O_NONBLOCK
