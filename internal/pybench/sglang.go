package pybench

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
)

// SglangTree is an sglang-layout repository of n registered test files,
// shaped like the tree bench/registry/gen_sglang.py writes (not byte for
// byte): test/run_suite.py with its suite tables, and under
// test/registered/ nested directories of 2-25 KB unittest and pytest files
// (log-uniform sizes, median near 8 KB), each with one to three
// module-level register_*_ci calls in both styles (suite=, and stage= with
// runner_config=), some nightly, disabled or in_process_group, and a main
// block; plus the files the collector skips (conftest.py, __init__.py,
// cpu/utils.py). Every suite named is in the tables, so the tree scans
// clean. The result is a function of n alone: path -> content.
func SglangTree(n int) map[string]string {
	rng := rand.New(rand.NewPCG(30, 30))
	pick := func(s []string) string { return s[rng.IntN(len(s))] }
	var dirs []string
	for _, d := range sglangDirs {
		for range d.weight {
			dirs = append(dirs, d.dir)
		}
	}
	m := map[string]string{
		"test/run_suite.py":                      sglangRunSuite(),
		"test/registered/lora/conftest.py":       "import pytest\n\n\n@pytest.fixture\ndef adapter_dir(tmp_path):\n    return tmp_path\n",
		"test/registered/unit/__init__.py":       "",
		"test/registered/unit/bench/__init__.py": "",
		"test/registered/cpu/utils.py":           "\"\"\"Shared helpers of the CPU tests.\"\"\"\n\nimport torch\n\n\ndef close(a, b):\n    return torch.allclose(a, b, atol=1e-3)\n",
	}
	for i := range n {
		d := pick(dirs)
		var regs []string
		funcs := map[string]bool{}
		for _, b := range sglangBackends(d, rng.Float64()) {
			fn, call := sglangRegistration(rng, b, i)
			funcs[fn] = true
			regs = append(regs, call)
		}
		size := int(2000 * math.Pow(12.5, rng.Float64()))
		base := d[strings.LastIndexByte(d, '/')+1:]
		name := fmt.Sprintf("test/registered/%s/test_%s_%d.py", d, strings.ReplaceAll(base, "-", "_"), i)
		m[name] = sglangBody(rng, pick, i, funcs, regs, size)
	}
	return m
}

var sglangDirs = []struct {
	dir    string
	weight int
}{
	{"unit/layers/attention", 14}, {"unit/layers/moe", 8}, {"unit/layers/quantization", 6},
	{"unit/bench", 5}, {"unit/batch_overlap", 3}, {"unit/beam_search", 2}, {"unit/managers", 6},
	{"unit/mem_cache", 5}, {"unit/sampling", 4}, {"unit/entrypoints/openai", 5}, {"unit/utils", 4},
	{"unit/model_executor", 4}, {"unit/speculative", 4}, {"unit/afd", 2}, {"unit/api/v1", 1},
	{"models", 3}, {"lora", 3}, {"quant", 3}, {"spec", 2}, {"hicache", 2}, {"openai_server/basic", 2},
	{"openai_server/features", 2}, {"distributed", 2}, {"disaggregation", 2}, {"ep", 1}, {"vlm", 2},
	{"4-gpu-models", 1}, {"8-gpu-models", 2}, {"accuracy/models", 1}, {"amd/accuracy/mi30x", 2},
	{"amd/accuracy/mi35x", 3}, {"amd/perf", 1}, {"cpu", 2}, {"npu", 1}, {"xpu", 1}, {"mlx", 1},
}

var sglangStages = [][2]string{{"base-a", "1-gpu-small"}, {"base-b", "1-gpu-small"}, {"base-b", "1-gpu-large"},
	{"base-b", "2-gpu-large"}, {"base-b", "4-gpu-b200"}, {"base-c", "4-gpu-h100"},
	{"base-c", "8-gpu-h200"}, {"base-c", "8-gpu-b200"}, {"base-c", "deepep-4-gpu-h100"},
	{"extra-a", "1-gpu-small"}, {"extra-a", "1-gpu-large"}, {"extra-b", "4-gpu-h100"},
	{"extra-b", "8-gpu-h200"}}

var sglangHW = []string{"CPU", "CUDA", "AMD", "MUSA", "NPU", "XPU", "MLX"}

// sglangSuites are each backend's PER_COMMIT, NIGHTLY and OTHER suites.
var sglangSuites = func() map[string][3][]string {
	var cudaPer []string
	for _, s := range sglangStages {
		cudaPer = append(cudaPer, s[0]+"-test-"+s[1])
	}
	cudaPer = append(cudaPer, "base-b-kernel-unit-test-1-gpu-large", "base-b-kernel-benchmark-test-1-gpu-large")
	return map[string][3][]string{
		"CPU": {{"base-a-test-cpu", "base-b-test-cpu", "base-c-test-cpu", "base-b-test-cpu-arm64"}, nil, {"default"}},
		"CUDA": {cudaPer, {"nightly-1-gpu", "nightly-2-gpu", "nightly-4-gpu", "nightly-8-gpu", "nightly-8-gpu-h200",
			"nightly-8-gpu-b200", "nightly-eval-text-2-gpu", "nightly-perf-text-2-gpu", "nightly-kernel-1-gpu"},
			{"stress", "weekly-8-gpu-h200"}},
		"AMD": {{"stage-a-test-1-gpu-small-amd", "stage-b-test-1-gpu-small-amd", "stage-b-test-1-gpu-large-amd",
			"stage-b-test-2-gpu-large-amd", "stage-c-test-4-gpu-amd", "stage-c-test-large-8-gpu-amd-mi35x",
			"extra-a-test-1-gpu-small-amd"},
			{"nightly-amd", "nightly-amd-1-gpu", "nightly-amd-1-gpu-mi35x", "nightly-amd-8-gpu-mi35x"}, nil},
		"MUSA": {nil, {"nightly-musa-1-gpu"}, nil},
		"NPU": {{"stage-b-test-1-npu-a2", "stage-b-test-2-npu-a2", "stage-b-test-4-npu-a3"},
			{"nightly-1-npu-a3", "nightly-4-npu-a3", "full-1-npu-a3"}, nil},
		"XPU": {{"stage-a-test-1-gpu-xpu", "stage-b-test-1-gpu-xpu"}, {"nightly-xpu-1-gpu"}, nil},
		"MLX": {{"stage-a-unit-test-mlx", "stage-b-e2e-mlx"}, nil, nil},
	}
}()

func sglangRunSuite() string {
	var b strings.Builder
	b.WriteString("\"\"\"Run the CI suites of test/registered/ (benchmark fixture of cicheck).\"\"\"\n\n" +
		"import argparse\nimport glob\nimport os\nimport sys\n\n" +
		"from sglang.test.ci.ci_register import HWBackend, collect_tests\n\nHW_MAPPING = {\n")
	for _, h := range sglangHW {
		fmt.Fprintf(&b, "    %q: HWBackend.%s,\n", strings.ToLower(h), h)
	}
	b.WriteString("}\n")
	for idx, title := range []string{"PER_COMMIT_SUITES", "NIGHTLY_SUITES", "OTHER_SUITES"} {
		fmt.Fprintf(&b, "\n%s = {\n", title)
		for _, h := range sglangHW {
			ss := sglangSuites[h][idx]
			if idx == 2 && len(ss) == 0 {
				continue
			}
			fmt.Fprintf(&b, "    HWBackend.%s: [\n", h)
			for _, s := range ss {
				fmt.Fprintf(&b, "        %q,\n", s)
			}
			b.WriteString("    ],\n")
		}
		b.WriteString("}\n")
	}
	b.WriteString("\n_SUITE_CHECKED_BACKENDS = {\n    HWBackend.CUDA,\n    HWBackend.CPU,\n    HWBackend.MUSA,\n" +
		"    HWBackend.XPU,\n    HWBackend.MLX,\n}\n\n\ndef main():\n    parser = argparse.ArgumentParser()\n" +
		"    parser.add_argument(\"--hw\", choices=HW_MAPPING.keys(), required=True)\n" +
		"    args = parser.parse_args()\n    here = os.path.dirname(os.path.abspath(__file__))\n" +
		"    files = glob.glob(os.path.join(here, \"registered\", \"**\", \"*.py\"), recursive=True)\n" +
		"    print(len(collect_tests(files)), args.hw)\n\n\nif __name__ == \"__main__\":\n    sys.exit(main())\n")
	return b.String()
}

func sglangBackends(d string, r float64) []string {
	switch {
	case strings.HasPrefix(d, "amd"):
		return []string{"AMD"}
	case d == "cpu" || d == "npu" || d == "xpu" || d == "mlx":
		return []string{strings.ToUpper(d)}
	case r < 0.70:
		return []string{"CUDA"}
	case r < 0.82:
		return []string{"CUDA", "AMD"}
	case r < 0.90:
		return []string{"CPU"}
	case r < 0.95:
		return []string{"CUDA", "AMD", "NPU"}
	}
	return []string{"CUDA", "MUSA"}
}

var sglangFunc = map[string]string{"CPU": "register_cpu_ci", "CUDA": "register_cuda_ci", "AMD": "register_amd_ci",
	"MUSA": "register_musa_ci", "NPU": "register_npu_ci", "XPU": "register_xpu_ci", "MLX": "register_mlx_ci"}

func sglangRegistration(rng *rand.Rand, backend string, i int) (string, string) {
	fn := sglangFunc[backend]
	s := sglangSuites[backend]
	per, nightly, other := s[0], s[1], s[2]
	ests := []string{"5", "10", "30", "60", "90", "120", "180", "300", "600", "900", "1200"}
	if backend == "CPU" {
		ests = []string{"2", "5", "10", "30"}
	}
	est := ests[rng.IntN(len(ests))]
	if rng.Float64() < 0.1 {
		est += ".5"
	}
	var suiteKw, kw []string
	stage := false
	r := rng.Float64()
	switch {
	case backend == "CUDA" && r < 0.4:
		st := sglangStages[rng.IntN(len(sglangStages))]
		suiteKw = []string{fmt.Sprintf("stage=%q", st[0]), fmt.Sprintf("runner_config=%q", st[1])}
		stage = true
		if rng.Float64() < 0.2 {
			kw = append(kw, fmt.Sprintf("in_process_group=\"%s-test-%s-bundle-%d\"", st[0], st[1], i%5))
		}
	case len(nightly) > 0 && (r < 0.55 || len(per) == 0):
		suiteKw = []string{fmt.Sprintf("suite=%q", nightly[rng.IntN(len(nightly))]), "nightly=True"}
	default:
		all := append(append([]string{}, per...), other...)
		suiteKw = []string{fmt.Sprintf("suite=%q", all[rng.IntN(len(all))])}
	}
	if rng.Float64() < 0.06 {
		kw = append(kw, `disabled="flaky on H100, see issue"`)
	}
	var args []string
	if !stage && rng.Float64() < 0.25 { // positional est_time and suite
		args = append(append([]string{est, strings.TrimPrefix(suiteKw[0], "suite=")}, suiteKw[1:]...), kw...)
	} else {
		args = append(append([]string{"est_time=" + est}, suiteKw...), kw...)
	}
	one := fn + "(" + strings.Join(args, ", ") + ")"
	if len(one) <= 88 {
		return fn, one
	}
	return fn, fn + "(\n    " + strings.Join(args, ",\n    ") + ",\n)"
}

var sglangWords = strings.Fields("the server batch request returns tokens cache kernel output when with " +
	"matches reference after decode prefill expected layer weights page size")

func sglangBody(rng *rand.Rand, pick func([]string) string, i int, funcs map[string]bool, regs []string, size int) string {
	words := func(n int) string {
		w := make([]string, n)
		for k := range w {
			w[k] = pick(sglangWords)
		}
		return strings.Join(w, " ")
	}
	name := fmt.Sprintf("%s_%d", pick([]string{"fused", "paged", "batched", "chunked", "sparse", "cached", "grouped"}), i)
	var fs []string
	for _, f := range []string{"register_amd_ci", "register_cpu_ci", "register_cuda_ci", "register_mlx_ci",
		"register_musa_ci", "register_npu_ci", "register_xpu_ci"} {
		if funcs[f] {
			fs = append(fs, f)
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "\"\"\"Tests of %s (%s).\"\"\"\n\n", pick([]string{"attention", "radix cache", "moe routing",
		"fp8 gemm", "lora adapters", "speculative decoding", "chunked prefill", "sampling params"}), words(6))
	unit := rng.Float64() >= 0.35
	if unit {
		b.WriteString("import json\nimport os\nimport unittest\nfrom types import SimpleNamespace\n\nimport requests\n\n")
	} else {
		b.WriteString("import math\nimport os\nimport sys\n\nimport pytest\nimport torch\n\n")
	}
	fmt.Fprintf(&b, "from sglang.test.ci.ci_register import %s\n", strings.Join(fs, ", "))
	if unit {
		b.WriteString("from sglang.srt.utils import kill_process_tree\nfrom sglang.test.test_utils import (\n" +
			"    DEFAULT_TIMEOUT_FOR_SERVER_LAUNCH,\n    DEFAULT_URL_FOR_TEST,\n    CustomTestCase,\n" +
			"    popen_launch_server,\n)\n\n")
	} else {
		b.WriteString("\nDEVICE = \"cuda\" if torch.cuda.is_available() else \"cpu\"\n\n")
	}
	for _, r := range regs {
		b.WriteString(r + "\n")
	}
	if unit {
		fmt.Fprintf(&b, `

class Test%s(CustomTestCase):
    """%s."""

    @classmethod
    def setUpClass(cls):
        cls.model = "Qwen/Qwen3-8B"
        cls.base_url = DEFAULT_URL_FOR_TEST
        cls.process = popen_launch_server(
            cls.model,
            cls.base_url,
            timeout=DEFAULT_TIMEOUT_FOR_SERVER_LAUNCH,
            other_args=["--tp-size", "%d", "--mem-fraction-static", "0.8"],
        )

    @classmethod
    def tearDownClass(cls):
        kill_process_tree(cls.process.pid)
`, className(name), words(8), 1<<rng.IntN(4))
		for k := 0; b.Len() < size; k++ {
			fmt.Fprintf(&b, `
    def test_%s_%d(self):
        """Check that %s."""
        response = requests.post(
            self.base_url + "/generate",
            json={
                "text": "%s",
                "sampling_params": {"temperature": %s, "max_new_tokens": %d},
            },
        )
        self.assertEqual(response.status_code, 200, response.text)
        output = response.json()
        self.assertIn("text", output)
        meta = output["meta_info"]
        self.assertGreater(meta["completion_tokens"], 0)
        self.assertLessEqual(meta["completion_tokens"], %[6]d)
        if meta.get("cached_tokens", 0) > 0:
            self.assertLessEqual(meta["cached_tokens"], meta["prompt_tokens"])
        for i, piece in enumerate(output["text"].split()):
            self.assertIsInstance(piece, str, f"piece {i} of {output['text']!r}")
`, name, k, words(7), words(9), pick([]string{"0", "0.5", "1.0"}), 16<<rng.IntN(4))
		}
		b.WriteString("\n\nif __name__ == \"__main__\":\n    unittest.main()\n")
		return b.String()
	}
	fmt.Fprintf(&b, `

def reference_%[1]s(x, w):
    """Straightforward reference in float32."""
    y = x @ w
    if y.dim() == 2:
        y = y - y.mean(dim=-1, keepdim=True)
    return y


def fused_%[1]s(x, w):
    # The fused path under test; falls back to the reference off the GPU.
    if not torch.cuda.is_available():
        return reference_%[1]s(x.float(), w.float()).to(x.dtype)
    return reference_%[1]s(x, w)
`, name)
	for k := 0; b.Len() < size; k++ {
		fmt.Fprintf(&b, `

@pytest.mark.parametrize("batch_size", [1, %d, %d])
@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16])
def test_%s_%d(batch_size, dtype):
    """%s."""
    torch.manual_seed(%d)
    hidden = %d
    x = torch.randn(batch_size, hidden, dtype=dtype, device=DEVICE)
    w = torch.randn(hidden, hidden // %d, dtype=dtype, device=DEVICE)
    ref = reference_%[3]s(x.float(), w.float()).to(dtype)
    out = fused_%[3]s(x, w)
    torch.testing.assert_close(out, ref, atol=1e-2, rtol=1e-3)
    assert out.shape == (batch_size, hidden // %[8]d)
    assert not torch.isnan(out).any(), "NaN in the output of %[3]s"
`, 2<<rng.IntN(3), 16<<rng.IntN(3), name, k, words(8), rng.IntN(1000), 256<<rng.IntN(4), 1<<rng.IntN(3))
	}
	b.WriteString("\n\nif __name__ == \"__main__\":\n    sys.exit(pytest.main([__file__, \"-v\"]))\n")
	return b.String()
}

// className is name in CamelCase: fused_12 -> Fused12.
func className(name string) string {
	var b strings.Builder
	up := true
	for _, c := range name {
		switch {
		case c == '_':
			up = true
		case up && c >= 'a' && c <= 'z':
			b.WriteRune(c - 'a' + 'A')
			up = false
		default:
			b.WriteRune(c)
			up = false
		}
	}
	return b.String()
}
