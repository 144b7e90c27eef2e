package testregistry

import (
	"fmt"
	"io/fs"
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

// sglangBenchRepo is pybench.SglangTree(n) as a file system.
func sglangBenchRepo(n int) fstest.MapFS {
	m := fstest.MapFS{}
	for name, src := range pybench.SglangTree(n) {
		m[name] = &fstest.MapFile{Data: []byte(src)}
	}
	return m
}

// sglangScan scans fsys under the sglang profile and fails on any error
// finding: the generated tree must collect cleanly.
func sglangScan(b *testing.B, fsys fs.FS, cfg Config) {
	r, err := Scan(fsys, cfg)
	if err != nil {
		b.Fatal(err)
	}
	for _, f := range r.Findings {
		if f.Severity == finding.Error {
			b.Fatalf("unexpected finding: %v", f)
		}
	}
	if len(r.Registrations) == 0 {
		b.Fatal("no registrations")
	}
}

// BenchmarkScanSglang scans a generated tree of sglang's layout and size
// (3,500 files of 2-25 KB under test/registered, about 34 MB, suite tables
// in test/run_suite.py; see bench/registry/run_sglang.sh, which times
// sglang's own collector on the same shape of tree).
func BenchmarkScanSglang(b *testing.B) {
	fsys := sglangBenchRepo(3500)
	cfg := Sglang()
	cfg.OrphanSearch = nil
	b.SetBytes(int64(func() (n int) {
		for _, f := range fsys {
			n += len(f.Data)
		}
		return
	}()))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		sglangScan(b, fsys, cfg)
	}
}

// BenchmarkScanSglangDir is BenchmarkScanSglang on a real directory
// through DirFS, as the CLI reads it.
func BenchmarkScanSglangDir(b *testing.B) {
	dir := b.TempDir()
	for name, f := range sglangBenchRepo(3500) {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			b.Fatal(err)
		}
	}
	fsys := DirFS(dir)
	cfg := Sglang()
	cfg.OrphanSearch = nil
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		sglangScan(b, fsys, cfg)
	}
}
