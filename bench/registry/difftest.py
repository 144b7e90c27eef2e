#!/usr/bin/env python3
"""Differential test: cicheck's scanner vs Python's ast on mutated files.

  python3 bench/registry/difftest.py [ROUNDS] [SEED]     (from the repository root)

Each round copies the seed files (the cross-check corpus and the miles-like
fixture's tests) into a temporary repository, applies random character-level
mutations, and compares what collect.py (Python's ast) and the Go scanner
(via TestDumpForDifferential) extract. Files Python cannot parse are only
checked one way: when cicheck reports no syntax error it must not register
anything Python would not (Python would crash on the file). Prints each
divergence and a summary.
"""
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(__file__))
import collect  # noqa: E402

SEEDS = ["testregistry/testdata/crosscheck", "fixtures/registry-miles"]
PIECES = ["(", ")", "[", "]", "{", "}", "'", '"', '"""', "\\", "\n", "    ", "#", ",", "=", "*", "**", "f'", "rb'",
          "register_cuda_ci(1, 's', labels=['megatron'])", "\nregister_cpu_ci(2, 'stage-a-cpu')\n", "if x:\n", ":",
          "None", "True", "-", "1_0", "0x", "labels=", "nightly=", ";", "\t", "lambda: ", "...", "j"]


def mutate(src, rng):
    for _ in range(rng.randint(1, 4)):
        i = rng.randint(0, len(src))
        op = rng.random()
        if op < 0.4:
            src = src[:i] + rng.choice(PIECES) + src[i:]
        elif op < 0.7:
            j = min(len(src), i + rng.randint(1, 6))
            src = src[:i] + src[j:]
        else:
            j = min(len(src), i + rng.randint(1, 30))
            k = rng.randint(0, len(src))
            src = src[:k] + src[i:j] + src[k:]
    return src


def main():
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    rng = random.Random(int(sys.argv[2]) if len(sys.argv) > 2 else 1)
    tmp = tempfile.mkdtemp()
    subprocess.run(["go", "test", "-c", "-o", os.path.join(tmp, "tr.test"), "./testregistry"], check=True)
    bad = 0
    checked = 0
    for r in range(rounds):
        repo = os.path.join(tmp, f"r{r}")
        os.makedirs(os.path.join(repo, "tests/ci"))
        shutil.copy(os.path.join(SEEDS[0], "tests/ci/labels.py"), os.path.join(repo, "tests/ci/labels.py"))
        n = 0
        for seed in SEEDS:
            for d, _, fs in os.walk(os.path.join(seed, "tests")):
                for f in fs:
                    if not f.startswith("test_"):
                        continue
                    src = open(os.path.join(d, f), encoding="utf-8").read()
                    rel = os.path.relpath(os.path.join(d, f), seed)
                    out = os.path.join(repo, os.path.dirname(rel), f"test_m{n}_" + f[5:])
                    os.makedirs(os.path.dirname(out), exist_ok=True)
                    with open(out, "w", encoding="utf-8") as fh:
                        fh.write(mutate(src, rng))
                    n += 1
        py = collect.collect(repo)
        env = dict(os.environ, REGISTRY_DUMP_DIR=repo, REGISTRY_DUMP_OUT=os.path.join(tmp, "go.json"))
        subprocess.run([os.path.join(tmp, "tr.test"), "-test.run", "TestDumpForDifferential"], check=True, env=env,
                       cwd="testregistry", stdout=subprocess.DEVNULL)
        go = json.load(open(os.path.join(tmp, "go.json")))
        py_syntax = {e["file"] for e in py["file_errors"] if e.get("line", 0) and "registry" not in e["message"] and "forbidden" not in e["message"]}
        go_syntax = {e["file"] for e in go["file_errors"] or [] if e["rule"] == "reg-syntax-error"}
        key = lambda g: (g["file"], g["line"], g["col"] if "col" in g else g["column"], g["suite"], tuple(g["labels"] or []), float(g["est_time"]), g["nightly"], g["disabled"])
        pyregs = {key(g) for g in py["registrations"]}
        goregs = {key(g) for g in go["registrations"] or []}
        pyerrs = {(e["file"], e["line"], e["col"], e["message"]) for e in py["call_errors"]}
        goerrs = {(e["file"], e["line"], e["col"], e["message"]) for e in go["call_errors"] or []}
        for f in sorted(set(py["files"])):
            checked += 1
            if f in py_syntax:
                if f not in go_syntax and any(g[0] == f for g in goregs):
                    # Python fails the file; cicheck registered from it.
                    bad += 1
                    pe = [(e["line"], e["message"]) for e in py["file_errors"] if e["file"] == f]
                    print(f"round {r}: {f}: Python: syntax error {pe}; cicheck registered it")
                continue
            if f in go_syntax:
                bad += 1
                print(f"round {r}: {f}: cicheck reports a syntax error Python does not: {[e for e in go['file_errors'] if e['file'] == f]}")
                continue
            a = {g for g in pyregs if g[0] == f}
            b = {g for g in goregs if g[0] == f}
            c = {e for e in pyerrs if e[0] == f}
            d = {e for e in goerrs if e[0] == f}
            if a != b or c != d:
                bad += 1
                print(f"round {r}: {f}: registrations python-only {a - b} cicheck-only {b - a}; errors python-only {c - d} cicheck-only {d - c}")
    print(f"{checked} files checked, {bad} divergences")
    if os.environ.get("KEEP"):
        print("kept", tmp)
    else:
        shutil.rmtree(tmp)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
