//go:build !unix

package testregistry

import (
	"io/fs"
	"os"
)

// DirFS is os.DirFS(dir); see dirfs_unix.go for what unix systems add.
func DirFS(dir string) fs.FS { return os.DirFS(dir) }

// fileReader is a scan worker's reusable read state (none here).
type fileReader struct{}

// readString reads a file as a string (its own copy here).
func readString(fsys fs.FS, name string, _ *fileReader) (string, error) {
	b, err := fs.ReadFile(fsys, name)
	return string(b), err
}
