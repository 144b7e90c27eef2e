// Package pybench holds the Python test data the tests and benchmarks of
// pyparse and testregistry share: the typical test file the registry
// benchmarks scan and lex (the one bench/registry/gen.py writes), the tree
// of sglang's layout, and the fuzz targets' seeds.
package pybench

// File is a typical test file holding call ("" for none, and then no
// import of the registration markers either).
func File(call string) string {
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
