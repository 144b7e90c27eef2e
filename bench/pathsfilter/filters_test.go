package pfbench

import (
	"os"
	"strconv"
	"testing"

	"github.com/cicheck/cicheck/pathsfilter"
)

// BenchmarkFilters evaluates 20 dorny/paths-filter filters (200 patterns)
// on 100,000 changed files (PF_BENCH_PATHS overrides), as the action's
// `some` quantifier does, and reports ns per (file, filter) check and the
// number of (file, filter) memberships, which run.sh compares with Node.
func BenchmarkFilters(b *testing.B) {
	n := 100000
	if v, err := strconv.Atoi(os.Getenv("PF_BENCH_PATHS")); err == nil && v > 0 {
		n = v
	}
	src, files := Corpus(n)
	fs, err := pathsfilter.ParseFilters([]byte(src), pathsfilter.Origin{File: "corpus"})
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	var members int
	for i := 0; i < b.N; i++ {
		members = 0
		for _, r := range fs.Evaluate(files, pathsfilter.QuantSome) {
			if !r.CountKnown {
				b.Fatalf("filter %s: unknown (%s)", r.Name, r.Reason)
			}
			members += r.Count
		}
	}
	b.StopTimer()
	checks := float64(b.N) * float64(len(files)) * float64(len(fs.List))
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/checks, "ns/check")
	b.ReportMetric(float64(members), "members")
	b.ReportMetric(0, "ns/op")
}

// TestCorpusShape pins the corpus: 20 filters, 200 patterns.
func TestCorpusShape(t *testing.T) {
	src, files := Corpus(1000)
	fs, err := pathsfilter.ParseFilters([]byte(src), pathsfilter.Origin{File: "corpus"})
	if err != nil {
		t.Fatal(err)
	}
	pats := 0
	for _, f := range fs.List {
		for _, r := range f.Rules {
			pats += len(r.Patterns)
		}
	}
	if len(fs.List) != 20 || pats != 200 || len(files) != 1000 {
		t.Fatalf("filters=%d patterns=%d files=%d", len(fs.List), pats, len(files))
	}
}
