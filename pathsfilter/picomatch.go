package pathsfilter

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// ErrUnsupportedGlob is matched (errors.Is) by every error reporting a glob
// that cicheck cannot simulate faithfully. Callers treat such a pattern's
// result as unknown; they never guess.
var ErrUnsupportedGlob = errors.New("unsupported glob construct")

// UnsupportedError names the pattern and, briefly, why it is unsupported.
type UnsupportedError struct {
	Pattern string
	Reason  string
	// Hangs: picomatch itself never returns on the pattern, so neither does
	// anything that compiles it (dorny's Filter constructor).
	Hangs bool
}

func (e *UnsupportedError) Error() string {
	if e.Reason == "" {
		return fmt.Sprintf("unsupported glob construct: %s", e.Pattern)
	}
	return fmt.Sprintf("unsupported glob construct: %s (%s)", e.Pattern, e.Reason)
}

// Is makes errors.Is(err, ErrUnsupportedGlob) true.
func (e *UnsupportedError) Is(target error) bool { return target == ErrUnsupportedGlob }

func errUnsupported(pattern string) error { return &UnsupportedError{Pattern: pattern} }

const maxPatternLen = 4096

// Picomatch is one compiled pattern with the semantics of
// picomatch(pattern, {dot: true}) from picomatch 2.3.1 on posix, which is
// what dorny/paths-filter v2.11+ runs for every filter rule.
type Picomatch struct {
	pattern string
	source  string
	negated bool
	re      *reCompiled // nil: V8 rejects the regex, picomatch uses /$^/
	// prefix is literal text every path matched by the (un-negated) regex
	// starts with: a cheap rejection before running the engine.
	prefix string
	// suffix likewise ends every such path (or suffix+"/" when suffixSlash).
	suffix      string
	suffixSlash bool
	needle      string    // text every such path contains
	fast        *fastGlob // non-nil: a proven-equivalent matcher for clean paths
}

// CompilePicomatch compiles pattern as picomatch 2.3.1 with {dot: true}
// would. An empty pattern is an error (picomatch throws). A pattern whose
// regex uses syntax this engine does not implement returns an error that
// matches ErrUnsupportedGlob.
func CompilePicomatch(pattern string) (m *Picomatch, err error) {
	if pattern == "" {
		return nil, errors.New("empty glob pattern (picomatch throws: Expected pattern to be a non-empty string)")
	}
	if !utf8.ValidString(pattern) {
		return nil, &UnsupportedError{Pattern: pattern, Reason: "invalid UTF-8"}
	}
	if len(pattern) > maxPatternLen {
		// picomatch accepts up to 65,536 characters, but the port's string
		// handling is quadratic; no real filter comes near this bound.
		return nil, &UnsupportedError{Pattern: pattern[:64] + "…", Reason: fmt.Sprintf("longer than %d bytes", maxPatternLen)}
	}
	// JavaScript indexes a character outside the Basic Multilingual Plane
	// as two code units (surrogates), and picomatch and the regex treat each
	// as a character of its own. The port indexes runes, so such a pattern
	// is parsed with each surrogate standing in a private-use character
	// (asPlaceholders), which picomatch treats alike, and the regex gets the
	// surrogates back; a pattern that also holds those private-use
	// characters cannot be told apart and is not supported.
	astral, private := false, false
	for _, r := range pattern {
		astral = astral || r > 0xFFFF
		private = private || r >= placeholderBase && r < placeholderBase+0x800
	}
	if astral && private {
		return nil, &UnsupportedError{Pattern: pattern, Reason: "private-use characters U+E000-U+E7FF beside characters outside the Basic Multilingual Plane"}
	}
	parsed := pattern
	if astral {
		parsed = asPlaceholders(pattern)
	}
	defer func() {
		// The port mirrors JavaScript that would throw a TypeError on some
		// malformed inputs; never turn that into a panic for the caller.
		if r := recover(); r != nil {
			m, err = nil, &UnsupportedError{Pattern: pattern, Reason: fmt.Sprint("parser failure: ", r)}
		}
	}()
	source, negated, err := pmMakeRe(parsed)
	if err != nil {
		if ue := (*UnsupportedError)(nil); errors.As(err, &ue) {
			return nil, &UnsupportedError{Pattern: pattern, Reason: ue.Reason, Hangs: ue.Hangs}
		}
		return nil, &UnsupportedError{Pattern: pattern, Reason: err.Error()}
	}
	units := []rune(source)
	if astral {
		for i, r := range units {
			if r >= placeholderBase && r < placeholderBase+0x800 {
				units[i] = r - placeholderBase + 0xD800
			}
		}
		source = string(utf16.Decode(runesToUint16(units)))
	}
	m = &Picomatch{pattern: pattern, source: source, negated: negated}
	re, err := compileJSRegexUnits(units)
	switch {
	case err == nil:
		m.re = re
	case errors.Is(err, errJSSyntax):
		// picomatch.toRegex swallows the SyntaxError and returns /$^/.
	default:
		return nil, &UnsupportedError{Pattern: pattern, Reason: err.Error()}
	}
	if astral {
		// The prefilters and the fast matcher read runes: without them the
		// regex decides alone.
		return m, nil
	}
	m.fast = newFastGlob(pattern)
	inner := source
	if negated {
		inner = strings.TrimSuffix(strings.TrimPrefix(source, "^(?!"), ").*$")
	}
	m.prefix = anchoredLiteralPrefix(inner)
	m.suffix, m.suffixSlash = anchoredLiteralSuffix(inner)
	if nd := longestRequiredLiteral(inner); len(nd) > len(m.prefix) && len(nd) > len(m.suffix) {
		m.needle = nd
	}
	return m, nil
}

// Pattern returns the pattern as written.
func (m *Picomatch) Pattern() string { return m.pattern }

// Negated reports picomatch's state.negated: the pattern starts with an
// odd number of '!' that do not open an extglob. Such a pattern matches
// every path that the rest does not match; dorny/paths-filter v4.0.3's
// some-with-excludes treats these rules as exclusions.
func (m *Picomatch) Negated() bool { return m.negated }

// Regexp returns the JavaScript regex source picomatch builds for the
// pattern (the port's output; the golden test checks it against the real
// one).
func (m *Picomatch) Regexp() string { return m.source }

// Match reports whether path matches, exactly as picomatch's matcher
// function would answer for the same string.
func (m *Picomatch) Match(path string) bool { return m.match(path, nil) }

// Path is a changed path prepared once for matching against many patterns
// (see MatchPath): the checks that depend only on the path are done here.
type Path struct {
	s        string
	clean    bool // see cleanPath
	lineTerm bool // contains a character JavaScript's `.` does not match
}

// PreparePath prepares s for MatchPath.
func PreparePath(s string) Path {
	return Path{s: s, clean: cleanPath(s), lineTerm: hasLineTerminator(s)}
}

// String returns the path.
func (p Path) String() string { return p.s }

// MatchPath is Match for a prepared path: the same answer, cheaper when
// one path is matched against many patterns.
func (m *Picomatch) MatchPath(p *Path) bool { return m.match(p.s, p) }

func (m *Picomatch) match(path string, prep *Path) bool {
	if m == nil || path == "" { // nil: a pattern that did not compile never matches
		return false
	}
	if path == m.pattern { // the equality shortcut in picomatch.test
		return true
	}
	if m.re == nil {
		return false
	}
	if !m.literalsFit(path) {
		// The inner pattern cannot match. A negated regex is
		// ^(?!inner).*$, which then matches any path without a line
		// terminator.
		if !m.negated {
			return false
		}
		if prep != nil {
			return !prep.lineTerm
		}
		return !hasLineTerminator(path)
	}
	if m.fast != nil {
		var clean bool
		if prep != nil {
			clean = prep.clean
		} else {
			clean = cleanPath(path)
		}
		if clean {
			return m.fast.matchClean(path)
		}
	}
	return m.matchRegex(path)
}

// literalsFit checks the literal prefix, substring and suffix every match
// needs. First and last bytes are compared inline before the full
// comparisons: most pairs fail there.
func (m *Picomatch) literalsFit(path string) bool {
	if n := len(m.prefix); n > 0 {
		if len(path) < n || path[0] != m.prefix[0] || path[:n] != m.prefix {
			return false
		}
	}
	if n := len(m.suffix); n > 0 {
		l := len(path)
		switch {
		case l >= n && path[l-1] == m.suffix[n-1] && path[l-n:] == m.suffix:
		case m.suffixSlash && l > n && path[l-1] == '/' && path[l-1-n:l-1] == m.suffix:
		default:
			return false
		}
	}
	return m.needle == "" || strings.Contains(path, m.needle)
}

func (m *Picomatch) matchRegex(path string) bool {
	if m.re == nil {
		return false
	}
	var buf [128]rune
	return m.re.match(toUTF16Units(path, buf[:0]))
}

// hasLineTerminator reports \n, \r, U+2028 or U+2029 (what JavaScript's
// `.` does not match) using byte searches, the hot path of negated patterns.
func hasLineTerminator(s string) bool {
	if strings.IndexByte(s, '\n') >= 0 || strings.IndexByte(s, '\r') >= 0 {
		return true
	}
	for i := strings.IndexByte(s, 0xE2); i >= 0 && i+2 < len(s); {
		if s[i+1] == 0x80 && (s[i+2] == 0xA8 || s[i+2] == 0xA9) {
			return true
		}
		j := strings.IndexByte(s[i+1:], 0xE2)
		if j < 0 {
			break
		}
		i += 1 + j
	}
	return false
}

// toUTF16Units turns path into the code units JavaScript's regex engine
// walks: one per BMP character, a surrogate pair otherwise.
func toUTF16Units(s string, buf []rune) []rune {
	for _, r := range s {
		if r > 0xFFFF {
			a, b := utf16.EncodeRune(r)
			buf = append(buf, a, b)
			continue
		}
		buf = append(buf, r)
	}
	return buf
}

// placeholderBase is where asPlaceholders maps the surrogates D800-DFFF.
const placeholderBase = 0xE000

// asPlaceholders writes each character outside the BMP as its two UTF-16
// surrogates, each moved to U+E000-U+E7FF (order kept) so that the string
// stays valid UTF-8.
func asPlaceholders(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r > 0xFFFF {
			hi, lo := utf16.EncodeRune(r)
			b.WriteRune(hi - 0xD800 + placeholderBase)
			b.WriteRune(lo - 0xD800 + placeholderBase)
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

func runesToUint16(rs []rune) []uint16 {
	out := make([]uint16, len(rs))
	for i, r := range rs {
		out[i] = uint16(r)
	}
	return out
}
