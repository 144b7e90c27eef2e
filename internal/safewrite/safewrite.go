// Package safewrite replaces a file's content so that no failure can
// leave it half-written: the new text goes to a temporary file in the same
// directory, which is synced and then renamed over the original, keeping
// its mode (and, where the system allows, its owner). Replace also refuses
// what a linter's --fix must never do: write through a symlink that leaves
// the repository, write a read-only file (even as root), or overwrite an
// edit made after the file was read.
package safewrite

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Refusal is a write that was deliberately not made; the file is as it was.
type Refusal struct{ Reason string }

func (r *Refusal) Error() string { return r.Reason }

// IsRefusal reports whether err is a Refusal.
func IsRefusal(err error) bool {
	var r *Refusal
	return errors.As(err, &r)
}

// Replace writes data over path when the file still holds old (compared
// by content hash) and path, symlinks resolved, is a regular, writable file
// inside root. maxSize bounds the re-read of the current content.
func Replace(root, path string, old, data []byte, maxSize int64) error {
	real, err := inside(root, path)
	if err != nil {
		return err
	}
	st, err := os.Stat(real)
	if err != nil {
		return err
	}
	if !st.Mode().IsRegular() {
		return &Refusal{"not a regular file"}
	}
	if st.Mode().Perm()&0o222 == 0 {
		return &Refusal{"the file is read-only"}
	}
	if links(st) > 1 {
		return &Refusal{"the file has other hard links, which a replacement would cut"}
	}
	if err := unchanged(real, old, maxSize); err != nil {
		return err
	}
	return atomic(real, data, st, func() error { return unchanged(real, old, maxSize) })
}

// Write writes data to path atomically (a new file gets mode 0644).
func Write(path string, data []byte) error {
	st, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		st = nil
	} else if err != nil {
		return err
	}
	return atomic(path, data, st, nil)
}

// inside resolves path's symlinks and checks that the file stays within
// root (also resolved).
func inside(root, path string) (string, error) {
	r, err := filepath.EvalSymlinks(root)
	if err != nil {
		return "", err
	}
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return "", err
	}
	rel, err := filepath.Rel(r, real)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		return "", &Refusal{"the file is a symlink to a file outside the repository"}
	}
	return real, nil
}

// unchanged checks that path still holds old.
func unchanged(path string, old []byte, maxSize int64) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer func() { _ = f.Close() }()
	cur, err := io.ReadAll(io.LimitReader(f, maxSize+1))
	if err != nil {
		return err
	}
	if sha256.Sum256(cur) != sha256.Sum256(old) {
		return &Refusal{"the file changed since cicheck read it; run the fix again"}
	}
	return nil
}

// atomic writes data to a temporary file beside path and renames it over
// path; check, when set, runs just before the rename. On any failure the
// temporary file is removed and path is untouched.
func atomic(path string, data []byte, st fs.FileInfo, check func() error) (err error) {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	tmp, err := os.CreateTemp(dir, "."+base+".cicheck-*.tmp")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			_ = tmp.Close()
			_ = os.Remove(tmp.Name())
		}
	}()
	n, err := tmp.Write(data)
	if err == nil && n != len(data) {
		err = io.ErrShortWrite
	}
	if err != nil {
		return fmt.Errorf("writing a temporary copy: %w", err)
	}
	if err = tmp.Sync(); err != nil {
		return err
	}
	mode := fs.FileMode(0o644)
	if st != nil {
		mode = st.Mode().Perm()
	}
	if err = tmp.Chmod(mode); err != nil {
		return err
	}
	if st != nil {
		keepOwner(tmp, st)
	}
	if err = tmp.Close(); err != nil {
		return err
	}
	if check != nil {
		if err = check(); err != nil {
			return err
		}
	}
	if err = os.Rename(tmp.Name(), path); err != nil {
		return err
	}
	return nil
}
