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
	segs    []fastSeg
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
	if pattern == "" {
		return nil
	}
	// makeRe's own fast path builds `*.*` with a ONE_CHAR after the dot, so
	// `*.*` does not match `file.` while `a/*.*` matches `a/file.`.
	if !f.negated && (pattern == "*.*" || pattern == "**/*.*" ||
		strings.HasPrefix(pattern, "*.*.") || strings.HasPrefix(pattern, "**/*.*.")) {
		return nil
	}
	raw := strings.Split(pattern, "/")
	for i, s := range raw {
		switch {
		case s == "" || s == "." || s == "..":
			return nil
		case s == "**":
			if i > 0 && raw[i-1] == "**" {
				return nil
			}
			if i == len(raw)-1 && i > 0 && strings.HasSuffix(raw[i-1], "*") {
				return nil
			}
			f.segs = append(f.segs, fastSeg{globstar: true})
			continue
		}
		for j := 0; j < len(s); j++ {
			c := s[j]
			ok := c == '*' || c == '.' || c == '-' || c == '_' ||
				(c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
			if !ok || (c == '*' && j > 0 && s[j-1] == '*') {
				return nil
			}
		}
		seg := fastSeg{text: s}
		if strings.IndexByte(s, '*') < 0 {
			seg.literal = true
		} else {
			seg.parts = strings.Split(s, "*")
		}
		f.segs = append(f.segs, seg)
	}
	return f
}

// cleanPath reports a path the fast path may answer for (see fastGlob).
func cleanPath(p string) bool {
	if p == "" || p[0] == '/' || p[len(p)-1] == '/' {
		return false
	}
	segStart := 0
	hi := false
	for i := 0; i <= len(p); i++ {
		if i < len(p) {
			c := p[i]
			if c == '\n' || c == '\r' {
				return false
			}
			if c >= 0x80 {
				hi = true
			}
			if c != '/' {
				continue
			}
		}
		switch i - segStart {
		case 0:
			return false
		case 1:
			if p[segStart] == '.' {
				return false
			}
		case 2:
			if p[segStart] == '.' && p[segStart+1] == '.' {
				return false
			}
		}
		segStart = i + 1
	}
	if hi && (strings.Contains(p, "\u2028") || strings.Contains(p, "\u2029")) {
		return false
	}
	return true
}

func (f *fastGlob) match(path string) (result, ok bool) {
	if !cleanPath(path) {
		return false, false
	}
	return matchFastSegs(f.segs, path, true) != f.negated, true
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
