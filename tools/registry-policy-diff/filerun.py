#!/usr/bin/env python3
"""resolve-file differential: cicheck's `registry resolve-file` against the
reference's own tests/ci/file_run.py (radixark/miles at the commit of
../shared/specs/test-registry.md), on the reference's own tree.

  python3 tools/registry-policy-diff/filerun.py CHECKOUT [SEED] > testregistry/testdata/filerun-differential.json

Every test file of the tree, once as it is and once written another way
(./, a doubled slash, ../ through its directory, a trailing slash, another
case), each with a valid or an invalid image tag, plus names of files that
are no test: what resolve_file_run returns, or the FileRunError it raises.
TestFileRunDifferential replays the file against a checkout named by
REGISTRY_REFERENCE and skips without one.
"""
import json
import os
import random
import sys

repo = sys.argv[1]
seed = int(sys.argv[2]) if len(sys.argv) > 2 else 1
sys.path.insert(0, repo)
os.chdir(repo)
from tests.ci import file_run  # noqa: E402
from tests.ci.ci_register import collect_tests  # noqa: E402

tests_cache = []
orig = file_run.collect_tests


def cached(files, sanity_check=True):
    if not tests_cache:
        tests_cache.append(orig(files, sanity_check=sanity_check))
    return tests_cache[0]


file_run.collect_tests = cached
rng = random.Random(seed)
files = sorted(os.path.join(d, f) for d, _, fs in os.walk("tests") for f in fs if f.endswith(".py"))


def variant(p):
    d, b = os.path.split(p)
    return rng.choice(["./" + p, d + "//" + b, d + "/../" + os.path.basename(d) + "/" + b, p + "/", p.upper(),
                       p.replace(".py", ".PY"), p[:-3], "/" + p, p + " "])


cases = []
for p in files + [variant(p) for p in files] + ["", "tests", "README.md", "miles/__init__.py", "tests/e2e/nope.py"]:
    tag = "dev" if rng.random() < 0.85 else rng.choice(["", "bad tag", "x" * 129, "-lead", "v1.2_3-rc"])
    case = {"file": p, "tag": tag}
    try:
        case["plan"] = file_run.resolve_file_run(p, tag, ".")
    except file_run.FileRunError as exc:
        case["error"] = str(exc)
    cases.append(case)
json.dump({"generator": "tools/registry-policy-diff/filerun.py CHECKOUT %d" % seed, "cases": cases}, sys.stdout, indent=0)
sys.stdout.write("\n")
