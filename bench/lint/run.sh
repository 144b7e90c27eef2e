#!/usr/bin/env bash
# Lints every workflow of ../shared/corpus with cicheck's whole lint pipeline
# and, in the same benchmark run, with actionlint's library alone, then prints
# cicheck/actionlint. Target: at most 1.2.
#   bench/lint/run.sh [COUNT]      (default 5 runs of each)
set -euo pipefail
cd "$(dirname "$0")/../.."
count=${1:-5}
out=$(go test ./cmd/cicheck -run '^$' -bench '^BenchmarkLintCorpus$' -benchtime 3x -count "$count")
echo "$out" | grep -E '^Benchmark|skip' || true
echo "$out" | awk '
  /BenchmarkLintCorpus\/cicheck/    { c[++nc] = $3 }
  /BenchmarkLintCorpus\/actionlint/ { a[++na] = $3 }
  function median(x, n,   i, j, t) {
    for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (x[j] < x[i]) { t = x[i]; x[i] = x[j]; x[j] = t }
    return (n % 2) ? x[(n + 1) / 2] : (x[n / 2] + x[n / 2 + 1]) / 2
  }
  END {
    if (nc == 0 || na == 0) { print "no benchmark results (corpus absent?)"; exit 0 }
    mc = median(c, nc); ma = median(a, na)
    printf "median cicheck %.1f ms, actionlint %.1f ms, ratio %.2f (target <= 1.2)\n", mc / 1e6, ma / 1e6, mc / ma
  }'
