package report

import (
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/cicheck/cicheck/finding"
)

// benchInput is 2,000 findings over 20 workflow files of 500 lines each,
// plus, when huge is set, one finding deep in a 10 MB single-line file (a
// minified blob committed under .github/workflows by mistake).
func benchInput(huge bool) ([]finding.Finding, Options) {
	var fs []finding.Finding
	src := map[string][]byte{}
	line := "      - run: echo \"日本語\" && make test\t# comment\n"
	for i := range 20 {
		file := fmt.Sprintf(".github/workflows/w%02d.yml", i)
		src[file] = []byte(strings.Repeat(line, 500))
		for j := range 100 {
			fs = append(fs, finding.Finding{Rule: "r", Severity: finding.Severity(j%3 + 1), File: file,
				Line: j*5 + 1, Column: j%40 + 1, Message: fmt.Sprintf("problem %d at line %d", j, j*5+1), Job: "build"})
		}
	}
	if huge {
		src["big.yml"] = []byte(strings.Repeat("a", 10<<20))
		fs = append(fs, finding.Finding{Rule: "big", Severity: finding.Error, File: "big.yml", Line: 1, Column: 9 << 20, Message: "deep"})
	}
	return fs, Options{Sources: src}
}

func BenchmarkWrite(b *testing.B) {
	fs, opts := benchInput(false)
	for _, format := range Formats() {
		b.Run(format, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if err := Write(io.Discard, format, fs, opts); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkWriteHugeLine shows the cost of a snippet deep in a 10 MB line:
// linear in the line, with memory bounded by the snippet width.
func BenchmarkWriteHugeLine(b *testing.B) {
	fs, opts := benchInput(true)
	b.ReportAllocs()
	for b.Loop() {
		if err := Write(io.Discard, "text", fs, opts); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkWriteManyOnOneLine: 1,000 and 4,000 findings along one line (a
// flow mapping of every job). Each line is measured once, so the cost per
// finding stays the snippet's window as the line grows.
func BenchmarkWriteManyOnOneLine(b *testing.B) {
	for _, n := range []int{1000, 4000} {
		var line strings.Builder
		var fs []finding.Finding
		for i := range n {
			fs = append(fs, finding.Finding{Rule: "r", Severity: finding.Notice, File: "w.yml", Line: 1, Column: line.Len() + 1, Message: "m"})
			fmt.Fprintf(&line, "j%d: {runs-on: foo-bar, steps: [{run: x}]}, ", i)
		}
		opts := Options{Sources: map[string][]byte{"w.yml": []byte(line.String())}}
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			for b.Loop() {
				if err := Write(io.Discard, "text", fs, opts); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
