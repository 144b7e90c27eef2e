package testregistry

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"testing/fstest"

	"github.com/cicheck/cicheck/finding"
	"github.com/cicheck/cicheck/internal/pybench"
)

// benchRepo generates n test files shaped like the miles registry: a
// docstring, imports, one to three registrations, and test functions.
func benchRepo(n int) fstest.MapFS {
	m := repo(nil)
	roots := []string{"tests/fast", "tests/fast-gpu", "tests/e2e", "tests/ci"}
	for i := 0; i < n; i++ {
		root := roots[i%len(roots)]
		var call string
		switch root {
		case "tests/fast":
			call = ""
		case "tests/fast-gpu":
			call = `register_cuda_ci(est_time=300, suite="stage-b-2-gpu-h200", labels=["precision", "short"])`
		case "tests/e2e":
			call = "register_cuda_ci(\n    est_time=1200,\n    suite=\"stage-c-8-gpu-h100\",\n    labels=[\"megatron\"],\n)\n" +
				`register_rocm_ci(est_time=900, suite="stage-c-4-gpu-mi350", labels=["amd"], nightly=True)`
		default:
			call = `register_cpu_ci(est_time=5, suite="stage-a-cpu")`
		}
		m[fmt.Sprintf("%s/group%d/test_case_%d.py", root, i%17, i)] = &fstest.MapFile{Data: []byte(pybench.File(call))}
	}
	return m
}

// BenchmarkScan2000 scans a generated tree of 2,000 test files. Compare with
// bench/registry/run.sh, which times the Python ast collector on the same
// shape of tree.
func BenchmarkScan2000(b *testing.B) {
	fsys := benchRepo(2000)
	cfg := DefaultConfig()
	cfg.OrphanSearch = nil
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		r, err := Scan(fsys, cfg)
		if err != nil {
			b.Fatal(err)
		}
		if r.HasErrors() {
			for _, f := range r.Findings {
				if f.Severity == finding.Error {
					b.Fatalf("unexpected finding: %v", f)
				}
			}
		}
	}
}

// BenchmarkScanDir2000 is BenchmarkScan2000 on a real directory through
// DirFS, as the CLI reads it: system calls and read buffers included.
func BenchmarkScanDir2000(b *testing.B) {
	dir := b.TempDir()
	for name, f := range benchRepo(2000) {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			b.Fatal(err)
		}
	}
	fsys := DirFS(dir)
	cfg := DefaultConfig()
	cfg.OrphanSearch = nil
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := Scan(fsys, cfg); err != nil {
			b.Fatal(err)
		}
	}
}
