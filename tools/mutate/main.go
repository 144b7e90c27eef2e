// Command mutate is a small mutation tester for one Go package at a time.
//
// It parses the package's non-test files with go/ast, derives one mutant per
// site and operator, and runs the package's own tests against each mutant
// through `go test -overlay`, so the working tree is never written. A mutant
// is KILLED when the tests fail, SURVIVED when they pass, TIMEOUT when they
// run past -timeout (counted as killed, as PIT and gremlins do) and NOTVIABLE
// when the mutated package does not compile (left out of the score). Mutants
// on lines the package's tests never execute are NOTCOVERED: they are listed
// and counted beside the score, never run.
//
// Operators (the classic set):
//
//	cond-flip     == <-> !=, < <-> >=, <= <-> >, > <-> <=, >= <-> <
//	cond-bound    < <-> <=, > <-> >=
//	logic-flip    && <-> ||
//	not-drop      !x -> x
//	if-negate     if c -> if !(c), for conditions that are not a comparison
//	bool-flip     true <-> false
//	guard-drop    an if body's lone continue, break or bare return is removed
//	incdec-flip   x++ <-> x--
//	stmt-drop     a call statement (x.Remove(p), m.add(v)) is removed
//
// Usage:
//
//	go run ./tools/mutate -pkg ./checks [-timeout 2m] [-sample N -seed S]
//	                      [-only survivors.txt] [-files regexp] [-out results.txt]
//	                      [-j 2] [-select=false] [-factor 10 -slack 10s] [-keep DIR]
//
// In the default schema mode a mutant runs only the tests that execute its
// line, fastest first (select.go).
//
// The score is (killed+timeout) / (killed+timeout+survived) over the covered,
// viable mutants run. tools/mutate/run.sh runs it over several packages.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"math/rand"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// mutant is one textual edit of one file: bytes [off, off+n) become repl.
type mutant struct {
	file      string // absolute path
	rel       string // path relative to the package dir
	line, col int
	op        string
	off, n    int
	repl      string
	// For -mode=schema: the node the mutant changes and, for operator
	// swaps, the new operator.
	node ast.Node
	alt  token.Token
	id   int // 1-based, in the schema build
}

func (m mutant) key() string { return fmt.Sprintf("%s:%d:%d %s", m.rel, m.line, m.col, m.op) }

var flips = map[token.Token]token.Token{
	token.EQL: token.NEQ, token.NEQ: token.EQL,
	token.LSS: token.GEQ, token.GEQ: token.LSS,
	token.LEQ: token.GTR, token.GTR: token.LEQ,
}

var bounds = map[token.Token]token.Token{
	token.LSS: token.LEQ, token.LEQ: token.LSS,
	token.GTR: token.GEQ, token.GEQ: token.GTR,
}

// collect returns every mutant of one file. simple holds the statements
// that sit in a for/if/switch header, which cannot be wrapped in an if.
func collect(fset *token.FileSet, f *ast.File, src []byte, abs, rel string) []mutant {
	var ms []mutant
	add := func(node ast.Node, pos token.Pos, n int, repl, op string, alt token.Token) {
		p := fset.Position(pos)
		ms = append(ms, mutant{file: abs, rel: rel, line: p.Line, col: p.Column, op: op, off: p.Offset, n: n, repl: repl, node: node, alt: alt})
	}
	simple := map[ast.Stmt]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.GenDecl:
			// Constants and package-level values are data, not logic.
			return x.Tok != token.CONST
		case *ast.ForStmt:
			simple[x.Init], simple[x.Post] = true, true
		case *ast.IfStmt:
			simple[x.Init] = true
		case *ast.SwitchStmt:
			simple[x.Init] = true
		case *ast.TypeSwitchStmt:
			simple[x.Init] = true
		case *ast.BinaryExpr:
			if t, ok := flips[x.Op]; ok {
				add(x, x.OpPos, len(x.Op.String()), t.String(), "cond-flip", t)
			}
			if t, ok := bounds[x.Op]; ok {
				add(x, x.OpPos, len(x.Op.String()), t.String(), "cond-bound", t)
			}
			switch x.Op {
			case token.LAND:
				add(x, x.OpPos, 2, "||", "logic-flip", token.LOR)
			case token.LOR:
				add(x, x.OpPos, 2, "&&", "logic-flip", token.LAND)
			}
		case *ast.UnaryExpr:
			if x.Op == token.NOT {
				add(x, x.OpPos, 1, "", "not-drop", 0)
			}
		case *ast.Ident:
			switch x.Name {
			case "true":
				add(x, x.Pos(), 4, "false", "bool-flip", 0)
			case "false":
				add(x, x.Pos(), 5, "true", "bool-flip", 0)
			}
		case *ast.IncDecStmt:
			if !simple[x] {
				if x.Tok == token.INC {
					add(x, x.TokPos, 2, "--", "incdec-flip", token.DEC)
				} else {
					add(x, x.TokPos, 2, "++", "incdec-flip", token.INC)
				}
			}
		case *ast.BlockStmt:
			// Only calls that stand as statements in a block: a call in
			// defer, go or a case clause is left alone.
			for _, st := range x.List {
				if es, ok := st.(*ast.ExprStmt); ok {
					if c, ok := es.X.(*ast.CallExpr); ok && !isPanic(c) {
						s, e := fset.Position(es.Pos()).Offset, fset.Position(es.End()).Offset
						add(es, es.Pos(), e-s, "", "stmt-drop", 0)
					}
				}
			}
		}
		if x, ok := n.(*ast.IfStmt); ok {
			if !isComparison(x.Cond) {
				s, e := fset.Position(x.Cond.Pos()).Offset, fset.Position(x.Cond.End()).Offset
				add(x, x.Cond.Pos(), e-s, "!("+string(src[s:e])+")", "if-negate", 0)
			}
			if len(x.Body.List) == 1 {
				switch b := x.Body.List[0].(type) {
				case *ast.BranchStmt:
					if b.Label == nil && (b.Tok == token.CONTINUE || b.Tok == token.BREAK) {
						add(b, b.Pos(), len(b.Tok.String()), "", "guard-drop", 0)
					}
				case *ast.ReturnStmt:
					if len(b.Results) == 0 {
						add(b, b.Pos(), len("return"), "", "guard-drop", 0)
					}
				}
			}
		}
		return true
	})
	return ms
}

func isPanic(c *ast.CallExpr) bool {
	id, ok := c.Fun.(*ast.Ident)
	return ok && id.Name == "panic"
}

func isComparison(e ast.Expr) bool {
	for {
		p, ok := e.(*ast.ParenExpr)
		if !ok {
			break
		}
		e = p.X
	}
	b, ok := e.(*ast.BinaryExpr)
	return ok && flips[b.Op] != 0
}

// block is one coverage block: a range of one file and whether it ran.
type block struct {
	sl, sc, el, ec int
	covered        bool
}

// coverage runs the package's tests once with a cover profile; it fails
// when the unmutated tests fail.
func coverage(pkg, dir string, timeout time.Duration) (map[string][]block, error) {
	prof := filepath.Join(dir, "cover.out")
	ctx, cancel := context.WithTimeout(context.Background(), 4*timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "go", "test", "-count=1", "-vet=off", "-covermode=set", "-coverprofile="+prof, pkg)
	if out, err := cmd.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("tests of the unmutated package fail: %w\n%s", err, out)
	}
	return readProfile(prof)
}

// covered: some executed block holds the position. Go's blocks hold
// statements, so a condition of an if is in the block that runs the if.
func covered(bs []block, line, col int) bool {
	for _, b := range bs {
		if !b.covered {
			continue
		}
		after := line > b.sl || (line == b.sl && col >= b.sc)
		before := line < b.el || (line == b.el && col <= b.ec)
		if after && before {
			return true
		}
	}
	return false
}

type result struct {
	m      mutant
	status string
	dur    time.Duration
}

func run(parent context.Context, pkg, dir string, m mutant, src []byte, timeout time.Duration) result {
	mut := make([]byte, 0, len(src)+len(m.repl))
	mut = append(mut, src[:m.off]...)
	mut = append(mut, m.repl...)
	mut = append(mut, src[m.off+m.n:]...)
	mf := filepath.Join(dir, "mutant_"+filepath.Base(m.file))
	ov := filepath.Join(dir, "overlay.json")
	if err := os.WriteFile(mf, mut, 0o600); err != nil {
		return result{m, "ERROR " + err.Error(), 0}
	}
	if err := writeOverlay(ov, map[string]string{m.file: mf}); err != nil {
		return result{m, "ERROR " + err.Error(), 0}
	}
	ctx, cancel := context.WithTimeout(parent, timeout)
	defer cancel()
	start := time.Now()
	cmd := exec.CommandContext(ctx, "go", "test", "-count=1", "-vet=off", "-failfast", "-overlay", ov, pkg)
	cmd.WaitDelay = 5 * time.Second
	out, err := cmd.CombinedOutput()
	r := result{m: m, dur: time.Since(start)}
	var ee *exec.ExitError
	switch {
	case ctx.Err() != nil:
		r.status = "TIMEOUT"
	case err == nil:
		r.status = "SURVIVED"
	case bytes.Contains(out, []byte("[build failed]")) || bytes.Contains(out, []byte("[setup failed]")):
		r.status = "NOTVIABLE"
	case errors.As(err, &ee):
		r.status = "KILLED"
	default:
		r.status = "ERROR " + err.Error()
	}
	return r
}

func writeOverlay(path string, replace map[string]string) error {
	js, err := json.Marshal(map[string]map[string]string{"Replace": replace})
	if err != nil {
		return err
	}
	return os.WriteFile(path, js, 0o600)
}

func main() {
	pkg := flag.String("pkg", "", "package directory, e.g. ./checks")
	timeout := flag.Duration("timeout", 3*time.Minute, "per-mutant limit on go test (build included)")
	sample := flag.Int("sample", 0, "run only this many covered mutants, chosen at random (0: all)")
	seed := flag.Int64("seed", 1, "seed for -sample")
	only := flag.String("only", "", "file of mutant keys (\"file:line:col op\" per line) to run; others are skipped")
	files := flag.String("files", "", "regexp: mutate only files whose name matches")
	outPath := flag.String("out", "", "also write every result line to this file")
	dry := flag.Bool("dry", false, "list the covered mutants without running them")
	ops := flag.String("ops", "", "comma-separated operators to apply (default: all)")
	mode := flag.String("mode", "schema", "schema: one build, mutants switched at run time; overlay: one build per mutant")
	sel := flag.Bool("select", true, "schema mode: run only the tests that execute a mutant's line, fastest first (false: the whole suite)")
	factor := flag.Float64("factor", 10, "schema mode: a batch of tests may take factor times its unmutated duration plus -slack before the mutant is a TIMEOUT")
	slack := flag.Duration("slack", 10*time.Second, "see -factor")
	jobs := flag.Int("j", 1, "mutants run at once")
	keep := flag.String("keep", "", "schema mode: copy the test binary to this directory as pkg.test, with ids.txt (\"id key\" per line), and exit without running: probe a mutant by hand with "+schemaEnv+"=id ./pkg.test -test.run X")
	flag.Parse()
	if *pkg == "" {
		fmt.Fprintln(os.Stderr, "mutate: -pkg is required")
		os.Exit(2)
	}
	o := opts{mode: *mode, timeout: *timeout, sample: *sample, seed: *seed, only: *only, files: *files, ops: *ops, outPath: *outPath,
		dry: *dry, sel: *sel, factor: *factor, slack: *slack, jobs: max(*jobs, 1), keep: *keep}
	if err := mutate(*pkg, o); err != nil {
		fmt.Fprintln(os.Stderr, "mutate:", err)
		os.Exit(1)
	}
}

type opts struct {
	mode                      string
	timeout                   time.Duration
	sample                    int
	seed                      int64
	only, files, ops, outPath string
	dry, sel                  bool
	factor                    float64
	slack                     time.Duration
	jobs                      int
	keep                      string
}

func mutate(pkg string, o opts) error {
	mode, timeout, sample, seed, only, files, ops, outPath, dry := o.mode, o.timeout, o.sample, o.seed, o.only, o.files, o.ops, o.outPath, o.dry
	abs, err := filepath.Abs(pkg)
	if err != nil {
		return err
	}
	if !strings.HasPrefix(pkg, ".") && !filepath.IsAbs(pkg) {
		pkg = "./" + pkg
	}
	var fileRE *regexp.Regexp
	if files != "" {
		if fileRE, err = regexp.Compile(files); err != nil {
			return err
		}
	}
	var want map[string]bool
	if only != "" {
		b, err := os.ReadFile(only)
		if err != nil {
			return err
		}
		want = map[string]bool{}
		for _, l := range strings.Split(string(b), "\n") {
			if l = strings.TrimSpace(l); l != "" {
				want[l] = true
			}
		}
	}
	dir, err := os.MkdirTemp("", "mutate-")
	if err != nil {
		return err
	}
	defer func() { _ = os.RemoveAll(dir) }()

	blocks, err := coverage(pkg, dir, timeout)
	if err != nil {
		return err
	}
	names, err := filepath.Glob(filepath.Join(abs, "*.go"))
	if err != nil {
		return err
	}
	sort.Strings(names)
	srcs := map[string][]byte{}
	asts := map[string]*ast.File{}
	var all []mutant
	fset := token.NewFileSet()
	for _, name := range names {
		base := filepath.Base(name)
		if strings.HasSuffix(base, "_test.go") || (fileRE != nil && !fileRE.MatchString(base)) {
			continue
		}
		src, err := os.ReadFile(name)
		if err != nil {
			return err
		}
		f, err := parser.ParseFile(fset, name, src, parser.SkipObjectResolution|parser.ParseComments)
		if err != nil {
			return err
		}
		if _, ok := blocks[base]; !ok {
			// A file without blocks (build-tagged out, or no statements).
			continue
		}
		srcs[name] = src
		asts[name] = f
		all = append(all, collect(fset, f, src, name, base)...)
	}

	var runnable []mutant
	notCovered := 0
	var out *os.File
	if outPath != "" {
		if out, err = os.Create(outPath); err != nil {
			return err
		}
		defer func() { _ = out.Close() }()
	}
	emit := func(s string) {
		fmt.Println(s)
		if out != nil {
			fmt.Fprintln(out, s)
		}
	}
	var opSet map[string]bool
	if ops != "" {
		opSet = map[string]bool{}
		for _, o := range strings.Split(ops, ",") {
			opSet[strings.TrimSpace(o)] = true
		}
	}
	for _, m := range all {
		if opSet != nil && !opSet[m.op] {
			continue
		}
		if want != nil && !want[m.key()] {
			continue
		}
		if !covered(blocks[m.rel], m.line, m.col) {
			notCovered++
			emit("NOTCOVERED " + m.key())
			continue
		}
		runnable = append(runnable, m)
	}
	coveredTotal := len(runnable)
	if sample > 0 && sample < len(runnable) {
		r := rand.New(rand.NewSource(seed))
		r.Shuffle(len(runnable), func(i, j int) { runnable[i], runnable[j] = runnable[j], runnable[i] })
		runnable = runnable[:sample]
		sort.SliceStable(runnable, func(i, j int) bool {
			if runnable[i].rel != runnable[j].rel {
				return runnable[i].rel < runnable[j].rel
			}
			return runnable[i].off < runnable[j].off
		})
	}
	counts := map[string]int{}
	var bin string
	var tests []*testCov
	if mode == "schema" && !dry && len(runnable) > 0 {
		files := map[string]*ast.File{}
		ptrs := make([]*mutant, len(runnable))
		for i := range runnable {
			ptrs[i] = &runnable[i]
			files[runnable[i].file] = asts[runnable[i].file]
		}
		if bin, err = buildSchema(pkg, dir, files, fset, ptrs, timeout); err != nil {
			return err
		}
		if o.keep != "" {
			// Probing by hand needs only the binary.
			return keepSchema(o.keep, bin, runnable)
		}
		if o.sel {
			if tests, err = perTestCoverage(pkg, abs, dir, timeout); err != nil {
				return err
			}
		} else {
			tests = []*testCov{{name: "."}}
		}
		if err := baseline(bin, abs, tests, 4*timeout); err != nil {
			return err
		}
		if o.sel {
			fmt.Fprintf(os.Stderr, "mutate: %d tests, %s with no mutant on\n", len(tests), total(tests).Round(10*time.Millisecond))
		}
	} else if mode != "schema" && mode != "overlay" {
		return fmt.Errorf("unknown -mode %q", mode)
	}
	stop, cancel := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer cancel()
	if dry {
		for _, m := range runnable {
			emit("RUNNABLE " + m.key())
		}
		runnable = nil
	}
	// Workers take mutants in order; results are printed in that order.
	results := make([]chan result, len(runnable))
	for i := range results {
		results[i] = make(chan result, 1)
	}
	next := make(chan int)
	go func() {
		defer close(next)
		for i := range runnable {
			select {
			case next <- i:
			case <-stop.Done():
				return
			}
		}
	}()
	for w := 0; w < o.jobs; w++ {
		go func() {
			for i := range next {
				m := runnable[i]
				r := result{m: m}
				switch {
				case bin != "" && o.sel:
					r.status, r.dur = runSchema(stop, bin, abs, m.id, plan(tests, m.rel, m.line, m.col), timeout, o.factor, o.slack)
				case bin != "":
					r.status, r.dur = runSchema(stop, bin, abs, m.id, []batch{{names: []string{"."}, dur: 0}}, timeout, 1, timeout)
				default:
					r = run(stop, pkg, dir, m, srcs[m.file], timeout)
				}
				results[i] <- r
			}
		}()
	}
	ran := 0
	for i, m := range runnable {
		var r result
		select {
		case r = <-results[i]:
		case <-stop.Done():
		}
		if stop.Err() != nil {
			emit("INTERRUPTED: the score below counts only the mutants run")
			break
		}
		counts[strings.Fields(r.status)[0]]++
		ran++
		emit(fmt.Sprintf("%s %s (%d/%d, %s)", r.status, m.key(), i+1, len(runnable), r.dur.Round(100*time.Millisecond)))
	}
	k, t, s := counts["KILLED"], counts["TIMEOUT"], counts["SURVIVED"]
	score := 0.0
	if k+t+s > 0 {
		score = 100 * float64(k+t) / float64(k+t+s)
	}
	emit(fmt.Sprintf("SCORE %s: %d/%d killed (%s%%; %d by timeout), %d survived, %d not viable, %d errors; %d mutants not covered by the package's tests; %d of %d covered mutants run",
		pkg, k+t, k+t+s, strconv.FormatFloat(score, 'f', 1, 64), t, s, counts["NOTVIABLE"], counts["ERROR"], notCovered, ran, coveredTotal))
	return nil
}
