#!/bin/sh
# Scaling on hostile inputs (issue 27): generated workflows whose size is
# one number, each at three sizes doubling, through the built binary (static,
# CGO_ENABLED=0, as README installs it) and, for a ratio, the actionlint CLI
# at the version cicheck embeds (shellcheck and pyflakes off) on the same
# file. Each command runs ROUNDS times (default 3); a row gives the median
# wall and CPU (user + system) seconds, the peak RSS, the growth of the
# median from the previous size (the sizes double: linear is ~2, quadratic
# ~4) and cicheck's CPU time over actionlint's.
#
#   sh bench/hostile/scale.sh                 (from anywhere; needs go and GNU time)
#   CASES="labels cycle" sh bench/hostile/scale.sh
#   SIZES_labels="20000 40000 80000" sh bench/hostile/scale.sh
#
# The cases:
#   labels    N one-line jobs on an unknown runner label (runs-on: foo-bar):
#             a notice per job; `lint`.
#   cycle     j1 needs j2 ... jN needs j1; `graph` (the gates count every
#             job's ancestors), and `lint`.
#   flowline  N jobs written on one line of a flow mapping, each on an
#             unknown label: N findings on one source line; `lint` in the
#             text format (a snippet of that line per finding) and in JSON.
#   flowsteps one job whose N steps sit on one line, each reading an
#             undefined context: N errors on one line; text and JSON.
#   chain     a needs chain of N one-line jobs; `lint`, `simulate --fail j1`
#             and `graph`. bench/scale/run.sh covers GPU pipelines (chain
#             and dense DAG) at 1,000-5,000 jobs.
#   bridges   the same chain with every third job on a GPU runner and every
#             fifth gated on always(): a bridge per GPU job, so the gate
#             rules build simulate's forced table (V² bits); `lint`. Past
#             10,000 jobs they give one notice each instead (20,000 here).
#   outputs   a chain of N jobs gated on always(), each reading its need's
#             output in a step: gate-reads-unguarded-output asks, per job
#             and need, which ancestors' skip skips the need; `lint`.
#   disabled  a chain of N jobs behind j1's if: false: job-disabled names,
#             for each job, the first disabled job it needs; `lint`.
#   unknown   a chain of N jobs, each also needing a job that does not
#             exist: unknown-needs looks for a near job id to suggest; `lint`.
#
# Sizes stop under the 4 MiB a workflow may have (a bigger file is one
# invalid-workflow-file finding): 80,000 labels jobs are 3.8 MB
# (SIZES_labels="20000 40000 80000").
set -eu
cd "$(dirname "$0")/../.."
ROUNDS=${ROUNDS:-3}
CASES=${CASES:-labels cycle flowline flowsteps chain bridges outputs disabled unknown}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
. bench/actionlint.sh
CGO_ENABLED=0 go build -o "$TMP/cicheck" ./cmd/cicheck

# sizes CASE: the default sizes of a case, or $SIZES_<case>.
sizes() {
	eval "s=\${SIZES_$1:-}"
	if [ -n "$s" ]; then
		echo "$s"
		return
	fi
	case $1 in
	labels) echo "10000 20000 40000" ;;
	cycle) echo "2000 4000 8000" ;;
	flowline | flowsteps) echo "2000 4000 8000" ;;
	chain | bridges) echo "5000 10000 20000" ;;
	outputs | disabled | unknown) echo "2500 5000 10000" ;;
	esac
}

# gen CASE N: the workflow on stdout.
gen() {
	awk -v c="$1" -v n="$2" 'BEGIN {
		print "on: push"
		if (c == "labels") {
			print "jobs:"
			for (i = 1; i <= n; i++) printf "  j%d: {runs-on: foo-bar, steps: [{run: x}]}\n", i
		} else if (c == "cycle") {
			print "jobs:"
			for (i = 1; i <= n; i++) printf "  j%d: {needs: j%d, runs-on: ubuntu-latest, steps: [{run: x}]}\n", i, i % n + 1
		} else if (c == "flowline") {
			printf "jobs: {"
			for (i = 1; i <= n; i++) printf "j%d: {runs-on: foo-bar, steps: [{run: x}]}, ", i
			print "z: {runs-on: foo-bar, steps: [{run: x}]}}"
		} else if (c == "flowsteps") {
			printf "jobs:\n  a:\n    runs-on: ubuntu-latest\n    steps: ["
			for (i = 1; i <= n; i++) printf "{run: \"echo ${{ nope.x%d }}\"}, ", i
			print "{run: x}]"
		} else if (c == "chain") {
			print "jobs:"
			print "  j1: {runs-on: ubuntu-latest, steps: [{run: x}]}"
			for (i = 2; i <= n; i++) printf "  j%d: {needs: j%d, runs-on: ubuntu-latest, steps: [{run: x}]}\n", i, i - 1
		} else if (c == "bridges") {
			print "jobs:"
			print "  j1: {runs-on: ubuntu-latest, steps: [{run: x}]}"
			for (i = 2; i <= n; i++) printf "  j%d: {needs: j%d, %sruns-on: %s, steps: [{run: x}]}\n", i, i - 1,
				i % 5 == 0 ? "if: always(), " : "", i % 3 == 0 ? "[self-hosted, h100]" : "ubuntu-latest"
		} else if (c == "disabled") {
			print "jobs:"
			print "  j1: {if: false, runs-on: ubuntu-latest, steps: [{run: x}]}"
			for (i = 2; i <= n; i++) printf "  j%d: {needs: j%d, runs-on: ubuntu-latest, steps: [{run: x}]}\n", i, i - 1
		} else if (c == "unknown") {
			print "jobs:"
			print "  j1: {runs-on: ubuntu-latest, steps: [{run: x}]}"
			for (i = 2; i <= n; i++) printf "  j%d: {needs: [j%d, build-%d], runs-on: ubuntu-latest, steps: [{run: x}]}\n", i, i - 1, i
		} else if (c == "outputs") {
			print "jobs:"
			print "  j1: {runs-on: ubuntu-latest, outputs: {x: y}, steps: [{run: x}]}"
			for (i = 2; i <= n; i++) printf "  j%d: {needs: j%d, if: always(), outputs: {x: y}, runs-on: ubuntu-latest, steps: [{run: \"echo ${{ needs.j%d.outputs.x }}\"}]}\n", i, i - 1, i - 1
		}
	}'
}

# commands CASE: one "name|arguments" line per command; F is the file.
commands() {
	echo "actionlint|$ACTIONLINT -shellcheck= -pyflakes= F"
	case $1 in
	labels | bridges | outputs | disabled | unknown) echo "lint|$TMP/cicheck lint F" ;;
	cycle) printf '%s\n' "graph|$TMP/cicheck graph F" "lint|$TMP/cicheck lint F" ;;
	flowline | flowsteps) printf '%s\n' "lint text|$TMP/cicheck lint F" "lint json|$TMP/cicheck lint --format json F" ;;
	chain) printf '%s\n' "lint|$TMP/cicheck lint F" "simulate|$TMP/cicheck simulate --fail j1 F" "graph|$TMP/cicheck graph F" ;;
	esac
}

printf '%-9s %6s  %-10s | %7s %7s %6s | %-13s | %s\n' case n command "wall s" "cpu s" MB "growth w, cpu" "cpu / actionlint"
for c in $CASES; do
	prev=
	for n in $(sizes "$c"); do
		f="$TMP/$c-$n.yml"
		gen "$c" "$n" >"$f"
		commands "$c" >"$TMP/cmds"
		k=0
		while IFS='|' read -r name args; do
			k=$((k + 1))
			: >"$TMP/m$k"
			i=0
			while [ "$i" -lt "$ROUNDS" ]; do
				# shellcheck disable=SC2086 # args is a word list by design
				measure "$TMP/m$k" $(echo "$args" | sed "s|F\$|$f|") </dev/null
				i=$((i + 1))
			done
			w=$(median "$TMP/m$k" 1)
			u=$(median "$TMP/m$k" 2)
			mb=$(sort -g -k3 "$TMP/m$k" | tail -1 | awk '{printf "%.0f", $3 / 1024}')
			if [ "$k" = 1 ]; then al_u=$u; fi
			eval "pw=\${w_${k}:-}; pu=\${u_${k}:-}"
			awk -v c="$c" -v n="$n" -v name="$name" -v w="$w" -v u="$u" -v mb="$mb" -v pw="$pw" -v pu="$pu" -v prev="$prev" -v al="$al_u" -v k="$k" '
				function r(a, b) { return b > 0 ? sprintf("%.2f", a / b) : "-" }
				BEGIN {
					g = prev == "" ? "" : r(w, pw) ", " r(u, pu)
					x = k == 1 ? "" : r(u, al)
					printf "%-9s %6d  %-10s | %7.2f %7.2f %6d | %-13s | %s\n", c, n, name, w, u, mb, g, x
				}'
			eval "w_${k}=\$w; u_${k}=\$u"
		done <"$TMP/cmds"
		prev=$n
	done
	k=0
	while [ "$k" -lt 5 ]; do
		k=$((k + 1))
		eval "w_${k}=; u_${k}="
	done
done
