// Command gen writes a generated GPU pipeline for the scaling benchmark
// (bench/scale/run.sh); see package scalebench.
//
//	go run ./bench/scale/gen -jobs 2000 -shape dense > pipeline.yml
package main

import (
	"flag"
	"fmt"
	"os"

	scalebench "github.com/cicheck/cicheck/bench/scale"
)

func main() {
	n := flag.Int("jobs", 1000, "number of jobs")
	shape := flag.String("shape", "chain", "chain (each job needs the previous one) or dense (each job also needs up to five of the 40 before it)")
	flag.Parse()
	src, err := scalebench.Pipeline(*n, *shape)
	if err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(2)
	}
	_, _ = os.Stdout.Write(src)
}
