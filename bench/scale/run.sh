#!/bin/sh
# Scaling curve: cicheck against the actionlint CLI (the version cicheck
# embeds, shellcheck and pyflakes off) on the same generated GPU pipeline,
# process against process, at 250 / 500 / 1,000 / 2,000 / 5,000 jobs, as a
# needs chain and as a dense DAG (bench/scale/gen). Per file the three
# commands run interleaved ROUNDS times (default 5); the table gives the
# median wall time, the median CPU time (user + system) and the largest
# peak RSS of each, and the ratios to actionlint's lint.
#
#   sh bench/scale/run.sh [SIZES]        (from anywhere; needs go and GNU time)
#   sh bench/scale/run.sh "1000 2000"
#
# Issue 10's bar: at 2,000 jobs lint and simulate within 3x actionlint's
# time, lint growing at most 2.6x from 1,000 to 2,000 jobs, and at 5,000
# jobs peak memory within 3x of actionlint's.
set -eu
cd "$(dirname "$0")/../.."
SIZES=${1:-250 500 1000 2000 5000}
ROUNDS=${ROUNDS:-5}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
. bench/actionlint.sh
# Built as README installs it: CGO_ENABLED=0, a static binary (pflag links
# package net, which otherwise pulls in cgo and the dynamic loader).
CGO_ENABLED=0 go build -o "$TMP/cicheck" ./cmd/cicheck
go build -o "$TMP/gen" ./bench/scale/gen
printf '%-6s %5s | %-22s | %-22s | %-22s | %s\n' shape jobs "actionlint s/cpu/MB" "cicheck lint s/cpu/MB" "simulate --fail j1" "ratios lint, simulate (wall; cpu; mem)"
for shape in chain dense; do
	for n in $SIZES; do
		f="$TMP/$shape-$n.yml"
		"$TMP/gen" -jobs "$n" -shape "$shape" >"$f"
		: >"$TMP/al" ; : >"$TMP/ci" ; : >"$TMP/sim"
		i=0
		while [ "$i" -lt "$ROUNDS" ]; do
			measure "$TMP/al" "$ACTIONLINT" -shellcheck= -pyflakes= "$f"
			measure "$TMP/ci" "$TMP/cicheck" lint "$f"
			measure "$TMP/sim" "$TMP/cicheck" simulate "$f" --fail j1
			i=$((i + 1))
		done
		for k in al ci sim; do
			eval "${k}_w=\$(median \"\$TMP/\$k\" 1)"
			eval "${k}_c=\$(median \"\$TMP/\$k\" 2)"
			eval "${k}_m=\$(sort -g -k3 \"\$TMP/\$k\" | tail -1 | awk '{printf \"%.0f\", \$3 / 1024}')"
		done
		awk -v s="$shape" -v n="$n" -v aw="$al_w" -v ac="$al_c" -v am="$al_m" -v cw="$ci_w" -v cc="$ci_c" -v cm="$ci_m" \
			-v sw="$sim_w" -v sc="$sim_c" -v sm="$sim_m" 'function r(a, b) { return b > 0 ? sprintf("%.2f", a / b) : "-" }
			BEGIN { printf "%-6s %5d | %6.2f %6.2f %6d | %6.2f %6.2f %6d | %6.2f %6.2f %6d | %s, %s; %s, %s; %s, %s\n",
				s, n, aw, ac, am, cw, cc, cm, sw, sc, sm, r(cw, aw), r(sw, aw), r(cc, ac), r(sc, ac), r(cm, am), r(sm, am) }'
	done
done
