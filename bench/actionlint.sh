# Sourced by the bench scripts: builds the actionlint CLI at the version
# cicheck embeds (go.mod), from the Go module proxy, into $TMP, and sets
# ACTIONLINT. Nothing of it is kept in the repository.
al_version=$(go list -m -f '{{.Version}}' github.com/rhysd/actionlint)
GOBIN="$TMP" go install "github.com/rhysd/actionlint/cmd/actionlint@$al_version"
ACTIONLINT="$TMP/actionlint"

# measure OUT CMD...: runs CMD once under GNU time and appends
# "wall_s cpu_s maxrss_kb" to OUT.
measure() {
	out=$1
	shift
	/usr/bin/time -f '%e %U %S %M' -o "$TMP/time.txt" "$@" >/dev/null 2>&1 || true
	awk '{printf "%s %.2f %s\n", $1, $2 + $3, $4}' "$TMP/time.txt" >>"$out"
}

# median FILE COLUMN: the median of one column of a measure file.
median() {
	sort -g -k"$2" "$1" | awk -v c="$2" '{v[NR] = $c} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'
}
