#!/usr/bin/env python3
"""Generate a miles-shaped repository of N test files for the registry benchmark.

Usage: gen.py DIR [N]   (N defaults to 2000)
The file shapes match testregistry/bench_test.go (BenchmarkScan2000).
"""
import os
import sys

ROOTS = ["tests/fast", "tests/fast-gpu", "tests/e2e", "tests/ci"]
LABELS = ["megatron", "model-scripts", "sglang", "fsdp", "short", "long", "ckpt", "lora", "eval", "precision",
          "ft-short", "ft-long", "weight-update", "fully-async", "replay", "qwen35", "mooncake", "miles-plugin", "amd"]
CALLS = {
    "tests/fast": "",
    "tests/fast-gpu": 'register_cuda_ci(est_time=300, suite="stage-b-2-gpu-h200", labels=["precision", "short"])',
    "tests/e2e": 'register_cuda_ci(\n    est_time=1200,\n    suite="stage-c-8-gpu-h100",\n    labels=["megatron"],\n)\n'
                 'register_rocm_ci(est_time=900, suite="stage-c-4-gpu-mi350", labels=["amd"], nightly=True)',
    "tests/ci": 'register_cpu_ci(est_time=5, suite="stage-a-cpu")',
}
BODY = '''"""End-to-end test of one training configuration."""

import os
import sys

import pytest

{imp}
{call}

MODEL = os.environ.get("MODEL", "Qwen/Qwen3-0.6B")
ARGS = {{
    "tensor-model-parallel-size": 2,
    "pipeline-model-parallel-size": 1,
    "micro-batch-size": 4,
    "lr": 1e-6,
}}


def build_command(extra=None):
    cmd = [sys.executable, "train.py", f"--model={{MODEL}}"]
    for key, value in ARGS.items():
        cmd += [f"--{{key}}", str(value)]
    return cmd + list(extra or [])


@pytest.mark.parametrize("steps", [1, 2, 4])
def test_runs(steps):
    cmd = build_command(["--num-steps", str(steps)])
    assert cmd[0] == sys.executable


if __name__ == "__main__":
    print(" ".join(build_command()))
'''


def main():
    out = sys.argv[1]
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 2000
    os.makedirs(os.path.join(out, "tests/ci"), exist_ok=True)
    with open(os.path.join(out, "tests/ci/labels.py"), "w") as f:
        f.write("KNOWN_LABELS: dict[str, str] = {\n" + "".join(f'    "{l}": "",\n' for l in LABELS) + "}\n")
    for i in range(n):
        root = ROOTS[i % len(ROOTS)]
        d = os.path.join(out, root, f"group{i % 17}")
        os.makedirs(d, exist_ok=True)
        call = CALLS[root]
        imp = "from tests.ci.ci_register import register_cpu_ci, register_cuda_ci, register_rocm_ci" if call else ""
        with open(os.path.join(d, f"test_case_{i}.py"), "w") as f:
            f.write(BODY.format(imp=imp, call=call))


if __name__ == "__main__":
    main()
