package gitdiff

import (
	"errors"
	"fmt"
	"strings"

	"github.com/cicheck/cicheck/pathsfilter"
)

// Commit is one commit and what it changed against its first parent.
type Commit struct {
	SHA     string
	Parents []string
	Subject string
	// Files are the changed files as dorny/paths-filter lists them: a
	// rename or copy (when git reports one) is the deletion of the old
	// path (renames only) and the addition of the new one.
	Files []pathsfilter.ChangedFile
}

// LogFormat is the --format ParseLog reads: a NUL opens each commit, so a
// commit that changed nothing (an empty or a no-op merge) is still one.
const LogFormat = "%x00%H %P%x00%s"

// LogArgs are the arguments of the one git log that lists the commits of
// revs (newest first) with their changed files, each commit diffed
// against its first parent (merges included) without rename detection, as
// explain-diff diffs. limit <= 0 means no limit. The -c options and flags
// pin what user configuration could change in the output (signatures,
// colour, relative paths, a hidden root commit).
func LogArgs(revs []string, limit int, firstParent bool) []string {
	args := []string{"-c", "log.showSignature=false", "-c", "core.quotePath=false", "log",
		"--no-color", "--no-relative", "--no-renames", "--root", "--diff-merges=first-parent",
		"--name-status", "-z", "--format=" + LogFormat}
	if firstParent {
		args = append(args, "--first-parent")
	}
	if limit > 0 {
		args = append(args, fmt.Sprintf("--max-count=%d", limit))
	}
	args = append(args, "--end-of-options")
	args = append(args, revs...)
	return append(args, "--")
}

// Log runs git log in dir (see LogArgs) and parses its output.
func Log(dir string, revs []string, limit int, firstParent bool) ([]Commit, error) {
	for _, r := range revs {
		if strings.HasPrefix(r, "-") || r == "" {
			return nil, fmt.Errorf("invalid revision %q", r)
		}
	}
	out, err := Git(dir, LogArgs(revs, limit, firstParent)...)
	if err != nil {
		// Name the revisions, not the dozen pinning flags.
		var ge *Error
		if errors.As(err, &ge) {
			return nil, fmt.Errorf("git log %s: %s", strings.Join(revs, " "), ge.Msg)
		}
		return nil, err
	}
	return ParseLog(out)
}

// ParseLog reads `git log --name-status -z --format=LogFormat`. Each
// commit is NUL, "SHA PARENTS", NUL, subject, NUL; then, when it changed
// anything, a newline and its entries: a status, NUL, its path (two for a
// rename or copy), NUL, each. No path is empty, so an empty field opens
// the next commit.
func ParseLog(b []byte) ([]Commit, error) {
	if len(b) == 0 {
		return nil, nil
	}
	if b[0] != 0 {
		return nil, fmt.Errorf("git log: output does not start a commit")
	}
	fields := strings.Split(string(b[1:]), "\x00")
	var out []Commit
	for i := 0; ; {
		if i+1 >= len(fields) {
			return nil, fmt.Errorf("git log: commit %q without its subject", fields[i])
		}
		ids := strings.Fields(fields[i])
		if len(ids) == 0 || !isHex(ids[0]) {
			return nil, fmt.Errorf("git log: bad commit line %q", fields[i])
		}
		for _, p := range ids[1:] {
			if !isHex(p) {
				return nil, fmt.Errorf("git log: bad parent %q of %s", p, ids[0])
			}
		}
		c := Commit{SHA: ids[0], Parents: ids[1:], Subject: fields[i+1]}
		i += 2
		if i < len(fields) && strings.HasPrefix(fields[i], "\n") {
			fields[i] = fields[i][1:]
			for i < len(fields) && fields[i] != "" {
				code := fields[i]
				st, ok := pathsfilter.StatusFromGit(code)
				if !ok || strings.Trim(code[1:], "0123456789") != "" {
					return nil, fmt.Errorf("git log: unknown status %q in %s", code, c.SHA)
				}
				n := 1
				if code[0] == 'R' || code[0] == 'C' {
					n = 2
				}
				if i+n >= len(fields) {
					return nil, fmt.Errorf("git log: status %q without its path in %s", code, c.SHA)
				}
				for k := 1; k <= n; k++ {
					if fields[i+k] == "" {
						return nil, fmt.Errorf("git log: status %q without its path in %s", code, c.SHA)
					}
				}
				switch {
				case n == 2 && code[0] == 'R':
					c.Files = append(c.Files, pathsfilter.ChangedFile{Path: fields[i+1], Status: pathsfilter.StatusDeleted},
						pathsfilter.ChangedFile{Path: fields[i+2], Status: pathsfilter.StatusAdded})
				case n == 2:
					c.Files = append(c.Files, pathsfilter.ChangedFile{Path: fields[i+2], Status: pathsfilter.StatusAdded})
				default:
					c.Files = append(c.Files, pathsfilter.ChangedFile{Path: fields[i+1], Status: st})
				}
				i += n + 1
			}
		}
		out = append(out, c)
		if i == len(fields) {
			return out, nil
		}
		// The empty field that ends this commit; the next one follows.
		if fields[i] != "" {
			return nil, fmt.Errorf("git log: unexpected field %q after %s", fields[i], c.SHA)
		}
		if i++; i == len(fields) {
			return out, nil
		}
	}
}

// isHex: an object name, SHA-1 (40) or SHA-256 (64) hex digits.
func isHex(s string) bool {
	if len(s) != 40 && len(s) != 64 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

// MergeBase returns the best common ancestor of a and b.
func MergeBase(dir, a, b string) (string, error) {
	out, err := Git(dir, "merge-base", "--end-of-options", a, b)
	if err != nil {
		return "", err
	}
	return strings.TrimSpace(string(out)), nil
}
