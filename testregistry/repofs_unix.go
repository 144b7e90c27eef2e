//go:build unix

package testregistry

import "syscall"

// openFlags: O_NONBLOCK makes opening a FIFO return at once (the fstat
// that follows rejects it); on a regular file it changes nothing. It also
// spares os.File setting and clearing the flag itself.
const openFlags = syscall.O_NONBLOCK

// openDirFlags: anything but a directory fails to open, and so does a
// symlink at the last step.
const openDirFlags = syscall.O_DIRECTORY | syscall.O_NOFOLLOW
