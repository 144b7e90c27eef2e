//go:build !unix

package testregistry

import (
	"io/fs"
	"os"
)

// DirFS is os.DirFS(dir); see dirfs_unix.go for what unix systems add.
func DirFS(dir string) fs.FS { return os.DirFS(dir) }

// readString reads a file as a string.
func readString(fsys fs.FS, name string, _ *[]byte) (string, error) {
	b, err := fs.ReadFile(fsys, name)
	return string(b), err
}
