package testregistry

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// cpython311Case is a source with CPython 3.11's verdict on it:
// compile(src, "f.py", "exec") raising "line:col msg" (col is the
// SyntaxError's offset), or "" when it compiles.
type cpython311Case struct{ src, want string }

// checkCPython311 compares cicheck's verdict on each source with want and,
// when REGISTRY_PYTHON names an interpreter (CPython 3.11), want with the
// interpreter's, so that the table stays the oracle's.
func checkCPython311(t *testing.T, cases []cpython311Case) {
	t.Helper()
	for _, c := range cases {
		_, err := lexLinesFor(c.src, 11, true, nil)
		got := ""
		var se *SyntaxError
		if errors.As(err, &se) {
			got = fmt.Sprintf("%d:%d %s", se.Line, se.Col, se.Msg)
		} else if err != nil {
			got = "error: " + err.Error()
		}
		if got != c.want {
			t.Errorf("%q:\n  got  %q\n  want %q", c.src, got, c.want)
		}
	}
	py := os.Getenv("REGISTRY_PYTHON")
	if py == "" {
		return
	}
	srcs := make([]string, len(cases))
	for i, c := range cases {
		srcs[i] = c.src
	}
	in, err := json.Marshal(srcs)
	if err != nil {
		t.Fatal(err)
	}
	const script = `import json, sys, warnings
warnings.simplefilter("ignore")
out = []
for s in json.load(sys.stdin):
    try:
        compile(s, "f.py", "exec")
        out.append("")
    except SyntaxError as e:
        out.append("%d:%d %s" % (e.lineno or 0, e.offset or 0, e.msg))
json.dump(out, sys.stdout)
`
	cmd := exec.Command(py, "-c", script)
	cmd.Stdin = strings.NewReader(string(in))
	b, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s: %v", py, err)
	}
	var want []string
	if err := json.Unmarshal(b, &want); err != nil {
		t.Fatal(err)
	}
	for i, c := range cases {
		if want[i] != c.want {
			t.Errorf("%q: the table says %q, %s says %q", c.src, c.want, py, want[i])
		}
	}
}

// TestEscapesNearMiss: escape decoding at the edges of its ranges.
func TestEscapesNearMiss(t *testing.T) {
	checkCPython311(t, []cpython311Case{
		// The largest code point is legal, one more is not.
		{`x = "\U0010ffff"`, ""},
		{`x = "\U00110000"`, "1:17 (unicode error) 'unicodeescape' codec can't decode bytes in position 0-9: illegal Unicode character"},
		// \N{} names ignore ASCII case, down to a lone 'a' or 'z'.
		{`x = "\N{LATIN SMALL LETTER a}"`, ""},
		{`x = "\N{LATIN SMALL LETTER z}"`, ""},
		{`x = "\N{latin small letter z}"`, ""},
		{`x = "\N{LATIN SMALL LETTEr z}"`, ""},
		{`x = "\N{LATIN SMALL LETTER {}"`, "1:31 (unicode error) 'unicodeescape' codec can't decode bytes in position 0-23: unknown Unicode character name"},
	})
}

// TestArgumentsNearMiss: call arguments and what CPython's
// invalid_arguments rule reads after a keyword argument: a later argument
// that does not parse leaves the bracket unclosed, one that only starts
// an expression is a positional argument after a keyword one; a
// generator argument alone needs no parentheses.
func TestArgumentsNearMiss(t *testing.T) {
	checkCPython311(t, []cpython311Case{
		{"f(b=1,c,*", "1:2 '(' was never closed"},
		{"f(a=1,b,f", "1:2 '(' was never closed"},
		{"i(e=0,u,e=", "1:2 '(' was never closed"},
		{"f(a=1,b,if", "1:9 positional argument follows keyword argument"},
		{"f(a for a in b)", ""},
		{"f(a for a in b, c)", "1:3 Generator expression must be parenthesized"},
		{"(:=", "1:2 invalid syntax"},
	})
}

// TestLegacyAndGroupsNearMiss: the legacy print/exec rule, the operand
// after a unary operator, and the comma hint's placement in groups.
func TestLegacyAndGroupsNearMiss(t *testing.T) {
	checkCPython311(t, []cpython311Case{
		{"print-1^", "1:1 Missing parentheses in call to 'print'. Did you mean print(...)?"},
		{"exec''>", "1:1 Missing parentheses in call to 'exec'. Did you mean exec(...)?"},
		{"(exec e,", "1:1 '(' was never closed"},
		{"x=not a=", "1:3 cannot assign to expression"},
		{"[(+\nb if c)", "1:1 '[' was never closed"},
		{"[x (a +\nb if c)", "1:1 '[' was never closed"},
		{"%{\ny", "1:1 invalid syntax"},
		{`if""{`, "1:5 '{' was never closed"},
		{"[c 1", "1:1 '[' was never closed"},
		{"(()'')", "1:2 invalid syntax. Perhaps you forgot a comma?"},
		{"({}e)", "1:2 invalid syntax. Perhaps you forgot a comma?"},
	})
}

// TestFString311NearMiss: CPython 3.11's f-string scanner
// (fstring_find_literal, fstring_find_expr): \N escapes in literal parts
// and format specs, raw f-strings, unclosed fields and empty ones.
func TestFString311NearMiss(t *testing.T) {
	checkCPython311(t, []cpython311Case{
		{`f'\N'`, `1:6 (unicode error) 'unicodeescape' codec can't decode bytes in position 0-1: malformed \N character escape`},
		{`fr'\N'`, ""},
		{`f'{a:\N'`, `1:9 (unicode error) 'unicodeescape' codec can't decode bytes in position 0-1: malformed \N character escape`},
		{`f"\U"''`, `1:8 (unicode error) 'unicodeescape' codec can't decode bytes in position 0-1: truncated \UXXXXXXXX escape`},
		{`f'{'{\`, "1:5 f-string: expecting '}'"},
		{`f"{<{"`, "1:7 f-string: unmatched '{'"},
		{`f"{b="`, "1:7 f-string: expecting '}'"},
		{`f'{a!'`, "1:7 f-string: expecting '}'"},
		{`f'{ }'`, "1:7 f-string: empty expression not allowed"},
	})
}

// TestDetectProfileNameBoundary: a marker call counts only as a whole
// name; the byte before it decides, at each edge of the name bytes
// [0-9A-Za-z_] and the non-ASCII bytes of an identifier.
func TestDetectProfileNameBoundary(t *testing.T) {
	for _, c := range []struct {
		before string
		want   Profile
	}{
		{"", ProfileMiles},
		{" ", ProfileMiles},
		{"/", ProfileMiles}, // just below '0'
		{"0", ProfileNeutral},
		{"5", ProfileNeutral},
		{"9", ProfileNeutral},
		{":", ProfileMiles}, // just above '9'
		{"@", ProfileMiles}, // just below 'A'
		{"A", ProfileNeutral},
		{"M", ProfileNeutral},
		{"Z", ProfileNeutral},
		{"[", ProfileMiles}, // just above 'Z'
		{"_", ProfileNeutral},
		{"`", ProfileMiles}, // just below 'a'
		{"a", ProfileNeutral},
		{"m", ProfileNeutral},
		{"z", ProfileNeutral},
		{"{", ProfileMiles},        // just above 'z'
		{"\u0400", ProfileNeutral}, // its last byte is 0x80
		{"\x7f", ProfileMiles},
	} {
		files := map[string]string{"tests/e2e/test_a.py": "x = 1\n" + c.before + "register_cpu_ci(1, 'stage-a-cpu')\n"}
		if got := DetectProfile(mapFS(files)); got != c.want {
			t.Errorf("%q before the call: DetectProfile = %q, want %q", c.before, got, c.want)
		}
	}
}

// workflowFindings scans a miles repository whose suites module lists
// suites (CPU) and whose .github/workflows holds wfs, with the labels
// module replaced when labels is not nil; it returns the workflow
// findings as "rule file:line:col name".
func workflowFindings(t *testing.T, suites []string, labels *string, wfs map[string]string) []string {
	t.Helper()
	files := map[string]string{"tests/e2e/test_a.py": "register_cpu_ci(1, 'stage-a-cpu')\n"}
	var sb strings.Builder
	sb.WriteString("from enum import Enum\n\nclass HWBackend(Enum):\n    CPU = \"cpu\"\n\nCI_SUITES = {\n    HWBackend.CPU: [")
	for i, s := range suites {
		if i > 0 {
			sb.WriteString(", ")
		}
		sb.WriteString(pyRepr(s))
	}
	sb.WriteString("],\n}\n")
	files["tests/ci/run_suite.py"] = sb.String()
	for name, src := range wfs {
		files[".github/workflows/"+name] = src
	}
	m := repo(files)
	if labels != nil {
		m["tests/ci/labels.py"].Data = []byte(*labels)
	}
	r, err := Scan(m, DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range r.Findings {
		if f.Rule == RuleSuiteNoConsumer || f.Rule == RuleUnknownRequest {
			// The quoted name: "suite 'x' (CPU) is ..." or "'run-ci-x' is ...".
			name := strings.Fields(f.Message)[0]
			if f.Rule == RuleSuiteNoConsumer {
				name = strings.Fields(f.Message)[1]
			}
			got = append(got, fmt.Sprintf("%s %s:%d:%d %s", f.Rule, f.File, f.Line, f.Column, name))
		}
	}
	return got
}

// TestWorkflowSuitesNearMiss: which files of the workflows directory are
// read, and which suite names a --suite argument passes.
func TestWorkflowSuitesNearMiss(t *testing.T) {
	const run = "jobs:\n  a:\n    runs-on: x\n    steps:\n      - run: python tests/ci/run_suite.py --suite "
	for _, c := range []struct {
		name   string
		suites []string
		wfs    map[string]string
		want   string // the suites left unconsumed, or "none read"
	}{
		{"a .yaml file", []string{"s-1"}, map[string]string{"a.yaml": run + "s-1\n"}, ""},
		{"a .txt file is no workflow", []string{"s-1"}, map[string]string{"a.txt": run + "s-1\n", "b.yml": run + "stage-a-cpu\n"}, "s-1"},
		{"a directory named .yml", []string{"s-1"}, map[string]string{"d.yml/a.yml": run + "s-1\n", "b.yml": run + "stage-a-cpu\n"}, "s-1"},
		// A file that does not parse is no evidence; with nothing else
		// read no suite is reported.
		{"only a broken file", []string{"s-1"}, map[string]string{"a.yml": "jobs: [\n  run: x --suite stage-a-cpu\n"}, ""},
		{"a broken file beside a good one", []string{"s-1"}, map[string]string{"a.yml": "jobs: [\n  run: x --suite s-1\n", "b.yml": run + "stage-a-cpu\n"}, "s-1"},
		// Name bytes at the edges of [0-9A-Za-z] end the name or not.
		{"digits and letters", []string{"s0", "s9", "sa", "sz", "sA", "sZ", "sM", "s_.-"}, map[string]string{"a.yml": run + "s0 --suite s9 --suite sa --suite sz --suite sA --suite sZ --suite sM --suite s_.-\n"}, ""},
		{"a byte past the name", []string{"s"}, map[string]string{"a.yml": run + "s[ --suite=s@ --suite s{ --suite s: --suite s/\n"}, ""},
		{"no name after the flag", []string{"s-1"}, map[string]string{"a.yml": run + "\"\"\n      - run: x --suite=\n      - run: x --suite\n      - run: 'x --suite  '\n"}, "s-1"},
	} {
		got := workflowFindings(t, c.suites, nil, c.wfs)
		var names []string
		for _, g := range got {
			if strings.HasPrefix(g, RuleSuiteNoConsumer) {
				names = append(names, strings.Trim(g[strings.LastIndex(g, " ")+1:], "'"))
			}
		}
		if s := strings.Join(names, " "); s != c.want {
			t.Errorf("%s: unconsumed %q, want %q (%q)", c.name, s, c.want, got)
		}
	}
}

// TestSuiteArgsExact: the names a command line passes, no empty ones.
func TestSuiteArgsExact(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string
	}{
		{"--suite=;--suite a", []string{"a"}},
		{"--suite '' --suite=\"b\"", []string{"b"}},
		{"--suite", nil},
		{"--suite=", nil},
		{"--suite  ", nil},
		{"--suite '", nil},
	} {
		if got := suiteArgs(c.in); !slices.Equal(got, c.want) {
			t.Errorf("suiteArgs(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestWorkflowRequestsNearMiss: quoted run-ci-<x> requests for unknown
// labels, placed where the name is written; only with KNOWN_LABELS
// loaded; a string on the first or the last line of a file too.
func TestWorkflowRequestsNearMiss(t *testing.T) {
	const head = "jobs:\n  a:\n    runs-on: x\n    steps:\n"
	broken := "KNOWN_LABELS = [x for x in y]\n"
	for _, c := range []struct {
		name   string
		labels *string
		wf     string
		want   string // "line:col name" of each request, in order
	}{
		{"a double-quoted whole value", nil, head + "      - run: x\n        env:\n          L: \"run-ci-bogus\"\n", "7:15 'run-ci-bogus'"},
		{"a single-quoted whole value", nil, head + "      - run: x\n        env:\n          L: 'run-ci-bogus'\n", "7:15 'run-ci-bogus'"},
		{"quoted inside a quoted value", nil, head + "      - run: \"say 'run-ci-bogus' now\"\n", "5:20 'run-ci-bogus'"},
		{"a known label", nil, head + "      - run: \"say 'run-ci-megatron' now\"\n", ""},
		{"labels not loaded", &broken, head + "      - run: \"say 'run-ci-bogus' now\"\n", ""},
		// Quotes on both sides of the name.
		{"a closing quote only", nil, head + "      - run: echo (run-ci-bogus' x\n", ""},
		{"an opening quote only", nil, head + "      - run: echo 'run-ci-bogus\n", ""},
		{"the value ends with the quote", nil, head + "      - run: echo 'run-ci-bogus'\n", "5:20 'run-ci-bogus'"},
		// Placed at the quoted occurrence, not at an earlier bare one or
		// one that continues the name.
		{"a bare occurrence first", nil, head + "      - run: echo run-ci-bogus 'run-ci-bogus'\n", "5:33 'run-ci-bogus'"},
		{"a longer name first", nil, head + "      - run: echo 'run-ci-bogusx 'run-ci-bogus'\n", "5:35 'run-ci-bogus'"},
		// The first and the last line of a file.
		{"first line", nil, "name: 'run-ci-bogus'\n" + head + "      - run: x\n", "1:8 'run-ci-bogus'"},
		{"last line, no final newline", nil, head + "      - run: x\n        env:\n          L: 'run-ci-bogus'", "7:15 'run-ci-bogus'"},
	} {
		got := workflowFindings(t, nil, c.labels, map[string]string{"a.yml": c.wf})
		var reqs []string
		for _, g := range got {
			if rest, ok := strings.CutPrefix(g, RuleUnknownRequest+" .github/workflows/a.yml:"); ok {
				reqs = append(reqs, rest)
			}
		}
		if s := strings.Join(reqs, ", "); s != c.want {
			t.Errorf("%s: requests %q, want %q", c.name, s, c.want)
		}
	}
}
