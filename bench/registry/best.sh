# Timing helpers shared by the registry benchmarks (sourced, not run).
#
# best CMD...: the best wall time of 5 runs, in microseconds.
# bestcpu CMD...: the best CPU time (user + system, GNU time) of 5 runs, in
# milliseconds.
best() {
	b=""
	for _ in 1 2 3 4 5; do
		s=$(date +%s%N)
		"$@" >/dev/null 2>&1 || true
		e=$(date +%s%N)
		t=$(( (e - s) / 1000 ))
		if [ -z "$b" ] || [ "$t" -lt "$b" ]; then b=$t; fi
	done
	echo "$b"
}
bestcpu() {
	b=""
	for _ in 1 2 3 4 5; do
		t=$(/usr/bin/time -f "%U %S" "$@" 2>&1 >/dev/null | tail -1 | awk '{ printf "%d", ($1 + $2) * 1000 }')
		if [ -z "$b" ] || [ "$t" -lt "$b" ]; then b=$t; fi
	done
	echo "$b"
}
