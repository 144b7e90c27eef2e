#!/usr/bin/env python3
"""Generate an sglang-shaped repository of N registered test files.

Usage: gen_sglang.py DIR [N]   (N defaults to 3500, about sglang's size)

Writes DIR/test/run_suite.py (suite tables shaped like sglang's, our own
text) and N files under DIR/test/registered/, nested like sglang's tree
(unit/layers/attention, models, lora, quant, amd/accuracy/mi35x, ...),
2-25 KB each, of unittest or pytest code with one to three module-level
register_*_ci calls in both styles (suite=, and stage= with
runner_config=), some nightly, disabled or in_process_group, and a main
block. Every suite named is in the tables, so the tree collects cleanly:
cicheck registry check exits 0 and sglang's collect_tests and
validate_all_suites raise nothing. Besides the N test files the tree holds
the files the collectors skip (conftest.py, __init__.py, cpu/utils.py).
The output is a function of N alone (a fixed seed).
"""
import os
import random
import sys

DIRS = [  # (directory, weight); unit/ holds most of sglang's tree
    ("unit/layers/attention", 14), ("unit/layers/moe", 8), ("unit/layers/quantization", 6),
    ("unit/bench", 5), ("unit/batch_overlap", 3), ("unit/beam_search", 2), ("unit/managers", 6),
    ("unit/mem_cache", 5), ("unit/sampling", 4), ("unit/entrypoints/openai", 5), ("unit/utils", 4),
    ("unit/model_executor", 4), ("unit/speculative", 4), ("unit/afd", 2), ("unit/api/v1", 1),
    ("models", 3), ("lora", 3), ("quant", 3), ("spec", 2), ("hicache", 2), ("openai_server/basic", 2),
    ("openai_server/features", 2), ("distributed", 2), ("disaggregation", 2), ("ep", 1), ("vlm", 2),
    ("4-gpu-models", 1), ("8-gpu-models", 2), ("accuracy/models", 1), ("amd/accuracy/mi30x", 2),
    ("amd/accuracy/mi35x", 3), ("amd/perf", 1), ("cpu", 2), ("npu", 1), ("xpu", 1), ("mlx", 1),
]

# Suites per backend: (PER_COMMIT, NIGHTLY, OTHER). CUDA per-commit suites
# are named "<stage>-test-<runner>" so that stage=/runner_config= calls
# land in them.
CUDA_STAGES = [("base-a", "1-gpu-small"), ("base-b", "1-gpu-small"), ("base-b", "1-gpu-large"),
               ("base-b", "2-gpu-large"), ("base-b", "4-gpu-b200"), ("base-c", "4-gpu-h100"),
               ("base-c", "8-gpu-h200"), ("base-c", "8-gpu-b200"), ("base-c", "deepep-4-gpu-h100"),
               ("extra-a", "1-gpu-small"), ("extra-a", "1-gpu-large"), ("extra-b", "4-gpu-h100"),
               ("extra-b", "8-gpu-h200")]
SUITES = {
    "CPU": (["base-a-test-cpu", "base-b-test-cpu", "base-c-test-cpu", "base-b-test-cpu-arm64"], [], ["default"]),
    "CUDA": ([f"{s}-test-{r}" for s, r in CUDA_STAGES] + ["base-b-kernel-unit-test-1-gpu-large",
                                                           "base-b-kernel-benchmark-test-1-gpu-large"],
             ["nightly-1-gpu", "nightly-2-gpu", "nightly-4-gpu", "nightly-8-gpu", "nightly-8-gpu-h200",
              "nightly-8-gpu-b200", "nightly-eval-text-2-gpu", "nightly-perf-text-2-gpu", "nightly-kernel-1-gpu"],
             ["stress", "weekly-8-gpu-h200"]),
    "AMD": (["stage-a-test-1-gpu-small-amd", "stage-b-test-1-gpu-small-amd", "stage-b-test-1-gpu-large-amd",
             "stage-b-test-2-gpu-large-amd", "stage-c-test-4-gpu-amd", "stage-c-test-large-8-gpu-amd-mi35x",
             "extra-a-test-1-gpu-small-amd"],
            ["nightly-amd", "nightly-amd-1-gpu", "nightly-amd-1-gpu-mi35x", "nightly-amd-8-gpu-mi35x"], []),
    "MUSA": ([], ["nightly-musa-1-gpu"], []),
    "NPU": (["stage-b-test-1-npu-a2", "stage-b-test-2-npu-a2", "stage-b-test-4-npu-a3"],
            ["nightly-1-npu-a3", "nightly-4-npu-a3", "full-1-npu-a3"], []),
    "XPU": (["stage-a-test-1-gpu-xpu", "stage-b-test-1-gpu-xpu"], ["nightly-xpu-1-gpu"], []),
    "MLX": (["stage-a-unit-test-mlx", "stage-b-e2e-mlx"], [], []),
}
FUNC = {"CPU": "register_cpu_ci", "CUDA": "register_cuda_ci", "AMD": "register_amd_ci", "MUSA": "register_musa_ci",
        "NPU": "register_npu_ci", "XPU": "register_xpu_ci", "MLX": "register_mlx_ci"}
MODELS = ["Qwen/Qwen3-0.6B", "Qwen/Qwen3-8B", "meta-llama/Llama-3.1-8B-Instruct", "deepseek-ai/DeepSeek-V3-0324",
          "zai-org/GLM-4.6", "openai/gpt-oss-20b", "moonshotai/Kimi-K2-Instruct", "mistralai/Mistral-7B-Instruct-v0.3"]
TOPICS = ["attention", "radix cache", "moe routing", "fp8 gemm", "lora adapters", "speculative decoding",
          "chunked prefill", "sampling params", "tokenizer manager", "hierarchical cache", "structured output",
          "tool calling", "expert parallelism", "pipeline parallelism", "disaggregated prefill", "vision encoder"]


def words(rng, n):
    w = ["the", "server", "batch", "request", "returns", "tokens", "cache", "kernel", "output", "when", "with",
         "matches", "reference", "after", "decode", "prefill", "expected", "layer", "weights", "page", "size"]
    return " ".join(rng.choice(w) for _ in range(n))


def registration(rng, backend, i):
    """One register_*_ci call on backend, valid under sglang's grammar."""
    fn = FUNC[backend]
    per, nightly, other = SUITES[backend]
    est = rng.choice([5, 10, 30, 60, 90, 120, 180, 300, 600, 900, 1200]) if backend != "CPU" else rng.choice([2, 5, 10, 30])
    if rng.random() < 0.1:
        est = float(est) + 0.5
    kw = []
    r = rng.random()
    if backend == "CUDA" and r < 0.4:
        st, rc = rng.choice(CUDA_STAGES)
        suite_kw = [f'stage="{st}"', f'runner_config="{rc}"']
        suite = f"{st}-test-{rc}"
        night = False
    elif nightly and (r < 0.55 or not per):
        suite = rng.choice(nightly)
        suite_kw = [f'suite="{suite}"']
        night = True
    else:
        suite = rng.choice(per + other)
        suite_kw = [f'suite="{suite}"']
        night = False
    if night:
        suite_kw.append("nightly=True")
    if rng.random() < 0.06:
        kw.append(f'disabled="{rng.choice(["flaky on H100, see issue", "OOM on the runner", "needs a newer driver", "temporarily disabled"])}"')
    if not night and "stage=" in suite_kw[0] and rng.random() < 0.2:
        kw.append(f'in_process_group="{suite}-bundle-{i % 5}"')
    if rng.random() < 0.25 and "stage=" not in suite_kw[0]:  # positional est_time and suite
        args = [str(est), f'"{suite}"'] + suite_kw[1:] + kw
    else:
        args = [f"est_time={est}"] + suite_kw + kw
    one = f"{fn}({', '.join(args)})"
    if len(one) <= 88:
        return fn, one
    return fn, f"{fn}(\n" + "".join(f"    {a},\n" for a in args) + ")"


UNITTEST_CASE = '''

class Test{name}(CustomTestCase):
    """{doc}."""

    @classmethod
    def setUpClass(cls):
        cls.model = "{model}"
        cls.base_url = DEFAULT_URL_FOR_TEST
        cls.process = popen_launch_server(
            cls.model,
            cls.base_url,
            timeout=DEFAULT_TIMEOUT_FOR_SERVER_LAUNCH,
            other_args=[
                "--tp-size",
                "{tp}",
                "--mem-fraction-static",
                "{mem}",
                "--chunked-prefill-size",
                "{chunk}",
            ],
        )

    @classmethod
    def tearDownClass(cls):
        kill_process_tree(cls.process.pid)
'''

UNITTEST_METHOD = '''
    def test_{name}_{k}(self):
        """Check that {doc}."""
        response = requests.post(
            self.base_url + "/generate",
            json={{
                "text": "{prompt}",
                "sampling_params": {{"temperature": {temp}, "max_new_tokens": {tokens}}},
            }},
        )
        self.assertEqual(response.status_code, 200, response.text)
        output = response.json()
        self.assertIn("text", output)
        meta = output["meta_info"]
        self.assertGreater(meta["completion_tokens"], 0)
        self.assertLessEqual(meta["completion_tokens"], {tokens})
        if meta.get("cached_tokens", 0) > 0:
            self.assertLessEqual(meta["cached_tokens"], meta["prompt_tokens"])
        for i, piece in enumerate(output["text"].split()):
            self.assertIsInstance(piece, str, f"piece {{i}} of {{output['text']!r}}")
'''

PYTEST_FUNC = '''

@pytest.mark.parametrize("batch_size", [1, {b1}, {b2}])
@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16])
def test_{name}_{k}(batch_size, dtype):
    """{doc}."""
    torch.manual_seed({seed})
    hidden = {hidden}
    x = torch.randn(batch_size, hidden, dtype=dtype, device=DEVICE)
    w = torch.randn(hidden, hidden // {div}, dtype=dtype, device=DEVICE)
    ref = reference_{name}(x.float(), w.float()).to(dtype)
    out = fused_{name}(x, w)
    torch.testing.assert_close(out, ref, atol={atol}, rtol={rtol})
    assert out.shape == (batch_size, hidden // {div})
    assert not torch.isnan(out).any(), "NaN in the output of {name}"
'''

HELPER = '''

def reference_{name}(x, w):
    """Straightforward {topic} reference in float32."""
    y = x @ w
    if y.dim() == 2:
        y = y - y.mean(dim=-1, keepdim=True)
    return y


def fused_{name}(x, w):
    # The fused path under test; falls back to the reference off the GPU.
    if not torch.cuda.is_available():
        return reference_{name}(x.float(), w.float()).to(x.dtype)
    return reference_{name}(x, w)
'''


def body(rng, i, regs, size):
    name = f"{rng.choice(['fused', 'paged', 'batched', 'chunked', 'sparse', 'cached', 'grouped'])}_{i}"
    topic = rng.choice(TOPICS)
    style = "pytest" if rng.random() < 0.35 else "unittest"
    funcs = sorted({fn for fn, _ in regs})
    out = [f'"""Tests of {topic} ({words(rng, 6)})."""\n\n']
    if style == "unittest":
        out.append("import json\nimport os\nimport unittest\nfrom types import SimpleNamespace\n\nimport requests\n\n")
    else:
        out.append("import math\nimport os\nimport sys\n\nimport pytest\nimport torch\n\n")
    out.append(f"from sglang.test.ci.ci_register import {', '.join(funcs)}\n")
    if style == "unittest":
        out.append("from sglang.srt.utils import kill_process_tree\nfrom sglang.test.test_utils import (\n"
                   "    DEFAULT_TIMEOUT_FOR_SERVER_LAUNCH,\n    DEFAULT_URL_FOR_TEST,\n    CustomTestCase,\n"
                   "    popen_launch_server,\n)\n\n")
    else:
        out.append('\nDEVICE = "cuda" if torch.cuda.is_available() else "cpu"\n\n')
    out.append("".join(call + "\n" for _, call in regs))
    if style == "unittest":
        out.append(UNITTEST_CASE.format(name=name.title().replace("_", ""), doc=words(rng, 8).capitalize(),
                                        model=rng.choice(MODELS), tp=rng.choice([1, 2, 4, 8]),
                                        mem=rng.choice([0.7, 0.8, 0.85]), chunk=rng.choice([2048, 4096, 8192])))
        k = 0
        while sum(map(len, out)) < size:
            out.append(UNITTEST_METHOD.format(name=name, k=k, doc=words(rng, 7), prompt=words(rng, 9),
                                              temp=rng.choice([0, 0.5, 1.0]), tokens=rng.choice([16, 32, 64, 128])))
            k += 1
        out.append('\n\nif __name__ == "__main__":\n    unittest.main()\n')
    else:
        out.append(HELPER.format(name=name, topic=topic))
        k = 0
        while sum(map(len, out)) < size:
            out.append(PYTEST_FUNC.format(name=name, k=k, doc=words(rng, 8).capitalize(), b1=rng.choice([2, 4, 8]),
                                          b2=rng.choice([16, 32, 64]), seed=rng.randrange(1000),
                                          hidden=rng.choice([256, 512, 1024, 4096]), div=rng.choice([1, 2, 4]),
                                          atol=rng.choice(["1e-2", "2e-2", "5e-3"]), rtol=rng.choice(["1e-2", "1e-3"])))
            k += 1
        out.append('\n\nif __name__ == "__main__":\n    sys.exit(pytest.main([__file__, "-v"]))\n')
    return "".join(out)


def backends_for(d, rng):
    if d.startswith("amd"):
        return ["AMD"]
    if d in ("cpu", "npu", "xpu", "mlx"):
        return [d.upper()]
    r = rng.random()
    if r < 0.70:
        return ["CUDA"]
    if r < 0.82:
        return ["CUDA", "AMD"]
    if r < 0.90:
        return ["CPU"]
    if r < 0.95:
        return ["CUDA", "AMD", "NPU"]
    return ["CUDA", "MUSA"]


def run_suite_py():
    hw = ["CPU", "CUDA", "AMD", "MUSA", "NPU", "XPU", "MLX"]
    out = ['"""Run the CI suites of test/registered/ (benchmark fixture of cicheck)."""\n\n',
           "import argparse\nimport glob\nimport os\nimport sys\n\n",
           "from sglang.test.ci.ci_register import HWBackend, collect_tests\n\n",
           "HW_MAPPING = {\n" + "".join(f'    "{h.lower()}": HWBackend.{h},\n' for h in hw) + "}\n"]
    for title, idx in (("PER_COMMIT_SUITES", 0), ("NIGHTLY_SUITES", 1), ("OTHER_SUITES", 2)):
        out.append(f"\n# {title.replace('_', ' ').lower()}\n{title} = {{\n")
        for h in hw:
            suites = SUITES[h][idx]
            if idx == 2 and not suites:
                continue
            out.append(f"    HWBackend.{h}: [\n" + "".join(f'        "{s}",\n' for s in suites) + "    ],\n")
        out.append("}\n")
    out.append("\n_SUITE_CHECKED_BACKENDS = {\n" +
               "".join(f"    HWBackend.{h},\n" for h in ["CUDA", "CPU", "MUSA", "XPU", "MLX"]) + "}\n")
    out.append('''

def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--hw", choices=HW_MAPPING.keys(), required=True)
    parser.add_argument("--suite", required=True)
    args = parser.parse_args()
    here = os.path.dirname(os.path.abspath(__file__))
    files = glob.glob(os.path.join(here, "registered", "**", "*.py"), recursive=True)
    tests = collect_tests(files, sanity_check=True)
    print(len(tests), args.hw, args.suite)


if __name__ == "__main__":
    sys.exit(main())
''')
    return "".join(out)


def main():
    out = sys.argv[1]
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 3500
    rng = random.Random(30)
    reg = os.path.join(out, "test", "registered")
    os.makedirs(reg, exist_ok=True)
    with open(os.path.join(out, "test", "run_suite.py"), "w") as f:
        f.write(run_suite_py())
    dirs = [d for d, w in DIRS for _ in range(w)]
    # Files the collectors skip: conftest.py, __init__.py, cpu/utils.py.
    for d, _ in DIRS:
        os.makedirs(os.path.join(reg, d), exist_ok=True)
    with open(os.path.join(reg, "lora", "conftest.py"), "w") as f:
        f.write('import pytest\n\n\n@pytest.fixture\ndef adapter_dir(tmp_path):\n    return tmp_path\n')
    for d in ("unit", "unit/layers", "unit/bench"):
        open(os.path.join(reg, d, "__init__.py"), "w").close()
    with open(os.path.join(reg, "cpu", "utils.py"), "w") as f:
        f.write('"""Shared helpers of the CPU tests."""\n\nimport torch\n\n\ndef close(a, b):\n'
                '    return torch.allclose(a, b, atol=1e-3)\n')
    for i in range(n):
        d = rng.choice(dirs)
        backends = backends_for(d, rng)
        regs = []
        for b in backends[:3]:
            regs.append(registration(rng, b, i))
        # Sizes 2-25 KB, most small: a log-uniform draw.
        size = int(2000 * (12.5 ** rng.random()))
        src = body(rng, i, regs, size)
        with open(os.path.join(reg, d, f"test_{d.split('/')[-1].replace('-', '_')}_{i}.py"), "w") as f:
            f.write(src)


if __name__ == "__main__":
    main()
