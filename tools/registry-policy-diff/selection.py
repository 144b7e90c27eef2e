#!/usr/bin/env python3
"""Selection differential: cicheck's `registry select` against the
reference's own tests/ci/run_suite.py (radixark/miles at the commit of
../shared/specs/test-registry.md), on the reference's own tree.

  python3 tools/registry-policy-diff/selection.py CHECKOUT [N] [SEED] > testregistry/testdata/select-differential.json

(N = 1000, SEED = 1). Each case is what run_suite.py's main() is given after
argparse (backend, suite, cadence, raw labels, --match-all-labels, an
auto-partition) and what run_a_suite computes from it, in order: the tests
that run (after the partition) and the disabled ones it reports, or the
error that stops it. TestSelectDifferential replays the file against a
checkout named by REGISTRY_REFERENCE and skips without one.
"""
import json
import os
import random
import sys
import warnings

repo = sys.argv[1]
n = int(sys.argv[2]) if len(sys.argv) > 2 else 1000
seed = int(sys.argv[3]) if len(sys.argv) > 3 else 1
sys.path.insert(0, repo)
os.chdir(repo)
from tests.ci.ci_policy import CI_CADENCES, resolve_policy  # noqa: E402
from tests.ci.ci_register import collect_tests, discover_ci_files  # noqa: E402
from tests.ci.labels import KNOWN_LABELS  # noqa: E402
from tests.ci.run_suite import CI_SUITES, HW_MAPPING, auto_partition, filter_tests  # noqa: E402

warnings.simplefilter("ignore")  # the reference warns about labels without the run-ci- prefix
tests = collect_tests(discover_ci_files(), sanity_check=True)
files = sorted({t.filename for t in tests})
index = {f: i for i, f in enumerate(files)}  # cases name files by their index here
rng = random.Random(seed)
labels = sorted(KNOWN_LABELS)
suites = sorted({s for ss in CI_SUITES.values() for s in ss})


def rand_labels():
    out = []
    for _ in range(rng.randint(0, 4)):
        r = rng.random()
        if r < 0.6:
            out.append("run-ci-" + rng.choice(labels))
        elif r < 0.8:
            out.append(rng.choice(["nightly", "bypass-fastfail", "run-ci-all", "run-ci-image", "run-ci-bogus", "other"]))
        else:
            out.append(rng.choice(labels))
    return out


cases = []
for _ in range(n):
    hw = rng.choice(sorted(HW_MAPPING))
    suite = rng.choice(CI_SUITES.get(HW_MAPPING[hw], []) or suites) if rng.random() < 0.85 else rng.choice(suites + ["no-such-suite"])
    cadence = rng.choice(sorted(CI_CADENCES))
    raw = rand_labels()
    match_all = rng.random() < 0.15
    part = None
    if rng.random() < 0.3:
        size = rng.randint(1, 5)
        part = (rng.randrange(size), size)
    case = {"hw": hw, "suite": suite, "cadence": cadence, "labels": raw, "match_all": match_all,
            "partition": "%d/%d" % part if part else ""}
    try:
        policy = resolve_policy(cadence, set(raw))
        include = set(policy.include_labels)
        if match_all:
            include |= set(KNOWN_LABELS)
        run, skipped = filter_tests(tests, HW_MAPPING[hw], suite, policy.admit_nightly_tests, labels=include)
        if part:
            run = auto_partition(run, part[0], part[1])
        case["run"] = [index[t.filename] for t in run]
        case["skipped"] = [index[t.filename] for t in skipped]
    except ValueError as exc:
        case["error"] = str(exc)
    cases.append(case)
out = {"generator": "tools/registry-policy-diff/selection.py CHECKOUT %d %d" % (n, seed), "files": files, "cases": cases}
json.dump(out, sys.stdout, separators=(",", ":"))
sys.stdout.write("\n")
