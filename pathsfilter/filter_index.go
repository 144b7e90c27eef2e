package pathsfilter

import "strings"

// A filter-level index by first path segment. A plain (non-negated)
// pattern whose first segment is a conservative literal (letters, digits,
// `.`, `_`, `-`) can only match paths whose first segment is that literal:
// picomatch anchors the whole path and treats those characters literally,
// and the equality shortcut compares the whole string. So for a given file
// only the rules indexed under its first segment, plus the rules that are
// not indexable, can match. Rule order is kept, so the first matching rule
// (the witness) is the same as with a full scan. Real filters are mostly
// literal-prefixed (`src/lib/mlx-cpp/**`), which is where this pays.

// literalHead returns the first segment of p when it is a conservative
// literal, else "". A `|` outside parentheses, an unbalanced paren, a
// bracket or an escape anywhere can leak out of picomatch's anchoring (an
// unclosed extglob such as `a/@(|b/` matches `b/`), so such patterns are
// never indexed; balanced extglobs after the head (`src/!(gen)/**`) are.
func literalHead(p string) string {
	if strings.ContainsAny(p, "[]\\") {
		return ""
	}
	depth := 0
	for i := 0; i < len(p); i++ {
		switch p[i] {
		case '(':
			depth++
		case ')':
			if depth--; depth < 0 {
				return ""
			}
		case '|':
			if depth == 0 {
				return ""
			}
		}
	}
	if depth != 0 {
		return ""
	}
	head, _, _ := strings.Cut(p, "/")
	if head == "" || head == "." || strings.HasPrefix(p, "./") {
		return ""
	}
	for i := 0; i < len(head); i++ {
		c := head[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '-') {
			return ""
		}
	}
	return head
}

// patternHeads returns the first segments a pattern can match: its literal
// head, or the alternatives of a leading `@(a|b)` or `{a,b}` group of
// conservative literals followed by `/`. nil means "any".
func patternHeads(p string) []string {
	if h := literalHead(p); h != "" {
		return []string{h}
	}
	var body string
	switch {
	case strings.HasPrefix(p, "@("):
		end := strings.IndexByte(p, ')')
		if end < 0 || !strings.HasPrefix(p[end+1:], "/") {
			return nil
		}
		body = p[2:end]
		if strings.ContainsAny(body, "{}") {
			return nil
		}
		// The rest must itself be safe to index.
		if literalHead("x"+p[end+1:]) == "" {
			return nil
		}
		return withRawHead(p, end, literalAlts(strings.Split(body, "|")))
	case strings.HasPrefix(p, "{"):
		end := strings.IndexByte(p, '}')
		if end < 0 || !strings.HasPrefix(p[end+1:], "/") {
			return nil
		}
		body = p[1:end]
		if strings.ContainsAny(body, "{(|") || literalHead("x"+p[end+1:]) == "" {
			return nil
		}
		alts := strings.Split(body, ",")
		if len(alts) < 2 { // `{a}` is literal text in picomatch
			return nil
		}
		return withRawHead(p, end, literalAlts(alts))
	}
	return nil
}

// withRawHead adds the group as written (`{a,b}`) to its alternatives:
// picomatch first tests `input === glob`, so the path `{a,b}/x.md` matches
// the pattern `{a,b}/x.md` itself, under that first segment.
func withRawHead(p string, end int, alts []string) []string {
	if alts == nil {
		return nil
	}
	return append(alts, p[:end+1])
}

// literalAlts returns the alternatives when each is a conservative
// literal segment, else nil.
func literalAlts(alts []string) []string {
	for _, a := range alts {
		if a == "" || strings.Contains(a, "..") || literalHead(a) != a {
			return nil
		}
	}
	return alts
}

// ruleHeads is the set of first segments a rule can match (nil: any).
func ruleHeads(r *Rule) []string {
	var out []string
	for _, p := range r.Patterns {
		if p.Negated || p.Err != nil {
			return nil
		}
		hs := patternHeads(p.Text)
		if hs == nil {
			return nil
		}
		out = append(out, hs...)
	}
	return out
}

// ruleIndex maps a first segment to the rules (indexes, in order) that can
// match such a path; other holds the rules for any other first segment.
type ruleIndex struct {
	heads [][]string // per rule: the first segments it can match, nil = any
	by    map[string][]int
	other []int
}

func buildIndex(f *Filter) *ruleIndex {
	ix := &ruleIndex{heads: make([][]string, len(f.Rules)), by: map[string][]int{}}
	for i := range f.Rules {
		ix.heads[i] = ruleHeads(&f.Rules[i])
	}
	for i, h := range ix.heads {
		if h == nil {
			ix.other = append(ix.other, i)
		}
	}
	for _, hs := range ix.heads {
		for _, h := range hs {
			if ix.by[h] != nil {
				continue
			}
			var list []int
			for j, hj := range ix.heads {
				if hj == nil || containsStr(hj, h) {
					list = append(list, j)
				}
			}
			ix.by[h] = list
		}
	}
	return ix
}

// canMatch reports whether rule i can match a path with first segment seg.
func (ix *ruleIndex) canMatch(i int, seg string) bool {
	return ix.heads[i] == nil || containsStr(ix.heads[i], seg)
}

func containsStr(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// candidates returns the rules that can match a path with first segment seg.
func (ix *ruleIndex) candidates(seg string) []int {
	if l, ok := ix.by[seg]; ok {
		return l
	}
	return ix.other
}

// fileKey is what the index looks at in a path: its first segment and the
// extension of its last segment.
type fileKey struct{ seg, ext string }

// Special extensions: a path with glob metacharacters (it may equal a
// pattern: the equality shortcut) or ending in `/` is never ruled out by
// its extension; a last segment without a dot has none.
const (
	extAny  = "\x00any"
	extNone = "\x00none"
)

func keyOf(p string) fileKey {
	k := fileKey{seg: firstSegment(p)}
	last := p[strings.LastIndexByte(p, '/')+1:]
	switch {
	case strings.ContainsAny(p, "*?[]{}()!+@\\|") || strings.HasSuffix(p, "/"):
		k.ext = extAny
	case strings.LastIndexByte(last, '.') < 0:
		k.ext = extNone
	default:
		k.ext = last[strings.LastIndexByte(last, '.')+1:]
	}
	return k
}

// segments interns each file's key: ids[i] numbers files[i]'s, keys[id] is
// the key.
func segments(files []ChangedFile) (ids []int, keys []fileKey) {
	ids = make([]int, len(files))
	seen := map[fileKey]int{}
	for i, cf := range files {
		k := keyOf(cf.Path)
		id, ok := seen[k]
		if !ok {
			id = len(keys)
			seen[k] = id
			keys = append(keys, k)
		}
		ids[i] = id
	}
	return ids, keys
}

// candidatesFor returns the rules that can match a file with key k: those
// whose heads accept its first segment and some pattern of which accepts
// its extension, in rule order.
func (f *Filter) candidatesFor(k fileKey) []int {
	var out []int
	for _, i := range f.index.candidates(k.seg) {
		if f.Rules[i].acceptsExt(k.ext) {
			out = append(out, i)
		}
	}
	return out
}

// acceptsExt reports whether some pattern of r may match a path whose last
// segment has extension ext.
func (r *Rule) acceptsExt(ext string) bool {
	if ext == extAny {
		return true
	}
	for _, p := range r.Patterns {
		if p.suffixes == nil {
			return true
		}
		for _, s := range p.suffixes {
			if s[1:] == ext {
				return true
			}
		}
	}
	return false
}

// firstSegment is the path up to its first `/`.
func firstSegment(p string) string {
	if i := strings.IndexByte(p, '/'); i >= 0 {
		return p[:i]
	}
	return p
}

// literalSuffixes returns the endings a plain pattern forces on any path
// it matches other than through the equality shortcut: its last segment
// is `*.ext` or `*.{ext1,ext2}` with conservative literal extensions (the
// shape `**/*.{ts,tsx}` that real filters use). nil means no constraint.
// Paths ending in `/` are never rejected by it (see mayMatch).
func literalSuffixes(p string) []string {
	if IsNegated(p) || !literalHeadSafe(p) {
		return nil
	}
	i := strings.LastIndexByte(p, '/')
	last := p[i+1:]
	if !strings.HasPrefix(last, "*.") {
		return nil
	}
	ext := last[2:]
	var exts []string
	if strings.HasPrefix(ext, "{") && strings.HasSuffix(ext, "}") {
		exts = strings.Split(ext[1:len(ext)-1], ",")
		if len(exts) < 2 {
			return nil // `{a}` is literal text
		}
	} else {
		exts = []string{ext}
	}
	out := make([]string, 0, len(exts))
	for _, e := range exts {
		if e == "" || literalHead(e) != e || strings.Contains(e, ".") {
			return nil
		}
		out = append(out, "."+e)
	}
	return out
}

// literalHeadSafe reports whether p is free of the constructs that can
// leak out of picomatch's anchoring (see literalHead).
func literalHeadSafe(p string) bool {
	return !strings.ContainsAny(p, "[]\\()|")
}

// mayMatch is a cheap necessary condition for p to match path: false only
// when the pattern's forced ending is missing.
func (p *Pattern) mayMatch(path string) bool {
	if p.suffixes == nil || path == p.Text || strings.HasSuffix(path, "/") {
		return true
	}
	for _, s := range p.suffixes {
		if strings.HasSuffix(path, s) {
			return true
		}
	}
	return false
}
