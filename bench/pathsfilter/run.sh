#!/bin/sh
# Filter-level benchmark: 20 dorny/paths-filter filters holding 200 patterns
# against 100,000 changed files, cicheck's pathsfilter model against the
# action's own loop (filter.ts) running the real picomatch@2.3.1 under Node,
# in one run. Rounds are interleaved (ROUNDS, default 3) and each side keeps
# its best, so load on a shared machine skews neither. Both sides must agree
# on the number of (file, filter) memberships.
#   sh bench/pathsfilter/run.sh      (from anywhere; needs go, node, npm)
set -eu
cd "$(dirname "$0")/../.."
[ -d tools/picomatch-golden/node_modules/picomatch ] || (cd tools/picomatch-golden && npm ci --no-audit --no-fund >/dev/null)
n="${PF_BENCH_PATHS:-100000}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go run ./bench/pathsfilter/gen -n "$n" >"$tmp/corpus.json"
go test -c -o "$tmp/pf.test" ./bench/pathsfilter/
i=0
while [ "$i" -lt "${ROUNDS:-3}" ]; do
	node bench/pathsfilter/dorny_filter_bench.js "$tmp/corpus.json" >>"$tmp/node.jsonl"
	PF_BENCH_PATHS="$n" "$tmp/pf.test" -test.run '^$' -test.bench BenchmarkFilters -test.benchtime=1x >>"$tmp/go.txt"
	i=$((i + 1))
done
node -e '
const fs = require("fs");
const runs = fs.readFileSync(process.argv[1], "utf8").trim().split("\n").map(l => JSON.parse(l));
const gos = fs.readFileSync(process.argv[2], "utf8").split("\n").filter(l => l.startsWith("BenchmarkFilters")).map(l => {
  const f = l.trim().split(/\s+/);
  return { ns: Number(f[f.indexOf("ns/check") - 1]), members: Number(f[f.indexOf("members") - 1]) };
});
const nodeBest = Math.min(...runs.map(r => r.nsPerCheck)), goBest = Math.min(...gos.map(g => g.ns));
const nm = new Set(runs.map(r => r.members)), gm = new Set(gos.map(g => g.members));
console.log(`corpus: 20 filters / 200 patterns x ${process.argv[3]} changed files, best of ${runs.length} interleaved rounds`);
console.log(`dorny/paths-filter loop + picomatch 2.3.1 (node ${process.version}): ${nodeBest.toFixed(1)} ns/check (runs: ${runs.map(r => r.nsPerCheck.toFixed(0)).join(", ")}), ${[...nm]} memberships`);
console.log(`cicheck pathsfilter (go): ${goBest.toFixed(1)} ns/check (runs: ${gos.map(g => g.ns.toFixed(0)).join(", ")}), ${[...gm]} memberships`);
if (nm.size !== 1 || gm.size !== 1 || [...nm][0] !== [...gm][0]) { console.log("MISMATCH: the two engines disagree on the corpus"); process.exit(1); }
console.log(`ratio: ${(nodeBest / goBest).toFixed(1)}x faster than dorny/paths-filter with picomatch under Node`);
' "$tmp/node.jsonl" "$tmp/go.txt" "$n"
