#!/bin/sh
# Lints every repository of the real-world corpus (bench/realworld/SOURCES.md)
# that is present under $REALWORLD (default ../realworld), each as a git
# repository would be linted, and prints per repository the jobs classified
# as accelerator jobs and the findings of cicheck's own rules by rule; then
# the totals. With -v it also prints every finding of cicheck's own rules,
# for the hand review in docs/precision.md.
#
#   sh bench/realworld/run.sh [-v]
set -eu
cd "$(dirname "$0")/../.."
ROOT=${REALWORLD:-../realworld}
VERBOSE=${1:-}
[ -d "$ROOT" ] || { echo "no real-world corpus at $ROOT (see bench/realworld/SOURCES.md); skipping" >&2; exit 0; }
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
go build -o "$TMP/cicheck" ./cmd/cicheck
for d in "$ROOT"/*/; do
	[ -d "$d/.github/workflows" ] || continue
	name=$(basename "$d")
	rm -rf "$TMP/repo" && mkdir "$TMP/repo" && cp -R "$d/.github" "$TMP/repo/" && git -C "$TMP/repo" init -q
	(cd "$TMP/repo" && "$TMP/cicheck" lint --format json --fail-on never >"$TMP/$name.json" 2>/dev/null || true)
	(cd "$TMP/repo" && "$TMP/cicheck" graph --format json .github/workflows/*.y*ml >"$TMP/$name.graph.json" 2>/dev/null || true)
done
python3 - "$TMP" "$VERBOSE" <<'PY'
import json, os, sys, collections
tmp, verbose = sys.argv[1], sys.argv[2] == "-v"
own_prefixes = ("gpu-gate", "closure-bridge", "always-without-cancelled", "gate-reads-unguarded-output",
                "dead-needs-result", "if-eval-error", "status-fn-args", "unknown-needs", "needs-cycle",
                "paths-filter-", "trigger-paths-", "workflow-self-trigger", "suppression-", "invalid-workflow-file",
                "job-never-runs", "matrix-too-large")
total, jobs, gpu = collections.Counter(), 0, 0
for f in sorted(os.listdir(tmp)):
    if not f.endswith(".json") or f.endswith(".graph.json"):
        continue
    name = f[:-5]
    try:
        fs = json.load(open(os.path.join(tmp, f)))["findings"]
    except Exception:
        print(f"{name}: no JSON output"); continue
    own = [x for x in fs if x["rule"].startswith(own_prefixes)]
    c = collections.Counter(x["rule"] for x in own)
    total.update(c)
    g = json.load(open(os.path.join(tmp, name + ".graph.json"))) if os.path.getsize(os.path.join(tmp, name + ".graph.json")) else {"workflows": []}
    js = [j for w in g["workflows"] for j in w["jobs"]]
    jobs += len(js); gpu += sum(j["gpu"] for j in js)
    print(f"{name}: {sum(j['gpu'] for j in js)}/{len(js)} jobs accelerator; " + ", ".join(f"{k} {v}" for k, v in sorted(c.items())))
    if verbose:
        for x in own:
            print(f"  {x['file']}:{x['line']}: {x['severity']} [{x['rule']}] {x['message']}")
print(f"total: {gpu}/{jobs} jobs accelerator; " + ", ".join(f"{k} {v}" for k, v in sorted(total.items())))
PY
