package pathsfilter

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
)

// GitHub's own trigger filters (on.<push|pull_request|pull_request_target>.
// paths and paths-ignore) use a different glob dialect from picomatch:
//   - `*` matches any run of characters except `/`;
//   - `**` matches any run including `/`, anywhere (`**.js` and `src/**.js`
//     cross directories); `**/` may match zero directories;
//   - `?` and `+` quantify the previous character (zero-or-one, one-or-more)
//     and are literal at the start of a pattern;
//   - `[...]` holds letters and digits, ranges only within a-z, A-Z, 0-9;
//   - `\` escapes the next character; `!` is special only as the first
//     character; braces and extglobs are plain text; there is no dotfile rule.
// GitHub's matcher is closed source. Where its documentation is silent this
// follows nektos/act's re-implementation, and what neither defines (a
// quantifier after `*`, `**`, `?` or `+`) is reported as unsupported.

// GitHubMaxFiles is how many changed files GitHub looks at when it applies
// path filters: matches beyond the first 300 files of the diff are
// invisible.
const GitHubMaxFiles = 300

// PathFilteredEvents are the events whose trigger accepts paths and
// paths-ignore. merge_group has none; tag pushes are never path-filtered.
func PathFilteredEvents() []string { return []string{"pull_request", "pull_request_target", "push"} }

// IsPathFilteredEvent reports whether event is one of PathFilteredEvents().
func IsPathFilteredEvent(event string) bool {
	for _, e := range PathFilteredEvents() {
		if e == event {
			return true
		}
	}
	return false
}

// CheckPathsKeys returns GitHub's error when one event sets both paths and
// paths-ignore (GitHub rejects the workflow file). actionlint already
// reports it, so lint must not repeat it; a simulator uses it to know that
// the workflow never runs.
func CheckPathsKeys(event string, hasPaths, hasPathsIgnore bool) error {
	if hasPaths && hasPathsIgnore {
		return fmt.Errorf("you may only define one of `paths` and `paths-ignore` for a single event (%s)", event)
	}
	return nil
}

// GitHubPattern is one compiled entry of a paths or paths-ignore list.
type GitHubPattern struct {
	Raw      string // as written, including a leading '!'
	Negative bool   // leading '!': excludes (paths) or is undocumented (paths-ignore)
	re       *regexp.Regexp
}

// Match reports whether path matches the pattern body (ignoring Negative).
func (p *GitHubPattern) Match(path string) bool { return p.re.MatchString(path) }

// GitHubPaths is a compiled paths or paths-ignore list.
type GitHubPaths struct {
	Patterns []*GitHubPattern
	Ignore   bool // paths-ignore semantics
}

// CompileGitHubPaths compiles an on.<event>.paths list.
func CompileGitHubPaths(patterns []string) (*GitHubPaths, error) {
	return compileGitHub(patterns, false)
}

// CompileGitHubPathsIgnore compiles an on.<event>.paths-ignore list.
func CompileGitHubPathsIgnore(patterns []string) (*GitHubPaths, error) {
	return compileGitHub(patterns, true)
}

func compileGitHub(patterns []string, ignore bool) (*GitHubPaths, error) {
	g := &GitHubPaths{Ignore: ignore}
	for _, raw := range patterns {
		p, err := CompileGitHubPattern(raw)
		if err != nil {
			return nil, err
		}
		g.Patterns = append(g.Patterns, p)
	}
	return g, nil
}

// CompileGitHubPattern compiles one trigger-filter pattern. Invalid syntax
// (an empty pattern, a bad bracket expression, a trailing backslash) is a
// plain error; syntax whose meaning GitHub does not define is an error
// matching ErrUnsupportedGlob.
func CompileGitHubPattern(raw string) (*GitHubPattern, error) {
	body, neg := raw, false
	if strings.HasPrefix(raw, "!") {
		body, neg = raw[1:], true
	}
	src, err := ghRegex(raw, body)
	if err != nil {
		return nil, err
	}
	re, err := regexp.Compile(src)
	if err != nil {
		return nil, fmt.Errorf("invalid path pattern %q: %w", raw, err)
	}
	return &GitHubPattern{Raw: raw, Negative: neg, re: re}, nil
}

func ghRegex(raw, body string) (string, error) {
	if body == "" {
		return "", fmt.Errorf("invalid path pattern %q: empty pattern", raw)
	}
	var b strings.Builder
	b.WriteString(`(?s)^`)
	rs := []rune(body)
	quantifiable := false // the last thing written is one character or class
	for i := 0; i < len(rs); {
		c := rs[i]
		switch c {
		case '*':
			if i+1 < len(rs) && rs[i+1] == '*' {
				if i+2 < len(rs) && rs[i+2] == '/' {
					b.WriteString(`(?:.+/)?`)
					i += 3
				} else {
					b.WriteString(`.*`)
					i += 2
				}
			} else {
				b.WriteString(`[^/]*`)
				i++
			}
			quantifiable = false
		case '?', '+':
			switch {
			case i == 0:
				b.WriteString(regexp.QuoteMeta(string(c)))
				quantifiable = true
			case !quantifiable:
				return "", &UnsupportedError{Pattern: raw, Reason: fmt.Sprintf("%q after a wildcard or quantifier", c)}
			default:
				b.WriteRune(c)
				quantifiable = false
			}
			i++
		case '[':
			j, cls, err := ghClass(raw, rs, i)
			if err != nil {
				return "", err
			}
			b.WriteString(cls)
			i = j
			quantifiable = true
		case '\\':
			if i+1 >= len(rs) {
				return "", fmt.Errorf("invalid path pattern %q: nothing after \\", raw)
			}
			b.WriteString(regexp.QuoteMeta(string(rs[i+1])))
			i += 2
			quantifiable = true
		default:
			b.WriteString(regexp.QuoteMeta(string(c)))
			i++
			quantifiable = true
		}
	}
	b.WriteString(`$`)
	return b.String(), nil
}

func isAlnum(r rune) bool {
	return (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z') || (r >= '0' && r <= '9')
}

func sameRangeGroup(a, b rune) bool {
	in := func(lo, hi rune) bool { return a >= lo && a <= hi && b >= lo && b <= hi }
	return (in('a', 'z') || in('A', 'Z') || in('0', '9')) && a <= b
}

// ghClass translates the bracket expression starting at rs[i] == '['.
func ghClass(raw string, rs []rune, i int) (next int, src string, err error) {
	bad := func(why string) (int, string, error) {
		return 0, "", fmt.Errorf("invalid path pattern %q: %s", raw, why)
	}
	j := i + 1
	var b strings.Builder
	b.WriteByte('[')
	n := 0
	for ; j < len(rs) && rs[j] != ']'; j++ {
		c := rs[j]
		if j+2 < len(rs) && rs[j+1] == '-' && rs[j+2] != ']' {
			if !sameRangeGroup(c, rs[j+2]) {
				return bad(fmt.Sprintf("range %c-%c: ranges can only include a-z, A-Z and 0-9", c, rs[j+2]))
			}
			b.WriteString(string([]rune{c, '-', rs[j+2]}))
			j += 2
			n++
			continue
		}
		if !isAlnum(c) {
			return bad(fmt.Sprintf("%q in brackets: only letters, digits and ranges are allowed", c))
		}
		b.WriteRune(c)
		n++
	}
	if j >= len(rs) {
		return bad("missing closing bracket ']'")
	}
	if n == 0 {
		return bad("empty brackets '[]'")
	}
	b.WriteByte(']')
	return j + 1, b.String(), nil
}

// Decide applies the list to one path. For paths, the last matching
// pattern wins: a positive match includes, a '!' match excludes. For
// paths-ignore, a path is "included" (not ignored) unless a pattern
// matches it. by is the deciding pattern ("" when none matched).
func (g *GitHubPaths) Decide(path string) (included bool, by string) {
	if g.Ignore {
		for _, p := range g.Patterns {
			if !p.Negative && p.Match(path) {
				return false, p.Raw
			}
		}
		return true, ""
	}
	for _, p := range g.Patterns {
		if p.Match(path) {
			included, by = !p.Negative, p.Raw
		}
	}
	return included, by
}

// HasNegation reports whether any pattern starts with '!'.
func (g *GitHubPaths) HasNegation() bool {
	for _, p := range g.Patterns {
		if p.Negative {
			return true
		}
	}
	return false
}

// NegationOnly reports a paths list with '!' patterns and no positive one:
// GitHub requires at least one positive pattern (trigger-paths-negation-only).
func (g *GitHubPaths) NegationOnly() bool {
	if g.Ignore || len(g.Patterns) == 0 {
		return false
	}
	for _, p := range g.Patterns {
		if !p.Negative {
			return false
		}
	}
	return true
}

// TriggerDetail explains a Triggers verdict.
type TriggerDetail struct {
	// Known is false when GitHub's behaviour is undefined for the list (a
	// '!' pattern inside paths-ignore); the verdict is then act's reading.
	Known bool
	// Considered is how many files were examined (at most GitHubMaxFiles).
	Considered int
	// Truncated: more than GitHubMaxFiles files changed, so files beyond
	// the first 300 in diff order were invisible to the filter.
	Truncated bool
	// Witness is the first considered file that makes the workflow run
	// (paths: included; paths-ignore: not ignored), Pattern what decided it
	// ("" for a paths-ignore witness no pattern matched).
	Witness, Pattern string
}

// ErrPathsIgnoreNegation explains why a paths-ignore verdict is not Known.
var ErrPathsIgnoreNegation = errors.New("'!' inside paths-ignore is undocumented")

// Triggers reports whether a change touching files (in diff order) passes
// the filter. With no files the workflow does not run.
func (g *GitHubPaths) Triggers(files []string) (bool, TriggerDetail) {
	d := TriggerDetail{Known: !g.Ignore || !g.HasNegation()}
	if len(files) > GitHubMaxFiles {
		files, d.Truncated = files[:GitHubMaxFiles], true
	}
	d.Considered = len(files)
	if g.Ignore && !d.Known {
		// act: a "!x" entry ignores files that do NOT match x.
		for _, f := range files {
			ignored := false
			for _, p := range g.Patterns {
				if p.Match(f) != p.Negative {
					ignored = true
					break
				}
			}
			if !ignored {
				d.Witness = f
				return true, d
			}
		}
		return false, d
	}
	for _, f := range files {
		if inc, by := g.Decide(f); inc {
			d.Witness, d.Pattern = f, by
			return true, d
		}
	}
	return false, d
}

// PicomatchOnlySyntax reports glob syntax that picomatch understands but
// GitHub's trigger filters treat as plain text: braces with a comma or a
// range, and extglobs (trigger-paths-picomatch-syntax).
func PicomatchOnlySyntax(pattern string) bool {
	for _, op := range []string{"@(", "!(", "+(", "*(", "?("} {
		if strings.Contains(pattern, op) {
			return true
		}
	}
	if i := strings.IndexByte(pattern, '{'); i >= 0 {
		if j := strings.IndexByte(pattern[i:], '}'); j > 0 {
			inner := pattern[i+1 : i+j]
			return strings.Contains(inner, ",") || strings.Contains(inner, "..")
		}
	}
	return false
}
