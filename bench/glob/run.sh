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
	GLOB_BENCH_PATHS="$n" "$tmp/glob.test" -test.run '^$' -test.bench 'BenchmarkPicomatchCorpus' -test.benchtime=1x >>"$tmp/go.txt"
	i=$((i + 1))
done
node -e '
const fs = require("fs");
const runs = fs.readFileSync(process.argv[1], "utf8").trim().split("\n").map(l => JSON.parse(l));
const lines = fs.readFileSync(process.argv[2], "utf8").split("\n").filter(l => l.startsWith("BenchmarkPicomatchCorpus"));
const parse = l => {
  const f = l.trim().split(/\s+/);
  return { name: f[0].replace(/-\d+$/, ""), ns: Number(f[f.indexOf("ns/match") - 1]), matches: Number(f[f.indexOf("matches") - 1]) };
};
const gos = lines.map(parse);
const nodeBest = Math.min(...runs.map(r => r.nsPerMatch));
const nm = new Set(runs.map(r => r.matches));
console.log(`corpus: 200 patterns x ${process.argv[3]} paths, best of ${runs.length} interleaved rounds`);
console.log(`picomatch 2.3.1 (node ${process.version}), isMatch(path) per pair: ${nodeBest.toFixed(1)} ns/match (runs: ${runs.map(r => r.nsPerMatch.toFixed(0)).join(", ")}), ${[...nm]} matches`);
let bad = nm.size !== 1;
for (const [name, label] of [["BenchmarkPicomatchCorpus", "Match(path) per pair"], ["BenchmarkPicomatchCorpusPrepared", "PreparePath once per path, MatchPath per pair"]]) {
  const g = gos.filter(x => x.name === name);
  const best = Math.min(...g.map(x => x.ns));
  const gm = new Set(g.map(x => x.matches));
  if (gm.size !== 1 || [...gm][0] !== [...nm][0]) bad = true;
  console.log(`cicheck pathsfilter (go), ${label}: ${best.toFixed(1)} ns/match (runs: ${g.map(x => x.ns.toFixed(0)).join(", ")}), ${[...gm]} matches -> ${(nodeBest / best).toFixed(1)}x faster`);
}
if (bad) { console.log("MISMATCH: the two engines disagree on the corpus"); process.exit(1); }
' "$tmp/node.jsonl" "$tmp/go.txt" "$n"
