package pathsfilter

import (
	"errors"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// globMatcher is the one method the filter model needs from a picomatch
// matcher.
type globMatcher interface{ Match(path string) bool }

// compileGlob compiles one dorny/paths-filter pattern (picomatch 2.3.1,
// {dot:true}).
//
// Interim: until the faithful picomatch port lands in this package, the
// common shapes go through doublestar with the adapters spec §6 requires
// (whole-pattern `!`, `./` stripping, equality shortcut), and the classes
// where doublestar provably disagrees are reported as unsupported.
func compileGlob(p string) (globMatcher, error) {
	body := strings.TrimPrefix(p, "./")
	neg := false
	for strings.HasPrefix(body, "!") && !strings.HasPrefix(body, "!(") {
		body, neg = body[1:], !neg
	}
	if strings.ContainsAny(body, "()[\\") || strings.Contains(body, "..") {
		return nil, errors.New("construct not modelled by the interim matcher")
	}
	if strings.Contains(body, "{") && !strings.Contains(body, ",") {
		return nil, errors.New("single-item braces")
	}
	if !doublestar.ValidatePattern(body) {
		return nil, errors.New("invalid pattern")
	}
	for _, seg := range strings.Split(body, "/") {
		if strings.Contains(seg, "**") && seg != "**" {
			return nil, errors.New("non-segment **")
		}
	}
	return dsMatcher{orig: p, body: body, neg: neg}, nil
}

type dsMatcher struct {
	orig, body string
	neg        bool
}

func (m dsMatcher) Match(path string) bool {
	if path == "" {
		return false
	}
	if path == m.orig {
		return true
	}
	ok, _ := doublestar.Match(m.body, path)
	return ok != m.neg
}
