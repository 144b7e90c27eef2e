package pyparse

import (
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// mainCase is one source and the main-entry answer sglang's rule gives
// for it (line: the first qualifying if with a call; nocall: the first
// without).
type mainCase struct {
	src          string
	main         bool
	line, nocall int
}

func checkMain(t *testing.T, minor int, cases []mainCase) {
	t.Helper()
	for _, c := range cases {
		m, err := Scan(c.src, minor, isTestMarker, nil)
		if err != nil {
			t.Errorf("3.%d %q: %v", minor, c.src, err)
			continue
		}
		if m.MainCall != c.main || m.MainLine != c.line || m.MainNoCallLine != c.nocall {
			t.Errorf("3.%d %q: MainCall %v MainLine %d MainNoCallLine %d, want %v %d %d", minor, c.src, m.MainCall, m.MainLine,
				m.MainNoCallLine, c.main, c.line, c.nocall)
		}
	}
}

// yes is a main block with a call on line 1; no is one without; neither
// is no main block.
func yes(src string) mainCase     { return mainCase{src, true, 1, 0} }
func no(src string) mainCase      { return mainCase{src, false, 0, 1} }
func neither(src string) mainCase { return mainCase{src, false, 0, 0} }

// mainBody wraps body lines (indented one level) under the main test.
func mainBody(lines ...string) string {
	return "if __name__ == \"__main__\":\n    " + strings.Join(lines, "\n    ") + "\n"
}

// TestMainBlockTest: the if's test must be Compare(Name '__name__', [Eq],
// [Constant '__main__']) as ast.parse reads it; each spelling the AST
// does not see (quotes, concatenation, parentheses, escapes, comments,
// continuations) passes, and each guard of the rule has a near miss.
func TestMainBlockTest(t *testing.T) {
	cases := []mainCase{
		yes("if __name__ == '__main__':\n    main()\n"),
		yes("if __name__ == \"\"\"__main__\"\"\":\n    main()\n"),
		yes("if __name__=='__main__':main()\n"),
		yes("if __name__ == \"__ma\" \"in__\":\n    main()\n"),    // one Constant
		yes("if __name__ == '__main__' '':\n    main()\n"),        // one Constant
		yes("if (__name__ == '__main__'):\n    main()\n"),         // no paren node
		yes("if ((__name__)) == ((\"__main__\")):\n    main()\n"), // no paren node
		yes("if __name__ == u'__main__':\n    main()\n"),
		yes("if __name__ == r'__main__':\n    main()\n"),
		yes("if __name__ == '\\x5f_main__':\n    main()\n"), // the value, not the spelling
		yes("if __name__ == '__main\\N{LOW LINE}_':\n    main()\n"),
		yes("if __name__ == '__main__':  # run\n    main()\n"),
		yes("if __name__ == (\n        '__main__'\n):\n    main()\n"),
		yes("if __name__ == \\\n        '__main__':\n    main()\n"),
		// Near misses of each guard.
		neither("if __name__ != '__main__':\n    main()\n"),                           // the op is Eq
		neither("if __name__ is '__main__':\n    main()\n"),                           // the op is Eq
		neither("if '__main__' == __name__:\n    main()\n"),                           // left is the Name
		neither("if __NAME__ == '__main__':\n    main()\n"),                           // its id is __name__
		neither("if __name__.x == '__main__':\n    main()\n"),                         // left is a Name
		neither("if x.__name__ == '__main__':\n    main()\n"),                         // an Attribute named __name__
		neither("if x == '__main__': print(__name__)\n"),                              // __name__ elsewhere on the line
		neither("if __name__ == b'__main__':\n    main()\n"),                          // bytes != str
		neither("if __name__ == f'__main__':\n    main()\n"),                          // JoinedStr, not Constant
		neither("if __name__ == '__main':\n    main()\n"),                             // the value
		neither("if __name__ == '__main__' == x:\n    main()\n"),                      // two ops
		neither("if (__name__ == '__main__') == x:\n    main()\n"),                    // two comparisons
		neither("if __name__ == ('__main__' == x):\n    main()\n"),                    // comparator a Compare
		neither("if __name__ == ('__main__',):\n    main()\n"),                        // comparator a Tuple
		neither("if __name__ == '__main__' and x:\n    main()\n"),                     // BoolOp
		neither("if not __name__ == '__main__':\n    main()\n"),                       // UnaryOp
		neither("if (n := __name__) == '__main__':\n    main()\n"),                    // left a NamedExpr
		neither("if __name__ == '__main__' if x else y:\n    main()\n"),               // IfExp
		neither("if __name__ == '__main__'.lower():\n    main()\n"),                   // comparator a Call
		neither("if __name__ == '__main__'[0:]:\n    main()\n"),                       // comparator a Subscript
		neither("if __name__:\n    main()\n"),                                         // not a Compare
		neither("if str(__name__) == '__main__':\n    main()\n"),                      // left a Call
		neither("while __name__ == '__main__':\n    main()\n"),                        // an If
		neither("x = 1\nif x:\n    pass\nelif __name__ == '__main__':\n    main()\n"), // elif: in the orelse
		neither("def f():\n    if __name__ == '__main__':\n        main()\n"),
		neither("class C:\n    if __name__ == '__main__':\n        main()\n"),
		neither("if True:\n    if __name__ == '__main__':\n        main()\n"),
		neither("try:\n    if __name__ == '__main__':\n        main()\nexcept E:\n    pass\n"),
		neither("with c:\n    if __name__ == '__main__':\n        main()\n"),
		neither("s = 'if __name__ == \"__main__\": main()'\n"),
		neither("# if __name__ == '__main__':\n#     main()\n"),
	}
	checkMain(t, 11, cases)
	checkMain(t, NewestMinor, cases)
}

// TestMainBlockBody: any Call under the if's body counts, however deep;
// parentheses that group, parameter lists, bases, match subjects and
// class patterns are not calls; elif and else are not the body.
func TestMainBlockBody(t *testing.T) {
	cases := []mainCase{
		no(mainBody("pass")),
		no(mainBody("...")),
		no(mainBody(`"""doc"""`)),
		no(mainBody("x = 1")),
		no(mainBody("x = 'main()'", "# main()")),
		no(mainBody("x = y[0]", "z = (1)", "w = (a, b)")),
		no("if __name__ == '__main__': pass\n"),
		yes("if __name__ == '__main__': main()\n"),
		yes("if __name__ == '__main__': x = 1; main()\n"),
		no("if __name__ == '__main__': x = 1; y = (2)\n"),
		yes(mainBody("main(", "    1,", ")")),
		// Nested definitions.
		yes(mainBody("def f():", "    g()")),
		no(mainBody("def f(x):", "    pass")),
		yes(mainBody("def f(x=g()):", "    pass")),
		yes(mainBody("def f(x: g()):", "    pass")),
		yes(mainBody("def f() -> g():", "    pass")),
		no(mainBody("def f(x=(1)):", "    pass")),
		no(mainBody("async def f(x):", "    pass")),
		yes(mainBody("async def f():", "    await g()")),
		no(mainBody("async def f():", "    await (x)")),
		no(mainBody("class C(Base):", "    pass")),
		yes(mainBody("class C(g()):", "    pass")),
		no(mainBody("class C(metaclass=M):", "    x = 1")),
		yes(mainBody("class C:", "    x = g()")),
		yes(mainBody("@dataclass(frozen=True)", "class C:", "    x: int = 0")),
		no(mainBody("@dataclass", "class C:", "    x: int = 0")),
		no(mainBody("@(x)", "def f():", "    pass")),
		// Expressions.
		yes(mainBody("x = lambda: g()")),
		no(mainBody("x = lambda y=(1): (y)")),
		yes(mainBody("x = [g() for _ in y]")),
		no(mainBody("x = [y for y in (z)]")),
		yes(mainBody("x = {k: g() for k in y}")),
		yes(mainBody("x: g() = 1")),
		no(mainBody("x: int = 1")),
		yes(mainBody("1()")),
		yes(mainBody(`"s"()`)),
		yes(mainBody("x[0]()")),
		yes(mainBody("(f)()")),
		yes(mainBody("f()()")),
		yes(mainBody("None()")),
		yes(mainBody("{}()")),
		yes(mainBody("...()")),
		yes(mainBody("print (x)")),
		no(mainBody("print")),
		yes(mainBody("raise E()")),
		no(mainBody("raise (E)")),
		// F-string replacement fields.
		yes(mainBody(`x = f"{g()}"`)),
		no(mainBody(`x = f"{y}"`)),
		no(mainBody(`x = f"{(y)}"`)),
		no(mainBody(`x = f"{y}(z)"`)),
		no(mainBody(`x = f"{{g()}}"`)),
		no(mainBody(`x = "{g()}"`)),
		yes(mainBody(`x = f"{y:{g()}}"`)),
		yes(mainBody(`x = f"{g()=}"`)),
		no(mainBody(`x = f"{y!r:>{w}}"`)),
		yes(mainBody(`x = f'{f"{g()}"}'`)),
		yes(mainBody(`x = f"{y}" f"{z()}"`)),
		yes(mainBody(`x = rf"{g()}"`)),
		// Keyword parentheses group.
		no(mainBody("if (x):", "    pass")),
		no(mainBody("while (x):", "    break")),
		no(mainBody("x = not (y)", "y = (a) and (b) or (c)", "z = a in (b)", "w = a is (b)")),
		no(mainBody("with (a):", "    pass")),
		no(mainBody("with (a) as b, (c):", "    pass")),
		yes(mainBody("with open(p) as f:", "    pass")),
		no(mainBody("try:", "    pass", "except (A, B):", "    pass")),
		yes(mainBody("try:", "    pass", "except E:", "    g()")),
		no(mainBody("for (a, b) in (c):", "    pass")),
		yes(mainBody("for a in g():", "    pass")),
		no(mainBody("del (x)", "assert (x), (y)")),
		no(mainBody("from os import (path)")),
		no(mainBody("def f():", "    return (x)")),
		no(mainBody("def f():", "    yield (x)")),
		no(mainBody("x = y if (z) else (w)")),
		// Nested ifs are the body.
		yes(mainBody("if x:", "    g()")),
		yes(mainBody("if x:", "    pass", "else:", "    g()")),
		yes(mainBody("if g():", "    pass")),
		// match: the subject in parentheses and class patterns are no
		// calls; a called subject and a guard are.
		no(mainBody("match (x):", "    case P(x=0):", "        pass")),
		no(mainBody("match (x):", "    case [P(), {'k': Q(1)}] | R():", "        pass")),
		yes(mainBody("match x:", "    case P(x=0) if g():", "        pass")),
		no(mainBody("match x:", "    case P(x=0) if (y):", "        pass")),
		yes(mainBody("match g():", "    case _:", "        pass")),
		yes(mainBody("match (x)(y):", "    case _:", "        pass")),
		yes(mainBody("match x:", "    case 1: g()")),
		no(mainBody("match x:", "    case 1: pass")),
		yes(mainBody("match(x)")), // a call, not a match statement
		yes(mainBody("case(x)")),
		no(mainBody("match = (1)")),
		// The orelse is not the body.
		no("if __name__ == '__main__':\n    pass\nelse:\n    main()\n"),
		no("if __name__ == '__main__':\n    pass\nelif x:\n    main()\n"),
		no("if __name__ == '__main__':\n    pass\nelif g():\n    pass\n"),
		no("if __name__ == '__main__':\n    pass\nmain()\n"),
		// Several ifs: the first that qualifies.
		{"if __name__ == '__main__':\n    pass\nif __name__ == '__main__':\n    main()\n", true, 3, 1},
		{"if __name__ == '__main__':\n    main()\nif __name__ == '__main__':\n    pass\n", true, 1, 3},
		{"if __name__ == '__main__':\n    main()\nif __name__ == '__main__':\n    other()\n", true, 1, 0},
		{"x = 1\n\nif __name__ == '__main__':\n    main()\n", true, 3, 0},
	}
	checkMain(t, 11, cases)
	checkMain(t, NewestMinor, cases)
	// Grammar newer than 3.11: type parameters (their bounds and
	// defaults are in the body's tree) and t-strings.
	checkMain(t, NewestMinor, []mainCase{
		no(mainBody("def f[T](x):", "    pass")),
		no(mainBody("class C[T](B):", "    pass")),
		yes(mainBody("def f[T: g()](x):", "    pass")),
		yes(mainBody("class C[T = g()]:", "    pass")),
		no(mainBody("type X[T] = list[T]")),
		yes(mainBody("type X = g()")),
		yes(mainBody(`x = t"{g()}"`)),
		no(mainBody(`x = t"{y}"`)),
		yes(mainBody(`x = f"{"a" + g()}"`)),
	})
}

// TestScanCalls: Scan's calls are Calls', and a file with a syntax error
// has no main entry.
func TestScanCalls(t *testing.T) {
	src := "register_cuda_ci(est_time=1, suite='s')\nif __name__ == '__main__':\n    main()\n"
	calls, err := Calls(src, 11, isTestMarker, nil)
	m, err2 := Scan(src, 11, isTestMarker, nil)
	if err != nil || err2 != nil || len(calls) != 1 || len(m.Calls) != 1 || m.Calls[0].Fn != calls[0].Fn || !m.MainCall {
		t.Fatalf("Calls %v %v, Scan %+v %v", calls, err, m, err2)
	}
	m, err = Scan(mainBody("main()", "x = = 1"), 11, isTestMarker, nil)
	var se *SyntaxError
	if !errors.As(err, &se) || m.MainCall || m.MainLine != 0 {
		t.Fatalf("%+v %v", m, err)
	}
}

type mainGolden struct {
	Python string `json:"python"`
	Cases  []struct {
		Src    string `json:"src"`
		Error  bool   `json:"error"`
		Main   bool   `json:"main"`
		Line   int    `json:"line"`
		NoCall int    `json:"nocall"`
	} `json:"cases"`
}

// TestMainBlockCPython replays testdata/mainblock.json, generated sources
// with the verdict of sglang's rule over CPython 3.11's ast
// (tools/registry-diff/mainblock.py). Every case must agree, and a
// source ast.parse rejects must be a *SyntaxError. With REGISTRY_PYTHON
// set, the script runs live (REGISTRY_DIFF_SEED, default 1).
func TestMainBlockCPython(t *testing.T) {
	var data []byte
	var err error
	if py := os.Getenv("REGISTRY_PYTHON"); py != "" {
		seed := os.Getenv("REGISTRY_DIFF_SEED")
		if seed == "" {
			seed = "1"
		}
		cmd := exec.Command(py, filepath.Join("..", "tools", "registry-diff", "mainblock.py"), "3000", seed)
		cmd.Stderr = os.Stderr
		if data, err = cmd.Output(); err != nil {
			t.Fatalf("%s mainblock.py: %v", py, err)
		}
	} else if data, err = os.ReadFile(filepath.Join("testdata", "mainblock.json")); err != nil {
		t.Fatal(err)
	}
	var g mainGolden
	if err := json.Unmarshal(data, &g); err != nil {
		t.Fatal(err)
	}
	if len(g.Cases) < 2000 || !strings.HasPrefix(g.Python, "3.11.") {
		t.Fatalf("%d cases from Python %s", len(g.Cases), g.Python)
	}
	agree := 0
	for i, c := range g.Cases {
		m, err := Scan(c.Src, 11, isTestMarker, nil)
		var se *SyntaxError
		switch {
		case c.Error && !errors.As(err, &se):
			t.Errorf("case %d %q: ast.parse fails, Scan says %+v, %v", i, c.Src, m, err)
		case !c.Error && err != nil:
			t.Errorf("case %d %q: ast.parse passes, Scan says %v", i, c.Src, err)
		case m.MainCall != c.Main || m.MainLine != c.Line || m.MainNoCallLine != c.NoCall:
			t.Errorf("case %d %q: MainCall %v line %d nocall %d, the rule says %v %d %d", i, c.Src, m.MainCall, m.MainLine,
				m.MainNoCallLine, c.Main, c.Line, c.NoCall)
		default:
			agree++
		}
	}
	t.Logf("%d/%d cases agree (Python %s)", agree, len(g.Cases), g.Python)
}
