//go:build unix && !linux

package testregistry

import "syscall"

// openPath opens the NUL-terminated path p.
func openPath(p []byte, flags int) (int, error) {
	for {
		fd, err := syscall.Open(string(p[:len(p)-1]), flags, 0)
		if err != syscall.EINTR {
			return fd, err
		}
	}
}

// readFile reads into b, which is not empty (0 means the end of the file).
func readFile(fd int, b []byte) (int, error) { return syscall.Read(fd, b) }

// closeFile closes a descriptor opened for reading (nothing to flush, so
// its error says nothing about the data read).
func closeFile(fd int) { syscall.Close(fd) } //nolint:errcheck // see above
