#!/bin/sh
# Registry scan benchmark: cicheck vs a Python collector built on the ast
# module (collect.py, the same discovery, parse and literal evaluation the
# reference collector does), over one generated tree, in one run.
#
#   sh bench/registry/run.sh [N]      (from the repository root; N = 2000)
#   sh bench/registry/run.sh DIR      (an existing checkout instead, e.g. radixark/miles)
#
# Both tools run 5 times; the best wall time of each is reported with the
# ratio python/cicheck, and, when GNU time is installed, the best CPU time
# (user + system) of each, which a busy machine disturbs less. Process
# start-up is included on both sides: it is what a pre-commit hook pays.
set -eu
N=${1:-2000}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
CGO_ENABLED=0 go build -o "$TMP/cicheck" ./cmd/cicheck # static, as installed and released
REPO=$TMP/repo
if [ -d "$N" ]; then
	REPO=$N # read as is, never written
	N="$(find "$REPO" -name 'test_*.py' | wc -l | tr -d ' ') (in $REPO)"
else
	python3 bench/registry/gen.py "$REPO" "$N"
fi
. "$(dirname "$0")/best.sh"
C=$(best "$TMP/cicheck" registry check --root "$REPO" --format json)
P=$(best python3 bench/registry/collect.py --bench "$REPO")
echo "files: $N"
echo "cicheck registry check: ${C} us wall"
echo "python3 ast collector:  ${P} us wall"
awk -v p="$P" -v c="$C" 'BEGIN { printf "ratio (wall): %.1fx\n", p / c }'
if [ -x /usr/bin/time ]; then
	CC=$(bestcpu "$TMP/cicheck" registry check --root "$REPO" --format json)
	PC=$(bestcpu python3 bench/registry/collect.py --bench "$REPO")
	echo "cicheck cpu: ${CC} ms, python cpu: ${PC} ms"
	awk -v p="$PC" -v c="$CC" 'BEGIN { if (c > 0) printf "ratio (cpu): %.1fx\n", p / c }'
fi
