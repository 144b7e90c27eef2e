package workflowgraph

import (
	"fmt"
	"strings"
	"testing"
	"testing/fstest"
)

// BenchmarkRunnerMatrix builds a workflow of jobs whose runs-on is
// evaluated over a 4x4 matrix (16 legs each); the cost per job is the
// legs' evaluations, so it grows linearly with the jobs.
func BenchmarkRunnerMatrix(b *testing.B) {
	for _, n := range []int{100, 200} {
		var sb strings.Builder
		sb.WriteString("on: push\njobs:\n")
		for i := range n {
			fmt.Fprintf(&sb, "  j%d:\n    strategy:\n      matrix:\n        os: [linux, arm, mac, win]\n        gpu: [h100, b200, t4, l4]\n", i)
			sb.WriteString("    runs-on: [self-hosted, \"${{ matrix.os }}-${{ matrix.gpu }}\", \"${{ matrix.gpu == 'h100' && 'big' || 'small' }}\"]\n    steps: [{run: make}]\n")
		}
		fsys := fstest.MapFS{"w.yml": {Data: []byte(sb.String())}}
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			for b.Loop() {
				if w, _, err := Load(fsys, "w.yml"); err != nil || w == nil {
					b.Fatal(err)
				}
			}
		})
	}
}
