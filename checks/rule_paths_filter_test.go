package checks

import "testing"

// pathsFilterRules are the rules of the paths-filter family.
var pathsFilterRules = []*Rule{
	PathsFilterNegationWidens, PathsFilterEveryUnsatisfiable, PathsFilterQuantifierUnsupported,
	PathsFilterQuantifierIgnored, PathsFilterQuantifierUnverified, PathsFilterVersionUnknown,
	PathsFilterUnknownOutput, PathsFilterOutputUnknown, PathsFilterStatusTypo, PathsFilterUnused,
	PathsFilterChangesNameCollision, PathsFilterFileNeedsCheckout, PathsFilterDeadPattern,
	PathsFilterExtglobNegation, PathsFilterInvalid, PathsFilterUnsupportedGlob,
	TriggerPathsNegationOnly, TriggerPathsIgnoreNegation, TriggerPathsPicomatchSyntax,
	WorkflowSelfTrigger,
}

func TestPathsFilterRuleExamples(t *testing.T) {
	for _, r := range pathsFilterRules {
		if fs := Run(loadSrc(t, r.Bad), "", nil, []*Rule{r}); len(fs) == 0 {
			t.Errorf("%s: Bad example reports nothing", r.ID)
		}
		if fs := Run(loadSrc(t, r.Good), "", nil, []*Rule{r}); len(fs) != 0 {
			t.Errorf("%s: Good example reports %v", r.ID, render(fs))
		}
	}
}

// The seed-002 filters before the fix: ci.yml in every filter and `!`
// exclusions under the default quantifier.
const seedBefore = `on: pull_request
jobs:
  changes:
    runs-on: ubuntu-latest
    outputs:
      cuda_arch: ${{ steps.filter.outputs.cuda_arch }}
      rocm: ${{ steps.filter.outputs.rcom }}
    steps:
      - uses: dorny/paths-filter@v4
        id: filter
        with:
          filters: |
            cuda_arch:
              - 'src/lib/mlx-cpp/**'
              - '!src/lib/mlx-cpp/patches-rocm/**'
              - '.github/workflows/ci.yml'
            rocm:
              - renamed: 'src/lib/mlx-cpp/**'
  cuda:
    needs: changes
    if: needs.changes.outputs.cuda_arch == 'true'
    runs-on: [self-hosted, GB10]
    steps: [{run: make}]
  rocm:
    needs: changes
    if: needs.changes.outputs.rocm == 'true'
    runs-on: [self-hosted, gfx1151]
    steps: [{run: make}]
`

func TestPathsFilterSeedBefore(t *testing.T) {
	w := loadSrc(t, seedBefore)
	w.Path = ".github/workflows/ci.yml"
	got := render(Run(w, ".github/workflows/ci.yml", nil, pathsFilterRules))
	want := `.github/workflows/ci.yml:7:13: error [paths-filter-unknown-output] job output "rocm" reads steps.filter.outputs.rcom, but the paths-filter step has no filter "rcom" (it sets: cuda_arch, rocm, changes); the value is always empty, so the jobs behind it can never wake job=changes fix=steps.filter.outputs.rocm
.github/workflows/ci.yml:15:18: error [paths-filter-negation-widens] filter "cuda_arch" mixes positive and ` + "`!`" + ` patterns under predicate-quantifier some: "!src/lib/mlx-cpp/patches-rocm/**" matches every file outside src/lib/mlx-cpp/patches-rocm/**, so the filter is true for almost any change (a change to README.md wakes it) job=changes fix=set predicate-quantifier: some-with-excludes (dorny/paths-filter@v4.0.3 or later), or merge the positives into one pattern such as '{a,b}/**' and set predicate-quantifier: every, or use one extglob per exclusion such as 'src/**/!(*.md)'
.github/workflows/ci.yml:16:18: notice [workflow-self-trigger] filter "cuda_arch" matches its own workflow file .github/workflows/ci.yml (via ".github/workflows/ci.yml"): editing a comment in it wakes every job behind the filter job=changes fix=drop the workflow file from the filter; lint workflow changes in a cheap hosted job and offer an opt-in label (such as ci:full) to run the heavy jobs deliberately
.github/workflows/ci.yml:17:13: notice [paths-filter-unused] filter "rocm" is never read: no job condition, job output or step reads it (nor ` + "`changes`" + `) job=changes fix=remove the filter, or gate the job it was written for on it
.github/workflows/ci.yml:18:17: error [paths-filter-status-typo] filter "rocm": status "renamed" never occurs: the action diffs with --no-renames (a rename is deleted + added) job=changes fix=added|deleted
.github/workflows/ci.yml:26:9: error [paths-filter-unknown-output] job condition reads needs.changes.outputs.rocm, which re-exports the non-existent paths-filter output "rcom": it is always empty, so this job can never wake through it job=rocm fix=
`
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// TestPathsFilterCatchAll: `**` plus exclusions under some excludes
// nothing (said so, without a misleading witness), and a catch-all `**` is
// not a self-trigger (only patterns aimed at .github are).
func TestPathsFilterCatchAll(t *testing.T) {
	src := `on: pull_request
jobs:
  check:
    runs-on: ubuntu-latest
    outputs:
      run: ${{ steps.filter.outputs.run }}
    steps:
      - uses: dorny/paths-filter@v4
        id: filter
        with:
          filters: |
            run:
              - '**'
              - '!docs/**'
  tests:
    needs: check
    if: needs.check.outputs.run == 'true'
    runs-on: [self-hosted, gpu]
    steps: [{run: make}]
`
	got := render(Run(loadSrc(t, src), "", nil, pathsFilterRules))
	want := "w.yml:14:18: error [paths-filter-negation-widens] filter \"run\": under predicate-quantifier some its `!` patterns exclude nothing: \"**\" already matches every file, so a change confined to docs/ still wakes it job=check fix=set predicate-quantifier: every (one positive pattern \"**\" AND NOT each exclusion)\n"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func TestPathsFilterEveryCases(t *testing.T) {
	wf := func(rules string) string {
		return `on: pull_request
jobs:
  c:
    runs-on: ubuntu-latest
    outputs:
      k: ${{ steps.f.outputs.k }}
    steps:
      - uses: dorny/paths-filter@v3
        id: f
        with:
          predicate-quantifier: every
          filters: |
            k:
` + rules + `  b:
    needs: c
    if: needs.c.outputs.k == 'true'
    runs-on: ubuntu-latest
    steps: [{run: make}]
`
	}
	cases := []struct{ rules, want string }{
		// Satisfiable: src/x.rs matches both.
		{"              - '**/*.rs'\n              - 'src/**'\n", ""},
		// Different extensions: provably never.
		{"              - '**/*.rs'\n              - '**/*.go'\n", "error"},
		// cicheck cannot decide: a warning.
		{"              - '**/a*'\n              - '**/*b/**'\n", "warning"},
	}
	for _, c := range cases {
		fs := Run(loadSrc(t, wf(c.rules)), "", nil, []*Rule{PathsFilterEveryUnsatisfiable})
		got := ""
		if len(fs) > 0 {
			got = fs[0].Severity.String()
		}
		if got != c.want {
			t.Errorf("%q: got %q (%s), want %q", c.rules, got, render(fs), c.want)
		}
	}
}

// A filter re-exported by a job output that no job reads is unused, and
// the message names that output instead of claiming no job output reads
// the filter.
func TestPathsFilterUnusedThroughUnreadOutput(t *testing.T) {
	src := `on: pull_request
jobs:
  changes:
    runs-on: ubuntu-latest
    outputs:
      docs: ${{ steps.filter.outputs.docs }}
      src: ${{ steps.filter.outputs.src }}
    steps:
      - uses: dorny/paths-filter@v3
        id: filter
        with:
          filters: |
            src: 'src/**'
            docs: 'docs/**'
  build:
    needs: changes
    if: needs.changes.outputs.src == 'true'
    runs-on: ubuntu-latest
    steps: [{run: make}]
`
	got := render(Run(loadSrc(t, src), "", nil, []*Rule{PathsFilterUnused}))
	want := `w.yml:14:13: notice [paths-filter-unused] filter "docs" is never read: job output "docs" re-exports it, but no job reads needs.changes.outputs.docs job=changes fix=remove the filter and the job output, or gate the job it was written for on it
`
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// TestPathsFilterOutputNames: step outputs are looked up case-insensitively
// (the runner's outputs dictionary ignores case), and an output only
// unreleased revisions set (any_changed) is unknown, never "always empty".
func TestPathsFilterOutputNames(t *testing.T) {
	src := `on: pull_request
jobs:
  changes:
    runs-on: ubuntu-latest
    outputs:
      a: ${{ steps.f.outputs.any_changed }}
      d: ${{ steps.f.outputs.SRC }}
      e: ${{ steps.F.outputs.Src_Count }}
    steps:
      - uses: dorny/paths-filter@v3
        id: f
        with:
          filters: |
            src: 'src/**'
  use:
    needs: changes
    if: needs.changes.outputs.a || needs.changes.outputs.d || needs.changes.outputs.e
    runs-on: ubuntu-latest
    steps: [{run: x}]
`
	got := render(Run(loadSrc(t, src), "", nil, []*Rule{PathsFilterUnknownOutput, PathsFilterOutputUnknown}))
	want := `w.yml:6:10: warning [paths-filter-output-unknown] job output "a" reads output "any_changed", which dorny/paths-filter v3.0.4 does not set (only unreleased revisions do); cicheck treats it as unknown job=changes fix=read the filter outputs or ` + "`changes`" + ` instead
`
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// TestPathsFilterFilesWithoutListFiles: <filter>_files exists only with
// list-files; the message says so instead of "no filter src_files".
func TestPathsFilterFilesWithoutListFiles(t *testing.T) {
	src := `on: pull_request
jobs:
  changes:
    runs-on: ubuntu-latest
    outputs:
      b: ${{ steps.f.outputs.src_files }}
    steps:
      - uses: dorny/paths-filter@v3
        id: f
        with:
          filters: |
            src: 'src/**'
      - run: echo "${{ steps.f.outputs.src_files }}"
`
	got := render(Run(loadSrc(t, src), "", nil, []*Rule{PathsFilterUnknownOutput}))
	want := `w.yml:6:10: error [paths-filter-unknown-output] job output "b" reads steps.f.outputs.src_files, but the step sets src_files only with list-files (csv, json, shell or escape) and its list-files is none: the value is always empty job=changes fix=list-files: json
`
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// TestPathsFilterInvalidCrashMessage: a filter that crashes the step says
// so once, not "(the step crashes) (the step fails at run time)".
func TestPathsFilterInvalidCrashMessage(t *testing.T) {
	src := `on: pull_request
jobs:
  changes:
    runs-on: ubuntu-latest
    steps:
      - uses: dorny/paths-filter@v3
        id: f
        with:
          filters: |
            f: ~
`
	got := render(Run(loadSrc(t, src), "", nil, []*Rule{PathsFilterInvalid}))
	want := `w.yml:10:16: error [paths-filter-invalid] TypeError: Cannot convert undefined or null to object (the step crashes) job=changes fix=
`
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}
