#!/bin/sh
# Compares cicheck's picomatch port with the real picomatch@2.3.1 under Node
# on the same 200 patterns x 100,000 paths, in one run, and prints the ratio.
# The two sides run interleaved for ROUNDS rounds (default 3) and each keeps
# its best time, so load from other processes on a shared machine skews
# neither side. Both sides must count the same number of matches.
#   sh bench/glob/run.sh            (from anywhere; needs go, node, npm)
set -eu
cd "$(dirname "$0")/../.."
[ -d tools/picomatch-golden/node_modules/picomatch ] || (cd tools/picomatch-golden && npm ci --no-audit --no-fund >/dev/null)
n="${GLOB_BENCH_PATHS:-100000}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go run ./bench/glob/gen -n "$n" >"$tmp/corpus.json"
go test -c -o "$tmp/glob.test" ./bench/glob/
i=0
while [ "$i" -lt "${ROUNDS:-3}" ]; do
	node bench/glob/picomatch_bench.js "$tmp/corpus.json" >>"$tmp/node.jsonl"
	GLOB_BENCH_PATHS="$n" "$tmp/glob.test" -test.run '^$' -test.bench BenchmarkPicomatchCorpus -test.benchtime=1x >>"$tmp/go.txt"
	i=$((i + 1))
done
node -e '
const fs = require("fs");
const runs = fs.readFileSync(process.argv[1], "utf8").trim().split("\n").map(l => JSON.parse(l));
const gos = fs.readFileSync(process.argv[2], "utf8").split("\n").filter(l => l.startsWith("BenchmarkPicomatchCorpus")).map(l => {
  const f = l.trim().split(/\s+/);
  return { ns: Number(f[f.indexOf("ns/match") - 1]), matches: Number(f[f.indexOf("matches") - 1]) };
});
const nodeBest = Math.min(...runs.map(r => r.nsPerMatch)), goBest = Math.min(...gos.map(g => g.ns));
const nm = new Set(runs.map(r => r.matches)), gm = new Set(gos.map(g => g.matches));
console.log(`corpus: 200 patterns x ${process.argv[3]} paths, best of ${runs.length} interleaved rounds`);
console.log(`picomatch 2.3.1 (node ${process.version}): ${nodeBest.toFixed(1)} ns/match (runs: ${runs.map(r => r.nsPerMatch.toFixed(0)).join(", ")}), ${[...nm]} matches`);
console.log(`cicheck pathsfilter (${"go"}):        ${goBest.toFixed(1)} ns/match (runs: ${gos.map(g => g.ns.toFixed(0)).join(", ")}), ${[...gm]} matches`);
if (nm.size !== 1 || gm.size !== 1 || [...nm][0] !== [...gm][0]) { console.log("MISMATCH: the two engines disagree on the corpus"); process.exit(1); }
console.log(`ratio: ${(nodeBest / goBest).toFixed(1)}x faster than picomatch under Node`);
' "$tmp/node.jsonl" "$tmp/go.txt" "$n"
