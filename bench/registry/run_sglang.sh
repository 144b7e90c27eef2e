#!/bin/sh
# Registry scan benchmark on sglang's layout: cicheck registry check vs
# sgl-project/sglang's own collector (collect_tests(files, sanity_check=True)
# and validate_all_suites, from python/sglang/test/ci/ci_register.py and
# test/run_suite.py, driven by sglang_collect.py), over one generated tree,
# process against process.
#
#   SGLANG_REF=/path/to/sglang sh bench/registry/run_sglang.sh [N]    (N = 3500)
#   SGLANG_REF=/path/to/sglang sh bench/registry/run_sglang.sh DIR    (an existing sglang-layout tree)
#   SGLANG_REF=/path/to/sglang SIZES="1750 3500 7000" sh bench/registry/run_sglang.sh
#
# SGLANG_REF is a checkout of sglang (or a directory holding just its
# python/sglang/test/ci/ci_register.py and test/run_suite.py); no sglang
# code is kept here. With SIZES, each size is generated and timed in turn.
# Both tools run 5 times; the best wall time of each is reported with the
# ratio python/cicheck, and the best CPU time (user + system, GNU time),
# which a busy machine disturbs less. Process start-up is included on both
# sides (python3 is resolved to the interpreter's path, PYTHON overrides
# it). The two are first run once, untimed, and must both succeed and
# agree that the tree collects cleanly.
set -eu
REF=${SGLANG_REF:-}
if [ -z "$REF" ] || [ ! -f "$REF/python/sglang/test/ci/ci_register.py" ] || [ ! -f "$REF/test/run_suite.py" ]; then
	echo "run_sglang.sh: set SGLANG_REF to a checkout of sgl-project/sglang (it needs" >&2
	echo "python/sglang/test/ci/ci_register.py and test/run_suite.py); skipped." >&2
	exit 0
fi
if [ ! -x /usr/bin/time ]; then
	echo "run_sglang.sh: GNU time (/usr/bin/time) is missing: apt-get install time" >&2
	exit 1
fi
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
CGO_ENABLED=0 go build -o "$TMP/cicheck" ./cmd/cicheck # static, as installed and released
HERE=$(dirname "$0")
# The interpreter itself, not a version manager's shim (pyenv's python3 is
# a shell script that adds its own start-up to every run).
PY=${PYTHON:-$(python3 -c 'import sys; print(sys.executable)')}

. "$(dirname "$0")/best.sh"

one() { # one tree: $1 = N or DIR
	REPO=$TMP/repo
	if [ -d "$1" ]; then
		REPO=$1 # read as is, never written
		N="$(find "$REPO/test/registered" -name '*.py' | wc -l | tr -d ' ') .py (in $REPO)"
	else
		rm -rf "$REPO"
		python3 "$HERE/gen_sglang.py" "$REPO" "$1"
		sync # the files just written are flushed before any timing: writeback slowed the first runs 2x
		N=$1
	fi
	# Both must accept the tree, or the timings compare different work.
	"$TMP/cicheck" registry check --root "$REPO" --format json >/dev/null
	REGS=$("$PY" "$HERE/sglang_collect.py" "$REF" "$REPO")
	C=$(best "$TMP/cicheck" registry check --root "$REPO" --format json)
	P=$(best "$PY" "$HERE/sglang_collect.py" "$REF" "$REPO")
	CC=$(bestcpu "$TMP/cicheck" registry check --root "$REPO" --format json)
	PC=$(bestcpu "$PY" "$HERE/sglang_collect.py" "$REF" "$REPO")
	echo "files: $N, registrations: $REGS, bytes: $(du -sb "$REPO/test/registered" | cut -f1)"
	echo "  cicheck registry check:   ${C} us wall, ${CC} ms cpu"
	echo "  sglang collect+validate:  ${P} us wall, ${PC} ms cpu"
	awk -v p="$P" -v c="$C" -v pc="$PC" -v cc="$CC" 'BEGIN {
		printf "  ratio: %.1fx wall", p / c
		if (cc > 0) printf ", %.1fx cpu", pc / cc
		printf "\n" }'
}

for n in ${SIZES:-${1:-3500}}; do
	one "$n"
done
