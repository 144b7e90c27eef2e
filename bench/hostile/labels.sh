#!/bin/sh
# Scaling of 'cicheck registry check' with the size of KNOWN_LABELS (issue
# 27: 300,000 keys took 72 s when each key was looked up in a list of the
# keys before it). Times a labels.py of N/4, N/2 and N keys (N = 300000)
# and prints each growth ratio: a linear scan doubles its time when the
# keys double (ratio about 2), a quadratic one quadruples it.
#
#   sh bench/hostile/labels.sh [N]      (from the repository root)
#
# Each size runs 3 times; the best wall time counts.
set -eu
N=${1:-300000}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
CGO_ENABLED=0 go build -o "$TMP/cicheck" ./cmd/cicheck
gen() { # gen DIR KEYS
	mkdir -p "$1/tests/ci" "$1/tests/e2e"
	awk -v n="$2" 'BEGIN {
		print "KNOWN_LABELS: dict[str, str] = {"
		for (i = 0; i < n; i++) printf "    \"label-%07d\": \"Label number %d.\",\n", i, i
		print "}"
	}' >"$1/tests/ci/labels.py"
	echo 'register_cuda_ci(est_time=5, suite="stage-b-2-gpu-h200", labels=["label-0000001"])' >"$1/tests/e2e/test_a.py"
}
best() {
	b=""
	for _ in 1 2 3; do
		s=$(date +%s%N)
		"$@" >/dev/null 2>&1 || true
		e=$(date +%s%N)
		t=$(( (e - s) / 1000000 ))
		if [ -z "$b" ] || [ "$t" -lt "$b" ]; then b=$t; fi
	done
	echo "$b"
}
prev=""
for n in $((N / 4)) $((N / 2)) "$N"; do
	gen "$TMP/r$n" "$n"
	t=$(best "$TMP/cicheck" registry check --root "$TMP/r$n" --format json)
	if [ -n "$prev" ]; then
		awk -v n="$n" -v t="$t" -v p="$prev" 'BEGIN { printf "%7d keys: %6d ms  (x%.2f for x2 keys)\n", n, t, (p > 0 ? t / p : 0) }'
	else
		printf "%7d keys: %6d ms\n" "$n" "$t"
	fi
	prev=$t
done
