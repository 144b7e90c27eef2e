package scope

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
)

func flashinferOptions(t *testing.T) Options {
	t.Helper()
	c := DefaultConfig()
	c.Profile = "flashinfer"
	c, err := c.Resolve()
	if err != nil {
		t.Fatal(err)
	}
	return OptionsFrom(c)
}

// TestValidateSpecTable is the table of spec A4, plus the messages.
func TestValidateSpecTable(t *testing.T) {
	var seventeen []string
	for i := range 17 {
		seventeen = append(seventeen, fmt.Sprintf("tests/t%d.py", i))
	}
	long := "tests/" + strings.Repeat("a", 135) // 141 characters
	tests := []struct {
		name      string
		args      string
		targets   []string // overrides args
		wantFirst string   // id of the first failing rule; "" = accepted
		wantMsgs  []string // exact messages, every reason in order (optional)
	}{
		{name: "file and directory", args: "tests/attention/test_batch_prefill.py tests/gemm/"},
		{name: "shell injection", args: "tests/a.py; curl evil | sh", wantFirst: ReasonCharset, wantMsgs: []string{
			"targets contain characters not allowed in a test path: tests/a.py;, |",
			"targets outside tests/: curl, evil, sh",
		}},
		{name: "command substitution", args: "tests/$(id)", wantFirst: ReasonCharset},
		{name: "backticks", args: "tests/`id`", wantFirst: ReasonCharset},
		{name: "option", args: "tests/x.py --collect-only", wantFirst: ReasonCharset, wantMsgs: []string{
			"targets contain characters not allowed in a test path: --collect-only",
		}},
		{name: "dot slash", args: "./tests/x.py", wantFirst: ReasonCharset},
		{name: "prose", args: "please", wantFirst: ReasonRoot, wantMsgs: []string{"targets outside tests/: please"}},
		{name: "dot dot", args: "tests/../setup.py", wantFirst: ReasonRoot},
		{name: "dot dot inside a name", args: "tests/a..b.py", wantFirst: ReasonRoot},
		{name: "selector", args: "tests/a.py::test_x", wantFirst: ReasonSelector, wantMsgs: []string{
			"pytest ::selectors are not supported by the test runner; name the file instead of a single test: tests/a.py::test_x",
		}},
		{name: "parametrised selector", args: "tests/a.py::TestX::test_y[1-2]", wantFirst: ReasonSelector},
		{name: "17 distinct", targets: seventeen, wantFirst: ReasonCount, wantMsgs: []string{
			"too many targets (17); maximum is 16 (scripts/test_sharding/runner.py enforces the same cap, but only after the lanes have started)",
		}},
		{name: "same path 20 times", args: strings.Repeat("tests/x.py ", 20)},
		{name: "empty", args: "", wantFirst: ReasonEmpty, wantMsgs: []string{"no targets given"}},
		{name: "too long", args: long, wantFirst: ReasonTooLong, wantMsgs: []string{
			"target longer than the 140-character chunk limit and so cannot be split: " + long,
		}},
		{name: "all with a path", args: "all tests/x.py", wantFirst: ReasonRoot},
		{name: "unicode space stays in the token", args: "tests/a.py\u00a0tests/b.py", wantFirst: ReasonCharset},
		{name: "selector outside root", args: "foo::bar", wantFirst: ReasonRoot, wantMsgs: []string{
			"targets outside tests/: foo::bar",
			"pytest ::selectors are not supported by the test runner; name the file instead of a single test: foo::bar",
		}},
	}
	opts := flashinferOptions(t)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			targets := tt.targets
			if targets == nil {
				targets = SplitArgs(tt.args)
			}
			res := Validate(targets, opts)
			if tt.wantFirst == "" {
				if !res.Accepted() {
					t.Fatalf("rejected: %v", res.Reasons)
				}
				if !slices.Equal(res.Targets, dedup(targets)) {
					t.Fatalf("targets = %q", res.Targets)
				}
				return
			}
			if res.Accepted() {
				t.Fatalf("accepted %q, want rejected by %s", res.Targets, tt.wantFirst)
			}
			if res.Targets != nil {
				t.Errorf("rejected result carries targets %q", res.Targets)
			}
			if got := res.Reasons[0].ID; got != tt.wantFirst {
				t.Errorf("first reason %s (%s), want %s", got, res.Reasons[0].Message, tt.wantFirst)
			}
			if tt.wantMsgs != nil {
				var got []string
				for _, r := range res.Reasons {
					got = append(got, r.Message)
				}
				if !slices.Equal(got, tt.wantMsgs) {
					t.Errorf("reasons:\n got %q\nwant %q", got, tt.wantMsgs)
				}
			}
		})
	}
}

func TestValidateDefaultCountMessage(t *testing.T) {
	var targets []string
	for i := range 3 {
		targets = append(targets, fmt.Sprintf("tests/t%d.py", i))
	}
	res := Validate(targets, Options{Root: "tests/", MaxTargets: 2})
	want := "too many targets (3); maximum is 2"
	if res.Accepted() || res.Reasons[0].Message != want {
		t.Fatalf("got %v, want %q", res.Reasons, want)
	}
}

func TestValidateExistenceAndRegistry(t *testing.T) {
	fsys := fstest.MapFS{
		"tests/gemm/test_bmm.py":    {Data: []byte("")},
		"tests/attention/test_a.py": {Data: []byte("")},
		"tests/empty/README.md":     {Data: []byte("")},
	}
	o := Options{Root: "tests/", MaxTargets: 16, ChunkLimit: 140, FS: fsys}
	res := Validate([]string{"tests/gemm/", "tests/gemm", "tests/attention/test_a.py", "tests/nope.py", "tests/gemm//test_bmm.py"}, o)
	want := []Reason{{ReasonMissing, "declared targets do not exist in the repo: tests/nope.py, tests/gemm//test_bmm.py (a path that does not exist collects no tests and passes silently)"}}
	if !slices.Equal(res.Reasons, want) {
		t.Fatalf("got %v", res.Reasons)
	}
	o.HasTest = func(target string) bool { return !strings.HasPrefix(target, "tests/empty") }
	res = Validate([]string{"tests/gemm/", "tests/empty/"}, o)
	want = []Reason{{ReasonNoTests, "declared targets hold no registered, enabled test: tests/empty/ (such a target collects nothing and passes silently)"}}
	if !slices.Equal(res.Reasons, want) {
		t.Fatalf("got %v", res.Reasons)
	}
}

func TestSplitArgs(t *testing.T) {
	got := SplitArgs(" a\tb\n", "c", "", "d\u00a0e")
	want := []string{"a", "b", "c", "d\u00a0e"}
	if !slices.Equal(got, want) {
		t.Fatalf("got %q", got)
	}
}

func TestResolveProfiles(t *testing.T) {
	c := DefaultConfig()
	c.Profile = "flashinfer"
	c.Root = "tests/experimental/"
	r, err := c.Resolve()
	if err != nil {
		t.Fatal(err)
	}
	if r.Bot != "flashinfer-bot" || r.Root != "tests/experimental/" {
		t.Fatalf("explicit setting must win over the profile: %+v", r)
	}
	c = DefaultConfig()
	c.Profile = "nope"
	if _, err := c.Resolve(); err == nil || !strings.Contains(err.Error(), "flashinfer, miles") {
		t.Fatalf("err = %v", err)
	}
	c = DefaultConfig()
	c.ProseMentions = "loud"
	if _, err := c.Resolve(); err == nil {
		t.Fatal("bad prose-mentions accepted")
	}
	// The root is a directory: without its slash "tests" would admit
	// "testsuite/x.py"; an empty or "/" root would admit any path.
	c = DefaultConfig()
	c.Root = "tests"
	if r, err := c.Resolve(); err != nil || r.Root != "tests/" {
		t.Fatalf("root without slash: %q, %v", r.Root, err)
	}
	for _, bad := range []string{"", "/", " "} {
		c = DefaultConfig()
		c.Root = bad
		if _, err := c.Resolve(); err == nil {
			t.Fatalf("root %q accepted", bad)
		}
	}
	// An empty status context would publish "-1" and read back as the
	// full suite.
	c = DefaultConfig()
	c.StatusContext = ""
	if _, err := c.Resolve(); err == nil || err.Error() != "scope.status-context must not be empty" {
		t.Fatalf("empty status context: err = %v", err)
	}
	c = DefaultConfig()
	c.SnapshotContext = " "
	if _, err := c.Resolve(); err == nil || err.Error() != "scope.snapshot-context must not be empty" {
		t.Fatalf("empty snapshot context: err = %v", err)
	}
}

// FuzzValidate checks that no accepted target ever holds a character outside
// the charset, and that validation never panics.
func FuzzValidate(f *testing.F) {
	for _, s := range []string{
		"tests/attention/test_batch_prefill.py tests/gemm/",
		"tests/a.py; curl evil | sh", "tests/$(id)", "tests/`id`", "./tests/x.py",
		"tests/../setup.py", "tests/a.py::test_x", "please", "", "tests/a.py\ntests/b.py",
		"tests/x.py\x00", "tests/\u00e9.py", "tests/a.py\r\n",
	} {
		f.Add(s)
	}
	o := Options{Root: "tests/", MaxTargets: 16, ChunkLimit: 140, FS: fstest.MapFS{"tests/a.py": {}}}
	f.Fuzz(func(t *testing.T, s string) {
		for _, opts := range []Options{o, {Root: "tests/", MaxTargets: 16, ChunkLimit: 140}} {
			for _, targets := range [][]string{SplitArgs(s), {s}} {
				res := Validate(targets, opts)
				if res.Accepted() != (res.Targets != nil) {
					t.Fatalf("accepted=%v with targets %q", res.Accepted(), res.Targets)
				}
				for _, tg := range res.Targets {
					assertSafeTarget(t, tg)
					if !strings.HasPrefix(tg, "tests/") || strings.Contains(tg, "..") || strings.Contains(tg, "::") {
						t.Fatalf("accepted target %q breaks the root/selector rules", tg)
					}
				}
			}
		}
	})
}

// assertSafeTarget fails unless every byte of target is in the charset.
func assertSafeTarget(t *testing.T, target string) {
	t.Helper()
	if target == "" {
		t.Fatal("accepted an empty target")
	}
	for i := 0; i < len(target); i++ {
		c := target[i]
		ok := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' ||
			strings.IndexByte("._/-:[]", c) >= 0
		if !ok {
			t.Fatalf("accepted target %q holds byte %q outside the charset", target, c)
		}
	}
}
