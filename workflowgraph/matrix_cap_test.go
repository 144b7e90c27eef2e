package workflowgraph

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
)

// row is a YAML flow list of n values named prefix0..prefixN-1.
func row(prefix string, n int) string {
	vs := make([]string, n)
	for i := range vs {
		vs[i] = fmt.Sprintf("%s%d", prefix, i)
	}
	return "[" + strings.Join(vs, ", ") + "]"
}

func matrixJob(t *testing.T, matrix string) *Job {
	t.Helper()
	w := load(t, map[string]string{"w.yml": "on: push\njobs:\n  j:\n    strategy:\n      matrix: " + matrix + "\n    runs-on: x\n    steps: [{run: echo}]\n"}, "w.yml")
	return w.Job("j")
}

// TestMatrixSize: the legs are counted as GitHub counts them, and the cap
// is GitHub's 256: 256 legs is a matrix, 257 is GitHub's error.
func TestMatrixSize(t *testing.T) {
	var eight []string
	for k := range 8 {
		eight = append(eight, fmt.Sprintf("k%d: %s", k, row("v", 20)))
	}
	var includes []string
	for i := range 300 {
		includes = append(includes, fmt.Sprintf("{gpu: g%d}", i))
	}
	for _, c := range []struct {
		name, matrix string
		n            int
		ok, legs     bool
	}{
		{"product", "{a: " + row("a", 2) + ", b: " + row("b", 3) + "}", 6, true, true},
		{"exactly the cap", "{a: " + row("a", 16) + ", b: " + row("b", 16) + "}", 256, true, true},
		{"one over the cap", "{a: " + row("a", 257) + "}", 257, true, false},
		{"over the cap, brought under by exclude", "{a: " + row("a", 17) + ", b: " + row("b", 16) + ", exclude: [{a: a16}]}", 256, true, true},
		{"include that fits none adds a leg", "{a: " + row("a", 16) + ", b: " + row("b", 16) + ", include: [{a: zz}]}", 257, true, false},
		{"include that fits extends", "{a: " + row("a", 16) + ", b: " + row("b", 16) + ", include: [{a: a1, c: x}]}", 256, true, true},
		{"include only", "{include: [" + strings.Join(includes, ", ") + "]}", 300, true, false},
		// Beyond the expansion cap: counted without expanding.
		{"3 keys x 20 values", "{a: " + row("a", 20) + ", b: " + row("b", 20) + ", c: " + row("c", 20) + ", include: [{a: a1, d: 1}, {a: new}]}", 8001, true, false},
		{"8 keys x 20 values saturates", "{" + strings.Join(eight, ", ") + "}", 1 << 20, true, false},
		// An exclude beyond the cap is not applied blindly: unknown.
		{"huge with exclude", "{a: " + row("a", 20) + ", b: " + row("b", 20) + ", c: " + row("c", 20) + ", exclude: [{a: a1}]}", 0, false, false},
		{"dynamic", `{gpu: "${{ fromJSON(inputs.gpus) }}"}`, 0, false, false},
	} {
		j := matrixJob(t, c.matrix)
		n, ok := MatrixSize(j)
		if n != c.n || ok != c.ok {
			t.Errorf("%s: MatrixSize = %d, %v; want %d, %v", c.name, n, ok, c.n, c.ok)
		}
		if legs, ok := Legs(j); ok != c.legs || ok && len(legs) != n {
			t.Errorf("%s: Legs = %d legs, %v; want legs %v", c.name, len(legs), ok, c.legs)
		}
	}
}

// TestMatrixSizeBounded: counting and expanding a 2.56e10-leg matrix
// allocates a bounded amount (its YAML is 1 KiB), not the product.
func TestMatrixSizeBounded(t *testing.T) {
	var keys []string
	for k := range 8 {
		keys = append(keys, fmt.Sprintf("k%d: %s", k, row("v", 20)))
	}
	j := matrixJob(t, "{"+strings.Join(keys, ", ")+"}")
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	for range 10 {
		MatrixSize(j)
		Legs(j)
	}
	runtime.ReadMemStats(&after)
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 64<<20 {
		t.Fatalf("10 counts allocated %d MiB", grew>>20)
	}
}
