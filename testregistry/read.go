package testregistry

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"path/filepath"
	"strings"

	"github.com/cicheck/cicheck/finding"
	"github.com/cicheck/cicheck/workflowgraph"
)

// Size limits per kind of file the registry reads. Generous for real
// repositories (the reference's largest test file is 25 KiB, its labels
// file 2 KiB), small enough that a hostile file cannot exhaust memory.
const (
	MaxTestFileSize   = 4 << 20  // a Python test file
	MaxModuleFileSize = 16 << 20 // the labels and suites modules (a 300,000-key KNOWN_LABELS is 10 MiB)
	MaxPolicyFileSize = 4 << 20  // the comment-command access policy (JSON)
)

// fileKind names a kind of file and its size limit.
type fileKind struct {
	what  string
	limit int64
}

var (
	kindTest     = fileKind{"test file", MaxTestFileSize}
	kindModule   = fileKind{"Python module", MaxModuleFileSize}
	kindPolicy   = fileKind{"access policy", MaxPolicyFileSize}
	kindWorkflow = fileKind{"workflow", workflowgraph.MaxFileSize}
)

// typeUnknown is the type of a file not yet looked at.
const typeUnknown = ^fs.FileMode(0)

// UnreadableError is a file the registry refuses to read: a symlink that
// leads outside the repository, something other than a regular file, or
// a file over its kind's size limit. It is a finding (reg-unreadable),
// never a reason to stop the scan.
type UnreadableError struct {
	File string
	Why  string
}

func (e *UnreadableError) Error() string { return e.File + ": " + e.Why }

// errOutside: a symlink leads outside the file system's root.
var errOutside = errors.New("leads outside the repository")

// readBounded reads name from fsys into buf (reused; the result may alias
// it) if it is a regular file inside the repository of at most k.limit
// bytes, else returns an *UnreadableError. typ is the file's type as its
// directory listed it (an lstat), or typeUnknown. The type is checked
// before opening, so a FIFO or device is never opened by name; the open
// is non-blocking and the open file is checked again (fstat), so one
// swapped in meanwhile is not read either.
func readBounded(fsys fs.FS, name string, k fileKind, typ fs.FileMode, buf []byte) ([]byte, error) {
	if typ == typeUnknown {
		st, err := fs.Lstat(fsys, name)
		if err != nil {
			return nil, err
		}
		typ = st.Mode().Type()
	}
	if typ&fs.ModeSymlink != 0 {
		if _, err := resolve(fsys, name); err != nil {
			if errors.Is(err, errOutside) {
				return nil, &UnreadableError{name, "is a symlink leading outside the repository; not read"}
			}
			return nil, err
		}
		st, err := fs.Stat(fsys, name)
		if err != nil {
			return nil, err
		}
		typ = st.Mode().Type()
	}
	if !typ.IsRegular() {
		return nil, &UnreadableError{name, "is " + describeType(typ) + ", not a regular file; not read"}
	}
	f, err := fsys.Open(name)
	if err != nil {
		return nil, err
	}
	defer func() { _ = f.Close() }() // read only: a close error loses nothing
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, &UnreadableError{name, "is " + describeType(st.Mode().Type()) + ", not a regular file; not read"}
	}
	if st.Size() > k.limit {
		return nil, tooLarge(name, k)
	}
	// The size fstat gave is what is read, with no second read to see
	// the end (one system call in five per file); a file of size 0 (some
	// file systems report no size) is read to its end. Either way at most
	// one byte past the limit is read, so a file that grows meanwhile
	// stays bounded.
	size := int(st.Size())
	if want := size + 1; cap(buf) < want {
		buf = make([]byte, 0, max(want, 16<<10))
	}
	buf = buf[:0]
	r := io.LimitReader(f, k.limit+1)
	for size == 0 || len(buf) < size {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := r.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
	}
	if int64(len(buf)) > k.limit {
		return nil, tooLarge(name, k)
	}
	return buf, nil
}

func tooLarge(name string, k fileKind) error {
	return &UnreadableError{name, fmt.Sprintf("is larger than the %d MiB limit for a %s; not read", k.limit>>20, k.what)}
}

// describeType names a non-regular file type for a message.
func describeType(t fs.FileMode) string {
	switch {
	case t.IsDir():
		return "a directory"
	case t&fs.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case t&fs.ModeSocket != 0:
		return "a socket"
	case t&fs.ModeCharDevice != 0:
		return "a character device"
	case t&fs.ModeDevice != 0:
		return "a device"
	case t&fs.ModeSymlink != 0:
		return "a symlink"
	}
	return "a special file"
}

// maxLinkHops bounds the symlinks one resolution follows (a loop ends
// there), as the kernel's ELOOP does.
const maxLinkHops = 40

// resolve is name with every symlink on its way resolved, component by
// component through fsys; errOutside if one leads outside fsys's root
// (an absolute target, or more ".." than there are directories above).
// The caller then opens name through an os.Root, which enforces the same
// boundary; resolving first tells a finding "outside the repository" from
// a file that is merely missing.
func resolve(fsys fs.FS, name string) (string, error) { return resolveIn(fsys, name, nil) }

// resolveIn is resolve remembering in dirs (when not nil) the directories
// found not to be symlinks, so that many symlinks in one directory do not
// each look at every directory above it again.
func resolveIn(fsys fs.FS, name string, dirs map[string]bool) (string, error) {
	todo := strings.Split(name, "/")
	var done []string
	hops := 0
	for len(todo) > 0 {
		part := todo[0]
		todo = todo[1:]
		switch part {
		case "", ".":
			continue
		case "..":
			if len(done) == 0 {
				return "", errOutside
			}
			done = done[:len(done)-1]
			continue
		}
		cur := path.Join(path.Join(done...), part)
		if dirs[cur] && len(todo) > 0 {
			done = append(done, part)
			continue
		}
		st, err := fs.Lstat(fsys, cur)
		if err != nil {
			return "", err
		}
		if st.Mode()&fs.ModeSymlink == 0 {
			if dirs != nil && st.IsDir() {
				dirs[cur] = true
			}
			done = append(done, part)
			continue
		}
		if hops++; hops > maxLinkHops {
			return "", &fs.PathError{Op: "resolve", Path: name, Err: errors.New("too many levels of symbolic links")}
		}
		target, err := fs.ReadLink(fsys, cur)
		if err != nil {
			return "", err
		}
		if target == "" || filepath.IsAbs(target) || strings.HasPrefix(target, "/") || filepath.VolumeName(target) != "" {
			return "", errOutside
		}
		todo = append(strings.Split(filepath.ToSlash(target), "/"), todo...)
	}
	if len(done) == 0 {
		return ".", nil
	}
	return path.Join(done...), nil
}

// ReadSource is a file's content for a report's source excerpts, read
// with the same checks and limits as the scan (by its name: a .py file
// as a Python module, .json as a policy, anything else as a workflow);
// nil for a file the scan would not read.
func ReadSource(fsys fs.FS, name string) []byte {
	k := kindWorkflow
	switch {
	case strings.HasSuffix(name, ".py"):
		k = kindModule
	case strings.HasSuffix(name, ".json"):
		k = kindPolicy
	}
	b, err := readBounded(fsys, name, k, typeUnknown, nil)
	if err != nil {
		return nil
	}
	return b
}

// unreadableFinding is the reg-unreadable finding for a file not read.
// Nothing of the file's content is in it.
func unreadableFinding(e *UnreadableError) finding.Finding {
	return newFinding(RuleUnreadable, e.File, 1, 1, e.File+" "+e.Why)
}

// batchSize bounds a batch, so that the files of one large directory are
// still shared among the workers.
const batchSize = 16

// batch is found[lo:hi]: regular files of one directory, or one symlink.
type batch struct{ lo, hi int }

// batchFiles cuts the discovered files (sorted: a directory's files are
// mostly adjacent) into batches.
func batchFiles(found []foundFile) []batch {
	var out []batch
	for i := 0; i < len(found); {
		j := i + 1
		if found[i].typ.IsRegular() {
			dir := path.Dir(found[i].path)
			for j < len(found) && j-i < batchSize && found[j].typ.IsRegular() && path.Dir(found[j].path) == dir {
				j++
			}
		}
		out = append(out, batch{i, j})
		i = j
	}
	return out
}

// openBatch is the file system a batch's files are read through: their
// directory's own when fsys can open one (fs.SubFS; base is then the
// directory, cut from the names), else fsys. A symlink is read through
// fsys, from the root: its target may lie in another directory.
func openBatch(fsys fs.FS, found []foundFile, b batch) (dir fs.FS, base string, closeDir func()) {
	if !found[b.lo].typ.IsRegular() {
		return fsys, "", func() {}
	}
	sfs, ok := fsys.(fs.SubFS)
	if !ok {
		return fsys, "", func() {}
	}
	base = path.Dir(found[b.lo].path)
	if base == "." {
		return fsys, "", func() {}
	}
	sub, err := sfs.Sub(base)
	if err != nil {
		return fsys, "", func() {} // each file's own read reports it
	}
	if c, ok := sub.(io.Closer); ok {
		return sub, base, func() { _ = c.Close() }
	}
	return sub, base, func() {}
}

// InternalError is a failure of cicheck itself during a scan (a panic in
// a scan worker, where the command's own recovery cannot see it), not a
// problem of the repository: the command ends with exit 3.
type InternalError struct{ Msg string }

func (e *InternalError) Error() string { return "internal error: " + e.Msg + " (please report this)" }

// recoverInto turns a panic of a scan worker into an InternalError naming
// files[*cur] in errs, so the scan ends with an error instead of the
// process with a stack trace. Deferred by each worker.
func recoverInto(errs []error, files []string, cur *int) {
	if r := recover(); r != nil {
		errs[*cur] = &InternalError{fmt.Sprintf("scanning %s: %v", files[*cur], r)}
	}
}
