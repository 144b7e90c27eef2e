//go:build unix

package testregistry

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"unsafe"
)

// DirFS is os.DirFS(dir) with a ReadFile that reads through plain system
// calls. An *os.File registers every file with the runtime's poller and
// sets it non-blocking (ten system calls per file where four do), which was
// a third of the CPU time of scanning thousands of small test files.
func DirFS(dir string) fs.FS { return dirFS{FS: os.DirFS(dir), dir: dir} }

type dirFS struct {
	fs.FS
	dir string
}

// ReadFile implements fs.ReadFileFS.
func (d dirFS) ReadFile(name string) ([]byte, error) {
	var r fileReader
	b, err := r.readInto(d, name, nil)
	if err != nil {
		return nil, err
	}
	return bytes.Clone(b), nil
}

// fileReader is the memory one scan worker reuses from file to file: the
// NUL-terminated path the kernel is given (a Go string would be copied
// into a fresh one for every call) and the buffer files are read into.
type fileReader struct {
	path []byte
	buf  []byte
}

// cpath is name under d's directory as the kernel takes a path,
// NUL-terminated; false if the path holds a NUL of its own.
func (r *fileReader) cpath(d dirFS, name string) ([]byte, bool) {
	r.path = append(r.path[:0], d.dir...)
	if len(r.path) > 0 && r.path[len(r.path)-1] != '/' {
		r.path = append(r.path, '/')
	}
	r.path = append(r.path, filepath.FromSlash(name)...)
	ok := bytes.IndexByte(r.path, 0) < 0
	r.path = append(r.path, 0)
	return r.path, ok
}

// readInto reads name into buf (reused across calls: a fresh 16 KiB buffer
// per file was most of the page faults of a 2,000-file scan) and returns
// the filled slice, which aliases buf's storage when it fits.
func (r *fileReader) readInto(d dirFS, name string, buf []byte) ([]byte, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "readfile", Path: name, Err: fs.ErrInvalid}
	}
	p, ok := r.cpath(d, name)
	if !ok {
		return nil, &fs.PathError{Op: "readfile", Path: name, Err: fs.ErrInvalid}
	}
	fd, err := openPath(p, syscall.O_RDONLY|syscall.O_CLOEXEC)
	if err != nil {
		return nil, &fs.PathError{Op: "readfile", Path: name, Err: err}
	}
	defer closeFile(fd)
	buf = buf[:0]
	if cap(buf) == 0 {
		buf = make([]byte, 0, 16<<10)
	}
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := readFile(fd, buf[len(buf):cap(buf)])
		switch {
		case errors.Is(err, syscall.EINTR):
			continue
		case err != nil:
			return nil, &fs.PathError{Op: "readfile", Path: name, Err: err}
		case n == 0:
			return buf, nil
		}
		buf = buf[:len(buf)+n]
	}
}

// readString reads a file as a string. From a dirFS the file is read into
// r.buf, which the next read overwrites: the string is valid until then,
// and what outlives the file must be copied out of it (fileResult.detach).
// Reading every file into fresh memory instead cost a page fault per 4 KiB
// of source, on a virtual machine the dearest part of reading it.
func readString(fsys fs.FS, name string, r *fileReader) (string, error) {
	d, ok := fsys.(dirFS)
	if !ok {
		b, err := fs.ReadFile(fsys, name)
		return string(b), err
	}
	b, err := r.readInto(d, name, r.buf)
	if err != nil || len(b) == 0 {
		return "", err
	}
	r.buf = b[:0] // keep the larger array when the file outgrew it
	return unsafe.String(&b[0], len(b)), nil
}

// ReadLink implements fs.ReadLinkFS, keeping os.DirFS's symlink support.
func (d dirFS) ReadLink(name string) (string, error) { return fs.ReadLink(d.FS, name) }

// Lstat implements fs.ReadLinkFS.
func (d dirFS) Lstat(name string) (fs.FileInfo, error) { return fs.Lstat(d.FS, name) }
