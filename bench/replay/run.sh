#!/bin/sh
# cicheck replay, process against process: one `cicheck replay` over N
# commits (default 1,000) of a generated repository whose workflow has 30
# jobs and a dorny/paths-filter step of 24 filters, against what a script
# without replay runs: `cicheck explain-diff` once per commit, on that
# commit's changed files (listed beforehand with one git log, not timed).
# explain-diff evaluates one side (the working tree's workflows); replay
# evaluates two (old and new), so the ratio is conservative. Wall and CPU
# time under GNU time; replay is the median of ROUNDS (default 5) runs,
# the per-commit loop the median of LOOP_ROUNDS (default 1: it is long).
# Issue 17's bar: replay under 2 s.
#
#   sh bench/replay/run.sh [N]
set -eu
cd "$(dirname "$0")/../.."
N=${1:-1000}
ROUNDS=${ROUNDS:-5}
LOOP_ROUNDS=${LOOP_ROUNDS:-1}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
# measure and median, without building actionlint.
eval "$(sed -n '/^measure()/,$p' bench/actionlint.sh)"
CGO_ENABLED=0 go build -o "$TMP/cicheck" ./cmd/cicheck
go build -o "$TMP/gen" ./bench/replay/gen
repo="$TMP/repo"
mkdir "$repo"
git -C "$repo" init -q -b main
"$TMP/gen" -n "$N" -new "$TMP/ci-new.yml" | git -C "$repo" fast-import --quiet
git -C "$repo" checkout -q main
cp "$TMP/ci-new.yml" "$repo/.github/workflows/ci.yml"
# The per-commit file lists, as --name-status lines.
mkdir "$TMP/lists"
git -C "$repo" log --first-parent --no-renames --name-status --format='@%H' -n "$N" HEAD |
	awk -v d="$TMP/lists" '/^@/ {f = d "/" substr($0, 2); printf "" > f; next} NF {print >> f}'
ls "$TMP/lists" >"$TMP/shas"
cat >"$TMP/loop.sh" <<'LOOP'
: >"$4"
while read -r sha; do
	"$1" explain-diff --files "$2/$sha" --name-status --format json >>"$4"
done <"$3"
LOOP
(cd "$repo" && "$TMP/cicheck" replay --commits "$N" --old "HEAD~$N" --no-labels >"$TMP/replay.txt")
r=0
while [ "$r" -lt "$ROUNDS" ]; do
	(cd "$repo" && measure "$TMP/replay.m" "$TMP/cicheck" replay --commits "$N" --old "HEAD~$N" --no-labels --format json)
	r=$((r + 1))
done
r=0
while [ "$r" -lt "$LOOP_ROUNDS" ]; do
	(cd "$repo" && measure "$TMP/loop.m" sh "$TMP/loop.sh" "$TMP/cicheck" "$TMP/lists" "$TMP/shas" "$TMP/loop.json")
	r=$((r + 1))
done
head -1 "$TMP/replay.txt"
# Both must count the same wakes under the working tree's workflows.
want=$(sed -n 's/.*heavy\/GPU wakes [0-9]* -> \([0-9]*\) .*/\1/p' "$TMP/replay.txt")
got=$(grep -A1 '"id": "gpu-mod' "$TMP/loop.json" | grep -c '"verdict": "run"' || true)
if [ "$want" != "$got" ]; then
	echo "MISMATCH: replay counts $want wakes under new, explain-diff per commit $got" >&2
	exit 1
fi
echo "agreement: both count $got GPU wakes under the new workflow"
rw=$(median "$TMP/replay.m" 1)
rc=$(median "$TMP/replay.m" 2)
lw=$(median "$TMP/loop.m" 1)
lc=$(median "$TMP/loop.m" 2)
echo "cicheck replay, $N commits x 2 sides: ${rw} s wall, ${rc} s CPU (median of $ROUNDS; runs: $(awk '{printf "%s ", $1}' "$TMP/replay.m"))"
echo "cicheck explain-diff once per commit, $(wc -l <"$TMP/shas") runs x 1 side: ${lw} s wall, ${lc} s CPU"
awk -v rw="$rw" -v lw="$lw" -v rc="$rc" -v lc="$lc" 'BEGIN {printf "ratio: replay %.0fx faster (wall), %.0fx less CPU; bar: replay under 2 s: %s\n", lw / rw, lc / rc, (rw < 2) ? "met" : "NOT met"}'
