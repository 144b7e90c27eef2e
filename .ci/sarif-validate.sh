#!/usr/bin/env bash
# Validates cicheck's SARIF with Microsoft's SARIF Multitool and its GitHub
# rule set (GH1001-GH2013) plus the SARIF rules, as code scanning's
# documentation recommends: a log with findings of every rule area and the
# log of a failed run (invalid configuration, exit 2). The Multitool comes
# from npm (@microsoft/sarif-multitool-linux, pinned: 4.x builds crash on
# start-up as single-file apps); without npm or on another OS the check is
# skipped with a note. Any error or warning fails, except SARIF2005's
# missing informationUri (the project has no published home yet).
set -euo pipefail
cd "$(dirname "$0")/.."
version=5.7.0
if ! command -v npm >/dev/null 2>&1 || [ "$(uname -s)" != Linux ] || [ "$(uname -m)" != x86_64 ]; then
  echo "sarif-validate: skipped (needs npm on linux-x64)"
  exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$tmp" && npm install --silent --no-audit --no-fund "@microsoft/sarif-multitool-linux@$version" >/dev/null)
mt="$tmp/node_modules/@microsoft/sarif-multitool-linux/Sarif.Multitool"
chmod u+x "$mt" # npm may not run the package's postinstall (chmod)
go build -o "$tmp/cicheck" ./cmd/cicheck
"$tmp/cicheck" lint --format sarif --fail-on never fixtures/nightly-gpu >"$tmp/findings.sarif"
mkdir "$tmp/broken" && printf 'rules:\n  gpu-gat: {}\n' >"$tmp/broken/.cicheck.yaml"
if (cd "$tmp/broken" && "$tmp/cicheck" lint --format sarif --config .cicheck.yaml . >"$tmp/failed.sarif" 2>/dev/null); then
  echo "sarif-validate: a broken configuration did not fail the run"; exit 1
fi
grep -q '"executionSuccessful": false' "$tmp/failed.sarif"
status=0
for log in "$tmp/findings.sarif" "$tmp/failed.sarif"; do
  out=$("$mt" validate "$log" --rule-kind "Gh;Sarif" --output "$tmp/validation.sarif" --log ForceOverwrite 2>&1) || { echo "$out"; status=1; continue; }
  problems=$(grep -E ': (error|warning) [A-Z]+[0-9]+:' <<<"$out" | grep -v "warning SARIF2005: runs\[0\].tool.driver: The tool 'cicheck' does not provide 'informationUri'" || true)
  if [ -n "$problems" ]; then echo "$problems"; status=1; fi
  grep -q 'Analysis completed successfully' <<<"$out" || { echo "$out"; status=1; }
done
[ "$status" = 0 ] && echo "sarif-validate: SARIF Multitool $version (GitHub and SARIF rules): no errors or warnings"
exit "$status"
