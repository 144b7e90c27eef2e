package lint

import (
	"errors"
	"os"
	"path/filepath"
)

// RepoRoot returns the git top level above dir (the nearest directory with
// a .git entry), else dir itself.
func RepoRoot(dir string) string {
	for d := dir; ; {
		if _, err := os.Stat(filepath.Join(d, ".git")); err == nil {
			return d
		}
		parent := filepath.Dir(d)
		if parent == d {
			return dir
		}
		d = parent
	}
}

// Relabel rewrites the file name at the start of an engine error.
func Relabel(err error, from, to string) error {
	msg := err.Error()
	if len(msg) >= len(from) && msg[:len(from)] == from {
		return errors.New(to + msg[len(from):])
	}
	return err
}

// Display makes p relative to wd when it lies below it.
func Display(wd, p string) string {
	if r, err := filepath.Rel(wd, p); err == nil && r != ".." && !startsWithDotDot(r) {
		return filepath.ToSlash(r)
	}
	return filepath.ToSlash(p)
}

func startsWithDotDot(r string) bool {
	return len(r) >= 3 && r[:3] == ".."+string(filepath.Separator)
}
