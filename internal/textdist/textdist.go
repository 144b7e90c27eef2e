// Package textdist measures how far apart two short names are, for the
// "did you mean" suggestions of several rules and of the command line
// (commands, flags, rule ids, configuration keys).
package textdist

// Levenshtein is the edit distance between a and b (insertions, deletions
// and substitutions of bytes). Names longer than 64 bytes are never close:
// it returns 99 for them rather than spend quadratic time.
func Levenshtein(a, b string) int { return distance(a, b, false) }

// Closest returns the candidate nearest to s by edit distance (insertions,
// deletions, substitutions and adjacent transpositions), if it is near
// enough to be a typo: at most 1 edit for names up to 4 bytes, 2 up to 8,
// 3 beyond. Ties go to the earlier candidate; "" when none is near.
func Closest(s string, candidates []string) string {
	limit := 3
	switch {
	case len(s) <= 4:
		limit = 1
	case len(s) <= 8:
		limit = 2
	}
	best, bestD := "", limit+1
	for _, c := range candidates {
		if c == s {
			return ""
		}
		if d := OSA(s, c); d < bestD {
			best, bestD = c, d
		}
	}
	return best
}

// OSA is the optimal-string-alignment distance of a and b: Levenshtein's
// insertions, deletions and substitutions plus transpositions of adjacent
// bytes ("lnit" is one edit from "lint"). Names longer than 64 bytes are
// never close: 99.
func OSA(a, b string) int { return distance(a, b, true) }

func distance(a, b string, transpose bool) int {
	if len(a) > 64 || len(b) > 64 {
		return 99
	}
	prev2 := make([]int, len(b)+1)
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if transpose && i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}
