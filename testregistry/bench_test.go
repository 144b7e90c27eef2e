package testregistry

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"testing/fstest"

	"github.com/cicheck/cicheck/finding"
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
		m[fmt.Sprintf("%s/group%d/test_case_%d.py", root, i%17, i)] = &fstest.MapFile{Data: []byte(benchFile(call))}
	}
	return m
}

func benchFile(call string) string {
	imp := ""
	if call != "" {
		imp = "from tests.ci.ci_register import register_cpu_ci, register_cuda_ci, register_rocm_ci\n"
	}
	return `"""End-to-end test of one training configuration."""

import os
import sys

import pytest

` + imp + `
` + call + `

MODEL = os.environ.get("MODEL", "Qwen/Qwen3-0.6B")
ARGS = {
    "tensor-model-parallel-size": 2,
    "pipeline-model-parallel-size": 1,
    "micro-batch-size": 4,
    "lr": 1e-6,
}


def build_command(extra=None):
    cmd = [sys.executable, "train.py", f"--model={MODEL}"]
    for key, value in ARGS.items():
        cmd += [f"--{key}", str(value)]
    return cmd + list(extra or [])


@pytest.mark.parametrize("steps", [1, 2, 4])
def test_runs(steps):
    cmd = build_command(["--num-steps", str(steps)])
    assert cmd[0] == sys.executable


if __name__ == "__main__":
    print(" ".join(build_command()))
`
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
