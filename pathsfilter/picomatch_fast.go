package pathsfilter

import "strings"

// fastGlob answers the common filter shapes (`src/**`, `**/*.md`, `*.md`,
// `docs/**/*.ts`, `!docs/**`, literal paths) without the regex engine.
//
// Why it agrees with picomatch: for a pattern made only of segments that are
// `**` or runs of [A-Za-z0-9_.-] with single `*`s, every lookahead picomatch
// emits (NO_DOTS, NO_DOTS_SLASH, NO_DOT_SLASH, ONE_CHAR) and the optional
// trailing slash only change the answer for paths with an empty segment, a
// `.` or `..` segment, a leading or trailing `/`, or a line terminator. So
// the fast path answers only for paths free of those ("clean" paths, which
// is every path git prints) and defers to the regex otherwise. Two shapes
// where picomatch's globstar rules differ from plain segment semantics are
// excluded: a `**` segment right after another `**`, and a trailing `**`
// after a segment ending in `*` (`*/**` does not match `a`); and `*.*`,
// `**/*.*` (with or without more `.ext`), which makeRe's own fast path
// builds with a ONE_CHAR after the dot. Non-segment
// `**` (`**.js`, `a**`) is excluded too. The equivalence is checked by an
// exhaustive test over small patterns and paths and by a fuzz target, both
// comparing with the regex engine, which the golden file ties to picomatch.
type fastGlob struct {
	negated bool
	alts    [][]fastSeg // the pattern matches if any alternative does
}

type fastSeg struct {
	globstar bool
	literal  bool     // no '*': compare whole segment
	parts    []string // split on '*' (len ≥ 2 when !literal)
	text     string
}

func newFastGlob(pattern string) *fastGlob {
	f := &fastGlob{}
	if strings.HasPrefix(pattern, "!") {
		f.negated = true
		pattern = pattern[1:]
	}
	expanded, ok := expandWordGroups(pattern)
	if !ok {
		return nil
	}
	for _, p := range expanded {
		segs := fastSegments(p, f.negated)
		if segs == nil {
			return nil
		}
		f.alts = append(f.alts, segs)
	}
	return f
}

// expandWordGroups expands brace lists `{a,b}` and `@(a|b)` whose
// alternatives are plain words ([A-Za-z0-9_.-]*, no `..`, so no ranges):
// picomatch turns both into a regex group `(a|b)` that sits exactly where
// the literal text would, so the pattern matches iff one expansion does.
// Anything else with braces or parentheses is refused (ok false).
func expandWordGroups(p string) ([]string, bool) {
	out := []string{""}
	for i := 0; i < len(p); {
		var open, sep, close byte
		switch {
		case p[i] == '{':
			open, sep, close = '{', ',', '}'
		case p[i] == '@' && i+1 < len(p) && p[i+1] == '(':
			open, sep, close = '(', '|', ')'
			i++
		case strings.IndexByte("{}()@|,", p[i]) >= 0:
			return nil, false
		default:
			for j := range out {
				out[j] += p[i : i+1]
			}
			i++
			continue
		}
		_ = open
		end := strings.IndexByte(p[i:], close)
		if end < 0 {
			return nil, false
		}
		body := p[i+1 : i+end]
		if strings.Contains(body, "..") || (sep == ',' && !strings.Contains(body, ",")) {
			return nil, false // a range, or a literal single-item {a}
		}
		words := strings.Split(body, string(sep))
		for _, w := range words {
			if !isFastWord(w) {
				return nil, false
			}
		}
		if len(out)*len(words) > 32 {
			return nil, false
		}
		var next []string
		for _, o := range out {
			for _, w := range words {
				next = append(next, o+w)
			}
		}
		out = next
		i += end + 1
	}
	return out, true
}

func isFastWord(w string) bool {
	for j := 0; j < len(w); j++ {
		c := w[j]
		word := c == '.' || c == '-' || c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
		if !word {
			return false
		}
	}
	return true
}

func fastSegments(pattern string, negated bool) []fastSeg {
	if pattern == "" {
		return nil
	}
	// makeRe's own fast path builds `*.*` with a ONE_CHAR after the dot, so
	// `*.*` does not match `file.` while `a/*.*` matches `a/file.`.
	if !negated && (pattern == "*.*" || pattern == "**/*.*" ||
		strings.HasPrefix(pattern, "*.*.") || strings.HasPrefix(pattern, "**/*.*.")) {
		return nil
	}
	var segs []fastSeg
	raw := strings.Split(pattern, "/")
	for i, s := range raw {
		switch s {
		case "", ".", "..":
			return nil
		case "**":
			if i > 0 && raw[i-1] == "**" {
				return nil
			}
			if i == len(raw)-1 && i > 0 && strings.HasSuffix(raw[i-1], "*") {
				return nil
			}
			segs = append(segs, fastSeg{globstar: true})
			continue
		}
		for j := 0; j < len(s); j++ {
			c := s[j]
			if (c != '*' && !isFastWord(s[j:j+1])) || (c == '*' && j > 0 && s[j-1] == '*') {
				return nil
			}
		}
		seg := fastSeg{text: s}
		if strings.IndexByte(s, '*') < 0 {
			seg.literal = true
		} else {
			seg.parts = strings.Split(s, "*")
		}
		segs = append(segs, seg)
	}
	return segs
}

// cleanPath reports a path the fast path may answer for (see fastGlob):
// non-empty, no leading, trailing or doubled '/', no "." or ".." segment,
// no line terminator.
func cleanPath(p string) bool {
	n := len(p)
	if n == 0 || p[0] == '/' || p[n-1] == '/' {
		return false
	}
	hi := false
	for i := 0; i < n; i++ {
		c := p[i]
		if c > '/' && c < 0x80 { // letters, digits and most punctuation
			continue
		}
		switch {
		case c == '/':
			if p[i-1] == '/' || dotSegmentEndsAt(p, i) {
				return false
			}
		case c == '\n' || c == '\r':
			return false
		case c >= 0x80:
			hi = true
		}
	}
	if dotSegmentEndsAt(p, n) {
		return false
	}
	return !hi || (!strings.Contains(p, "\u2028") && !strings.Contains(p, "\u2029"))
}

// dotSegmentEndsAt reports whether the segment ending before p[i] is "."
// or "..".
func dotSegmentEndsAt(p string, i int) bool {
	if p[i-1] != '.' {
		return false
	}
	if i == 1 || p[i-2] == '/' {
		return true
	}
	return p[i-2] == '.' && (i == 2 || p[i-3] == '/')
}

func (f *fastGlob) match(path string) (result, ok bool) {
	if !cleanPath(path) {
		return false, false
	}
	return f.matchClean(path), true
}

// matchClean answers for a path cleanPath accepted.
func (f *fastGlob) matchClean(path string) bool {
	for _, segs := range f.alts {
		if matchFastSegs(segs, path, true) {
			return !f.negated
		}
	}
	return f.negated
}

// matchFastSegs matches segs against rest, where has says whether any path
// segment remains (rest may be a non-empty segment list only when has).
func matchFastSegs(segs []fastSeg, rest string, has bool) bool {
	for len(segs) > 0 {
		s := &segs[0]
		if s.globstar {
			if len(segs) == 1 {
				return true
			}
			for has {
				if matchFastSegs(segs[1:], rest, true) {
					return true
				}
				i := strings.IndexByte(rest, '/')
				if i < 0 {
					return false
				}
				rest = rest[i+1:]
			}
			return false
		}
		if !has {
			return false
		}
		var seg string
		if i := strings.IndexByte(rest, '/'); i >= 0 {
			seg, rest = rest[:i], rest[i+1:]
		} else {
			seg, rest, has = rest, "", false
		}
		if !s.matchSeg(seg) {
			return false
		}
		segs = segs[1:]
	}
	return !has
}

func (s *fastSeg) matchSeg(seg string) bool {
	if s.literal {
		return seg == s.text
	}
	first, last := s.parts[0], s.parts[len(s.parts)-1]
	if len(seg) < len(first)+len(last) || !strings.HasPrefix(seg, first) || !strings.HasSuffix(seg, last) {
		return false
	}
	mid := seg[len(first) : len(seg)-len(last)]
	for _, p := range s.parts[1 : len(s.parts)-1] {
		i := strings.Index(mid, p)
		if i < 0 {
			return false
		}
		mid = mid[i+len(p):]
	}
	return true
}
