package globbench

import (
	"os"
	"strconv"
	"testing"

	"github.com/cicheck/cicheck/pathsfilter"
)

func corpusSize() int {
	if n, err := strconv.Atoi(os.Getenv("GLOB_BENCH_PATHS")); err == nil && n > 0 {
		return n
	}
	return 100000
}

// BenchmarkPicomatchCorpus matches every corpus path against every pattern;
// one op is one full pass. ns/match is comparable with picomatch_bench.js.
func BenchmarkPicomatchCorpus(b *testing.B) {
	patterns, paths := Corpus(corpusSize())
	ms := make([]*pathsfilter.Picomatch, len(patterns))
	for i, p := range patterns {
		m, err := pathsfilter.CompilePicomatch(p)
		if err != nil {
			b.Fatal(err)
		}
		ms[i] = m
	}
	b.ResetTimer()
	matches := 0
	for i := 0; i < b.N; i++ {
		matches = 0
		for _, path := range paths {
			for _, m := range ms {
				if m.Match(path) {
					matches++
				}
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(paths)*len(ms)), "ns/match")
	b.ReportMetric(float64(matches), "matches")
}

// TestCorpusShape keeps the corpus at the documented size.
func TestCorpusShape(t *testing.T) {
	p, paths := Corpus(1000)
	if len(p) != 200 || len(paths) != 1000 {
		t.Fatalf("corpus has %d patterns, %d paths", len(p), len(paths))
	}
}

// BenchmarkPicomatchCorpusPrepared is the same pass with each path prepared
// once (pathsfilter.PreparePath) and matched with MatchPath, as a caller
// checking every changed file against every filter rule would do.
func BenchmarkPicomatchCorpusPrepared(b *testing.B) {
	patterns, paths := Corpus(corpusSize())
	ms := make([]*pathsfilter.Picomatch, len(patterns))
	for i, p := range patterns {
		m, err := pathsfilter.CompilePicomatch(p)
		if err != nil {
			b.Fatal(err)
		}
		ms[i] = m
	}
	b.ResetTimer()
	matches := 0
	for i := 0; i < b.N; i++ {
		matches = 0
		for _, path := range paths {
			pp := pathsfilter.PreparePath(path)
			for _, m := range ms {
				if m.MatchPath(&pp) {
					matches++
				}
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(paths)*len(ms)), "ns/match")
	b.ReportMetric(float64(matches), "matches")
}
