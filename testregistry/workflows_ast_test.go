package testregistry

import (
	"os"
	"path"
	"strings"
	"testing"
)

// TestWorkflowsFromAST: suites consumed and quoted label requests are read
// from the parsed workflows in testdata/workflows: string values only (a
// comment is not the workflow), placed at their line and column in block,
// folded and quoted scalars; near misses beside each case.
func TestWorkflowsFromAST(t *testing.T) {
	files := map[string]string{"tests/e2e/test_a.py": "register_cpu_ci(1, 'stage-a-cpu')\n"}
	for _, name := range []string{"requests.yml", "consumers.yml", "broken.yml"} {
		b, err := os.ReadFile(path.Join("testdata/workflows", name))
		if err != nil {
			t.Fatal(err)
		}
		files[".github/workflows/"+name] = string(b)
	}
	r, err := Scan(repo(files), DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	var requests, unconsumed []string
	for _, f := range r.Findings {
		switch f.Rule {
		case RuleUnknownRequest:
			requests = append(requests, itoaT(f.Line)+":"+itoaT(f.Column)+" "+strings.SplitN(f.Message, " ", 2)[0])
		case RuleSuiteNoConsumer:
			unconsumed = append(unconsumed, strings.SplitN(f.Message, " ", 3)[1])
		}
	}
	wantRequests := []string{
		"6:19 'run-ci-typo'",
		"10:60 'run-ci-megatorn'",
		"15:35 'run-ci-bogus'",
		"15:62 'run-ci-bogus'",
		"23:19 'run-ci-folded'",
	}
	// Consumed: stage-a-cpu (block), stage-b-2-gpu-h200 (--suite="x"),
	// stage-c-8-gpu-h100 (folded with: value), stage-b-cpu (an env value,
	// after a tab and quoted). Not consumed: a commented-out line, --suites,
	// --suite-name, and a file that does not parse.
	wantUnconsumed := []string{"'stage-c-8-gpu-h200'", "'stage-c-4-gpu-h200'", "'stage-c-2-gpu-h200'", "'stage-c-4-gpu-mi350'"}
	if got := strings.Join(requests, "\n"); got != strings.Join(wantRequests, "\n") {
		t.Errorf("requests:\n%s\nwant\n%s", got, strings.Join(wantRequests, "\n"))
	}
	if got := strings.Join(unconsumed, " "); got != strings.Join(wantUnconsumed, " ") {
		t.Errorf("unconsumed: %s\nwant %s", got, strings.Join(wantUnconsumed, " "))
	}
}

func TestSuiteArgs(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"--suite a", "a"},
		{"--suite=a --suite\t\t'b' --suite \"c\"", "a b c"},
		{"x--suite a", "a"},
		{"--suites a --suite-name b --suite", ""},
		{"--suite ${{ matrix.suite }}", ""},
		{"--suite= a", ""},
		{"--suite a.b_c-1!", "a.b_c-1"},
	} {
		if got := strings.Join(suiteArgs(c.in), " "); got != c.want {
			t.Errorf("suiteArgs(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
