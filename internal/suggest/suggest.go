// Package suggest finds the known name a mistyped one most likely meant,
// for "did you mean" hints on commands, flags, rule ids and config keys.
package suggest

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
		if d := distance(s, c, bestD); d < bestD {
			best, bestD = c, d
		}
	}
	return best
}

// distance is the optimal-string-alignment distance of a and b, or a value
// ≥ max once it is certain to reach max (names are short; no allocation
// beyond three rows).
func distance(a, b string, max int) int {
	if d := len(a) - len(b); d >= max || -d >= max {
		return max
	}
	prev2 := make([]int, len(b)+1)
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		rowMin := cur[0]
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
			rowMin = min(rowMin, cur[j])
		}
		if rowMin >= max {
			return max
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}
