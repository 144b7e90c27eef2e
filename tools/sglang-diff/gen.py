#!/usr/bin/env python3
"""Differential cases for cicheck's sglang CI registry, judged by sglang's own code.

  python3 tools/sglang-diff/gen.py --ref /work/sglang-ref/000853484b65d2f5e522a882cbd78252a2bb40df [N] [SEED] \\
      > testregistry/testdata/sglang-differential.json

(from the repository root; N = 160 cases per file class, 2-4 times that
for wrong-type, main-block, char, line and token, trees = 8 * N; SEED = 30;
about 40 s). Output is deterministic for a given N, SEED and python3. The oracle is sgl-project/sglang at commit
000853484b65d2f5e522a882cbd78252a2bb40df: its
python/sglang/test/ci/ci_register.py (RegistryVisitor, collect_tests,
auto_partition) and test/run_suite.py (validate_all_suites, filter_tests,
load_live_est), imported by path from --ref under python3.11. Those files
are sglang's (Apache-2.0) and live OUTSIDE this repository; only this
generator and its output are committed. sglang.test.ci.ci_utils (which
imports the rest of sglang) and tabulate are stubbed.

The seeds are our own synthetic test files in sglang's style, not copies of
sglang's. Every case is either

  file  one seed with one edit (an argument-level change to a register_*_ci
        call, a main-block change, or a character/line/token mutation), with
        RegistryVisitor._parse_call_args's verdict on every module-level
        marker call, has_main_entry, and collect_tests([path]);
  tree  a small test/registered/ tree, a stand-in test/run_suite.py holding
        only table literals (patched into the run_suite module), an optional
        partition model file and a request (hw, suite, nightly, partition),
        judged by run_a_suite's own sequence up to run_unittest_files.

Files are stored as edits of a seed ([byte offset, bytes deleted, text
inserted], offsets into the seed, ascending), so the JSON holds each seed
once. The Go test rebuilds every file and needs no Python; with
REGISTRY_PYTHON set it can instead run

  python3 tools/sglang-diff/gen.py --ref DIR --oracle < cases.json

which reads {"seeds", "tables_base", "cases"} in this file's format (the
"want" fields ignored; a file case may give "path" and "src" instead of
"seed" and "edits", a tree file "text" instead of "seed" and "edits", a
tree case "tables_text" instead of "tables_edits") and prints
{"python", "verdicts": [...]}, one verdict per case in order.

The reference globs test/registered in directory-listing order, which no
filesystem promises; this generator sorts the glob. What hangs on that order:
a tree verdict's "enabled" and "skipped" lists always (compare them as
multisets); its "units" when unpartitioned ("unordered": true); the lines of
validate_all_suites's error ("unordered": true when there are several); which
of several bad files collect_tests names ("unordered": true, every candidate
under "alternatives"). Partitioned units are in the reference's own order.
"""
import argparse
import ast
import contextlib
import difflib
import importlib.util
import io
import json
import os
import random
import shutil
import sys
import tempfile
import tokenize
import types
import warnings

COMMIT = "000853484b65d2f5e522a882cbd78252a2bb40df"

REF = None  # ci_register module
TMP = "/dev/shm" if os.path.isdir("/dev/shm") else None
RS = None  # run_suite module


# --------------------------------------------------------------------------
# The reference, imported by path.

def load_reference(ref_dir):
    global REF, RS
    for name in ("sglang", "sglang.test", "sglang.test.ci"):
        m = types.ModuleType(name)
        m.__path__ = []
        sys.modules[name] = m
    path = os.path.join(ref_dir, "python/sglang/test/ci/ci_register.py")
    spec = importlib.util.spec_from_file_location("sglang.test.ci.ci_register", path)
    REF = importlib.util.module_from_spec(spec)
    sys.modules["sglang.test.ci.ci_register"] = REF
    spec.loader.exec_module(REF)
    utils = types.ModuleType("sglang.test.ci.ci_utils")
    utils.RUNS = []

    def run_unittest_files(files, **kw):
        utils.RUNS.append(list(files))
        return 0

    utils.run_unittest_files = run_unittest_files
    sys.modules["sglang.test.ci.ci_utils"] = utils
    try:
        import tabulate  # noqa: F401
    except ImportError:
        tab = types.ModuleType("tabulate")
        tab.tabulate = lambda rows, headers=(), tablefmt=None: repr((headers, rows))
        sys.modules["tabulate"] = tab
    spec = importlib.util.spec_from_file_location("sglang_run_suite", os.path.join(ref_dir, "test/run_suite.py"))
    RS = importlib.util.module_from_spec(spec)
    sys.modules["sglang_run_suite"] = RS
    spec.loader.exec_module(RS)


# --------------------------------------------------------------------------
# Seeds: our own files, in the shapes sglang's test/registered files take.

SEEDS = {
    "test/registered/unit/mem_cache/test_page_rounding.py": '''\
import unittest

from sglang.test.ci.ci_register import register_cuda_ci
from sglang.test.test_utils import CustomTestCase

register_cuda_ci(est_time=12, stage="base-b", runner_config="1-gpu-small")


def _round_up(x, m):
    return (x + m - 1) // m * m


class TestPageRounding(CustomTestCase):
    def test_rounds_up(self):
        self.assertEqual(_round_up(17, 16), 32)

    def test_zero(self):
        self.assertEqual(_round_up(0, 16), 0)


if __name__ == "__main__":
    unittest.main()
''',
    "test/registered/cpu/test_rms_norm_cpu.py": '''\
import itertools
import unittest

import torch

from sglang.test.ci.ci_register import register_cpu_ci
from sglang.test.test_utils import CustomTestCase

register_cpu_ci(5, "base-a-test-cpu")

torch.manual_seed(1234)


class TestRMSNormCPU(CustomTestCase):
    shapes = [(4, 64), (16, 4096)]
    dtypes = [torch.float32, torch.bfloat16]

    def _check(self, shape, dtype):
        x = torch.randn(shape, dtype=dtype)
        w = torch.ones(shape[-1], dtype=dtype)
        ref = x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-6) * w
        self.assertEqual(ref.shape, x.shape)

    def test_rms_norm(self):
        for shape, dtype in itertools.product(self.shapes, self.dtypes):
            with self.subTest(shape=shape, dtype=dtype):
                self._check(shape, dtype)


if __name__ == "__main__":
    unittest.main()
''',
    "test/registered/kernels/test_tree_mask_indices.py": '''\
import pytest
import torch

from sglang.test.ci.ci_register import register_amd_ci, register_cuda_ci

register_cuda_ci(est_time=15, stage="base-b-kernel-unit", runner_config="1-gpu-large")
register_amd_ci(est_time=15, suite="jit-kernel-unit-test-amd")


@pytest.mark.parametrize("bs", [1, 4])
def test_indices_shape(bs):
    mask = torch.ones(bs, 8, dtype=torch.bool)
    assert mask.sum().item() == bs * 8


def test_empty_mask():
    assert torch.zeros(0, dtype=torch.bool).numel() == 0


if __name__ == "__main__":
    import sys

    sys.exit(pytest.main([__file__, "-v"]))
''',
    "test/registered/8-gpu-models/test_big_moe_eval.py": '''\
import unittest
from types import SimpleNamespace

from sglang.srt.utils import kill_process_tree
from sglang.test.ci.ci_register import register_cuda_ci
from sglang.test.few_shot_gsm8k import run_eval
from sglang.test.test_utils import (
    DEFAULT_TIMEOUT_FOR_SERVER_LAUNCH,
    DEFAULT_URL_FOR_TEST,
    CustomTestCase,
    popen_launch_server,
)

register_cuda_ci(est_time=900, suite="nightly-8-gpu-h200", nightly=True)
register_cuda_ci(est_time=600, stage="base-c", runner_config="8-gpu-h200", disabled="flaky on h200 pool")

MODEL = "example-org/big-moe-instruct"


class TestBigMoEEval(CustomTestCase):
    @classmethod
    def setUpClass(cls):
        cls.base_url = DEFAULT_URL_FOR_TEST
        cls.process = popen_launch_server(
            MODEL,
            cls.base_url,
            timeout=DEFAULT_TIMEOUT_FOR_SERVER_LAUNCH,
            other_args=["--tp", "8", "--trust-remote-code"],
        )

    @classmethod
    def tearDownClass(cls):
        kill_process_tree(cls.process.pid)

    def test_gsm8k(self):
        args = SimpleNamespace(num_shots=5, num_questions=200, parallel=64, host="http://127.0.0.1", port=30000)
        metrics = run_eval(args)
        self.assertGreater(metrics["accuracy"], 0.9)


if __name__ == "__main__":
    unittest.main()
''',
    "test/registered/amd/test_fused_rope_amd.py": '''\
"""Fused rotary embedding on ROCm; no server."""

import unittest

from sglang.test.ci.ci_register import register_amd_ci
from sglang.test.test_utils import CustomTestCase

register_amd_ci(est_time=45, suite="stage-a-test-1-gpu-small-amd", in_process_group="rope_unit")


class TestFusedRopeAMD(CustomTestCase):
    def test_cos_sin_cache(self):
        self.assertTrue(True)


if __name__ == "__main__":
    unittest.main()
''',
    "test/registered/unit/sampling/test_penalty_rows.py": '''\
import unittest

from sglang.test.ci.ci_register import register_cpu_ci, register_cuda_ci
from sglang.test.test_utils import CustomTestCase

register_cuda_ci(est_time=8, stage="base-a", runner_config="1-gpu-small", in_process_group="sampling_unit")
register_cpu_ci(est_time=3, suite="base-b-test-cpu", in_process_group="sampling_unit")


class TestPenaltyRows(CustomTestCase):
    def test_frequency(self):
        counts = [0, 2, 1]
        self.assertEqual(sum(counts), 3)

    def test_presence(self):
        self.assertIn(2, [0, 2, 1])


if __name__ == "__main__":
    unittest.main(verbosity=2)
''',
    "test/registered/npu/test_npu_graph_capture.py": '''\
import os
import unittest

from sglang.test.ci.ci_register import register_npu_ci
from sglang.test.test_utils import CustomTestCase

register_npu_ci(est_time=400, suite="nightly-1-npu-a3", nightly=True)
register_npu_ci(est_time=200, suite="stage-b-test-1-npu-a2")

os.environ.setdefault("ASCEND_RT_VISIBLE_DEVICES", "0")


class TestNPUGraphCapture(CustomTestCase):
    def test_capture_sizes(self):
        self.assertEqual(sorted([8, 1, 4]), [1, 4, 8])


if __name__ == "__main__":
    unittest.main()
''',
    "test/registered/xpu/test_xpu_smoke.py": '''\
import sys

import pytest

from sglang.test.ci.ci_register import register_xpu_ci

register_xpu_ci(est_time=30.5, suite="stage-a-test-1-gpu-xpu")


def test_device_count():
    assert 1 + 1 == 2


if __name__ == "__main__":
    sys.exit(pytest.main([__file__, "-v"]))
''',
    "test/registered/mlx/test_mlx_unit.py": '''\
import unittest

from sglang.test.ci.ci_register import register_mlx_ci, register_musa_ci

register_mlx_ci(est_time=20, stage="stage-a", runner_config="unit-mlx")
register_musa_ci(est_time=60, suite="nightly-musa-1-gpu", nightly=True)


class TestMLXUnit(unittest.TestCase):
    def test_ok(self):
        self.assertEqual(len("mlx"), 3)


if __name__ == "__main__":
    unittest.main()
''',
    "test/registered/lora/test_lora_disabled.py": '''\
import unittest

from sglang.test.ci.ci_register import register_cuda_ci
from sglang.test.test_utils import CustomTestCase

register_cuda_ci(
    est_time=240,
    suite="stress",
    disabled="temporarily disabled: adapter cache regression",
)


class TestLoRAEviction(CustomTestCase):
    def test_evict(self):
        pass


if __name__ == "__main__":
    pass
''',
    "test/registered/spec/test_eagle_accept_len.py": '''\
import unittest

import requests

from sglang.test.ci.ci_register import register_amd_ci, register_cuda_ci
from sglang.test.test_utils import CustomTestCase

register_cuda_ci(est_time=180, stage="extra-a", runner_config="1-gpu-large")
register_cuda_ci(est_time=360, suite="nightly-1-gpu", nightly=True)
register_amd_ci(est_time=200, suite="nightly-amd-1-gpu", nightly=True, disabled="needs mi35x")


class TestEagleAcceptLength(CustomTestCase):
    def test_accept_length(self):
        response = requests.Response()
        self.assertIsNotNone(response)


if __name__ == "__main__":
    unittest.main()
''',
    "test/registered/unit/test_request_headers_plain.py": '''\
from sglang.test.ci.ci_register import register_cpu_ci

register_cpu_ci(2, "base-c-test-cpu", False, None)


def test_header_roundtrip():
    headers = {"x-request-id": "abc"}
    assert headers["x-request-id"] == "abc"
''',
}


# --------------------------------------------------------------------------
# Edits: a text as ascending [at, del, ins] hunks of a base (byte offsets).

def edits_of(base, text):
    a = base.splitlines(keepends=True)
    b = text.splitlines(keepends=True)
    offs = [0]
    for line in a:
        offs.append(offs[-1] + len(line.encode()))
    out = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if tag == "equal":
            continue
        out.append([offs[i1], offs[i2] - offs[i1], "".join(b[j1:j2])])
    return out


def apply_edits(base, edits):
    raw = base.encode()
    parts = []
    pos = 0
    for at, dl, ins in edits:
        parts.append(raw[pos:at])
        parts.append(ins.encode("utf-8", "surrogatepass"))
        pos = at + dl
    parts.append(raw[pos:])
    return b"".join(parts).decode("utf-8", "surrogatepass")


# --------------------------------------------------------------------------
# Verdicts.

def rel(s, root):
    return s.replace(root + os.sep, "").replace(root, "")


def err(e, root=None):
    msg = str(e)
    if root:
        msg = rel(msg, root)
    return {"type": type(e).__name__, "msg": msg}


def reg_fields(backend, p):
    eff = p["suite"]
    if p["stage"] is not None and p["runner_config"] is not None:
        eff = "%s-test-%s" % (p["stage"], p["runner_config"])
    return {"backend": backend.name, "est_time": repr(p["est_time"]), "stage": p["stage"],
            "runner_config": p["runner_config"], "suite": p["suite"], "effective_suite": eff,
            "nightly": p["nightly"], "disabled": p["disabled"], "in_process_group": p["in_process_group"]}


def file_verdict(path, src):
    """The reference's view of one file at path (relative to a fresh root)."""
    out = {"syntax": None, "calls": [], "has_main_entry": None}
    root = tempfile.mkdtemp(prefix="sgdiff-", dir=TMP)
    cwd = os.getcwd()
    try:
        full = os.path.join(root, path)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "w", encoding="utf-8", errors="surrogatepass") as f:
            f.write(src)
        os.chdir(root)
        try:
            with open(path, "r") as f:
                tree = ast.parse(f.read(), filename=path)
        except SyntaxError as e:
            out["syntax"] = {"line": e.lineno, "offset": e.offset, "msg": e.msg}
            tree = None
        except Exception as e:  # noqa: BLE001 - recorded, not hidden
            out["syntax"] = {"line": None, "offset": None, "msg": "%s: %s" % (type(e).__name__, e)}
            tree = None
        if tree is not None:
            v = REF.RegistryVisitor(filename=path)
            for stmt in tree.body:
                if not (isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call)):
                    continue
                c = stmt.value
                if not (isinstance(c.func, ast.Name) and c.func.id in REF.REGISTER_MAPPING):
                    continue
                entry = {"line": c.lineno, "col": c.col_offset + 1, "func": c.func.id}
                try:
                    entry["reg"] = reg_fields(REF.REGISTER_MAPPING[c.func.id], v._parse_call_args(c))
                except Exception as e:  # noqa: BLE001
                    entry["error"] = err(e)
                out["calls"].append(entry)
            out["has_main_entry"] = any(isinstance(s, ast.If) and REF.RegistryVisitor._is_main_block_with_call(s)
                                        for s in tree.body)
        try:
            regs = REF.collect_tests([path], sanity_check=True)
            out["collect"] = {"ok": True, "registries": len(regs)}
        except Exception as e:  # noqa: BLE001
            out["collect"] = dict(ok=False, **err(e))
    finally:
        os.chdir(cwd)
        shutil.rmtree(root, ignore_errors=True)
    return out


def tree_verdict(files, tables_text, model, request):
    """run_a_suite's sequence, up to run_unittest_files, on a fresh tree."""
    root = tempfile.mkdtemp(prefix="sgdiff-", dir=TMP)
    try:
        script_dir = os.path.join(root, "test")
        os.makedirs(os.path.join(script_dir, "registered"), exist_ok=True)
        for path, src in files:
            full = os.path.join(root, path)
            if path.endswith("/"):
                os.makedirs(full, exist_ok=True)
                continue
            os.makedirs(os.path.dirname(full), exist_ok=True)
            with open(full, "w", encoding="utf-8", errors="surrogatepass") as f:
                f.write(src)
        with open(os.path.join(script_dir, "run_suite.py"), "w") as f:
            f.write(tables_text)
        ns = {"HWBackend": REF.HWBackend}
        exec(compile(tables_text, "test/run_suite.py", "exec"), ns)
        for name in ("PER_COMMIT_SUITES", "NIGHTLY_SUITES", "OTHER_SUITES", "_SUITE_CHECKED_BACKENDS", "HW_MAPPING"):
            setattr(RS, name, ns[name])
        model_path = None
        if model is not None:
            model_path = os.path.join(root, model["path"])
            if "text" in model:
                os.makedirs(os.path.dirname(model_path), exist_ok=True)
                with open(model_path, "w", encoding="utf-8") as f:
                    f.write(model["text"])
        hw = RS.HW_MAPPING[request["hw"]]
        repo_root = os.path.dirname(script_dir)
        found = [f for f in glob_registered(script_dir)
                 if not f.endswith("/conftest.py") and not f.endswith("/__init__.py") and not f.endswith("/cpu/utils.py")]
        out = {}
        try:
            all_tests = REF.collect_tests(found, sanity_check=True)
            RS.validate_all_suites(all_tests)
            buf = io.StringIO()
            with contextlib.redirect_stdout(buf):
                enabled, skipped = RS.filter_tests(all_tests, hw, request["suite"], request["nightly"])
            out["warning_unknown_suite"] = "Warning: Unknown suite" in buf.getvalue()
            out["enabled"] = [{"file": rel(t.filename, root), "est_time": repr(t.est_time)} for t in enabled]
            out["skipped"] = [{"file": rel(t.filename, root), "disabled": t.disabled} for t in skipped]
            part = request.get("partition")
            if part:
                live = RS.load_live_est(model_path, request["suite"], repo_root)
                out["live_est"] = live is not None
                units = REF.auto_partition(enabled, part[0], part[1], live_est=live)
                out["unordered"] = False
            else:
                live = None
                units = enabled
                out["unordered"] = True
            ul = []
            for u in units:
                if isinstance(u, REF.CIBundle):
                    ul.append({"group": u.group_key, "est": repr(float(u.est_time)),
                               "members": [rel(m.filename, root) for m in u.members]})
                else:
                    est = live[u.filename] if live is not None and u.filename in live else u.est_time
                    ul.append({"file": rel(u.filename, root), "est": repr(est)})
            out["units"] = ul
        except Exception as e:  # noqa: BLE001
            out = {"error": err(e, root)}
            if isinstance(e, ValueError) and str(e).startswith("Tests registered to invalid suites:") \
                    and str(e).count("\n") > 1:
                out["unordered"] = True  # its lines follow glob order
            # collect_tests stops at the first bad file in glob order: when
            # several fail, the reference may report any of them.
            alts = []
            for f in found:
                try:
                    REF.collect_tests([f], sanity_check=True)
                except Exception as e2:  # noqa: BLE001
                    alts.append(err(e2, root))
            if len(alts) > 1 and out["error"] in alts:
                out["unordered"] = True
                out["alternatives"] = alts
        return out
    finally:
        shutil.rmtree(root, ignore_errors=True)


def glob_registered(script_dir):
    """run_a_suite's glob, sorted: the reference takes directory-listing
    order, which no filesystem promises; sorting keeps this file stable."""
    import glob
    return sorted(glob.glob(os.path.join(script_dir, "registered", "**", "*.py"), recursive=True))


# --------------------------------------------------------------------------
# File mutations.

VALUES = ["True", "False", "None", "0", "1", "-1", "2.5", "-3.0", "+5", "0.0", "-0.0", "1e400", "1" + "0" * 400,
          "0x10", "1_000", "5j", "'x'", '"base-a-test-cpu"', "b'x'", "''", "[1]", "('a',)", "{}", "...", "SUITE",
          "cfg.suite", "str(5)", "f'x'", "f'{x}'", "'base-a' 'test-cpu'", "u'x'", "r'x'", "(60)", "60 * 2",
          "not True", "[]", "\"\"\"doc\"\"\"", "float('inf')", "10 ** 400", "1 if x else 2"]
UNKNOWN_KW = ["labels=['megatron']", "timeout=30", "est=5", "Suite='x'", "suite_name='x'", "gpu=1", "stages='a'"]
FUNCS = ["register_cpu_ci", "register_cuda_ci", "register_amd_ci", "register_musa_ci", "register_npu_ci",
         "register_xpu_ci", "register_mlx_ci"]
PARAM_ORDER = ["est_time", "suite", "nightly", "disabled"]
ALL_PARAMS = PARAM_ORDER + ["stage", "runner_config", "in_process_group"]


def marker_calls(src):
    tree = ast.parse(src)
    out = []
    for stmt in tree.body:
        if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call) and isinstance(stmt.value.func, ast.Name) \
                and stmt.value.func.id.startswith("register_"):
            out.append(stmt.value)
    return out


def span(src, node):
    lines = src.splitlines(keepends=True)
    start = sum(len(x) for x in lines[:node.lineno - 1]) + node.col_offset
    end = sum(len(x) for x in lines[:node.end_lineno - 1]) + node.end_col_offset
    return start, end


def call_items(src, c):
    items = [("pos", None, ast.get_source_segment(src, a)) for a in c.args]
    for k in c.keywords:
        if k.arg is None:
            items.append(("kw", None, "**" + ast.get_source_segment(src, k.value)))
        else:
            items.append(("kw", k.arg, ast.get_source_segment(src, k.value)))
    return items


def render_call(func, items, rng):
    parts = []
    for kind, name, val in items:
        if kind == "pos" or name is None:
            parts.append(val)
        else:
            parts.append("%s=%s" % (name, val))
    if len(parts) > 2 and rng.random() < 0.3:
        return "%s(\n%s\n)" % (func, "".join("    %s,\n" % p for p in parts).rstrip("\n"))
    return "%s(%s)" % (func, ", ".join(parts))


def arg_mutation(cls, rng, src):
    calls = marker_calls(src)
    if not calls:
        return None
    c = rng.choice(calls)
    func = c.func.id
    items = call_items(src, c)
    kws = [i for i, it in enumerate(items) if it[0] == "kw"]
    pos = [i for i, it in enumerate(items) if it[0] == "pos"]
    if cls == "arg-drop":
        if not items:
            return None
        del items[rng.randrange(len(items))]
    elif cls == "arg-dup":
        if not items:
            return None
        i = rng.randrange(len(items))
        items.insert(rng.randint(0, len(items)), items[i])
        items = [it for it in items if it[0] == "pos"] + [it for it in items if it[0] == "kw"] \
            if rng.random() < 0.7 else items
    elif cls == "arg-reorder":
        if len(items) < 2:
            return None
        rng.shuffle(items)
    elif cls == "pos-to-kw":
        if not pos:
            return None
        i = rng.choice(pos)
        name = rng.choice(PARAM_ORDER) if rng.random() < 0.2 else PARAM_ORDER[min(i, 3)]
        items[i] = ("kw", name, items[i][2])
        items = [it for it in items if it[0] == "pos"] + [it for it in items if it[0] == "kw"]
    elif cls == "kw-to-pos":
        if not kws:
            return None
        i = rng.choice(kws)
        it = items.pop(i)
        npos = len([x for x in items if x[0] == "pos"])
        items.insert(rng.randint(0, npos), ("pos", None, it[2]))
    elif cls == "wrong-type":
        if not items:
            return None
        i = rng.randrange(len(items))
        kind, name, _ = items[i]
        if name is None and kind == "kw":
            return None
        items[i] = (kind, name, rng.choice(VALUES))
    elif cls == "wrong-type-add":
        name = rng.choice(ALL_PARAMS)
        items = [it for it in items if it[1] != name]
        items.append(("kw", name, rng.choice(VALUES)))
    elif cls == "unknown-kwarg":
        items.insert(rng.randint(len(pos), len(items)), ("kw", None, rng.choice(UNKNOWN_KW)))
    elif cls == "star-kwargs":
        items.insert(rng.randint(len(pos), len(items)), ("kw", None, rng.choice(["**cfg", "**{'suite': 'x'}", "**{}"])))
    elif cls == "star-args":
        items.insert(rng.randint(0, len(pos)), ("pos", None, rng.choice(["*args", "*[]", "*(5, 'x')"])))
    elif cls == "too-many-pos":
        extra = rng.randint(1, 3)
        base = [("pos", None, v) for v in ["60", '"base-a-test-cpu"', "False", "None", '"x"', "1"]]
        items = base[:rng.randint(4, 6)] if rng.random() < 0.5 else \
            [("pos", None, it[2]) for it in items] + base[:extra]
    elif cls == "stage-shape":
        items = [it for it in items if it[1] not in ("suite", "stage", "runner_config") and not
                 (it[0] == "pos" and items.index(it) == 1)]
        est = [it for it in items if it[1] == "est_time" or it[0] == "pos"]
        rest = [it for it in items if it not in est]
        shape = rng.choice([("stage",), ("runner_config",), ("stage", "suite"), ("runner_config", "suite"),
                            ("stage", "runner_config", "suite"), (), ("stage", "runner_config"), ("suite",)])
        vals = {"stage": rng.choice(['"base-b"', '"extra-a"', '""', "None", '"stage-a"']),
                "runner_config": rng.choice(['"1-gpu-small"', '"cpu"', '""', "None", '"8-gpu-h200"']),
                "suite": rng.choice(['"base-b-test-1-gpu-small"', "None", '"stress"', '""'])}
        if "suite" in shape and rng.random() < 0.3 and est and len([e for e in est if e[0] == "pos"]) == 1:
            est.append(("pos", None, vals["suite"]))
            shape = tuple(s for s in shape if s != "suite")
        items = est + [("kw", s, vals[s]) for s in shape] + rest
    elif cls == "group-backend":
        func = rng.choice(["register_musa_ci", "register_mlx_ci", "register_npu_ci", "register_xpu_ci", func])
        items = [it for it in items if it[1] != "in_process_group"]
        items.append(("kw", "in_process_group", rng.choice(['"g"', '""', "None", "1", '"rope_unit"'])))
    elif cls == "func-rename":
        func = rng.choice(FUNCS + ["register_rocm_ci", "register_gpu_ci", "Register_cuda_ci", "register_cuda",
                                   "ci_register.register_cuda_ci", "register_cuda_ci.__call__", "_register_cpu_ci"])
    elif cls == "wrap-call":
        text = render_call(func, items, rng)
        wrapped = rng.choice(["x = %s", "(%s)", "%s or None", "if True:\n    %s", "_ = [%s]", "%s;", "%s  # noqa",
                              "print(%s)", "%s, 1", "not %s", "await %s", "%s\n%s"])
        new = wrapped.replace("%s", text)
        a, b = span(src, c)
        return a, b - a, new
    elif cls == "empty-call":
        items = []
    else:
        raise KeyError(cls)
    new = render_call(func, items, rng)
    a, b = span(src, c)
    return a, b - a, new


MAIN_BLOCKS = [
    "", 'if __name__ == "__main__":\n    pass\n', 'if __name__ == "__main__":\n    unittest.main()\n',
    'if __name__ == "__main__":\n    sys.exit(pytest.main([__file__, "-v"]))\n', "if __name__ == '__main__':\n    main()\n",
    'if "__main__" == __name__:\n    unittest.main()\n', 'if __name__ != "__main__":\n    unittest.main()\n',
    'if __name__ == "__main__" and True:\n    unittest.main()\n', 'if __name__ == "__main__":\n    x = 1\n',
    'if __name__ == "__main__":\n    def f():\n        g()\n', 'if __name__ == "__main__":\n    pass\nelse:\n    unittest.main()\n',
    'if __name__ == "__main__" == x:\n    unittest.main()\n', 'if (__name__ == "__main__"):\n    unittest.main()\n',
    'if __name__ == "__main__":\n    [unittest.main()]\n', 'if __name__ == "__main__":\n    x = lambda: f()\n',
    'if __name__ == "__mai" "n__":\n    unittest.main()\n', 'if __name__ == b"__main__":\n    unittest.main()\n',
    'if __name__ is "__main__":\n    unittest.main()\n', 'try:\n    if __name__ == "__main__":\n        unittest.main()\nexcept Exception:\n    pass\n',
    'if __name__ == "__main__": unittest.main()\n', 'if x:\n    pass\nelif __name__ == "__main__":\n    unittest.main()\n',
    'if __name__ == "__main__":\n    """docstring only"""\n', 'if __name__ == "__main__":\n    ...\n',
    'if __name__ == "__main__":\n    import sys\n', 'if __name__ == "__main__":\n    raise SystemExit(main())\n',
    'if __name__ == "__main__":\n    x = [i for i in range(3)]\n', 'if __name__ == "__main__":\n    assert f"{x!r}"\n',
    'if __name__ == "__main__":\n    del x\n', 'if __name__ == "__main__":\n    @dec\n    class C:\n        pass\n',
    'if __name__ == "__main__":\n    x = f"{g()}"\n', 'if __name__ == "__main__":\n    unittest.main()\nif __name__ == "__main__":\n    pass\n',
    'if __name__ == "__main__":\n    pass\nif __name__ == "__main__":\n    unittest.main()\n', 'if __name__ == "__main__":\n    while False:\n        run()\n',
    'if __name__ == "__main__":\n    unittest.main\n', 'if __name__ == "__main__":\n    x: int = f()\n',
    'if __name__ == "__main__":\n    global x\n', 'if __name__ == "__main__":\n    with open(p):\n        pass\n',
    'if __name__ == "__main__":\n    x = y[0]\n', 'if __main__ == "__name__":\n    unittest.main()\n',
    'if __name__ == "__main__ ":\n    unittest.main()\n', 'if __name__ == "__main__":\n    unittest.main()\n    # trailing\n',
]


def main_block_mutation(rng, src):
    tree = ast.parse(src)
    blocks = [s for s in tree.body if isinstance(s, ast.If)]
    new = rng.choice(MAIN_BLOCKS)
    if blocks:
        b = blocks[-1]
        a, _ = span(src, b)
        a -= b.col_offset
        return a, len(src) - a, new
    return len(src), 0, ("\n\n" + new) if new else ""


def char_mutation(rng, src):
    pieces = ["(", ")", "[", "]", "{", "}", "'", '"', '"""', "\\", "\n", "    ", "#", ",", "=", "*", "**", ":", "None",
              "True", "-", "1_0", "0x", "nightly=", "suite=", "stage=", "runner_config=", "disabled=", ";", "\t",
              "in_process_group=", "est_time=", "register_cpu_ci(1, 'base-a-test-cpu')\n", "f'", "b'", "...", "@",
              "\nregister_cuda_ci(est_time=5, suite='stress')\n", "if __name__ == '__main__':\n    main()\n", " "]
    calls = marker_calls(src)
    if calls and rng.random() < 0.7:
        a, b = span(src, rng.choice(calls))
        i = rng.randint(a, b)
    else:
        i = rng.randint(0, len(src))
    op = rng.random()
    if op < 0.5:
        return i, 0, rng.choice(pieces)
    if op < 0.8:
        return i, min(len(src) - i, rng.randint(1, 6)), ""
    j = min(len(src), i + rng.randint(1, 30))
    return i, 0, src[i:j]


def line_mutation(rng, src):
    lines = src.splitlines(keepends=True)
    offs = [0]
    for x in lines:
        offs.append(offs[-1] + len(x))
    calls = marker_calls(src)
    if calls and rng.random() < 0.6:
        i = rng.choice(calls).lineno - 1
    else:
        i = rng.randrange(len(lines))
    kind = rng.choice(["delete", "duplicate", "swap", "indent", "dedent", "join"])
    if kind == "delete":
        return offs[i], len(lines[i]), ""
    if kind == "duplicate":
        return offs[i], 0, lines[i]
    if kind == "swap":
        if i + 1 >= len(lines):
            return None
        return offs[i], len(lines[i]) + len(lines[i + 1]), lines[i + 1] + lines[i]
    if kind == "indent":
        return offs[i], 0, rng.choice(["    ", " ", "\t"])
    if kind == "dedent":
        n = len(lines[i]) - len(lines[i].lstrip(" "))
        if n == 0:
            return None
        return offs[i], min(n, rng.choice([1, 4, n])), ""
    if i + 1 >= len(lines):
        return None
    return offs[i] + len(lines[i].rstrip("\n")), 1, rng.choice([" ", "", "; "])


def token_mutation(rng, src):
    try:
        toks = [t for t in tokenize.generate_tokens(io.StringIO(src).readline)
                if t.type not in (tokenize.NEWLINE, tokenize.NL, tokenize.INDENT, tokenize.DEDENT, tokenize.ENDMARKER,
                                  tokenize.COMMENT)]
    except (tokenize.TokenError, SyntaxError):
        return None
    lines = src.splitlines(keepends=True)
    offs = [0]
    for x in lines:
        offs.append(offs[-1] + len(x))

    def off(pos):
        return offs[pos[0] - 1] + pos[1]

    calls = marker_calls(src)
    if calls and rng.random() < 0.7:
        a, b = span(src, rng.choice(calls))
        cand = [k for k, t in enumerate(toks) if a <= off(t.start) < b]
    else:
        cand = list(range(len(toks)))
    if not cand:
        return None
    k = rng.choice(cand)
    t = toks[k]
    s, e = off(t.start), off(t.end)
    kind = rng.choice(["delete", "duplicate", "swap", "insert", "substitute", "truncate"])
    if kind == "delete":
        return s, e - s, ""
    if kind == "duplicate":
        return s, 0, t.string + rng.choice(["", " "])
    if kind == "swap":
        if k + 1 >= len(toks):
            return None
        u = toks[k + 1]
        s2, e2 = off(u.start), off(u.end)
        return s, e2 - s, u.string + src[e:s2] + t.string
    if kind == "insert":
        return s, 0, rng.choice(["(", ")", ",", "=", "*", "None", "1", "'x'", "suite", "stage=", ".", ":", "lambda "])
    if kind == "substitute":
        return s, e - s, rng.choice(["(", ")", ",", "=", "None", "0", "'x'", "nightly", "disabled", "True", "[", "-"])
    if len(t.string) < 2:
        return None
    return s, e - s, t.string[:rng.randint(1, len(t.string) - 1)]


ARG_CLASSES = ["arg-drop", "arg-dup", "arg-reorder", "pos-to-kw", "kw-to-pos", "wrong-type", "wrong-type-add",
               "unknown-kwarg", "star-kwargs", "star-args", "too-many-pos", "stage-shape", "group-backend",
               "func-rename", "wrap-call", "empty-call"]
FILE_CLASSES = ARG_CLASSES + ["main-block", "char", "line", "token"]


# --------------------------------------------------------------------------
# Trees.

BACKENDS = ["CPU", "CUDA", "AMD", "NPU", "XPU", "MUSA", "MLX"]
HW_KEYS = {"cpu": "CPU", "cuda": "CUDA", "amd": "AMD", "musa": "MUSA", "npu": "NPU", "xpu": "XPU", "mlx": "MLX"}

BASE_TABLES = {
    "PER_COMMIT_SUITES": [
        ("CPU", ["base-a-test-cpu", "base-b-test-cpu", "base-c-test-cpu"]),
        ("AMD", ["stage-a-test-1-gpu-small-amd", "stage-b-test-1-gpu-small-amd", "jit-kernel-unit-test-amd"]),
        ("MUSA", []),
        ("CUDA", ["base-a-test-1-gpu-small", "base-b-test-1-gpu-small", "base-b-test-1-gpu-large",
                  "base-b-kernel-unit-test-1-gpu-large", "base-c-test-8-gpu-h200", "extra-a-test-1-gpu-large"]),
        ("NPU", ["base-a-test-1-gpu-small", "stage-b-test-1-npu-a2"]),
        ("XPU", ["stage-a-test-1-gpu-xpu", "stage-b-test-1-gpu-xpu"]),
        ("MLX", ["stage-a-unit-test-mlx", "stage-b-e2e-mlx"]),
    ],
    "NIGHTLY_SUITES": [
        ("CUDA", ["nightly-1-gpu", "nightly-8-gpu-h200"]),
        ("AMD", ["nightly-amd", "nightly-amd-1-gpu"]),
        ("MUSA", ["nightly-musa-1-gpu"]),
        ("CPU", []),
        ("NPU", ["nightly-1-npu-a3", "full-1-npu-a3"]),
        ("XPU", ["nightly-xpu-1-gpu"]),
    ],
    "OTHER_SUITES": [
        ("CPU", ["default"]),
        ("CUDA", ["stress", "weekly-8-gpu-h200"]),
    ],
    "_SUITE_CHECKED_BACKENDS": ["CUDA", "CPU", "MUSA", "XPU", "MLX"],
}
EXTRA_SUITES = ["base-b-test-cpu-arm64", "stage-c-test-4-gpu-amd", "nightly-2-gpu", "base-b-test-4-gpu-b200",
                "stage-b-test-2-npu-a2", "nightly-amd-vlm", "unknown-suite", "base-a-test-1-gpu-small"]


def render_tables(t, rng=None, dup_key=False):
    out = ['HW_MAPPING = {\n']
    for k, v in HW_KEYS.items():
        out.append('    "%s": HWBackend.%s,\n' % (k, v))
    out.append("}\n\n# Per-commit test suites (run on every PR).\n")
    for name in ("PER_COMMIT_SUITES", "NIGHTLY_SUITES", "OTHER_SUITES"):
        if name == "NIGHTLY_SUITES":
            out.append("\n# Nightly test suites (run nightly, organized by GPU configuration)\n")
        if name == "OTHER_SUITES":
            out.append("\n\n")
        out.append("%s = {\n" % name)
        entries = list(t[name])
        if dup_key and name == "PER_COMMIT_SUITES" and entries:
            entries.insert(0, (entries[-1][0], ["shadowed-suite"]))
        for b, suites in entries:
            if not suites:
                out.append("    HWBackend.%s: [],\n" % b)
                continue
            out.append("    HWBackend.%s: [\n" % b)
            for s in suites:
                out.append('        "%s",\n' % s)
            out.append("    ],\n")
        out.append("}\n")
    out.append("\n\n_SUITE_CHECKED_BACKENDS = ")
    if t["_SUITE_CHECKED_BACKENDS"]:
        out.append("{\n" + "".join("    HWBackend.%s,\n" % b for b in t["_SUITE_CHECKED_BACKENDS"]) + "}\n")
    else:
        out.append("set()\n")
    return "".join(out)


def mutate_tables(rng, used_suites):
    t = json.loads(json.dumps(BASE_TABLES))
    t = {k: ([list(e) for e in v] if k != "_SUITE_CHECKED_BACKENDS" else v) for k, v in t.items()}
    dup = False
    for _ in range(rng.choice([0, 0, 1, 1, 2, 3])):
        op = rng.random()
        name = rng.choice(["PER_COMMIT_SUITES", "NIGHTLY_SUITES", "OTHER_SUITES"])
        entries = t[name]
        if op < 0.12 and used_suites:  # a suite the tree uses goes missing
            s = rng.choice(used_suites)
            for nm in ("PER_COMMIT_SUITES", "NIGHTLY_SUITES", "OTHER_SUITES"):
                for e in t[nm]:
                    if s in e[1] and rng.random() < 0.8:
                        e[1] = [x for x in e[1] if x != s]
        elif op < 0.45:
            if entries:
                e = rng.choice(entries)
                e[1] = e[1] + [rng.choice(EXTRA_SUITES + used_suites if used_suites else EXTRA_SUITES)]
            else:
                entries.append([rng.choice(BACKENDS), [rng.choice(EXTRA_SUITES)]])
        elif op < 0.55 and entries:
            del entries[rng.randrange(len(entries))]
        elif op < 0.62 and entries:
            rng.choice(entries)[1] = []
        elif op < 0.8:
            b = rng.choice(BACKENDS)
            c = t["_SUITE_CHECKED_BACKENDS"]
            t["_SUITE_CHECKED_BACKENDS"] = [x for x in c if x != b] if b in c else c + [b]
        elif op < 0.9:
            # a suite moves between tables (validate accepts it, filter_tests warns)
            src_e = [e for e in t["PER_COMMIT_SUITES"] if e[1]]
            if src_e:
                e = rng.choice(src_e)
                s = rng.choice(e[1])
                e[1] = [x for x in e[1] if x != s]
                dst = rng.choice(["NIGHTLY_SUITES", "OTHER_SUITES"])
                hit = [d for d in t[dst] if d[0] == e[0]]
                if hit:
                    hit[0][1] = hit[0][1] + [s]
                else:
                    t[dst].append([e[0], [s]])
        else:
            dup = True
    return t, dup


def suite_pool(t, backend, nightly):
    name = "NIGHTLY_SUITES" if nightly else "PER_COMMIT_SUITES"
    out = []
    for b, s in BASE_TABLES[name]:
        if b == backend:
            out += s
    if not nightly:
        for b, s in BASE_TABLES["OTHER_SUITES"]:
            if b == backend:
                out += s
    return out


EST_POOL = ["60", "60", "30", "30", "120", "5", "10", "1", "0", "7.5", "7.5", "0.5", "11.0", "300", "45", "2",
            "100", "20", "15.25", "True", "1e3"]


def reg_line(rng, func, backend, suite, est, nightly, disabled, group):
    if suite is not None and "-test-" in suite and rng.random() < 0.4 and not nightly:
        stage, _, runner = suite.partition("-test-")
        items = ["est_time=%s" % est, 'stage="%s"' % stage, 'runner_config="%s"' % runner]
    elif rng.random() < 0.25 and not group:
        items = [est, '"%s"' % suite]
        if nightly or disabled is not None:
            items.append("True" if nightly else "False")
        if disabled is not None:
            items.append('"%s"' % disabled)
        return "%s(%s)\n" % (func, ", ".join(items))
    else:
        items = ["est_time=%s" % est, 'suite="%s"' % suite]
    if nightly:
        items.append("nightly=True")
    if disabled is not None:
        items.append('disabled="%s"' % disabled)
    if group is not None:
        items.append('in_process_group="%s"' % group)
    return "%s(%s)\n" % (func, ", ".join(items))


def has_main(src):
    return any(isinstance(s, ast.If) and REF.RegistryVisitor._is_main_block_with_call(s) for s in ast.parse(src).body)


def replace_regs(src, new_block, main=None):
    calls = marker_calls(src)
    lines = src.splitlines(keepends=True)
    first = calls[0].lineno - 1
    last = calls[-1].end_lineno
    out = "".join(lines[:first]) + new_block + "".join(lines[last:])
    if main is not None:
        tree = ast.parse(out)
        blocks = [s for s in tree.body if isinstance(s, ast.If)]
        if blocks:
            a = sum(len(x) for x in out.splitlines(keepends=True)[:blocks[-1].lineno - 1])
            out = out[:a] + main
        elif main:
            out = out + "\n\n" + main
    return out


def gen_tree(rng, seeds, case_no):
    """Files, tables text, model, request."""
    names = sorted(seeds)
    nfiles = rng.randint(2, 12)
    dirs = ["", "unit/", "unit/deep/", "cpu/", "models/", "amd/", "unit/mem_cache/"]
    files = []
    regs = []  # (relpath, backend, suite, nightly, disabled, group, est)
    used_paths = set()
    focus_backend = rng.choice(["CUDA", "CUDA", "CPU", "AMD", "NPU", "XPU", "MLX", "MUSA"])
    focus_nightly = rng.random() < 0.2
    focus_pool = suite_pool(BASE_TABLES, focus_backend, focus_nightly) or \
        suite_pool(BASE_TABLES, focus_backend, not focus_nightly)
    focus_suite = rng.choice(focus_pool[:3]) if rng.random() < 0.6 else rng.choice(focus_pool)
    focus_share = rng.choice([0.3, 0.5, 0.7, 0.9])
    for i in range(nfiles):
        seed = rng.choice(names)
        block = ""
        nregs = rng.choice([1, 1, 1, 2, 2, 3])
        all_disabled = True
        for _ in range(nregs):
            if rng.random() < focus_share:
                backend, nightly, suite = focus_backend, focus_nightly, focus_suite
            else:
                backend = focus_backend if rng.random() < 0.6 else rng.choice(BACKENDS)
                nightly = rng.random() < 0.2
                pool = suite_pool(BASE_TABLES, backend, nightly) or suite_pool(BASE_TABLES, backend, not nightly)
                if not pool or rng.random() < 0.006:
                    pool = EXTRA_SUITES
                suite = rng.choice(pool[:3]) if rng.random() < 0.6 else rng.choice(pool)
            disabled = rng.choice(["flaky", "needs h200", ""]) if rng.random() < 0.15 else None
            group = None
            if backend not in ("MUSA", "MLX") and rng.random() < 0.35:
                group = rng.choice(["attn", "attn", "attn", "quant", "quant", "sampling_unit", ""])
            est = rng.choice(EST_POOL)
            func = "register_%s_ci" % backend.lower()
            block += reg_line(rng, func, backend, suite, est, nightly, disabled, group)
            if disabled is None:
                all_disabled = False
            regs.append((backend, suite, nightly))
        main = None
        if all_disabled and rng.random() < 0.5:
            main = rng.choice(["", 'if __name__ == "__main__":\n    pass\n'])
        elif not all_disabled and not has_main(seeds[seed]) and rng.random() < 0.99:
            main = rng.choice(['if __name__ == "__main__":\n    unittest.main()\n',
                               'if __name__ == "__main__":\n    sys.exit(pytest.main([__file__, "-v"]))\n'])
        text = replace_regs(seeds[seed], block, main)
        for _ in range(10):
            d = rng.choice(dirs)
            base = os.path.basename(seed)
            if rng.random() < 0.5:
                base = "test_%s_%d.py" % (rng.choice(["alpha", "beta", "gamma", "delta", "a", "b"]), rng.randint(0, 9))
            p = "test/registered/" + d + base
            if p not in used_paths:
                break
        if p in used_paths:
            continue
        used_paths.add(p)
        files.append({"path": p, "seed": seed, "edits": edits_of(seeds[seed], text)})
    # files the glob must pass over (or, rarely, must not)
    helpers = [("test/registered/conftest.py", "import pytest\n"),
               ("test/registered/__init__.py", ""),
               ("test/registered/cpu/utils.py", "X = 1\n"),
               ("test/registered/unit/__init__.py", "")]
    for p, text in helpers:
        if rng.random() < 0.7:
            files.append({"path": p, "text": text})
    r = rng.random()
    if r < 0.03:
        files.append({"path": "test/registered/unit/helpers.py", "text": "def helper():\n    return 1\n"})
    elif r < 0.05:
        files.append({"path": "test/registered/models/cpu/utils.py", "text": "X = 1\n"})
    elif r < 0.07:
        files.append({"path": "test/registered/.hidden/test_hidden.py", "text": "x = 1\n"})
    elif r < 0.08:
        files.append({"path": "test/registered/odd.py/", "text": ""})
    elif r < 0.10:
        files.append({"path": "test/registered/notes.txt", "text": "register_cuda_ci(1)\n"})
    elif r < 0.16:
        # one file that does not collect
        seed = rng.choice(names)
        mut = rng.choice([lambda s: replace_regs(s, "register_cuda_ci(est_time=5)\n"),
                          lambda s: replace_regs(s, "# no registration\n"),
                          lambda s: replace_regs(s, 'register_cpu_ci(5, "base-a-test-cpu")\n', ""),
                          lambda s: s + "\ndef broken(:\n"])
        files.append({"path": "test/registered/unit/test_broken.py", "seed": seed, "edits": edits_of(seeds[seed], mut(seeds[seed]))})
        if rng.random() < 0.35:  # a second: which one the reference names depends on glob order
            seed = rng.choice(names)
            files.append({"path": "test/registered/models/test_broken_too.py", "seed": seed,
                          "edits": edits_of(seeds[seed], replace_regs(seeds[seed], "register_cpu_ci(suite='x')\n"))})
    used = sorted({s for _, s, _ in regs})
    tables, dup = mutate_tables(rng, used)
    tables_text = render_tables(tables, rng, dup)
    # request
    if rng.random() < 0.7:
        backend, suite, nightly = focus_backend, focus_suite, focus_nightly
    elif regs and rng.random() < 0.7:
        backend, suite, nightly = rng.choice(regs)
        if rng.random() < 0.05:
            nightly = not nightly
    else:
        backend = rng.choice(BACKENDS)
        nightly = rng.random() < 0.2
        pool = suite_pool(BASE_TABLES, backend, nightly) + EXTRA_SUITES
        suite = rng.choice(pool)
    hw = backend.lower()
    partition = None
    if rng.random() < 0.6:
        size = rng.choice([1, 1, 1, 2, 2, 2, 3, 4, 5])
        partition = [rng.randrange(size), size]
    model = None
    if partition and rng.random() < 0.75:
        model = gen_model(rng, files, suite)
    elif rng.random() < 0.1:
        model = gen_model(rng, files, suite)
    request = {"hw": hw, "suite": suite, "nightly": nightly, "partition": partition}
    return files, tables_text, model, request


def gen_model(rng, files, suite):
    path = rng.choice(["ci-model.json", "stats/model.json"])
    r = rng.random()
    if r < 0.05:
        return {"path": "missing/model.json"}
    if r < 0.07:
        return {"path": "test"}  # a directory: open fails, OSError caught
    if r < 0.14:
        return {"path": path, "text": rng.choice(["", "{", "not json", '{"est": {', "\ufeff{}", '{"est": {}} x'])}
    if r < 0.19:
        return {"path": path, "text": rng.choice(["[]", "5", '"est"', "null", "true", "[{}]"])}
    if r < 0.23:
        return {"path": path, "text": rng.choice(['{"other": {}}', "{}", '{"est": null}', '{"est": []}',
                                                 '{"est": "x"}', '{"est": 5}'])}
    if r < 0.27:
        other = rng.choice(["other-suite", suite + "-x", suite.upper()])
        return {"path": path, "text": json.dumps({"est": {other: {"test/registered/x.py": 5}}})}
    if r < 0.31:
        return {"path": path, "text": json.dumps({"est": {suite: rng.choice([{}, [], "x", 5, None, [["a", 1]]])}})}
    keys = [f["path"] for f in files if f["path"].endswith(".py") and "seed" in f]
    est = {}
    for k in keys:
        if rng.random() < 0.6:
            est[k] = model_value(rng)
    for g in ["attn", "quant", "sampling_unit", "", "nope"]:
        if rng.random() < 0.3:
            est["group:" + g] = model_value(rng)
    for _ in range(rng.choice([0, 0, 1, 2])):
        k = rng.choice(keys) if keys else "test/registered/x.py"
        est[rng.choice(["registered/" + k[len("test/registered/"):], "./" + k, k.replace("/", "//", 1), k + " ",
                        "test/registered/nope.py", "group:attn ", "GROUP:attn", k.upper()])] = model_value(rng)
    model = {"est": {suite: est}}
    if rng.random() < 0.3:
        model["est"]["other-suite"] = {"test/registered/y.py": 1}
    if rng.random() < 0.2:
        model["version"] = 3
    text = json.dumps(model, indent=rng.choice([None, 2]))
    if rng.random() < 0.05:
        text = text.replace(" 1", " 1e400", 1)
    return {"path": path, "text": text}


def model_value(rng):
    r = rng.random()
    if r < 0.45:
        return rng.choice([0, 1, 5, 30, 60, 60, 120, 300, -5, 10 ** 6])
    if r < 0.8:
        return rng.choice([0.5, 7.5, 59.9, 60.0, 120.25, 1e-3, 2.5e2])
    if r < 0.985:
        return rng.choice(["12.5", " 7 ", "1e2", "60", "inf", "-5", "1_0", "+3", "Infinity", "1.5e1", "007", "60.0"])
    return rng.choice(["abc", None, [1], {}, True, False, "", "0x10", "nan?"])


# --------------------------------------------------------------------------

def materialize_file(case, seeds):
    if "src" in case:
        return case["src"]
    return apply_edits(seeds[case["seed"]], case["edits"])


def case_verdict(case, seeds, tables_base):
    if case["kind"] == "file":
        return file_verdict(case.get("path", case.get("seed")), materialize_file(case, seeds))
    files = []
    for f in case["files"]:
        files.append((f["path"], f["text"] if "text" in f else apply_edits(seeds[f["seed"]], f["edits"])))
    tables = case.get("tables_text")
    if tables is None:
        tables = apply_edits(tables_base, case["tables_edits"])
    return tree_verdict(files, tables, case.get("model"), case["request"])


def main(argv):
    ap = argparse.ArgumentParser()
    ap.add_argument("--ref", required=True, help="directory holding sglang's files at %s" % COMMIT)
    ap.add_argument("--oracle", action="store_true")
    ap.add_argument("n", nargs="?", type=int, default=160)
    ap.add_argument("seed", nargs="?", type=int, default=30)
    args = ap.parse_args(argv)
    warnings.simplefilter("ignore")
    load_reference(args.ref)
    if args.oracle:
        req = json.load(sys.stdin)
        seeds = req.get("seeds", {})
        base = req.get("tables_base", "")
        out = [case_verdict(c, seeds, base) for c in req["cases"]]
        json.dump({"python": "%d.%d" % sys.version_info[:2], "verdicts": out}, sys.stdout)
        return 0
    rng = random.Random(args.seed)
    seeds = dict(SEEDS)
    for p, s in seeds.items():
        assert s.isascii(), p
        ast.parse(s)
    tables_base = render_tables(BASE_TABLES)
    cases = []
    names = sorted(seeds)
    for cls in FILE_CLASSES:
        seen = set()
        tries = 0
        made = 0
        n = args.n * {"wrong-type": 4, "char": 4, "token": 4, "main-block": 3, "line": 2, "wrong-type-add": 2}.get(cls, 1)
        while made < n and tries < n * 30:
            tries += 1
            name = rng.choice(names)
            src = seeds[name]
            if cls in ARG_CLASSES:
                edit = arg_mutation(cls, rng, src)
            elif cls == "main-block":
                edit = main_block_mutation(rng, src)
            elif cls == "char":
                edit = char_mutation(rng, src)
            elif cls == "line":
                edit = line_mutation(rng, src)
            else:
                edit = token_mutation(rng, src)
            if edit is None:
                continue
            at, dl, ins = edit
            mutated = src[:at] + ins + src[at + dl:]
            if mutated == src and cls != "main-block":
                continue
            key = (name, mutated)
            if key in seen:
                continue
            seen.add(key)
            made += 1
            cases.append({"kind": "file", "class": cls, "seed": name,
                          "edits": [[len(src[:at].encode()), len(src[at:at + dl].encode()), ins]],
                          "want": file_verdict(name, mutated)})
    for i in range(args.n * 8):
        files, tables_text, model, request = gen_tree(rng, seeds, i)
        case = {"kind": "tree", "class": "tree", "files": files, "tables_edits": edits_of(tables_base, tables_text),
                "model": model, "request": request}
        case["want"] = case_verdict(case, seeds, tables_base)
        cases.append(case)
    out = {"python": "%d.%d" % sys.version_info[:2], "commit": COMMIT,
           "generator": "tools/sglang-diff/gen.py --ref DIR %d %d" % (args.n, args.seed),
           "seeds": seeds, "tables_base": tables_base, "cases": cases}
    json.dump(out, sys.stdout, separators=(",", ":"), sort_keys=True, ensure_ascii=True)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
