package main

// Mutant schemata (-mode=schema, the default): every mutant of the package
// is compiled into one test binary behind a switch read from the
// environment, so the package is built once and its tests run once per
// mutant. An expression mutant becomes
//
//	zzMutB(17, func() bool { return a != b }, func() bool { return a == b })
//
// (closures keep && and || short-circuiting), a dropped statement
// `if !zzMutOn(18) { stmt }`. The rewritten files go to the build through
// -overlay; the working tree is never written.

import (
	"bytes"
	"context"
	"fmt"
	"go/ast"
	"go/printer"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"time"
)

const schemaEnv = "CICHECK_MUTANT"

const schemaHelper = `package %s

import (
	"os"
	"strconv"
)

var zzMutActive, _ = strconv.Atoi(os.Getenv(%q))

func zzMutOn(id int) bool { return id == zzMutActive }

func zzMutB(id int, m, o func() bool) bool {
	if id == zzMutActive {
		return m()
	}
	return o()
}
`

func callOn(id int) ast.Expr {
	return &ast.CallExpr{Fun: ast.NewIdent("zzMutOn"), Args: []ast.Expr{intLit(id)}}
}

func intLit(id int) ast.Expr { return &ast.BasicLit{Kind: token.INT, Value: strconv.Itoa(id)} }

func boolFunc(e ast.Expr) ast.Expr {
	return &ast.FuncLit{
		Type: &ast.FuncType{Params: &ast.FieldList{}, Results: &ast.FieldList{List: []*ast.Field{{Type: ast.NewIdent("bool")}}}},
		Body: &ast.BlockStmt{List: []ast.Stmt{&ast.ReturnStmt{Results: []ast.Expr{e}}}},
	}
}

// choose is zzMutB(id, func() bool { return m }, func() bool { return o }).
func choose(id int, m, o ast.Expr) ast.Expr {
	return &ast.CallExpr{Fun: ast.NewIdent("zzMutB"), Args: []ast.Expr{intLit(id), boolFunc(m), boolFunc(o)}}
}

// rewrite replaces n, whose children are already rewritten, by its schema.
func rewrite(n ast.Node, ms []*mutant) ast.Node {
	switch x := n.(type) {
	case *ast.IfStmt:
		for _, m := range ms {
			if m.op == "if-negate" {
				x.Cond = choose(m.id, &ast.UnaryExpr{Op: token.NOT, X: &ast.ParenExpr{X: x.Cond}}, x.Cond)
			}
		}
		return x
	case *ast.IncDecStmt:
		m := ms[0]
		return &ast.IfStmt{Cond: callOn(m.id), Body: &ast.BlockStmt{List: []ast.Stmt{&ast.IncDecStmt{X: x.X, Tok: m.alt}}},
			Else: &ast.BlockStmt{List: []ast.Stmt{x}}}
	case *ast.ExprStmt, *ast.BranchStmt, *ast.ReturnStmt:
		return &ast.IfStmt{Cond: &ast.UnaryExpr{Op: token.NOT, X: callOn(ms[0].id)}, Body: &ast.BlockStmt{List: []ast.Stmt{x.(ast.Stmt)}}}
	case ast.Expr:
		out := x
		for i := len(ms) - 1; i >= 0; i-- {
			m := ms[i]
			var alt ast.Expr
			switch y := x.(type) {
			case *ast.BinaryExpr:
				alt = &ast.BinaryExpr{X: y.X, Op: m.alt, Y: y.Y}
			case *ast.UnaryExpr:
				alt = y.X
			case *ast.Ident:
				alt = ast.NewIdent(map[string]string{"true": "false", "false": "true"}[y.Name])
			default:
				continue
			}
			out = choose(m.id, alt, out)
		}
		return out
	}
	return n
}

// apply walks v post-order and replaces every node in at by rewrite's
// answer, through reflection over go/ast's interface and slice fields.
func apply(v reflect.Value, at map[ast.Node][]*mutant) {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() || v.Elem().Kind() != reflect.Struct {
			return
		}
		// Parsed with SkipObjectResolution: no *ast.Object to avoid.
		if _, ok := v.Interface().(*ast.CommentGroup); ok {
			return
		}
		apply(v.Elem(), at)
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if f := v.Field(i); f.CanSet() {
				applyField(f, at)
			}
		}
	}
}

func applyField(f reflect.Value, at map[ast.Node][]*mutant) {
	switch f.Kind() {
	case reflect.Interface:
		if f.IsNil() {
			return
		}
		apply(f.Elem(), at)
		n, ok := f.Interface().(ast.Node)
		if !ok {
			return
		}
		if ms := at[n]; len(ms) > 0 {
			if r := rewrite(n, ms); r != n {
				f.Set(reflect.ValueOf(r))
			}
		}
	case reflect.Pointer:
		apply(f, at)
	case reflect.Slice:
		for i := 0; i < f.Len(); i++ {
			applyField(f.Index(i), at)
		}
	}
}

// buildSchema rewrites the files of ms and compiles the package's test
// binary into dir; it returns the binary's path.
func buildSchema(pkg, dir string, files map[string]*ast.File, fset *token.FileSet, ms []*mutant, timeout time.Duration) (string, error) {
	at := map[ast.Node][]*mutant{}
	for i, m := range ms {
		m.id = i + 1
		at[m.node] = append(at[m.node], m)
	}
	replace := map[string]string{}
	var pkgName, pkgDir string
	for name, f := range files {
		var head bytes.Buffer
		for _, cg := range f.Comments {
			if cg.Pos() > f.Package {
				break
			}
			for _, c := range cg.List {
				if strings.HasPrefix(c.Text, "//go:build") {
					head.WriteString(c.Text + "\n\n")
				}
			}
		}
		// Comments are dropped (the printer misplaces them around the
		// position-less nodes of a rewrite); //go:embed directives are put
		// back before their var below, or the embedded variable is empty.
		embeds := embedDirectives(f)
		f.Comments = nil
		apply(reflect.ValueOf(f), at)
		var b bytes.Buffer
		b.Write(head.Bytes())
		if err := printer.Fprint(&b, fset, f); err != nil {
			return "", err
		}
		for decl, dir := range embeds {
			b = *bytes.NewBuffer(bytes.Replace(b.Bytes(), []byte("\n"+decl), []byte("\n"+dir+"\n"+decl), 1))
		}
		out := filepath.Join(dir, "schema_"+filepath.Base(name))
		if err := os.WriteFile(out, b.Bytes(), 0o600); err != nil {
			return "", err
		}
		replace[name] = out
		pkgName, pkgDir = f.Name.Name, filepath.Dir(name)
	}
	helper := filepath.Join(dir, "zz_mutate_schema.go")
	if err := os.WriteFile(helper, fmt.Appendf(nil, schemaHelper, pkgName, schemaEnv), 0o600); err != nil {
		return "", err
	}
	replace[filepath.Join(pkgDir, "zz_mutate_schema.go")] = helper
	ov := filepath.Join(dir, "schema.json")
	if err := writeOverlay(ov, replace); err != nil {
		return "", err
	}
	bin := filepath.Join(dir, "pkg.test")
	ctx, cancel := context.WithTimeout(context.Background(), 4*timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "go", "test", "-c", "-vet=off", "-overlay", ov, "-o", bin, pkg)
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("building the schema: %w\n%s", err, out)
	}
	return bin, nil
}

// runSchema runs the test binary with mutant id switched on (0: none),
// batch after batch, until one fails. Each batch may run for factor times
// its baseline plus slack (at most what is left of limit): past that the
// mutant is taken to loop, TIMEOUT.
func runSchema(parent context.Context, bin, pkgDir string, id int, batches []batch, limit time.Duration, factor float64, slack time.Duration) (string, time.Duration) {
	start := time.Now()
	for _, b := range batches {
		t := time.Duration(factor*float64(b.dur)) + slack
		if left := limit - time.Since(start); t > left {
			t = left
		}
		if t <= 0 {
			return "TIMEOUT", time.Since(start)
		}
		st := runBatch(parent, bin, pkgDir, id, b.runPattern(), t)
		if st != "SURVIVED" {
			return st, time.Since(start)
		}
	}
	return "SURVIVED", time.Since(start)
}

func runBatch(parent context.Context, bin, pkgDir string, id int, pattern string, timeout time.Duration) string {
	ctx, cancel := context.WithTimeout(parent, timeout)
	defer cancel()
	// The binary's own -test.timeout is later than ours, so a loop is
	// reported as TIMEOUT here rather than as the binary's panic.
	cmd := exec.CommandContext(ctx, bin, "-test.failfast", "-test.count=1", "-test.run", pattern, "-test.timeout", (timeout + 10*time.Second).String())
	cmd.Dir = pkgDir
	cmd.Env = append(os.Environ(), schemaEnv+"="+strconv.Itoa(id))
	cmd.WaitDelay = 5 * time.Second
	err := cmd.Run()
	switch {
	case ctx.Err() != nil:
		return "TIMEOUT"
	case err == nil:
		return "SURVIVED"
	}
	return "KILLED"
}

// keepSchema copies the schema binary to dir with the mutant ids.
func keepSchema(dir, bin string, ms []mutant) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	b, err := os.ReadFile(bin)
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "pkg.test"), b, 0o755); err != nil {
		return err
	}
	// The rewritten sources too, to read what a mutant id switches.
	srcs, _ := filepath.Glob(filepath.Join(filepath.Dir(bin), "schema_*.go"))
	for _, src := range srcs {
		if b, err := os.ReadFile(src); err == nil {
			if err := os.WriteFile(filepath.Join(dir, filepath.Base(src)), b, 0o644); err != nil {
				return err
			}
		}
	}
	var ids bytes.Buffer
	for _, m := range ms {
		fmt.Fprintf(&ids, "%d %s\n", m.id, m.key())
	}
	return os.WriteFile(filepath.Join(dir, "ids.txt"), ids.Bytes(), 0o644)
}

// embedDirectives maps "var NAME" to the //go:embed lines above it.
func embedDirectives(f *ast.File) map[string]string {
	out := map[string]string{}
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.VAR || g.Doc == nil || len(g.Specs) != 1 {
			continue
		}
		var dirs []string
		for _, c := range g.Doc.List {
			if strings.HasPrefix(c.Text, "//go:embed ") {
				dirs = append(dirs, c.Text)
			}
		}
		if vs, ok := g.Specs[0].(*ast.ValueSpec); ok && len(dirs) > 0 && len(vs.Names) == 1 {
			out["var "+vs.Names[0].Name+" "] = strings.Join(dirs, "\n")
		}
	}
	return out
}
