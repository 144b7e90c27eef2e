//go:build unix

package safewrite

import (
	"io/fs"
	"os"
	"syscall"
)

// keepOwner gives the replacement the original's owner and group; a user
// who may not do so (not root) already owns what they can replace.
func keepOwner(f *os.File, st fs.FileInfo) {
	if s, ok := st.Sys().(*syscall.Stat_t); ok {
		_ = f.Chown(int(s.Uid), int(s.Gid))
	}
}

// links is the file's hard-link count.
func links(st fs.FileInfo) uint64 {
	if s, ok := st.Sys().(*syscall.Stat_t); ok {
		return widen(s.Nlink)
	}
	return 1
}

// widen converts a link count, whose width differs between systems.
func widen[T ~uint16 | ~uint32 | ~uint64](n T) uint64 { return uint64(n) }
