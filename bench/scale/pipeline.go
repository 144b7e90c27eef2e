// Package scalebench generates the GPU pipelines of the scaling benchmark:
// a needs chain or a dense DAG of N jobs, with a bridge (always() or
// !cancelled()) every few jobs, jobs without if: between them, GPU jobs on
// self-hosted runners, and conditions that read needs results and outputs,
// as matrix expanders and per-model fan-outs produce them. The same
// arguments always give the same bytes.
package scalebench

import (
	"bytes"
	"fmt"
)

// Shapes are the DAG shapes Pipeline knows.
var Shapes = []string{"chain", "dense"}

// Pipeline returns a workflow of n jobs: shape "chain" (each job needs the
// previous one) or "dense" (each job needs the previous one and up to five
// of the 40 before it).
func Pipeline(n int, shape string) ([]byte, error) {
	if n < 1 || (shape != "chain" && shape != "dense") {
		return nil, fmt.Errorf("want n >= 1 and shape chain or dense, got %d, %q", n, shape)
	}
	var w bytes.Buffer
	fmt.Fprintf(&w, "name: generated-%s-%d\non:\n  push:\n  pull_request:\njobs:\n", shape, n)
	seed := uint32(12345)
	rnd := func(k int) int { // xorshift: deterministic, no math/rand seeding
		seed ^= seed << 13
		seed ^= seed >> 17
		seed ^= seed << 5
		return int(seed % uint32(k))
	}
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&w, "  j%d:\n", i)
		var needs []int
		switch {
		case i == 1:
		case shape == "chain":
			needs = []int{i - 1}
		default:
			needs = append(needs, i-1)
			for k := 0; k < 5 && i > 2; k++ {
				c := i - 2 - rnd(min(i-2, 40))
				dup := false
				for _, x := range needs {
					dup = dup || x == c
				}
				if !dup {
					needs = append(needs, c)
				}
			}
		}
		if len(needs) > 0 {
			fmt.Fprint(&w, "    needs: [")
			for k, x := range needs {
				if k > 0 {
					fmt.Fprint(&w, ", ")
				}
				fmt.Fprintf(&w, "j%d", x)
			}
			fmt.Fprintln(&w, "]")
		}
		switch {
		case i > 1 && i%5 == 0:
			fmt.Fprintln(&w, "    if: always()")
		case i > 1 && i%7 == 0:
			fmt.Fprintln(&w, "    if: ${{ !cancelled() }}")
		case i > 1 && i%11 == 0:
			fmt.Fprintf(&w, "    if: ${{ !cancelled() && needs.j%d.result == 'success' }}\n", needs[0])
		case i > 1 && i%13 == 0:
			fmt.Fprintf(&w, "    if: needs.j%d.outputs.run == 'true'\n", needs[0])
		}
		if i%3 == 0 {
			fmt.Fprintln(&w, "    runs-on: [self-hosted, linux, h100]")
		} else {
			fmt.Fprintln(&w, "    runs-on: ubuntu-latest")
		}
		fmt.Fprintln(&w, "    outputs:\n      run: ${{ steps.s.outputs.run }}")
		fmt.Fprintf(&w, "    steps:\n      - id: s\n        run: echo run=true >> \"$GITHUB_OUTPUT\"\n      - run: echo job %d\n", i)
	}
	return w.Bytes(), nil
}
