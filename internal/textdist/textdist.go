// Package textdist measures how far apart two short names are, for the
// "did you mean" suggestions of several rules.
package textdist

// Levenshtein is the edit distance between a and b (insertions, deletions
// and substitutions of bytes). Names longer than 64 bytes are never close:
// it returns 99 for them rather than spend quadratic time.
func Levenshtein(a, b string) int {
	if len(a) > 64 || len(b) > 64 {
		return 99
	}
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
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
