#!/usr/bin/env bash
# run.sh [FLAGS --] PKG... : mutation testing of each package with
# tools/mutate (see main.go for the operators and statuses). Prints, per
# package, the surviving mutants as "pkg/file:line:col operator" and the
# score line; the full per-mutant log goes to $OUT/PKG.txt (OUT defaults to
# ./mutate-out). Flags before "--" go to every run, e.g.
#
#   tools/mutate/run.sh checks simulate
#   tools/mutate/run.sh -sample 120 -seed 7 -- pathsfilter testregistry
#   tools/mutate/run.sh -only survivors.txt -- checks
set -euo pipefail
cd "$(dirname "$0")/../.."
flags=()
if [[ " $* " == *" -- "* ]]; then
	while [[ $1 != -- ]]; do flags+=("$1"); shift; done
	shift
fi
out=${OUT:-mutate-out}
mkdir -p "$out"
bin=$(mktemp -d)/mutate
trap 'rm -rf "$(dirname "$bin")"' EXIT
go build -o "$bin" ./tools/mutate
for pkg in "$@"; do
	pkg=${pkg#./}
	pkg=${pkg%/}
	"$bin" -pkg "./$pkg" "${flags[@]}" -out "$out/${pkg//\//_}.txt" >/dev/null
	grep -E '^(SURVIVED|TIMEOUT|ERROR)' "$out/${pkg//\//_}.txt" |
		sed -E "s#^([A-Z]+) ([^ ]+) ([a-z-]+).*#\1 $pkg/\2 \3#" || true
	grep '^SCORE' "$out/${pkg//\//_}.txt"
done
