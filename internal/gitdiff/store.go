package gitdiff

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os/exec"
	"path"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Store reads objects through one `git cat-file --batch` process: commits
// resolved from revisions, trees and files at any commit, each a request
// on the same pipe. Requests name objects by revision or hex id only, so no
// path ever travels through the line-based protocol. A Store is not safe
// for concurrent use.
type Store struct {
	cmd    *exec.Cmd
	in     io.WriteCloser
	out    *bufio.Reader
	stderr bytes.Buffer
	trees  map[string][]entry
	dead   error
	// limit is the largest object kept in memory (maxObjectSize).
	limit int
}

// OpenStore starts git cat-file --batch in dir.
func OpenStore(dir string) (*Store, error) {
	s := &Store{trees: map[string][]entry{}, limit: maxObjectSize}
	s.cmd = exec.Command("git", "cat-file", "--batch")
	s.cmd.Dir = dir
	s.cmd.Stderr = &s.stderr
	var err error
	if s.in, err = s.cmd.StdinPipe(); err != nil {
		return nil, err
	}
	stdout, err := s.cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	s.out = bufio.NewReaderSize(stdout, 64*1024)
	if err := s.cmd.Start(); err != nil {
		return nil, fmt.Errorf("git cat-file --batch: %w", err)
	}
	return s, nil
}

// Close ends the process.
func (s *Store) Close() error {
	if s.cmd == nil {
		return nil
	}
	_ = s.in.Close() // the process ends on EOF; Wait reports how
	err := s.cmd.Wait()
	s.cmd = nil
	return err
}

// object asks for name and returns its id, type and content.
func (s *Store) object(name string) (id, typ string, data []byte, err error) {
	if s.dead != nil {
		return "", "", nil, s.dead
	}
	if strings.ContainsAny(name, "\n\x00") {
		return "", "", nil, fmt.Errorf("invalid revision %q", name)
	}
	if _, err := io.WriteString(s.in, name+"\n"); err != nil {
		return "", "", nil, s.fail(err)
	}
	hdr, err := s.out.ReadString('\n')
	if err != nil {
		return "", "", nil, s.fail(err)
	}
	f := strings.Fields(hdr)
	switch {
	case len(f) == 2 && (f[1] == "missing" || f[1] == "ambiguous"):
		return "", f[1], nil, nil
	case len(f) != 3:
		return "", "", nil, s.fail(fmt.Errorf("unexpected reply %q", hdr))
	}
	n, err := strconv.Atoi(f[2])
	if err != nil || n < 0 {
		return "", "", nil, s.fail(fmt.Errorf("unexpected reply %q", hdr))
	}
	if n > s.limit {
		// A pull request's head may hold any blob: it is drained from the
		// pipe (the protocol stays in step) without being kept.
		if _, err := io.CopyN(io.Discard, s.out, int64(n)+1); err != nil {
			return "", "", nil, s.fail(err)
		}
		return f[0], f[1], nil, &objectTooLarge{size: n, limit: s.limit}
	}
	data = make([]byte, n+1) // the content and its newline
	if _, err := io.ReadFull(s.out, data); err != nil {
		return "", "", nil, s.fail(err)
	}
	return f[0], f[1], data[:n], nil
}

// maxObjectSize bounds a git object cicheck keeps in memory: a commit, a
// tree, or a workflow, config or test file, all far smaller (cicheck's own
// limit for a workflow is a few MiB).
const maxObjectSize = 64 << 20

// objectTooLarge is an object over maxObjectSize, with its size.
type objectTooLarge struct{ size, limit int }

func (e *objectTooLarge) Error() string {
	return fmt.Sprintf("a git object of %d bytes, larger than the %d bytes cicheck reads", e.size, e.limit)
}

// fail turns a broken pipe into git's own complaint (not a git
// repository, say), and remembers it: the protocol cannot resync.
func (s *Store) fail(err error) error {
	if s.cmd != nil {
		_ = s.in.Close() // it may already be gone
		done := make(chan struct{})
		go func() { s.cmd.Wait(); close(done) }() //nolint:errcheck // its stderr says why
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			s.cmd.Process.Kill() //nolint:errcheck // best effort
			<-done
		}
		s.cmd = nil
	}
	s.dead = fmt.Errorf("git cat-file --batch: %s", firstLine(s.stderr.String(), err))
	return s.dead
}

// Commit resolves rev to a commit id. A revision that names nothing, or
// nothing unambiguous, is an error naming it.
func (s *Store) Commit(rev string) (string, error) {
	if rev == "" || strings.HasPrefix(rev, "-") || strings.ContainsAny(rev, "\n\x00") {
		return "", fmt.Errorf("invalid revision %q", rev)
	}
	id, typ, _, err := s.object(rev + "^{commit}")
	switch {
	case err != nil:
		return "", err
	case typ == "missing":
		return "", fmt.Errorf("%s: unknown revision (not a commit in this repository)", rev)
	case typ == "ambiguous":
		return "", fmt.Errorf("%s: ambiguous revision", rev)
	case typ != "commit":
		return "", fmt.Errorf("%s: not a commit", rev)
	}
	return id, nil
}

// FS returns the tree of a commit (an id from Commit) as a file system.
// Files are read on demand.
func (s *Store) FS(commit string) (fs.FS, error) {
	_, typ, data, err := s.object(commit)
	if err != nil {
		return nil, err
	}
	if typ != "commit" {
		return nil, fmt.Errorf("%s: not a commit", commit)
	}
	line, _, _ := strings.Cut(string(data), "\n")
	tree, ok := strings.CutPrefix(line, "tree ")
	if !ok || !isHex(tree) {
		return nil, fmt.Errorf("%s: commit without a tree", commit)
	}
	return &treeFS{s: s, root: tree}, nil
}

// entry is one tree entry.
type entry struct {
	name, id string
	mode     fs.FileMode
}

func (s *Store) tree(id string) ([]entry, error) {
	if es, ok := s.trees[id]; ok {
		return es, nil
	}
	_, typ, data, err := s.object(id)
	if err != nil {
		return nil, err
	}
	if typ != "tree" {
		return nil, fmt.Errorf("%s: not a tree", id)
	}
	es, err := parseTree(data, len(id)/2)
	if err != nil {
		return nil, err
	}
	s.trees[id] = es
	return es, nil
}

// parseTree reads a raw tree object: "MODE NAME\0" and the entry's binary
// object id (idLen bytes), repeated.
func parseTree(b []byte, idLen int) ([]entry, error) {
	var out []entry
	for len(b) > 0 {
		sp := bytes.IndexByte(b, ' ')
		nul := bytes.IndexByte(b, 0)
		if sp < 0 || nul < sp || nul+1+idLen > len(b) {
			return nil, errors.New("corrupt tree object")
		}
		m, err := strconv.ParseUint(string(b[:sp]), 8, 32)
		if err != nil {
			return nil, errors.New("corrupt tree object")
		}
		e := entry{name: string(b[sp+1 : nul]), id: fmt.Sprintf("%x", b[nul+1:nul+1+idLen])}
		switch m & 0o170000 {
		case 0o040000:
			e.mode = fs.ModeDir | 0o755
		case 0o120000:
			e.mode = fs.ModeSymlink | 0o777
		case 0o160000: // a submodule: its content is not in this repository
			e.mode = fs.ModeIrregular
		default:
			e.mode = fs.FileMode(m & 0o777)
		}
		out = append(out, e)
		b = b[nul+1+idLen:]
	}
	return out, nil
}

// treeFS is one commit's tree.
type treeFS struct {
	s    *Store
	root string
}

func (t *treeFS) Open(name string) (fs.File, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrInvalid}
	}
	e := entry{name: ".", id: t.root, mode: fs.ModeDir | 0o755}
	if name != "." {
		for _, part := range strings.Split(name, "/") {
			if !e.mode.IsDir() {
				return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
			}
			es, err := t.s.tree(e.id)
			if err != nil {
				return nil, &fs.PathError{Op: "open", Path: name, Err: err}
			}
			i := slices.IndexFunc(es, func(x entry) bool { return x.name == part })
			if i < 0 {
				return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
			}
			e = es[i]
		}
	}
	info := fileInfo{name: path.Base(name), mode: e.mode}
	switch {
	case e.mode.IsDir():
		es, err := t.s.tree(e.id)
		if err != nil {
			return nil, &fs.PathError{Op: "open", Path: name, Err: err}
		}
		return &dir{s: t.s, info: info, entries: es}, nil
	case e.mode&fs.ModeIrregular != 0:
		return &file{info: info}, nil
	}
	_, typ, data, err := t.s.object(e.id)
	var big *objectTooLarge
	if errors.As(err, &big) && typ == "blob" {
		// Its size, for the reader's own limit (a workflow over it is a
		// finding); reading it fails.
		info.size = int64(big.size)
		return &file{info: info}, nil
	}
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: name, Err: err}
	}
	if typ != "blob" {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fmt.Errorf("%s: not a blob", e.id)}
	}
	info.size = int64(len(data))
	return &file{info: info, r: bytes.NewReader(data)}, nil
}

type fileInfo struct {
	name string
	size int64
	mode fs.FileMode
}

func (i fileInfo) Name() string       { return i.name }
func (i fileInfo) Size() int64        { return i.size }
func (i fileInfo) Mode() fs.FileMode  { return i.mode }
func (i fileInfo) ModTime() time.Time { return time.Time{} }
func (i fileInfo) IsDir() bool        { return i.mode.IsDir() }
func (i fileInfo) Sys() any           { return nil }

type file struct {
	info fileInfo
	r    *bytes.Reader
}

func (f *file) Stat() (fs.FileInfo, error) { return f.info, nil }
func (f *file) Close() error               { return nil }
func (f *file) Read(p []byte) (int, error) {
	if f.r == nil {
		return 0, &fs.PathError{Op: "read", Path: f.info.name, Err: fs.ErrInvalid}
	}
	return f.r.Read(p)
}

type dir struct {
	s       *Store
	info    fileInfo
	entries []entry
	off     int
}

func (d *dir) Stat() (fs.FileInfo, error) { return d.info, nil }
func (d *dir) Close() error               { return nil }
func (d *dir) Read([]byte) (int, error) {
	return 0, &fs.PathError{Op: "read", Path: d.info.name, Err: fs.ErrInvalid}
}

func (d *dir) ReadDir(n int) ([]fs.DirEntry, error) {
	rest := d.entries[d.off:]
	if n > 0 && len(rest) == 0 {
		return nil, io.EOF
	}
	if n > 0 && n < len(rest) {
		rest = rest[:n]
	}
	d.off += len(rest)
	out := make([]fs.DirEntry, len(rest))
	for i, e := range rest {
		out[i] = dirEntry{d.s, e}
	}
	return out, nil
}

// dirEntry reads a file's size only when asked (Info), as os.DirFS's
// entries stat lazily.
type dirEntry struct {
	s *Store
	e entry
}

func (d dirEntry) Name() string      { return d.e.name }
func (d dirEntry) IsDir() bool       { return d.e.mode.IsDir() }
func (d dirEntry) Type() fs.FileMode { return d.e.mode.Type() }
func (d dirEntry) Info() (fs.FileInfo, error) {
	info := fileInfo{name: d.e.name, mode: d.e.mode}
	if d.e.mode.Type() == 0 || d.e.mode.Type() == fs.ModeSymlink {
		_, _, data, err := d.s.object(d.e.id)
		if err != nil {
			return nil, err
		}
		info.size = int64(len(data))
	}
	return info, nil
}

// DefaultBranches are tried in order for the default branch when none is
// named: the remote's HEAD, then the two usual local names.
func DefaultBranches() []string { return []string{"origin/HEAD", "main", "master"} }

// DefaultBranch returns the first of DefaultBranches() that resolves to a
// commit, with its id.
func (s *Store) DefaultBranch() (name, id string, err error) {
	for _, b := range DefaultBranches() {
		if id, err := s.Commit(b); err == nil {
			return b, id, nil
		} else if s.dead != nil {
			return "", "", err
		}
	}
	return "", "", fmt.Errorf("no default branch (none of %s exists)", strings.Join(DefaultBranches(), ", "))
}
