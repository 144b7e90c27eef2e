#!/bin/sh
# Real repositories, process against process: `cicheck lint` against the
# actionlint CLI (the version cicheck embeds, shellcheck and pyflakes off)
# on the same workflow files, as a user runs them. Each measurement is
# REPEAT back-to-back invocations (default 10, so that GNU time's 10 ms
# resolution does not decide), the two tools alternate, ROUNDS times
# (default 5), and each tool's median CPU time (user + system) per
# repository is summed over all of them. A one-job workflow is measured
# the same way: it is the start-up cost a pre-commit hook pays.
#
#   sh bench/repos/run.sh [DIR...]
#
# With no DIR: every project of ../shared/corpus, and every repository
# under $REPOS (for example the GPU/ML repositories fetched for the runner
# classification work), when set. A DIR with .github/workflows is linted
# there, any other DIR by its own *.yml/*.yaml files. Issue 10's bar: the
# summed ratio <= 1.2, the one-job ratio <= 1.3.
set -eu
cd "$(dirname "$0")/../.."
ROUNDS=${ROUNDS:-5}
REPEAT=${REPEAT:-10}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
. bench/actionlint.sh
# Built as README installs it: CGO_ENABLED=0, a static binary (pflag links
# package net, which otherwise pulls in cgo and the dynamic loader).
CGO_ENABLED=0 go build -o "$TMP/cicheck" ./cmd/cicheck
if [ $# -eq 0 ]; then
	for d in ../shared/corpus/*/; do [ -d "$d" ] && set -- "$@" "$d"; done
	if [ -n "${REPOS:-}" ]; then
		for d in "$REPOS"/*/; do [ -d "$d" ] && set -- "$@" "$d"; done
	fi
fi
[ $# -gt 0 ] || { echo "no repositories (../shared/corpus is absent and no DIR given)" >&2; exit 2; }
mkdir "$TMP/one"
printf 'on: push\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n      - run: make test\n' >"$TMP/one/ci.yml"
set -- "$TMP/one/" "$@"
# files DIR: the workflow files of DIR, one argument list per line.
files() {
	if [ -d "$1/.github/workflows" ]; then
		find "$1/.github/workflows" -maxdepth 1 -type f \( -name '*.yml' -o -name '*.yaml' \) | sort
	else
		find "$1" -maxdepth 1 -type f \( -name '*.yml' -o -name '*.yaml' \) | sort
	fi
}
# $TMP/loop.sh LIST CMD...: REPEAT invocations of CMD with LIST's files.
cat >"$TMP/loop.sh" <<'LOOP'
list=$1
shift
i=0
while [ "$i" -lt "$REPEAT" ]; do
	xargs "$@" <"$list" >/dev/null 2>&1 || true
	i=$((i + 1))
done
LOOP
export REPEAT
# actionlint reads local actions and called workflows only inside a git
# repository (it looks for .git); cicheck does so wherever .github is. A
# DIR with .github but no .git (an extracted snapshot) is copied into a
# fresh git repository, so both tools do the same work, as in a clone.
n=0
for d in "$@"; do
	n=$((n + 1))
	if [ -d "$d/.github/workflows" ] && [ ! -e "$d/.git" ]; then
		mkdir -p "$TMP/repo.$n"
		cp -R "$d/.github" "$TMP/repo.$n/"
		git -C "$TMP/repo.$n" init -q
		files "$TMP/repo.$n" >"$TMP/files.$n"
	else
		files "$d" >"$TMP/files.$n"
	fi
done
r=0
while [ "$r" -lt "$ROUNDS" ]; do
	n=0
	for d in "$@"; do
		n=$((n + 1))
		[ -s "$TMP/files.$n" ] || continue
		measure "$TMP/al.$n" sh "$TMP/loop.sh" "$TMP/files.$n" "$ACTIONLINT" -shellcheck= -pyflakes=
		measure "$TMP/ci.$n" sh "$TMP/loop.sh" "$TMP/files.$n" "$TMP/cicheck" lint
	done
	r=$((r + 1))
done
printf '%-40s %6s %10s %10s %6s\n' repository files "actionlint" "cicheck" ratio
n=0
for d in "$@"; do
	n=$((n + 1))
	[ -s "$TMP/files.$n" ] || continue
	a=$(median "$TMP/al.$n" 2)
	c=$(median "$TMP/ci.$n" 2)
	name=$(basename "$d")
	[ "$n" -eq 1 ] && name="(one-job workflow)"
	awk -v n="$name" -v f="$(wc -l <"$TMP/files.$n")" -v a="$a" -v c="$c" 'BEGIN { printf "%-40s %6d %9.3fs %9.3fs %6.2f\n", n, f, a / ENVIRON["REPEAT"], c / ENVIRON["REPEAT"], (a > 0 ? c / a : 0) }'
	if [ "$n" -gt 1 ]; then
		echo "$a $c" >>"$TMP/sum"
	fi
done
awk '{a += $1; c += $2} END { printf "%-40s %6s %9.3fs %9.3fs %6.2f\n", "summed over the repositories", "", a / ENVIRON["REPEAT"], c / ENVIRON["REPEAT"], (a > 0 ? c / a : 0) }' "$TMP/sum"
