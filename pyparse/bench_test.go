package pyparse

import (
	"testing"

	"github.com/cicheck/cicheck/internal/pybench"
)

// BenchmarkLexFile lexes and syntax-checks one typical test file.
func BenchmarkLexFile(b *testing.B) {
	src := pybench.File(`register_cuda_ci(est_time=300, suite="stage-b-2-gpu-h200", labels=["precision", "short"])`)
	b.SetBytes(int64(len(src)))
	for i := 0; i < b.N; i++ {
		if _, err := lexLines(src, false, nil); err != nil {
			b.Fatal(err)
		}
	}
}
