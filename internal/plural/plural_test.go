package plural

import "testing"

func TestCount(t *testing.T) {
	for _, c := range []struct {
		n    int
		one  string
		many []string
		want string
	}{
		{0, "job", nil, "0 jobs"},
		{1, "job", nil, "1 job"},
		{2, "job", nil, "2 jobs"},
		{-1, "job", nil, "-1 jobs"},
		{1, "entry", []string{"entries"}, "1 entry"},
		{3, "entry", []string{"entries"}, "3 entries"},
	} {
		if got := Count(c.n, c.one, c.many...); got != c.want {
			t.Errorf("Count(%d, %q, %q) = %q, want %q", c.n, c.one, c.many, got, c.want)
		}
	}
	if got := Word(1, "is", "are"); got != "is" {
		t.Errorf("Word(1) = %q", got)
	}
	if got := Word(2, "is", "are"); got != "are" {
		t.Errorf("Word(2) = %q", got)
	}
}
