// Package repofs reads the files cicheck takes from a repository, which
// may be hostile: only regular files (a named pipe would block the read
// forever, a device would never end), only inside the repository root (a
// symbolic link to /etc/passwd must not be read, let alone printed), and
// never more than a limit per kind of file.
//
// DirFS is an fs.FS with those rules, for the engines that take one;
// ReadFile reads one file of an fs.FS up to a limit; ReadPath reads a file
// named on the command line (trusted to be outside the repository, but not
// to be a regular file); ReadStream bounds a stream such as stdin.
package repofs

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// ErrOutside is the error of a path that is, or passes through, a symbolic
// link leading out of the repository root. Where the link leads is not
// said: that would print a path outside the repository.
var ErrOutside = errors.New("is a symbolic link that leaves the repository; not read")

// ErrNotRegular is the error of a path that is neither a regular file nor
// a directory (a named pipe, a device, a socket).
var ErrNotRegular = errors.New("is not a regular file (a named pipe, device or socket); not read")

// Limits per kind of file. A workflow's own limit lives with the workflow
// loader (workflowgraph.MaxFileSize); these are for the rest.
const (
	// ConfigLimit bounds .cicheck.yaml, .github/actionlint.yaml, a
	// paths-filter file and the other small YAML files cicheck reads.
	ConfigLimit = 1 << 20
	// BaselineLimit bounds a baseline file, which lists findings.
	BaselineLimit = 16 << 20
	// SourceLimit bounds a Python test file or other source text.
	SourceLimit = 4 << 20
	// DiffLimit bounds a list of changed files or a diff read from a file.
	DiffLimit = 64 << 20
	// StreamLimit bounds what a command reads from stdin when it is not a
	// workflow (a comment, a pull request's body).
	StreamLimit = 1 << 20
)

// TooLargeError is a file or stream over its limit.
type TooLargeError struct {
	Name  string // as the caller names it
	Kind  string // "configuration file", "baseline", ...
	Limit int64
}

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("%s: larger than the %s limit for a %s", e.Name, size(e.Limit), e.Kind)
}

func size(n int64) string {
	if n < 1<<10 {
		return fmt.Sprintf("%d bytes", n)
	}
	if n%(1<<20) == 0 {
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%d KiB", n>>10)
}

// FS is a directory tree that yields only what lies inside it.
type FS struct {
	root string
	once sync.Once
	real string // root with its own symbolic links resolved
	err  error
	dirs sync.Map // directory under real → its real path
}

// DirFS is os.DirFS(root) with this package's rules: a name that resolves
// outside root fails with ErrOutside, a name that is not a regular file or
// directory fails with ErrNotRegular, both wrapped in an *fs.PathError.
func DirFS(root string) *FS { return &FS{root: root} }

// resolve is the real path of name and its fs.FileInfo (following links).
func (f *FS) resolve(op, name string) (string, fs.FileInfo, error) {
	if !fs.ValidPath(name) {
		return "", nil, &fs.PathError{Op: op, Path: name, Err: fs.ErrInvalid}
	}
	f.once.Do(func() {
		f.real, f.err = filepath.EvalSymlinks(f.root)
		if f.err == nil {
			f.real, f.err = filepath.Abs(f.real)
		}
	})
	if f.err != nil {
		return "", nil, &fs.PathError{Op: op, Path: name, Err: unwrap(f.err)}
	}
	full := filepath.Join(f.real, filepath.FromSlash(name))
	st, err := os.Lstat(full)
	if err != nil {
		return "", nil, &fs.PathError{Op: op, Path: name, Err: unwrap(err)}
	}
	var real string
	if st.Mode()&fs.ModeSymlink == 0 {
		// Not a link itself: only its directory may lead elsewhere, and
		// the files of one directory share its resolution.
		dir, err := f.realDir(filepath.Dir(full))
		if err != nil {
			return "", nil, &fs.PathError{Op: op, Path: name, Err: unwrap(err)}
		}
		real = filepath.Join(dir, filepath.Base(full))
	} else {
		if real, err = filepath.EvalSymlinks(full); err != nil {
			return "", nil, &fs.PathError{Op: op, Path: name, Err: unwrap(err)}
		}
		if st, err = os.Stat(real); err != nil {
			return "", nil, &fs.PathError{Op: op, Path: name, Err: unwrap(err)}
		}
	}
	if !Within(f.real, real) {
		return "", nil, &fs.PathError{Op: op, Path: name, Err: ErrOutside}
	}
	if !st.Mode().IsRegular() && !st.IsDir() {
		return "", nil, &fs.PathError{Op: op, Path: name, Err: ErrNotRegular}
	}
	return real, st, nil
}

// realDir is dir with its links resolved, once per directory.
func (f *FS) realDir(dir string) (string, error) {
	if dir == f.real {
		return dir, nil
	}
	if r, ok := f.dirs.Load(dir); ok {
		return r.(string), nil
	}
	r, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return "", err
	}
	f.dirs.Store(dir, r)
	return r, nil
}

// Open opens name for reading.
func (f *FS) Open(name string) (fs.File, error) {
	real, st, err := f.resolve("open", name)
	if err != nil {
		return nil, err
	}
	if st.IsDir() {
		d, err := os.Open(real)
		if err != nil {
			return nil, &fs.PathError{Op: "open", Path: name, Err: unwrap(err)}
		}
		return d, nil
	}
	return openRegular(real, name, st)
}

// Stat is fs.Stat without opening the file (opening a pipe blocks).
func (f *FS) Stat(name string) (fs.FileInfo, error) {
	_, st, err := f.resolve("stat", name)
	return st, err
}

// ReadFile makes fs.ReadFile on an FS bounded too, at the largest limit
// of this package; callers that know the kind use ReadFile below.
func (f *FS) ReadFile(name string) ([]byte, error) {
	return ReadFile(f, name, BaselineLimit, "file")
}

// openRegular opens a file that Stat said is regular, without blocking
// (the file may have been replaced by a pipe since), and checks that what
// was opened is that same regular file.
func openRegular(real, name string, st fs.FileInfo) (*os.File, error) {
	fd, err := os.OpenFile(real, os.O_RDONLY|nonblock, 0)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: name, Err: unwrap(err)}
	}
	got, err := fd.Stat()
	if err != nil || !got.Mode().IsRegular() || !os.SameFile(st, got) {
		_ = fd.Close()
		return nil, &fs.PathError{Op: "open", Path: name, Err: ErrNotRegular}
	}
	return fd, nil
}

// Within reports whether path lies in dir (both absolute and clean).
func Within(dir, path string) bool {
	if path == dir {
		return true
	}
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// ReadFile reads name from fsys, at most limit bytes; a larger file is a
// *TooLargeError naming it and kind.
func ReadFile(fsys fs.FS, name string, limit int64, kind string) ([]byte, error) {
	fd, err := fsys.Open(name)
	if err != nil {
		return nil, err
	}
	defer func() { _ = fd.Close() }()
	st, err := fd.Stat()
	if err != nil {
		return nil, err
	}
	if st.IsDir() {
		return nil, &fs.PathError{Op: "read", Path: name, Err: errors.New("is a directory")}
	}
	if st.Size() > limit {
		return nil, &TooLargeError{Name: name, Kind: kind, Limit: limit}
	}
	return readLimited(fd, name, kind, limit)
}

// ReadPath reads a file named by the user (a flag's value), which may lie
// anywhere, but must be a regular file within limit.
func ReadPath(path string, limit int64, kind string) ([]byte, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if st.IsDir() {
		return nil, &fs.PathError{Op: "read", Path: path, Err: errors.New("is a directory")}
	}
	if !st.Mode().IsRegular() {
		return nil, &fs.PathError{Op: "open", Path: path, Err: ErrNotRegular}
	}
	if st.Size() > limit {
		return nil, &TooLargeError{Name: path, Kind: kind, Limit: limit}
	}
	fd, err := openRegular(path, path, st)
	if err != nil {
		return nil, err
	}
	defer func() { _ = fd.Close() }()
	return readLimited(fd, path, kind, limit)
}

// ReadStream reads r to its end, at most limit bytes; more is a
// *TooLargeError naming the stream as name.
func ReadStream(r io.Reader, name string, limit int64, kind string) ([]byte, error) {
	return readLimited(r, name, kind, limit)
}

// readLimited reads one byte past limit, so a file that grew after its
// Stat, or a stream, cannot make the read unbounded.
func readLimited(r io.Reader, name, kind string, limit int64) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > limit {
		return nil, &TooLargeError{Name: name, Kind: kind, Limit: limit}
	}
	return b, nil
}

// unwrap drops an inner *fs.PathError, whose path is the resolved one (it
// may name a place outside the repository).
func unwrap(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
