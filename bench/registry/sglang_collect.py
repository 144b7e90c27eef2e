#!/usr/bin/env python3
"""Run sgl-project/sglang's own collector over a tree, as run_suite.py does.

Usage: sglang_collect.py REF DIR

REF is a checkout (or a copy of the two files) of sglang holding
python/sglang/test/ci/ci_register.py and test/run_suite.py; DIR is the
repository to collect (gen_sglang.py's output, or sglang itself). This is
the work run_suite.py's run_a_suite does before it selects: the glob of
test/registered/**/*.py minus conftest.py, __init__.py and cpu/utils.py,
collect_tests(files, sanity_check=True), then validate_all_suites, with the
suite tables of DIR/test/run_suite.py. Prints the number of registrations;
an error of the collector propagates (exit status 1).

Only the parent packages sglang, sglang.test and sglang.test.ci are
stubbed (and sglang.test.ci.ci_utils, and tabulate when not installed):
the code that runs is the reference's.
"""
import ast
import glob
import importlib.util
import os
import sys
import types


def load(name, path):
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    return mod


def main():
    ref, root = sys.argv[1], sys.argv[2]
    for pkg in ("sglang", "sglang.test", "sglang.test.ci"):
        m = types.ModuleType(pkg)
        m.__path__ = []
        sys.modules[pkg] = m
    utils = types.ModuleType("sglang.test.ci.ci_utils")
    utils.run_unittest_files = None
    sys.modules["sglang.test.ci.ci_utils"] = utils
    try:
        import tabulate  # noqa: F401
    except ImportError:
        sys.modules["tabulate"] = types.ModuleType("tabulate")
    ci_register = load("sglang.test.ci.ci_register", os.path.join(ref, "python/sglang/test/ci/ci_register.py"))
    run_suite = load("run_suite", os.path.join(ref, "test/run_suite.py"))

    # The tables of DIR/test/run_suite.py: its assignments to the five
    # names, run with the reference's HWBackend.
    tables = ("HW_MAPPING", "PER_COMMIT_SUITES", "NIGHTLY_SUITES", "OTHER_SUITES", "_SUITE_CHECKED_BACKENDS")
    suite_file = os.path.join(root, "test", "run_suite.py")
    with open(suite_file) as f:
        tree = ast.parse(f.read(), filename=suite_file)
    part = ast.Module(body=[s for s in tree.body if isinstance(s, ast.Assign)
                            and any(isinstance(t, ast.Name) and t.id in tables for t in s.targets)],
                      type_ignores=[])
    ns = {"HWBackend": ci_register.HWBackend}
    exec(compile(part, suite_file, "exec"), ns)
    for name in tables:
        setattr(run_suite, name, ns[name])

    # run_a_suite's glob and exclusions, verbatim in effect.
    script_dir = os.path.dirname(os.path.abspath(suite_file))
    files = [
        f
        for f in glob.glob(os.path.join(script_dir, "registered", "**", "*.py"), recursive=True)
        if not f.endswith("/conftest.py")
        and not f.endswith("/__init__.py")
        and not f.endswith("/cpu/utils.py")
    ]
    all_tests = run_suite.collect_tests(files, sanity_check=True)
    run_suite.validate_all_suites(all_tests)
    print(len(all_tests))


if __name__ == "__main__":
    main()
