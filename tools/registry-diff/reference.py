#!/usr/bin/env python3
"""The reference collector's own verdicts on the registry differential's
mutants: radixark/miles' tests/ci/ci_register.py collect_tests (at the
commit of ../shared/specs/test-registry.md) on each case of
testregistry/testdata/differential.json, written at its path in a scratch
tree, with the reference's KNOWN_LABELS.

  python3 tools/registry-diff/reference.py CHECKOUT testregistry/testdata/differential.json > testregistry/testdata/differential-reference.json

Each verdict is the registrations collect_tests returns, the ValueError it
raises (the reference stops at a file's first error) or the SyntaxError
ast.parse raises. TestDifferentialReferenceCollector replays them; the
checkout is needed only to regenerate the file.
"""
import json
import os
import sys
import tempfile
import warnings

warnings.simplefilter("ignore")
ref, golden = sys.argv[1], sys.argv[2]
sys.path.insert(0, ref)
from tests.ci import ci_register  # noqa: E402
from tests.ci.labels import KNOWN_LABELS  # noqa: E402
g = json.load(open(golden))
out = []
cwd = os.getcwd()
with tempfile.TemporaryDirectory() as td:
    for c in g["cases"]:
        b = g["bases"][c["base"]].encode()
        src = b[:c["at"]] + c["ins"].encode() + b[c["at"] + c["del"]:]
        p = os.path.join(td, c["base"])
        os.makedirs(os.path.dirname(p), exist_ok=True)
        open(p, "wb").write(src)
        os.chdir(td)
        try:
            regs = ci_register.collect_tests([c["base"]], sanity_check=True)
            v = {"regs": [[r.filename, r.backend.name.lower(), float(r.est_time), r.suite, list(r.labels or []), bool(r.nightly), r.disabled] for r in regs]}
        except SyntaxError as e:
            v = {"syntax": [e.lineno, e.msg]}
        except ValueError as e:
            v = {"error": str(e)}
        except Exception as e:
            v = {"other": type(e).__name__ + ": " + str(e)}
        finally:
            os.chdir(cwd)
        os.remove(p)
        out.append(v)
json.dump({"generator": "tools/registry-diff/reference.py CHECKOUT " + golden, "known": sorted(KNOWN_LABELS), "verdicts": out},
          sys.stdout, separators=(",", ":"))
sys.stdout.write("\n")
