package main

// Test selection and ordering for -mode=schema. Running a package's whole
// suite per mutant is what makes a run slow: pathsfilter's suite takes
// 13-17 s, most of it in four property and golden-replay tests, while a
// mutant in the YAML loader is only reachable from a handful of quick tests.
// So, before the mutants run:
//
//   - every top-level test (and fuzz seed corpus and example) runs alone in
//     a coverage build, which records the lines it executes;
//   - the schema binary runs once with no mutant switched on, which records
//     each test's duration.
//
// A mutant then runs only the tests that execute its line (all of them if
// none does on its own), fastest first, in batches: quick tests share one
// process, slow ones get a process each, and the first failing batch ends
// the mutant. No test is skipped that could kill the mutant, so the status
// is the same as a whole-suite run's; only the cost changes.

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"
)

// testCov is one top-level test and the blocks it executes when run alone.
type testCov struct {
	name   string
	blocks map[string][]block
	dur    time.Duration // in the schema binary with no mutant on
}

// perTestCoverage builds a coverage test binary of the unmutated package and
// runs each top-level test alone under it.
func perTestCoverage(pkg, pkgDir, dir string, timeout time.Duration) ([]*testCov, error) {
	bin := filepath.Join(dir, "cover.test")
	ctx, cancel := context.WithTimeout(context.Background(), 4*timeout)
	defer cancel()
	if out, err := exec.CommandContext(ctx, "go", "test", "-c", "-vet=off", "-covermode=set", "-o", bin, pkg).CombinedOutput(); err != nil {
		return nil, fmt.Errorf("building the coverage binary: %w\n%s", err, out)
	}
	list := exec.CommandContext(ctx, bin, "-test.list", ".")
	list.Dir = pkgDir
	out, err := list.Output()
	if err != nil {
		return nil, fmt.Errorf("listing tests: %w", err)
	}
	var tests []*testCov
	for _, name := range strings.Fields(string(out)) {
		// -test.run never runs benchmarks; the rest (tests, fuzz seed
		// corpora, examples) it does.
		if strings.HasPrefix(name, "Benchmark") {
			continue
		}
		prof := filepath.Join(dir, "cover-test.out")
		cmd := exec.CommandContext(ctx, bin, "-test.run", "^"+regexp.QuoteMeta(name)+"$", "-test.count=1", "-test.coverprofile="+prof)
		cmd.Dir = pkgDir
		if out, err := cmd.CombinedOutput(); err != nil {
			return nil, fmt.Errorf("%s fails when run alone: %w\n%s", name, err, out)
		}
		blocks, err := readProfile(prof)
		if err != nil {
			return nil, err
		}
		tests = append(tests, &testCov{name: name, blocks: blocks})
	}
	return tests, nil
}

// readProfile reads a -covermode=set profile, keeping executed blocks.
func readProfile(prof string) (map[string][]block, error) {
	f, err := os.Open(prof)
	if err != nil {
		return nil, err
	}
	defer func() { _ = f.Close() }()
	blocks := map[string][]block{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "mode:") {
			continue
		}
		// name.go:sl.sc,el.ec stmts count
		colon := strings.LastIndex(line, ":")
		if colon < 0 {
			continue
		}
		fields := strings.Fields(line[colon+1:])
		if len(fields) != 3 {
			continue
		}
		var b block
		if _, err := fmt.Sscanf(fields[0], "%d.%d,%d.%d", &b.sl, &b.sc, &b.el, &b.ec); err != nil {
			continue
		}
		b.covered = fields[2] != "0"
		base := filepath.Base(line[:colon])
		blocks[base] = append(blocks[base], b)
	}
	return blocks, sc.Err()
}

var passLine = regexp.MustCompile(`^--- (?:PASS|SKIP): (\S+) \(([0-9.]+)s\)`)

// baseline runs the schema binary with no mutant on, verbosely, and records
// each top-level test's duration. Subtests are indented and not matched.
func baseline(bin, pkgDir string, tests []*testCov, timeout time.Duration) error {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "-test.v", "-test.count=1")
	cmd.Dir = pkgDir
	cmd.Env = append(os.Environ(), schemaEnv+"=0")
	out, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf("the schema with no mutant switched on fails its tests: %w", err)
	}
	durs := map[string]time.Duration{}
	for _, l := range bytes.Split(out, []byte("\n")) {
		if m := passLine.FindSubmatch(l); m != nil {
			s, _ := strconv.ParseFloat(string(m[2]), 64)
			durs[string(m[1])] = time.Duration(s * float64(time.Second))
		}
	}
	for _, t := range tests {
		t.dur = durs[t.name]
	}
	return nil
}

// batch is one test-binary process: the tests it runs and their baseline.
type batch struct {
	names []string
	dur   time.Duration
}

// batchLimit is the most baseline time quick tests share one process with;
// a test at least this slow runs alone, after the quicker ones.
const batchLimit = 500 * time.Millisecond

// plan returns the batches for a mutant at (rel, line, col): the tests
// that execute it, fastest first. With no such test it plans all of them,
// as a mutant covered by the whole suite but by no test alone can only be
// reached through state one test leaves for another.
func plan(tests []*testCov, rel string, line, col int) []batch {
	var sel []*testCov
	for _, t := range tests {
		if covered(t.blocks[rel], line, col) {
			sel = append(sel, t)
		}
	}
	if len(sel) == 0 {
		return []batch{{names: []string{"."}, dur: total(tests)}}
	}
	sort.SliceStable(sel, func(i, j int) bool { return sel[i].dur < sel[j].dur })
	var out []batch
	var cur batch
	for _, t := range sel {
		if len(cur.names) > 0 && cur.dur+t.dur > batchLimit {
			out = append(out, cur)
			cur = batch{}
		}
		cur.names = append(cur.names, t.name)
		cur.dur += t.dur
	}
	return append(out, cur)
}

func total(tests []*testCov) time.Duration {
	var d time.Duration
	for _, t := range tests {
		d += t.dur
	}
	return d
}

// runPattern is the -test.run value for a batch.
func (b batch) runPattern() string {
	if len(b.names) == 1 && b.names[0] == "." {
		return "."
	}
	q := make([]string, len(b.names))
	for i, n := range b.names {
		q[i] = regexp.QuoteMeta(n)
	}
	return "^(" + strings.Join(q, "|") + ")$"
}
