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
// literal, else "". The rest of the pattern may only use `*`, `?`, braces
// and plain characters: a `|`, a bracket, a paren or an escape anywhere can
// leak out of picomatch's anchoring (an unclosed extglob such as
// `a/@(|b/` matches `b/`), so such patterns are never indexed.
func literalHead(p string) string {
	if strings.ContainsAny(p, "|()[]\\!+@") {
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

// ruleHead is the literal first segment every pattern of r shares, or "".
func ruleHead(r *Rule) string {
	h := ""
	for i, p := range r.Patterns {
		if p.Negated || p.Err != nil {
			return ""
		}
		ph := literalHead(p.Text)
		if ph == "" || (i > 0 && ph != h) {
			return ""
		}
		h = ph
	}
	return h
}

// ruleIndex maps a first segment to the rules (indexes, in order) that can
// match such a path; other holds the rules for any other first segment.
type ruleIndex struct {
	heads []string // per rule: its literal head or ""
	by    map[string][]int
	other []int
}

func buildIndex(f *Filter) *ruleIndex {
	ix := &ruleIndex{heads: make([]string, len(f.Rules)), by: map[string][]int{}}
	for i := range f.Rules {
		ix.heads[i] = ruleHead(&f.Rules[i])
	}
	for i, h := range ix.heads {
		if h == "" {
			ix.other = append(ix.other, i)
		}
	}
	for i, h := range ix.heads {
		if h == "" || ix.by[h] != nil {
			continue
		}
		var list []int
		for j, hj := range ix.heads {
			if hj == "" || hj == h {
				list = append(list, j)
			}
		}
		ix.by[h] = list
		_ = i
	}
	return ix
}

// candidates returns the rules that can match a path with first segment seg.
func (ix *ruleIndex) candidates(seg string) []int {
	if l, ok := ix.by[seg]; ok {
		return l
	}
	return ix.other
}

// firstSegment is the path up to its first `/`.
func firstSegment(p string) string {
	if i := strings.IndexByte(p, '/'); i >= 0 {
		return p[:i]
	}
	return p
}
