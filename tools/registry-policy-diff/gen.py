#!/usr/bin/env python3
"""Policy differential: cicheck's `registry policy` against the reference's
own tests/ci/ci_policy.py (radixark/miles at the commit of
../shared/specs/test-registry.md), on the reference's own tree.

  python3 tools/registry-policy-diff/gen.py CHECKOUT [N] [SEED] > testregistry/testdata/policy-differential.json

(N = 1000, SEED = 1). Each case is a set of the workflow's inputs (EVENT_NAME,
SCHEDULE, PR_LABELS_JSON, CADENCE_OVERRIDE and a `git diff --name-status -z`
file for CHANGED_FILES_PATH, some of them malformed) and what the reference's
main() does with it: its exit code, the GITHUB_OUTPUT lines it writes and its
::error:: line. TestPolicyDifferential replays the file against a checkout
named by REGISTRY_REFERENCE (and skips without one: the repository does not
carry the reference's tree).
"""
import contextlib, io, json, os, random, sys, tempfile
repo = sys.argv[1]
n = int(sys.argv[2]) if len(sys.argv) > 2 else 1000
seed = int(sys.argv[3]) if len(sys.argv) > 3 else 1
sys.path.insert(0, repo); os.chdir(repo)
import tests.ci.ci_register as reg
# The tree does not change between cases: collect it once.
_cache = {}
orig = reg.collect_tests
def cached(files, sanity_check=True):
    k = (tuple(files), sanity_check)
    if k not in _cache: _cache[k] = orig(files, sanity_check=sanity_check)
    return _cache[k]
reg.collect_tests = cached
from tests.ci import ci_policy
from tests.ci.labels import KNOWN_LABELS
rng = random.Random(seed)
labels = sorted(KNOWN_LABELS)
files = sorted(os.path.join(d, f) for d, _, fs in os.walk("tests") for f in fs if f.endswith(".py"))
src = sorted(os.path.join(d, f) for d, _, fs in os.walk("miles") for f in fs if f.endswith(".py"))[:200]
docs = ["docs/index.md", "README.md", "docs/en/x.md"]
def rand_labels():
    out = []
    for _ in range(rng.randint(0, 4)):
        r = rng.random()
        if r < 0.5: out.append("run-ci-" + rng.choice(labels))
        elif r < 0.6: out.append(rng.choice(["nightly", "bypass-fastfail", "run-ci-all", "run-ci-image", "run-ci-bogus", "other", "run-ci-", "run-ci-A b", "run-ci-x/y"]))
        else: out.append(rng.choice(labels))
    return out
def rand_json():
    r = rng.random()
    if r < 0.7: return json.dumps(rand_labels())
    return rng.choice(["", "null", "[]", "{}", "[1]", '"x"', "[", '["a", 2]', "true"])
def rand_diff():
    r = rng.random()
    if r < 0.15: return None
    if r < 0.2: return b""
    if r < 0.25: return b"M\0docs/index.md"  # no trailing NUL
    entries = []
    for _ in range(rng.randint(1, 5)):
        pool = rng.choice([files, src, docs])
        p = rng.choice(pool)
        st = rng.choice(["M", "A", "D", "R100", "C075", "T", "X", "M"])
        if st[0] in "RC":
            entries += [st, rng.choice(files + src + docs), p]
        else:
            entries += [st, p]
    return ("\0".join(entries) + "\0").encode()
cases = []
for i in range(n):
    env = {}
    env["EVENT_NAME"] = rng.choice(["pull_request"] * 5 + ["schedule", "schedule", "workflow_dispatch", "push", ""])
    if rng.random() < 0.5: env["SCHEDULE"] = rng.choice(list(ci_policy.SCHEDULE_POLICIES) + ["", "0 0 * * *"])
    if rng.random() < 0.9: env["PR_LABELS_JSON"] = rand_json()
    if rng.random() < 0.25: env["CADENCE_OVERRIDE"] = rng.choice(["release", "nightly", "weekly", "regular", "bogus", "RELEASE"])
    diff = rand_diff() if env["EVENT_NAME"] == "pull_request" else None
    with tempfile.TemporaryDirectory() as td:
        out = os.path.join(td, "out")
        if diff is not None:
            p = os.path.join(td, "diff")
            open(p, "wb").write(diff)
            env["CHANGED_FILES_PATH"] = p
        old = dict(os.environ)
        for k in ["EVENT_NAME", "SCHEDULE", "PR_LABELS_JSON", "CADENCE_OVERRIDE", "CHANGED_FILES_PATH"]:
            os.environ.pop(k, None)
        os.environ.update(env); os.environ["GITHUB_OUTPUT"] = out
        err = io.StringIO()
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
            try:
                rc = ci_policy.main()
            except Exception as e:
                rc = "exc " + type(e).__name__ + ": " + str(e)
        os.environ.clear(); os.environ.update(old)
        output = open(out).read() if os.path.exists(out) else ""
    env.pop("CHANGED_FILES_PATH", None)
    cases.append({"env": env, "diff": diff.decode("latin-1") if diff is not None else None, "rc": rc, "out": output, "err": err.getvalue()})
json.dump({"generator": "tools/registry-policy-diff/gen.py CHECKOUT %d %d" % (n, seed), "cases": cases}, sys.stdout, indent=0)
sys.stdout.write("\n")
