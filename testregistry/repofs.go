package testregistry

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// DirFS is the repository at dir as the registry reads it. Files are
// opened through an os.Root, so that no path and no symlink leads outside
// dir (the kernel refuses each step that would), and opened non-blocking
// where the platform has it, so that a FIFO put in a file's place between
// its type check and its fstat does not hang a scan. An error opening dir
// is returned by every operation.
func DirFS(dir string) fs.FS {
	r, err := os.OpenRoot(dir)
	if err != nil {
		return errFS{&fs.PathError{Op: "open", Path: dir, Err: errors.Unwrap(err)}}
	}
	return &repoFS{FS: r.FS(), root: r, dir: dir}
}

// repoFS is os.Root's fs.FS with its own Open, ReadDir and Sub. Its Stat,
// Lstat and ReadLink are os.Root's.
type repoFS struct {
	fs.FS
	root *os.Root
	dir  string
}

func (r *repoFS) Open(name string) (fs.File, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrInvalid}
	}
	f, err := r.root.OpenFile(name, os.O_RDONLY|openFlags, 0)
	if err != nil {
		return nil, err
	}
	return f, nil
}

// ReadDir lists a directory sorted, as fs.ReadDir does, opening it by its
// path rather than through the root: a directory opened in an os.Root
// lstats every entry it lists (a system call per name, a tenth of a
// scan), where a plain one takes the type the listing records. A
// directory only lends names: every file read still goes through the
// root. The open follows no symlink at the last step and accepts only a
// directory (openDirFlags), so a FIFO in its place fails at once; the
// walks that call it follow no symlink without resolving it first.
func (r *repoFS) ReadDir(name string) ([]fs.DirEntry, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: fs.ErrInvalid}
	}
	f, err := os.OpenFile(filepath.Join(r.dir, filepath.FromSlash(name)), os.O_RDONLY|openFlags|openDirFlags, 0)
	if err != nil {
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: errors.Unwrap(err)}
	}
	defer func() { _ = f.Close() }() // read only: a close error loses nothing
	ents, err := f.ReadDir(-1)
	slices.SortFunc(ents, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	return ents, err
}

// Sub implements fs.SubFS: dir as a repoFS of its own, opened through the
// root, so the files of one directory are opened one step each instead
// of a step per directory on their path. Close it after use.
func (r *repoFS) Sub(dir string) (fs.FS, error) {
	if !fs.ValidPath(dir) {
		return nil, &fs.PathError{Op: "sub", Path: dir, Err: fs.ErrInvalid}
	}
	sub, err := r.root.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	return &repoFS{FS: sub.FS(), root: sub, dir: filepath.Join(r.dir, filepath.FromSlash(dir))}, nil
}

// Close closes the root.
func (r *repoFS) Close() error { return r.root.Close() }

// ReadLink implements fs.ReadLinkFS.
func (r *repoFS) ReadLink(name string) (string, error) { return fs.ReadLink(r.FS, name) }

// Lstat implements fs.ReadLinkFS.
func (r *repoFS) Lstat(name string) (fs.FileInfo, error) { return fs.Lstat(r.FS, name) }

// errFS fails every operation with err.
type errFS struct{ err error }

func (e errFS) Open(string) (fs.File, error) { return nil, e.err }
