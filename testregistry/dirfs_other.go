//go:build !unix

package testregistry

import (
	"io/fs"
	"os"
)

// DirFS is os.DirFS(dir); see dirfs_unix.go for what unix systems add.
func DirFS(dir string) fs.FS { return os.DirFS(dir) }
