package checks

import (
	"strings"
	"testing"
)

func TestMatrixTooLarge(t *testing.T) {
	row := func(key string, n int) string {
		vs := make([]string, n)
		for i := range vs {
			vs[i] = key + string(rune('a'+i%26)) + strings.Repeat("x", i/26)
		}
		return "        " + key + ": [" + strings.Join(vs, ", ") + "]\n"
	}
	job := func(rows string) string {
		return "on: push\njobs:\n  m:\n    runs-on: x\n    strategy:\n      matrix:\n" + rows + "    steps: [{run: x}]\n"
	}
	for _, c := range []struct{ name, src, want string }{
		{"257 legs", job(row("a", 257)),
			"w.yml:6:7: error [matrix-too-large] the matrix of m generates 257 jobs, more than the 256 GitHub allows: the job fails and none of its legs runs; split the matrix or list the legs with include job=m fix=\n"},
		{"a product past a million is counted, not expanded", job(row("a", 20) + row("b", 20) + row("c", 20) + row("d", 20) + row("e", 20)),
			"w.yml:6:7: error [matrix-too-large] the matrix of m generates at least 1048576 jobs, more than the 256 GitHub allows: the job fails and none of its legs runs; split the matrix or list the legs with include job=m fix=\n"},
		{"include adds a leg past the limit", job(row("a", 16)+row("b", 16)) + "", ""},
		// Near misses: at the limit, or brought under it by exclude.
		{"256 legs", job(row("a", 16) + row("b", 16)), ""},
		{"exclude brings it under", job(row("a", 17)+row("b", 16)) + "", ""},
		{"a matrix from an expression is not counted", "on: push\njobs:\n  m:\n    runs-on: x\n    strategy:\n      matrix: ${{ fromJSON(vars.M) }}\n    steps: [{run: x}]\n", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			src := c.src
			switch c.name {
			case "include adds a leg past the limit":
				src = strings.Replace(src, "    steps:", "        include: [{a: new, b: new}]\n    steps:", 1)
				c.want = "w.yml:6:7: error [matrix-too-large] the matrix of m generates 257 jobs, more than the 256 GitHub allows: the job fails and none of its legs runs; split the matrix or list the legs with include job=m fix=\n"
			case "exclude brings it under":
				var ex []string
				for i := 0; i < 16; i++ {
					ex = append(ex, "{a: aq, b: b"+string(rune('a'+i))+"}")
				}
				src = strings.Replace(src, "    steps:", "        exclude: ["+strings.Join(ex, ", ")+"]\n    steps:", 1)
			}
			if got := render(Run(loadSrc(t, src), "", nil, []*Rule{MatrixTooLarge})); got != c.want {
				t.Errorf("got\n%s\nwant\n%s", got, c.want)
			}
		})
	}
}
