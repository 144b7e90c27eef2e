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

// BenchmarkCallsFile and BenchmarkScanFile find the registration calls of
// the typical test file (which ends in a main block with a call), Scan
// also answering its main entry from the same lex: the two stay within a
// few percent.
func BenchmarkCallsFile(b *testing.B) { benchScan(b, false) }

func BenchmarkScanFile(b *testing.B) { benchScan(b, true) }

func benchScan(b *testing.B, main bool) {
	src := pybench.File(`register_cuda_ci(est_time=300, suite="stage-b-2-gpu-h200", labels=["precision", "short"])`)
	a := GetArena()
	defer PutArena(a)
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if main {
			m, err := Scan(src, 11, isTestMarker, a)
			if err != nil || len(m.Calls) != 1 || !m.MainCall {
				b.Fatal(m, err)
			}
			continue
		}
		calls, err := Calls(src, 11, isTestMarker, a)
		if err != nil || len(calls) != 1 {
			b.Fatal(calls, err)
		}
	}
}
