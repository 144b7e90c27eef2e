#!/usr/bin/env bash
# Verifies .pre-commit-hooks.yaml for real: pre-commit builds cicheck from
# this repository (language: golang) into a scratch git repository; a commit
# with a bad workflow must fail with the finding, a good one must pass.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
rev=$(git -C "$repo" rev-parse HEAD)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export PRE_COMMIT_HOME="$work/cache"
cd "$work"
git init -q scratch && cd scratch
git config user.email ci@example.com && git config user.name ci
cat > .pre-commit-config.yaml <<YAML
repos:
  - repo: $repo
    rev: $rev
    hooks:
      - id: cicheck
YAML
mkdir -p .github/workflows
git add .pre-commit-config.yaml && git commit -qm "pre-commit config" --no-verify
pre-commit install >/dev/null

# a workflow with a needs typo: the hook must block the commit
cat > .github/workflows/ci.yml <<'YAML'
name: ci
on: push
permissions: {}
jobs:
  build:
    runs-on: ubuntu-latest
    steps: [{run: make}]
  test:
    needs: biuld
    runs-on: ubuntu-latest
    steps: [{run: make test}]
YAML
git add .github/workflows/ci.yml
if git commit -qm "bad workflow" > out.txt 2>&1; then
  cat out.txt; echo "pre-commit check: FAIL (a bad workflow was committed)"; exit 1
fi
grep -q 'unknown-needs' out.txt || { cat out.txt; echo "pre-commit check: FAIL (finding not shown)"; exit 1; }

# the fixed workflow passes
sed -i 's/needs: biuld/needs: build/' .github/workflows/ci.yml
git add .github/workflows/ci.yml
git commit -qm "good workflow" > out.txt 2>&1 || { cat out.txt; echo "pre-commit check: FAIL (a good workflow was refused)"; exit 1; }
echo "pre-commit check: OK (bad workflow refused with unknown-needs, good one committed)"
