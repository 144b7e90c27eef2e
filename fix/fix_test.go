package fix_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/rhysd/actionlint"
	"gopkg.in/yaml.v3"

	"github.com/cicheck/cicheck/expr"
	"github.com/cicheck/cicheck/finding"
	"github.com/cicheck/cicheck/fix"
	"github.com/cicheck/cicheck/lint"
	"github.com/cicheck/cicheck/simulate"
	"github.com/cicheck/cicheck/workflowgraph"
)

// fixOnce lints name (relative to dir) from src with fixes on and returns
// the fix result, or nil when nothing is fixable.
func fixOnce(t *testing.T, dir, name string, src []byte) *lint.FileFix {
	t.Helper()
	res, err := lint.New(lint.Options{WorkingDir: dir, Fix: true, FixAll: true}).LintSource(name, src)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Fixes) == 0 {
		return nil
	}
	return &res.Fixes[0]
}

func relint(t *testing.T, dir, name string, src []byte) []finding.Finding {
	t.Helper()
	res, err := lint.New(lint.Options{WorkingDir: dir}).LintSource(name, src)
	if err != nil {
		t.Fatal(err)
	}
	return res.Findings
}

func key(f finding.Finding) string { return f.Rule + "/" + f.Job }

// checkFixed: the fixed text has none of the applied findings, no new
// finding of any rule, and a second --fix changes nothing.
func checkFixed(t *testing.T, dir, name string, src []byte, ff *lint.FileFix) {
	t.Helper()
	before := relint(t, dir, name, src)
	after := relint(t, dir, name, ff.Source)
	var gone []string
	for _, f := range ff.Applied {
		gone = append(gone, key(f))
	}
	for _, f := range after {
		if slices.Contains(gone, key(f)) {
			t.Errorf("%s: still reported after the fix: %s", name, f.Message)
		}
		if !slices.ContainsFunc(before, func(b finding.Finding) bool { return key(b) == key(f) && b.Message == f.Message }) {
			t.Errorf("%s: the fix introduced %s at %d:%d: %s", name, f.Rule, f.Line, f.Column, f.Message)
		}
	}
	checkAuthorsText(t, name, src, ff)
	if again := fixOnce(t, dir, name, ff.Source); again != nil && len(again.Applied) > 0 {
		t.Errorf("%s: not idempotent: a second fix applies %d more:\n%s", name, len(again.Applied), again.Unified(name))
	}
}

// TestFixSeed003: --fix on seed 003's broken pipeline gives resolve-ci-image
// the fixed pipeline's gate, and the re-lint is clean.
func TestFixSeed003(t *testing.T) {
	dir, _ := filepath.Abs("../fixtures/gate-broken")
	name := ".github/workflows/pr-test.yml"
	src, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	ff := fixOnce(t, dir, name, src)
	if ff == nil || len(ff.Applied) != 2 || len(ff.Skipped) != 0 {
		t.Fatalf("fixes: %+v", ff)
	}
	want := "  resolve-ci-image:\n    if: ${{ !cancelled() && needs.docker-build.result == 'success' }}\n    # A failed"
	if !strings.Contains(string(ff.Source), want) {
		t.Errorf("fixed text lacks\n%s\n---\n%s", want, ff.Source)
	}
	if left := relint(t, dir, name, ff.Source); len(left) != 0 {
		t.Errorf("re-lint after the fix: %v", left)
	}
	checkFixed(t, dir, name, src, ff)
	// Only the if: lines changed: removing them gives the original back.
	var kept []string
	for _, l := range strings.SplitAfter(string(ff.Source), "\n") {
		if !strings.HasPrefix(strings.TrimSpace(l), "if: ${{ !cancelled() && needs.") {
			kept = append(kept, l)
		}
	}
	if strings.Join(kept, "") != string(src) {
		t.Error("the fix changed more than the if: lines")
	}
}

// TestFixForms: an existing if: in each scalar form, with comments and
// CRLF; the forms that cannot be edited with certainty are skipped.
func TestFixForms(t *testing.T) {
	head := "on: push\njobs:\n  cpu:\n    runs-on: ubuntu-latest\n    steps: [{run: x}]\n  mid:\n    needs: cpu\n    runs-on: ubuntu-latest\n    steps: [{run: x}]\n"
	gpu := "  gpu:\n    needs: mid\n    runs-on: [self-hosted, h100]\n    steps: [{run: x}]\n"
	for _, c := range []struct {
		name, mid, want, skip string
	}{
		{"plain", "    if: github.event_name == 'push' # keep me\n", "    if: ${{ !cancelled() && needs.cpu.result == 'success' && github.event_name == 'push' }} # keep me\n", ""},
		{"double-quoted", "    if: \"github.event_name == 'push'\"\n", "    if: \"!cancelled() && needs.cpu.result == 'success' && github.event_name == 'push'\"\n", ""},
		{"single-quoted", "    if: 'github.event_name == ''push'''\n", "    if: '!cancelled() && needs.cpu.result == ''success'' && github.event_name == ''push'''\n", ""},
		// A block scalar stays one, the new terms on a line of their own.
		{"block", "    if: >-\n      github.event_name == 'push'\n\n", "    if: >-\n      !cancelled() && needs.cpu.result == 'success' &&\n      github.event_name == 'push'\n\n    runs-on", ""},
		{"literal block", "    if: |\n      github.event_name == 'push' &&\n      github.ref == 'refs/heads/x'\n", "    if: |\n      !cancelled() && needs.cpu.result == 'success' &&\n      github.event_name == 'push' &&\n      github.ref == 'refs/heads/x'\n    runs-on", ""},
		{"literal block with ||", "    if: |\n      github.event_name == 'push' ||\n      github.ref == 'x'\n", "    if: |\n      !cancelled() && needs.cpu.result == 'success' && (\n      github.event_name == 'push' ||\n      github.ref == 'x'\n      )\n    runs-on", ""},
		{"template in a block", "    if: >-\n      ${{ github.event_name == 'push' ||\n      github.ref == 'x' }}\n", "    if: >-\n      ${{ !cancelled() && needs.cpu.result == 'success' && (github.event_name == 'push' ||\n      github.ref == 'x') }}\n    runs-on", ""},
		// The rules claim nothing about a job whose if: does not parse: it is
		// left as it is while its dependent is fixed.
		{"does not parse", "    if: |\n      github.event_name == 'push' &&\n      # not a comment: block content\n      true\n", "    if: |\n      github.event_name == 'push' &&\n      # not a comment: block content\n", ""},
		{"multi-line plain", "    if: github.event_name == 'push' &&\n      github.ref == 'refs/heads/main'\n", "    if: ${{ !cancelled() && needs.cpu.result == 'success' && github.event_name == 'push' &&\n      github.ref == 'refs/heads/main' }}\n    runs-on", ""},
		{"block header comment", "    if: >- # folded\n      github.event_name == 'push'\n", "    if: >- # folded\n      !cancelled() && needs.cpu.result == 'success' &&\n      github.event_name == 'push'\n", ""},
		{"colon in a string", "    if: \"contains(github.ref, 'a: b')\"\n", "    if: \"!cancelled() && needs.cpu.result == 'success' && contains(github.ref, 'a: b')\"\n", ""},
		// The author's case, spacing and parentheses are kept.
		{"author's text", "    if: ${{ (inputs.Mode=='x')  ||  vars.UV_BUILD_CACHE }}\n", "    if: ${{ !cancelled() && needs.cpu.result == 'success' && ((inputs.Mode=='x')  ||  vars.UV_BUILD_CACHE) }}\n", ""},
		{"already parenthesized", "    if: ${{ (vars.A || vars.B) }}\n", "    if: ${{ !cancelled() && needs.cpu.result == 'success' && (vars.A || vars.B) }}\n", ""},
		// A term already in the condition is not added again.
		{"term present", "    if: needs.cpu.result == 'success' && vars.X\n", "    if: ${{ !cancelled() && needs.cpu.result == 'success' && vars.X }}\n", ""},
		{"term present, other case", "    if: needs.CPU.result == 'success' && vars.X\n", "    if: ${{ !cancelled() && needs.CPU.result == 'success' && vars.X }}\n", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			src := strings.Replace(head, "  mid:\n    needs: cpu\n", "  mid:\n    needs: cpu\n"+c.mid, 1) + gpu
			dir := t.TempDir()
			ff := fixOnce(t, dir, "w.yml", []byte(src))
			if ff == nil {
				if c.skip == "nothing fixable" {
					return
				}
				t.Fatal("nothing fixable")
			}
			if c.skip != "" {
				if len(ff.Skipped) == 0 || !strings.Contains(ff.Skipped[0].Reason, c.skip) || !strings.Contains(string(ff.Source), c.mid) {
					t.Errorf("want skipped (%s), got %+v", c.skip, ff.Skipped)
				}
				return
			}
			if !strings.Contains(string(ff.Source), c.want) {
				t.Errorf("fixed:\n%s\nwant line\n%s", ff.Source, c.want)
			}
			checkFixed(t, dir, "w.yml", []byte(src), ff)
			crlf := strings.ReplaceAll(src, "\n", "\r\n")
			if ff := fixOnce(t, dir, "w.yml", []byte(crlf)); ff == nil || strings.Count(string(ff.Source), "\r\n") != strings.Count(string(ff.Source), "\n") {
				t.Error("CRLF: a line ending changed")
			}
		})
	}
}

// TestFixUnparsableIf: a fix for a job whose if: does not parse would be
// built without its condition; it is skipped.
func TestFixUnparsableIf(t *testing.T) {
	src := "on: push\njobs:\n  a:\n    if: github.ref == (\n    runs-on: x\n    steps: [{run: x}]\n"
	w, _, err := workflowgraph.Load(fstest.MapFS{"w.yml": {Data: []byte(src)}}, "w.yml")
	if err != nil || w == nil {
		t.Fatal(err)
	}
	f := finding.Finding{Rule: "gpu-gate", Job: "a", Fix: "if: ${{ !cancelled() }}", Edit: finding.CondEdit{Terms: "!cancelled()"}}
	r := fix.Apply([]byte(src), w, []finding.Finding{f})
	if len(r.Applied) != 0 || len(r.Skipped) != 1 || !strings.Contains(r.Skipped[0].Reason, "does not parse") || string(r.Source) != src {
		t.Errorf("%+v", r)
	}
	// The near miss: the same finding on a parsable if: is applied.
	src2 := strings.Replace(src, "github.ref == (", "github.ref == 'x'", 1)
	w2, _, _ := workflowgraph.Load(fstest.MapFS{"w.yml": {Data: []byte(src2)}}, "w.yml")
	if r := fix.Apply([]byte(src2), w2, []finding.Finding{f}); len(r.Applied) != 1 {
		t.Errorf("parsable: %+v", r)
	}
}

// TestFixFlowJob: a job written in flow style has no line to add if: to.
func TestFixFlowJob(t *testing.T) {
	src := "on: push\njobs:\n  cpu: {runs-on: ubuntu-latest, steps: [{run: x}]}\n  mid: {needs: cpu, runs-on: ubuntu-latest, steps: [{run: x}]}\n  gpu:\n    needs: mid\n    runs-on: [self-hosted, h100]\n    steps: [{run: x}]\n"
	ff := fixOnce(t, t.TempDir(), "w.yml", []byte(src))
	if ff == nil || len(ff.Skipped) == 0 || !strings.Contains(ff.Skipped[0].Reason, "flow style") {
		t.Fatalf("want the flow-style job skipped: %+v", ff)
	}
	if len(ff.Applied) > 0 && strings.Contains(ff.Unified("w.yml"), "\n-  mid: {") {
		t.Error("the flow-style line was edited")
	}
}

// TestFixCorpus: on every ../shared/corpus file with a fixable finding, the
// fix removes those findings, adds none, and is idempotent.
func TestFixCorpus(t *testing.T) {
	dir, _ := filepath.Abs("../../shared/corpus")
	if _, err := os.Stat(dir); err != nil {
		t.Skip("../shared/corpus is absent")
	}
	fixStats = stats{}
	fixed, skipped := fixCorpus(t, dir, dir)
	if fixed == 0 {
		t.Fatal("no corpus file had a fixable finding")
	}
	t.Logf("%d corpus files fixed; %d findings skipped as uncertain; %s", fixed, skipped, fixStats)
}

// TestFixRealWorld: the same on the real-world corpus
// (bench/realworld/SOURCES.md), each repository linted as itself, when
// $REALWORLD (default ../../realworld) holds it; REALWORLD_HELDOUT adds
// another such directory.
func TestFixRealWorld(t *testing.T) {
	var roots []string
	for _, env := range []string{"REALWORLD", "REALWORLD_HELDOUT"} {
		if d := os.Getenv(env); d != "" {
			roots = append(roots, d)
		}
	}
	if len(roots) == 0 {
		roots = []string{"../../realworld"}
	}
	fixed, skipped, repos := 0, 0, 0
	fixStats = stats{}
	for _, root := range roots {
		dirs, _ := filepath.Glob(filepath.Join(root, "*", ".github", "workflows"))
		for _, wf := range dirs {
			repo, _ := filepath.Abs(filepath.Dir(filepath.Dir(wf)))
			repos++
			f, s := fixCorpus(t, repo, filepath.Join(repo, ".github", "workflows"))
			fixed, skipped = fixed+f, skipped+s
		}
	}
	if repos == 0 {
		t.Skip("no real-world corpus (see bench/realworld/SOURCES.md)")
	}
	t.Logf("%d repositories: %d files fixed; %d findings skipped as uncertain; %s", repos, fixed, skipped, fixStats)
}

// fixCorpus fixes every YAML file under walk, linted from dir (all
// fixes, advisories included), and checks each fixed file.
func fixCorpus(t *testing.T, dir, walk string) (fixed, skipped int) {
	t.Helper()
	var files []string
	_ = filepath.WalkDir(walk, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && lint.IsYAML(p) {
			files = append(files, p)
		}
		return nil
	})
	for _, p := range files {
		rel, _ := filepath.Rel(dir, p)
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		ff := fixOnce(t, dir, rel, src)
		if ff == nil {
			continue
		}
		skipped += len(ff.Skipped)
		for _, s := range ff.Skipped {
			t.Logf("%s: skipped: %s", rel, s.Describe())
		}
		if len(ff.Applied) == 0 {
			continue
		}
		fixed++
		t.Run(filepath.Base(dir)+"/"+rel, func(t *testing.T) { checkFixed(t, dir, rel, src, ff) })
	}
	return fixed, skipped
}

// TestUnifiedPatches: GNU patch applies the diff and gets the fixed text.
func TestUnifiedPatches(t *testing.T) {
	patch, err := exec.LookPath("patch")
	if err != nil {
		t.Skip("no patch")
	}
	dir, _ := filepath.Abs("../fixtures/gate-broken")
	name := ".github/workflows/pr-test.yml"
	src, _ := os.ReadFile(filepath.Join(dir, name))
	ff := fixOnce(t, dir, name, src)
	work := t.TempDir()
	if err := os.WriteFile(filepath.Join(work, "w.yml"), src, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(patch, "-s", "w.yml")
	cmd.Dir, cmd.Stdin = work, strings.NewReader(ff.Unified(name))
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("patch: %v: %s", err, out)
	}
	if got, _ := os.ReadFile(filepath.Join(work, "w.yml")); string(got) != string(ff.Source) {
		t.Errorf("patched text differs from the fix:\n%s", got)
	}
}

// TestFixRounds: a fix can expose the next. Gating x on its direct need
// makes it run through q's skip, which then bridges y (closure-bridge on
// the fixed text). --fix lints its own result again and fixes y too, in
// one diff against the original; the fixed text has no fixable finding.
func TestFixRounds(t *testing.T) {
	src := `on: [push, workflow_dispatch]
jobs:
  q:
    if: github.event_name == 'workflow_dispatch'
    runs-on: ubuntu-latest
    steps: [{run: x}]
  p:
    needs: q
    if: ${{ !cancelled() }}
    runs-on: ubuntu-latest
    steps: [{run: x}]
  x:
    needs: p
    runs-on: [self-hosted, h100]
    steps: [{run: x}]
  y:
    needs: x
    runs-on: ubuntu-latest
    steps: [{run: x}]
`
	dir := t.TempDir()
	// The first round alone fixes x only (the near miss this test guards).
	before := relint(t, dir, "w.yml", []byte(src))
	if len(before) != 1 || before[0].Job != "x" {
		t.Fatalf("before: %v", before)
	}
	ff := fixOnce(t, dir, "w.yml", []byte(src))
	if ff == nil {
		t.Fatal("nothing fixed")
	}
	for _, want := range []string{"  x:\n    if: ${{ !cancelled() && needs.p.result == 'success' }}\n", "  y:\n    if: ${{ !cancelled() && needs.x.result == 'success' }}\n"} {
		if !strings.Contains(string(ff.Source), want) {
			t.Errorf("fixed text lacks %q:\n%s", want, ff.Source)
		}
	}
	for _, f := range relint(t, dir, "w.yml", ff.Source) {
		if fix.Fixable(f) {
			t.Errorf("still fixable after --fix: %s %s", f.Rule, f.Job)
		}
	}
}

// TestFixCleanupKeepsRunningAfterFailure: a cleanup written to run
// whenever its build ran (`!= 'skipped'`) is fixed so that it does, and
// the simulation engine agrees: with build failed, it runs; before the
// fix it was skipped. A GPU job beside it gets the full gate.
func TestFixCleanupKeepsRunningAfterFailure(t *testing.T) {
	src := `on: push
jobs:
  build:
    runs-on: [self-hosted, h100]
    steps: [{run: make}]
  clean:
    needs: build
    if: ${{ needs.build.result != 'skipped' }}
    runs-on: [self-hosted, h100]
    steps: [{run: make clean}]
`
	dir := t.TempDir()
	ff := fixOnce(t, dir, "w.yml", []byte(src))
	if ff == nil || len(ff.Applied) == 0 {
		t.Fatalf("nothing fixed: %+v", ff)
	}
	if !strings.Contains(string(ff.Source), "    if: ${{ !cancelled() && needs.build.result != 'skipped' }}\n") {
		t.Errorf("fixed:\n%s", ff.Source)
	}
	runs := func(text []byte) simulate.Decision {
		w, _, err := workflowgraph.Load(fstest.MapFS{"w.yml": {Data: text}}, "w.yml")
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range simulate.Run(w, simulate.Scenario{Outcomes: map[string]simulate.Result{"build": simulate.Failure}}) {
			if v.ID == "clean" {
				return v.Verdict
			}
		}
		return ""
	}
	if before, after := runs([]byte(src)), runs(ff.Source); before != simulate.VerdictSkip || after != simulate.VerdictRun {
		t.Errorf("clean after a failed build: before %s, after %s; want skip, run", before, after)
	}
	checkFixed(t, dir, "w.yml", []byte(src), ff)
}

// fixStats counts the if: values the corpus tests rewrote, by shape.
var fixStats stats

type stats struct{ added, rewritten, block, multiLine, or, mixedCase, paren int }

func (s *stats) count(o, n *yaml.Node) {
	if o == nil {
		s.added++
		return
	}
	s.rewritten++
	if o.Style&(yaml.LiteralStyle|yaml.FoldedStyle) != 0 && n.Style == o.Style {
		s.block++
	}
	if strings.Contains(strings.TrimSpace(o.Value), "\n") {
		s.multiLine++
	}
	if strings.Contains(o.Value, "||") {
		s.or++
	}
	if strings.Contains(o.Value, "(") && strings.Count(o.Value, "(") > strings.Count(o.Value, "()") {
		s.paren++
	}
	if strings.ToLower(o.Value) != o.Value {
		s.mixedCase++
	}
}

func (s stats) String() string {
	return fmt.Sprintf("%d if: added; %d rewritten (%d block scalars kept as block scalars, %d multi-line, %d with ||, %d with grouping or calls, %d mixed-case), each holding the author's text verbatim",
		s.added, s.rewritten, s.block, s.multiLine, s.or, s.paren, s.mixedCase)
}

// checkAuthorsText: every rewritten if: holds the author's condition
// verbatim (always() calls aside), keeps its scalar style (a block scalar
// stays one), and no term of its top-level && appears twice.
func checkAuthorsText(t *testing.T, name string, src []byte, ff *lint.FileFix) {
	t.Helper()
	var before, after yaml.Node
	if yaml.Unmarshal(src, &before) != nil || yaml.Unmarshal(ff.Source, &after) != nil {
		t.Errorf("%s: does not parse", name)
		return
	}
	jobs := map[string]bool{}
	for _, f := range ff.Applied {
		jobs[f.Job] = true
	}
	old, nu := takeIfs(&before, jobs), takeIfs(&after, jobs)
	for id := range jobs {
		n := nu[strings.ToLower(id)]
		fixStats.count(old[strings.ToLower(id)], n)
		if n == nil {
			t.Errorf("%s: %s has no if: after the fix", name, id)
			continue
		}
		if o := old[strings.ToLower(id)]; o != nil && (o.Style != n.Style || !containsAuthor(n.Value, o.Value)) {
			t.Errorf("%s: %s: %q became %q", name, id, o.Value, n.Value)
		}
		v := strings.TrimSpace(n.Value)
		v = strings.TrimSuffix(strings.TrimPrefix(v, "${{"), "}}")
		e, err := workflowgraph.ParseExpr(v)
		if err != "" {
			t.Errorf("%s: %s: the new if: does not parse: %s", name, id, err)
			continue
		}
		seen := map[string]bool{}
		for _, c := range topConjuncts(e) {
			if k := expr.Render(c); seen[k] {
				t.Errorf("%s: %s: %s appears twice in %q", name, id, k, n.Value)
			} else {
				seen[k] = true
			}
		}
	}
}

func topConjuncts(n actionlint.ExprNode) []actionlint.ExprNode {
	if l, ok := n.(*actionlint.LogicalOpNode); ok && l.Kind == actionlint.LogicalOpNodeKindAnd {
		return append(topConjuncts(l.Left), topConjuncts(l.Right)...)
	}
	return []actionlint.ExprNode{n}
}
