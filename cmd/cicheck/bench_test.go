package main

import (
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/rhysd/actionlint"

	"github.com/cicheck/cicheck/checks"
	"github.com/cicheck/cicheck/config"
	"github.com/cicheck/cicheck/finding"
	"github.com/cicheck/cicheck/lint"
	"github.com/cicheck/cicheck/report"
	"github.com/cicheck/cicheck/workflowgraph"
)

// corpusFiles lists every .yml/.yaml under ../shared/corpus (the module
// root's sibling), or skips the benchmark when the folder is absent.
func corpusFiles(b *testing.B) (string, []string) {
	dir, _ := filepath.Abs(filepath.Join("..", "..", "..", "shared", "corpus"))
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		b.Skipf("corpus %s is absent; skipping the lint-vs-actionlint benchmark", dir)
	}
	var files []string
	_ = filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && lint.IsYAML(p) {
			files = append(files, p)
		}
		return nil
	})
	sort.Strings(files)
	return dir, files
}

// actionlintBaseline returns one run of actionlint's library alone over
// the targets, doing the work cicheck's embedded actionlint does for them:
// LintFiles over each project root's files with that root's Project, as
// the actionlint command does inside a repository (it finds the project
// from .git). The corpus has no .git, so LintFiles(files, nil) would find
// no project and skip what cicheck is given to do: reading
// .github/actionlint.yaml and checking local actions and local reusable
// workflows (about 5% of the work); the comparison would then not be
// like for like. Roots are linted concurrently, each by its own Linter,
// so that small roots do not serialise the wall time.
func actionlintBaseline(b *testing.B, dir string, targets []lint.Target) func() {
	byRoot := map[string][]string{}
	var roots []string
	for _, t := range targets {
		if byRoot[t.Root] == nil {
			roots = append(roots, t.Root)
		}
		byRoot[t.Root] = append(byRoot[t.Root], t.Abs)
	}
	return func() {
		var wg sync.WaitGroup
		errs := make([]error, len(roots))
		for i, r := range roots {
			wg.Add(1)
			go func() {
				defer wg.Done()
				l, err := actionlint.NewLinter(io.Discard, &actionlint.LinterOptions{WorkingDir: dir, LogWriter: io.Discard})
				if err != nil {
					errs[i] = err
					return
				}
				p, err := actionlint.NewProject(r)
				if err != nil {
					errs[i] = err
					return
				}
				_, errs[i] = l.LintFiles(byRoot[r], p)
			}()
		}
		wg.Wait()
		for _, err := range errs {
			if err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkLintCorpus lints every corpus file with cicheck's whole lint
// pipeline (read, actionlint, graph, every cicheck rule, suppressions) and,
// in the same run, with actionlint's library alone (actionlintBaseline).
// bench/lint/run.sh prints the ratio.
func BenchmarkLintCorpus(b *testing.B) {
	dir, files := corpusFiles(b)
	var targets []lint.Target
	for _, f := range files {
		targets = append(targets, lint.NewTarget(dir, f))
	}
	b.Run("cicheck", func(b *testing.B) {
		cfg := config.Default()
		b.ResetTimer()
		for range b.N {
			res, err := lint.New(lint.Options{WorkingDir: dir, Config: cfg}).LintTargets(targets)
			if err != nil {
				b.Fatal(err)
			}
			if err := writeReportDiscard(res); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("actionlint", func(b *testing.B) {
		run := actionlintBaseline(b, dir, targets)
		b.ResetTimer()
		for range b.N {
			run()
		}
	})
}

// cpuTime is the process's user+system CPU time: on a shared machine it is
// a steadier measure than wall time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkLintCorpusRatio interleaves the two tools in every iteration
// (alternating which goes first), so that both see the same machine load,
// and reports wall and CPU ratios cicheck/actionlint.
func BenchmarkLintCorpusRatio(b *testing.B) {
	dir, files := corpusFiles(b)
	cfg := config.Default()
	var targets []lint.Target
	for _, f := range files {
		targets = append(targets, lint.NewTarget(dir, f))
	}
	// The same pipeline with every cicheck rule disabled: what the
	// foundation (discovery, actionlint, graph, suppressions, report) costs.
	bare := config.Default()
	off := false
	for _, r := range checks.All() {
		bare.Rules[r.ID] = config.RuleConfig{Enabled: &off}
	}
	lintWith := func(cfg *config.Config) func() {
		return func() {
			res, err := lint.New(lint.Options{WorkingDir: dir, Config: cfg}).LintTargets(targets)
			if err != nil {
				b.Fatal(err)
			}
			if err := writeReportDiscard(res); err != nil {
				b.Fatal(err)
			}
		}
	}
	runCicheck, runBare := lintWith(cfg), lintWith(bare)
	runActionlint := actionlintBaseline(b, dir, targets)
	var wallC, wallA, wallB, cpuC, cpuA, cpuB time.Duration
	measure := func(f func(), wall, cpu *time.Duration) {
		// Each tool starts from a collected heap, as a fresh process does,
		// so that collecting one tool's garbage is not charged to the
		// other (the collection itself is outside the measurement; every
		// collection a tool's own allocations trigger is inside).
		runtime.GC()
		w0, c0 := time.Now(), cpuTime()
		f()
		*wall += time.Since(w0)
		*cpu += cpuTime() - c0
	}
	b.ResetTimer()
	for i := range b.N {
		if i%2 == 0 {
			measure(runCicheck, &wallC, &cpuC)
			measure(runActionlint, &wallA, &cpuA)
			measure(runBare, &wallB, &cpuB)
		} else {
			measure(runBare, &wallB, &cpuB)
			measure(runActionlint, &wallA, &cpuA)
			measure(runCicheck, &wallC, &cpuC)
		}
	}
	b.ReportMetric(float64(wallC.Milliseconds())/float64(b.N), "cicheck-ms/op")
	b.ReportMetric(float64(wallA.Milliseconds())/float64(b.N), "actionlint-ms/op")
	b.ReportMetric(float64(wallC)/float64(wallA), "wall-ratio")
	b.ReportMetric(float64(cpuC)/float64(cpuA), "cpu-ratio")
	b.ReportMetric(float64(cpuB)/float64(cpuA), "no-rules-cpu-ratio")
}

// BenchmarkLintStages splits cicheck's per-file pipeline into its stages,
// run serially over the corpus, so a change can be measured where it
// lands: read (workflowgraph.ReadFile), actionlint (checks.Linter), graph
// (workflowgraph.Build), rules (checks.Run with every rule) and post (job
// assignment and suppressions). Each stage's input is prepared outside
// the timer.
func BenchmarkLintStages(b *testing.B) {
	dir, files := corpusFiles(b)
	cfg := config.Default()
	type prepared struct {
		t   lint.Target
		src []byte
		ast *actionlint.Workflow
		w   *workflowgraph.Workflow
		fs  []finding.Finding
	}
	var ps []prepared
	l, err := checks.NewLinter(checks.LinterOptions{WorkingDir: dir})
	if err != nil {
		b.Fatal(err)
	}
	for _, f := range files {
		t := lint.NewTarget(dir, f)
		src, err := workflowgraph.ReadFile(os.DirFS(t.Root), t.Rel)
		if err != nil {
			continue
		}
		fs, ast, err := l.Lint(t.Abs, t.Root, t.Display, src)
		if err != nil || ast == nil {
			continue
		}
		w := workflowgraph.Build(os.DirFS(t.Root), t.Rel, src, ast)
		fs = append(fs, checks.Run(w, t.Display, cfg, nil)...)
		ps = append(ps, prepared{t, src, ast, w, fs})
	}
	b.Run("read", func(b *testing.B) {
		for range b.N {
			for _, p := range ps {
				if _, err := workflowgraph.ReadFile(os.DirFS(p.t.Root), p.t.Rel); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
	b.Run("actionlint", func(b *testing.B) {
		for range b.N {
			for _, p := range ps {
				if _, _, err := l.Lint(p.t.Abs, p.t.Root, p.t.Display, p.src); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
	b.Run("graph", func(b *testing.B) {
		for range b.N {
			for _, p := range ps {
				workflowgraph.Build(os.DirFS(p.t.Root), p.t.Rel, p.src, p.ast)
			}
		}
	})
	b.Run("rules", func(b *testing.B) {
		for range b.N {
			for _, p := range ps {
				checks.Run(p.w, p.t.Display, cfg, nil)
			}
		}
	})
	b.Run("post", func(b *testing.B) {
		for range b.N {
			for _, p := range ps {
				fs := checks.AssignJobs(p.src, p.w, slices.Clone(p.fs))
				checks.ApplySuppressions(p.t.Display, p.src, p.w, fs)
			}
		}
	})
}

// writeReportDiscard renders the text report and drops it.
func writeReportDiscard(res *lint.Result) error {
	return report.Write(io.Discard, "text", res.Findings, report.Options{Sources: res.Sources, Rules: lint.RuleInfos()})
}
