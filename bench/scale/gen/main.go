// Command gen writes a generated GPU pipeline of N jobs for the scaling
// benchmark (bench/scale/run.sh): a needs chain or a dense DAG, with a
// bridge (`always()` or `!cancelled()`) every few jobs, jobs without if:
// between them, GPU jobs on self-hosted runners, and conditions that read
// needs results and outputs, as matrix expanders and per-model fan-outs
// produce them. The same flags always print the same bytes.
//
//	go run ./bench/scale/gen -jobs 2000 -shape dense > pipeline.yml
package main

import (
	"bufio"
	"flag"
	"fmt"
	"os"
)

func main() {
	n := flag.Int("jobs", 1000, "number of jobs")
	shape := flag.String("shape", "chain", "chain (each job needs the previous one) or dense (each job needs up to 6 earlier ones)")
	flag.Parse()
	if *n < 1 || (*shape != "chain" && *shape != "dense") {
		fmt.Fprintln(os.Stderr, "gen: -jobs must be >= 1 and -shape chain or dense")
		os.Exit(2)
	}
	w := bufio.NewWriter(os.Stdout)
	defer w.Flush()
	fmt.Fprintf(w, "name: generated-%s-%d\non:\n  push:\n  pull_request:\njobs:\n", *shape, *n)
	seed := uint32(12345)
	rnd := func(k int) int { // xorshift: deterministic, no math/rand seeding
		seed ^= seed << 13
		seed ^= seed >> 17
		seed ^= seed << 5
		return int(seed % uint32(k))
	}
	for i := 1; i <= *n; i++ {
		fmt.Fprintf(w, "  j%d:\n", i)
		var needs []int
		switch {
		case i == 1:
		case *shape == "chain":
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
			fmt.Fprint(w, "    needs: [")
			for k, x := range needs {
				if k > 0 {
					fmt.Fprint(w, ", ")
				}
				fmt.Fprintf(w, "j%d", x)
			}
			fmt.Fprintln(w, "]")
		}
		gpu := i%3 == 0
		switch {
		case i > 1 && i%5 == 0:
			fmt.Fprintln(w, "    if: always()")
		case i > 1 && i%7 == 0:
			fmt.Fprintln(w, "    if: ${{ !cancelled() }}")
		case i > 1 && i%11 == 0:
			fmt.Fprintf(w, "    if: ${{ !cancelled() && needs.j%d.result == 'success' }}\n", needs[0])
		case i > 1 && i%13 == 0:
			fmt.Fprintf(w, "    if: needs.j%d.outputs.run == 'true'\n", needs[0])
		}
		if gpu {
			fmt.Fprintln(w, "    runs-on: [self-hosted, linux, h100]")
		} else {
			fmt.Fprintln(w, "    runs-on: ubuntu-latest")
		}
		fmt.Fprintln(w, "    outputs:\n      run: ${{ steps.s.outputs.run }}")
		fmt.Fprintf(w, "    steps:\n      - id: s\n        run: echo run=true >> \"$GITHUB_OUTPUT\"\n      - run: echo job %d\n", i)
	}
}
