#!/usr/bin/env bash
# Lints every workflow of ../shared/corpus with cicheck's whole lint pipeline
# and, in the same benchmark iterations, with actionlint's library alone
# (interleaved, so both see the same machine load), and prints the
# cicheck/actionlint ratios of wall time and CPU time. Target: <= 1.2.
# actionlint lints each project root's files with that root's Project, the
# work cicheck's embedded actionlint does (see actionlintBaseline in
# cmd/cicheck/bench_test.go); each measured run starts from a collected heap.
# The machine is shared: take the median of several runs, or raise ITERATIONS.
# Per-stage costs: go test ./cmd/cicheck -run '^$' -bench BenchmarkLintStages -benchmem
#   bench/lint/run.sh [ITERATIONS]      (default 10)
set -euo pipefail
cd "$(dirname "$0")/../.."
n=${1:-10}
go test ./cmd/cicheck -run '^$' -bench '^BenchmarkLintCorpusRatio$' -benchtime "${n}x" -count 1 | grep -E '^Benchmark|skip|^ok|FAIL'
