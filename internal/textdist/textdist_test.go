package textdist

import "testing"

func TestLevenshtein(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want int
	}{
		{"", "", 0},
		{"build", "build", 0},
		{"biuld", "build", 2},
		{"rcom", "rocm", 2},
		{"test", "tests", 1},
		{"", "abc", 3},
		{"kitten", "sitting", 3},
		{string(make([]byte, 65)), "a", 99},
	} {
		if got := Levenshtein(tc.a, tc.b); got != tc.want {
			t.Errorf("Levenshtein(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
	}
}
