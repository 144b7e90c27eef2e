#!/usr/bin/env python3
"""Reference-style CI registry collector using Python's own `ast` module.

Two uses:
  * golden files: `collect.py ROOT...` prints, per repository, the discovered
    files, the registrations, the first error of each failing call (spec §5
    order) and the file-level errors (spec §6), as JSON. The Go test
    testregistry/golden_test.go compares cicheck's scanner to the checked-in
    output (testregistry/testdata/golden.json) and never needs Python.
  * benchmark baseline: `collect.py --bench ROOT` does the same work the
    collector in CI does (discover, parse, evaluate) and prints a count.

Regenerate the golden file from the repository root with:
  python3 bench/registry/collect.py fixtures/registry-miles fixtures/registry-err-* \
      testregistry/testdata/crosscheck > testregistry/testdata/golden.json
(trees holding a .cicheck.yaml are skipped: they change the schema.)
"""
import ast
import glob
import json
import os
import sys

ROOTS = ["tests/fast", "tests/fast-gpu", "tests/e2e", "tests/ci"]
MARKERS = {"register_cpu_ci": "cpu", "register_cuda_ci": "cuda", "register_rocm_ci": "rocm"}
PARAMS = ("est_time", "suite", "labels", "nightly", "disabled")


def known_labels(root):
    path = os.path.join(root, "tests/ci/labels.py")
    try:
        tree = ast.parse(open(path, encoding="utf-8").read())
    except (OSError, SyntaxError):
        return None
    value = None
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "KNOWN_LABELS" for t in node.targets):
            value = node.value
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.target.id == "KNOWN_LABELS":
            value = node.value
    try:
        v = ast.literal_eval(value) if value is not None else None
    except ValueError:
        return None
    return set(v) if v is not None else None


class CallError(Exception):
    pass


def evaluate(call, fn, known, f):
    """Evaluate one call like the reference: the first failure raises."""
    for a in call.args:
        if isinstance(a, ast.Starred):
            raise CallError(f"starred arguments are not supported in {fn}()")
    if len(call.args) > 2:
        raise CallError(f"too many positional arguments in {fn}(); only ['est_time', 'suite'] may be positional (labels and later are keyword-only)")
    values = {}
    for name, a in zip(("est_time", "suite"), call.args):
        if not isinstance(a, ast.Constant):
            raise CallError(f"{name} in {fn}() must be a literal constant")
        values[name] = a.value
    for kw in call.keywords:
        if kw.arg is None:
            raise CallError(f"**kwargs are not supported in {fn}()")
        if kw.arg in values:
            raise CallError(f"duplicated argument '{kw.arg}' in {fn}()")
        if kw.arg not in PARAMS:
            raise CallError(f"unknown argument '{kw.arg}' in {fn}()")
        v = kw.value
        if kw.arg == "labels":
            if isinstance(v, ast.Constant) and v.value is None:
                values["labels"] = []
            elif isinstance(v, ast.List):
                out = []
                for e in v.elts:
                    if not isinstance(e, ast.Constant):
                        raise CallError(f"labels in {fn}() must be a list of string literals (non-literal element)")
                    if not isinstance(e.value, str):
                        raise CallError(f"labels in {fn}() must be a list of string literals (got {type(e.value).__name__} element)")
                    out.append(e.value)
                values["labels"] = out
            else:
                raise CallError(f"labels in {fn}() must be a list of string literals or None (got {type(v).__name__})")
        else:
            if not isinstance(v, ast.Constant):
                raise CallError(f"{kw.arg} in {fn}() must be a literal constant")
            values[kw.arg] = v.value
    if "est_time" not in values:
        raise CallError(f"est_time is required in {fn}()")
    if "suite" not in values:
        raise CallError(f"suite is required in {fn}()")
    if not isinstance(values["est_time"], (int, float)):
        raise CallError(f"est_time must be a number in {fn}()")
    if not isinstance(values["suite"], str):
        raise CallError(f"suite must be a string in {fn}()")
    labels = values.get("labels", [])
    if MARKERS[fn] != "cpu" and not labels:
        raise CallError(f"labels in {fn}() must contain at least one domain label")
    if type(values.get("nightly", False)) is not bool:
        raise CallError(f"nightly must be a boolean in {fn}()")
    disabled = values.get("disabled")
    if disabled is not None and not isinstance(disabled, str):
        raise CallError(f"disabled must be a string or None in {fn}()")
    if known is not None:
        unknown = [l for l in labels if l not in known]
        if unknown:
            valid = ", ".join(sorted(known))
            raise CallError(f"unknown labels {unknown!r} in {fn}(); valid labels: [{valid}]. To add a new label: edit tests/ci/labels.py + create matching `run-ci-<label>` in GitHub repo Settings -> Labels.")
    return {"func": fn, "backend": MARKERS[fn], "est_time": float(values["est_time"]), "suite": values["suite"],
            "labels": labels, "nightly": values.get("nightly", False), "disabled": disabled, "implicit": False}


def discover(root):
    files = []
    for r in ROOTS:
        files += glob.glob(f"{r}/**/test_*.py", root_dir=root, recursive=True)
    return sorted(set(files))


def collect_file(f, src, known):
    """One file as the reference collects it: (registrations, first error of
    each call, file-level errors). A parse failure is one file error whose
    line is the SyntaxError's (0 when CPython gives none)."""
    regs, call_errors, file_errors = [], [], []
    try:
        tree = ast.parse(src)
    except (SyntaxError, ValueError) as e:
        # ValueError: Python before 3.12 says so for a NUL byte.
        file_errors.append({"file": f, "line": getattr(e, "lineno", 0) or 0, "message": getattr(e, "msg", str(e))})
        return regs, call_errors, file_errors
    calls = []
    for node in tree.body:
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Call) and isinstance(node.value.func, ast.Name) and node.value.func.id in MARKERS:
            calls.append(node.value)
    for c in calls:
        try:
            reg = evaluate(c, c.func.id, known, f)
        except CallError as e:
            call_errors.append({"file": f, "line": c.lineno, "col": c.col_offset + 1, "message": str(e)})
            continue
        reg.update(file=f, line=c.lineno, col=c.col_offset + 1)
        regs.append(reg)
    if f.startswith("tests/fast/"):
        for c in calls:
            if MARKERS[c.func.id] != "cpu":
                file_errors.append({"file": f, "line": c.lineno, "message": "register_cuda_ci is forbidden in tests/fast/; move the file to tests/fast-gpu/ instead"})
        if not calls:
            if "register_cpu_ci" in src or "register_cuda_ci" in src:
                file_errors.append({"file": f, "line": 0, "message": "file mentions register_cpu_ci or register_cuda_ci textually but no top-level call was parsed; check for aliased import, non-toplevel call, or attribute access"})
            elif "register_rocm_ci" in src:
                # The reference registers this silently; cicheck reports it.
                file_errors.append({"file": f, "line": 0, "message": "rocm-alias-quirk"})
            else:
                regs.append({"file": f, "line": 1, "col": 1, "func": "", "backend": "cpu", "est_time": 1.0, "suite": "stage-a-cpu",
                             "labels": [], "nightly": False, "disabled": None, "implicit": True})
    elif not calls:
        file_errors.append({"file": f, "line": 1, "message": f"No CI registry found in {f}"})
    return regs, call_errors, file_errors


def collect(root):
    known = known_labels(root)
    out = {"files": [], "registrations": [], "call_errors": [], "file_errors": []}
    for f in discover(root):
        if not os.path.isfile(os.path.join(root, f)):
            continue
        out["files"].append(f)
        src = open(os.path.join(root, f), encoding="utf-8").read()
        regs, ce, fe = collect_file(f, src, known)
        out["registrations"] += regs
        out["call_errors"] += ce
        out["file_errors"] += fe
    return out


def main(argv):
    if argv and argv[0] == "--bench":
        n = 0
        for root in argv[1:]:
            r = collect(root)
            n += len(r["registrations"]) + len(r["call_errors"]) + len(r["file_errors"])
        print(n)
        return 0
    result = {}
    for root in argv:
        if os.path.exists(os.path.join(root, ".cicheck.yaml")):
            continue
        result[root] = collect(root)
    json.dump(result, sys.stdout, indent=1, sort_keys=True)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
