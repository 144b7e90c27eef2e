// Package gitdiff is the one place cicheck runs git and reads what it
// prints: name-status change lists (with -z, or as a user saved them), a
// history's commits with their changes from one git log, the files of a
// tree at any commit through one cat-file --batch (Store), and the staged
// paths.
package gitdiff

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os/exec"
	"strconv"
	"strings"
	"testing/fstest"

	"github.com/cicheck/cicheck/pathsfilter"
)

// ParseList reads one path per line, or git's --name-status lines.
// A rename or copy line (only when renames were not disabled) becomes the
// deletion of the old path and the addition of the new one, as the action
// sees it.
func ParseList(r io.Reader, name string, nameStatus bool) ([]pathsfilter.ChangedFile, error) {
	var out []pathsfilter.ChangedFile
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	line := 0
	for sc.Scan() {
		line++
		t := strings.TrimRight(sc.Text(), "\r")
		if strings.TrimSpace(t) == "" {
			continue
		}
		if !nameStatus {
			if p := strings.TrimPrefix(unquote(t), "./"); strings.TrimSpace(p) != "" {
				out = append(out, pathsfilter.ChangedFile{Path: p})
			}
			continue
		}
		fields := strings.Split(t, "\t")
		if len(fields) == 1 {
			fields = strings.Fields(t)
		}
		for i := 1; i < len(fields); i++ {
			fields[i] = unquote(fields[i])
		}
		if len(fields) < 2 {
			return nil, fmt.Errorf("%s:%d:1: expected STATUS<TAB>PATH, got %q", name, line, t)
		}
		st, ok := pathsfilter.StatusFromGit(fields[0])
		if !ok {
			return nil, fmt.Errorf("%s:%d:1: unknown status %q (valid: A C D M R T U)", name, line, fields[0])
		}
		switch {
		case (fields[0][0] == 'R' || fields[0][0] == 'C') && len(fields) >= 3:
			if fields[0][0] == 'R' {
				out = append(out, pathsfilter.ChangedFile{Path: fields[1], Status: pathsfilter.StatusDeleted})
			}
			out = append(out, pathsfilter.ChangedFile{Path: fields[2], Status: pathsfilter.StatusAdded})
		default:
			out = append(out, pathsfilter.ChangedFile{Path: fields[1], Status: st})
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return out, nil
}

// unquote undoes git's C-style quoting of an unusual path
// ("docs/\303\251t\303\251.md"), as git diff prints it without -z; other
// text is returned as is.
func unquote(p string) string {
	if len(p) >= 2 && p[0] == '"' && p[len(p)-1] == '"' {
		if u, err := strconv.Unquote(p); err == nil {
			return u
		}
	}
	return p
}

// ParseNameStatusZ reads `git diff --name-status -z`: a status, then
// its path (two paths for a rename or copy), each NUL-terminated, with no
// quoting.
func ParseNameStatusZ(b []byte) ([]pathsfilter.ChangedFile, error) {
	fields := strings.Split(strings.TrimSuffix(string(b), "\x00"), "\x00")
	if len(fields) == 1 && fields[0] == "" {
		return nil, nil
	}
	var out []pathsfilter.ChangedFile
	for i := 0; i < len(fields); {
		code := fields[i]
		st, ok := pathsfilter.StatusFromGit(code)
		if !ok || code == "" {
			return nil, fmt.Errorf("git diff: unknown status %q", code)
		}
		n := 1
		if code[0] == 'R' || code[0] == 'C' {
			n = 2
		}
		if i+n >= len(fields) {
			return nil, fmt.Errorf("git diff: status %q without its path", code)
		}
		if n == 2 {
			if code[0] == 'R' {
				out = append(out, pathsfilter.ChangedFile{Path: fields[i+1], Status: pathsfilter.StatusDeleted})
			}
			out = append(out, pathsfilter.ChangedFile{Path: fields[i+2], Status: pathsfilter.StatusAdded})
		} else {
			out = append(out, pathsfilter.ChangedFile{Path: fields[i+1], Status: st})
		}
		i += n + 1
	}
	return out, nil
}

// Git runs git in dir; its error names the command and git's message.
// What git prints is bounded: output past maxOutput fails the command
// (git gets a broken pipe), and only the start of its complaint is kept.
func Git(dir string, args ...string) ([]byte, error) {
	return git(dir, maxOutput, args...)
}

// maxOutput bounds what one git command may print: a name-status list
// or a log of a few hundred commits is far smaller.
const maxOutput = 256 << 20

func git(dir string, limit int, args ...string) ([]byte, error) {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	stdout, stderr := &capped{max: limit, fail: true}, &capped{max: 64 << 10}
	cmd.Stdout, cmd.Stderr = stdout, stderr
	err := cmd.Run()
	switch {
	case stdout.over:
		return nil, &Error{Cmd: "git " + strings.Join(args, " "), Msg: fmt.Sprintf("printed more than the %d bytes cicheck reads", limit)}
	case err != nil:
		return nil, &Error{Cmd: "git " + strings.Join(args, " "), Msg: firstLine(stderr.String(), err)}
	}
	return stdout.Bytes(), nil
}

// capped is a buffer of at most max bytes: past it, a write fails (fail)
// or is dropped. The buffer is a field, not embedded: an embedded
// bytes.Buffer's ReadFrom would let io.Copy bypass Write.
type capped struct {
	buf  bytes.Buffer
	max  int
	fail bool
	over bool
}

func (c *capped) Write(p []byte) (int, error) {
	if room := c.max - c.buf.Len(); len(p) > room {
		c.over = true
		if c.fail {
			return 0, errors.New("output over its limit")
		}
		c.buf.Write(p[:max(room, 0)])
		return len(p), nil
	}
	return c.buf.Write(p)
}

func (c *capped) Bytes() []byte  { return c.buf.Bytes() }
func (c *capped) String() string { return c.buf.String() }

// Error is a failed git command and the first line of its complaint.
type Error struct{ Cmd, Msg string }

func (e *Error) Error() string { return e.Cmd + ": " + e.Msg }

// Tree reads the files under dir (".github") at ref, with two git
// processes whatever their number: ls-tree for the names, then one
// cat-file --batch (a Store) for the contents.
func Tree(root, ref, dir string) (fs.FS, error) {
	out, err := Git(root, "ls-tree", "-r", "-z", "--full-tree", ref, "--", dir)
	if err != nil {
		return nil, err
	}
	var names, objects []string
	for _, rec := range strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00") {
		// <mode> SP <type> SP <object> TAB <path>
		meta, p, ok := strings.Cut(rec, "\t")
		f := strings.Fields(meta)
		if !ok || len(f) != 3 || f[1] != "blob" {
			continue // a submodule, or nothing
		}
		names, objects = append(names, p), append(objects, f[2])
	}
	m := fstest.MapFS{}
	if len(names) == 0 {
		return m, nil
	}
	// The contents through the same cat-file --batch reader replay uses.
	st, err := OpenStore(root)
	if err != nil {
		return nil, err
	}
	defer st.Close() //nolint:errcheck // read-only
	for i, p := range names {
		_, typ, data, err := st.object(objects[i])
		if err != nil {
			return nil, err
		}
		if typ != "blob" {
			return nil, fmt.Errorf("git cat-file --batch: %s: %s", p, typ)
		}
		m[p] = &fstest.MapFile{Data: data}
	}
	return m, nil
}

// Changes is what a pull request from base to head changed: the files of
// `git diff base...head` (renames as a deletion and an addition) and the
// merge base. When the clone lacks a commit or the merge base (a shallow
// checkout), the error says so and what to do, in one line, rather than
// git's "Invalid symmetric difference expression".
func Changes(root, base, head string) ([]pathsfilter.ChangedFile, string, error) {
	shallow := func() string {
		if out, err := Git(root, "rev-parse", "--is-shallow-repository"); err == nil && strings.TrimSpace(string(out)) == "true" {
			return "this clone is shallow: fetch the history (actions/checkout with fetch-depth: 0) or pass the changed files with --files"
		}
		return "fetch it, or pass the changed files with --files"
	}
	for _, ref := range []string{base, head} {
		if _, err := Git(root, "rev-parse", "--verify", "--quiet", "--end-of-options", ref+"^{commit}"); err != nil {
			return nil, "", fmt.Errorf("%s is not a commit of this clone; %s", ref, shallow())
		}
	}
	mb, err := Git(root, "merge-base", "--end-of-options", base, head)
	if err != nil {
		return nil, "", fmt.Errorf("%s and %s have no merge base in this clone; %s", base, head, shallow())
	}
	mergeBase := strings.TrimSpace(string(mb))
	// -z: without it git quotes unusual paths ("docs/\303\251t\303\251.md").
	out, err := Git(root, "diff", "--no-renames", "--name-status", "-z", mergeBase, head, "--")
	if err != nil {
		return nil, "", err
	}
	changed, err := ParseNameStatusZ(out)
	return changed, mergeBase, err
}

// Show returns the file at ref:path; an error when it does not exist there.
func Show(root, ref, path string) ([]byte, error) { return Git(root, "show", ref+":"+path) }

// Staged lists the paths staged in the git repository at root (added,
// copied, modified, renamed or deleted).
func Staged(root string) ([]string, error) {
	if _, err := Git(root, "rev-parse", "--git-dir"); err != nil {
		return nil, fmt.Errorf("%s is not in a git repository", root)
	}
	out, err := Git(root, "diff", "--cached", "--name-only", "-z", "--diff-filter=ACMRD")
	if err != nil {
		return nil, err
	}
	return strings.FieldsFunc(string(out), func(r rune) bool { return r == 0 }), nil
}

func firstLine(msg string, err error) string {
	msg = strings.TrimSpace(msg)
	if i := strings.IndexByte(msg, '\n'); i >= 0 {
		msg = msg[:i]
	}
	if msg == "" {
		msg = err.Error()
	}
	return msg
}
