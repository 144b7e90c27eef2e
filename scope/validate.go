package scope

import (
	"io/fs"
	"path"
	"regexp"
	"strconv"
	"strings"
	"sync"
)

// targetRE is the scope charset (spec A4 rule 2). The value reaches a shell,
// so a prefix-and-no-".." test is not enough: a legal file name can still
// carry metacharacters.
var targetRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._/-]*(::[A-Za-z0-9_][A-Za-z0-9._\[\]-]*)*$`)
})

// ValidCharset reports whether target matches the scope charset.
func ValidCharset(target string) bool { return targetRE().MatchString(target) }

// Reason ids, stable for tests and automation; the order is the spec's.
const (
	ReasonEmpty     = "no-targets"
	ReasonCharset   = "charset"
	ReasonRoot      = "outside-root"
	ReasonSelector  = "selector"
	ReasonCount     = "too-many"
	ReasonTooLong   = "too-long"
	ReasonMissing   = "missing"
	ReasonNoTests   = "no-tests"
	ReasonMalformed = "malformed"
)

// Reason is one failed rule with its exact message.
type Reason struct {
	ID      string
	Message string
}

// Options are the inputs of Validate beyond the target list.
type Options struct {
	Root             string // required prefix, e.g. "tests/"
	MaxTargets       int    // cap on distinct targets; 0 means no cap
	MaxTargetsSource string // file enforcing the same cap, named in the reason
	ChunkLimit       int    // status description limit; 0 means no limit
	// FS, when set, is the working tree: every target must exist in it.
	FS fs.FS
	// HasTest, when set, must report true for a target holding at least one
	// registered, enabled test (a test registry's answer).
	HasTest func(target string) bool
}

// OptionsFrom takes the validation settings from a resolved Config.
func OptionsFrom(c Config) Options {
	return Options{Root: c.Root, MaxTargets: c.MaxTargets, MaxTargetsSource: c.MaxTargetsSource, ChunkLimit: c.ChunkLimit}
}

// Result is the verdict on a target list. Targets holds the distinct
// targets (first occurrence wins) only when the scope is accepted, so a
// rejected scope can never be used by mistake.
type Result struct {
	Targets []string
	Reasons []Reason
}

// Accepted reports whether no rule failed.
func (r Result) Accepted() bool { return len(r.Reasons) == 0 }

// Validate applies every scope rule (spec A4) to targets and returns every
// failing rule, not just the first: a requester fixing a scope should see
// all of its problems at once. Targets failing the charset are left out of
// the later rules so that an unsafe value is echoed once.
func Validate(targets []string, o Options) Result {
	var res Result
	if len(targets) == 0 {
		res.Reasons = append(res.Reasons, Reason{ReasonEmpty, "no targets given"})
		return res
	}
	distinct := dedup(targets)
	var badChars, outside, selectors, tooLong, missing, noTests []string
	for _, t := range distinct {
		if !ValidCharset(t) {
			badChars = append(badChars, t)
			continue
		}
		p, _, hasSel := strings.Cut(t, "::")
		rootOK := strings.HasPrefix(p, o.Root) && !strings.Contains(p, "..")
		if !rootOK {
			outside = append(outside, t)
		}
		if hasSel {
			selectors = append(selectors, t)
		}
		if o.ChunkLimit > 0 && len(t) > o.ChunkLimit {
			tooLong = append(tooLong, t)
		}
		// Existence and registry checks only make sense for a shape-valid
		// path inside the root; anything else is already rejected.
		if !rootOK || hasSel {
			continue
		}
		if o.FS != nil && !exists(o.FS, p) {
			missing = append(missing, t)
			continue
		}
		if o.HasTest != nil && !o.HasTest(t) {
			noTests = append(noTests, t)
		}
	}
	add := func(id string, bad []string, msg string) {
		if len(bad) > 0 {
			res.Reasons = append(res.Reasons, Reason{id, msg})
		}
	}
	add(ReasonCharset, badChars, "targets contain characters not allowed in a test path: "+strings.Join(badChars, ", "))
	add(ReasonRoot, outside, "targets outside "+o.Root+": "+strings.Join(outside, ", "))
	add(ReasonSelector, selectors, "pytest ::selectors are not supported by the test runner; name the file instead of a single test: "+strings.Join(selectors, ", "))
	if o.MaxTargets > 0 && len(distinct) > o.MaxTargets {
		msg := "too many targets (" + strconv.Itoa(len(distinct)) + "); maximum is " + strconv.Itoa(o.MaxTargets)
		if o.MaxTargetsSource != "" {
			msg += " (" + o.MaxTargetsSource + " enforces the same cap, but only after the lanes have started)"
		}
		res.Reasons = append(res.Reasons, Reason{ReasonCount, msg})
	}
	add(ReasonTooLong, tooLong, "target longer than the "+strconv.Itoa(o.ChunkLimit)+"-character chunk limit and so cannot be split: "+strings.Join(tooLong, ", "))
	add(ReasonMissing, missing, "declared targets do not exist in the repo: "+strings.Join(missing, ", ")+" (a path that does not exist collects no tests and passes silently)")
	add(ReasonNoTests, noTests, "declared targets hold no registered, enabled test: "+strings.Join(noTests, ", ")+" (such a target collects nothing and passes silently)")
	if res.Accepted() {
		res.Targets = distinct
	}
	return res
}

// dedup keeps the first occurrence of each target, in order.
func dedup(targets []string) []string {
	seen := make(map[string]bool, len(targets))
	out := make([]string, 0, len(targets))
	for _, t := range targets {
		if !seen[t] {
			seen[t] = true
			out = append(out, t)
		}
	}
	return out
}

// exists reports whether a target path (a file, or a directory with or
// without its trailing slash) is present in fsys.
func exists(fsys fs.FS, p string) bool {
	p = strings.TrimSuffix(p, "/")
	if p == "" || !fs.ValidPath(p) || path.Clean(p) != p {
		return false
	}
	_, err := fs.Stat(fsys, p)
	return err == nil
}

// SplitArgs splits arguments on ASCII whitespace (spec A3), so a scope
// passed as one quoted string is judged exactly as the bot would see it.
func SplitArgs(args ...string) []string {
	var out []string
	for _, a := range args {
		out = append(out, strings.FieldsFunc(a, isASCIISpace)...)
	}
	return out
}

func isASCIISpace(r rune) bool {
	switch r {
	case ' ', '\t', '\n', '\r', '\v', '\f':
		return true
	}
	return false
}
