package testregistry

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/cicheck/cicheck/finding"
)

// Near misses found by mutation testing (tools/mutate): each row differs
// from a neighbour in one detail the implementation tests.

// affectedRepo has PR-stage tests of several labels; on the weekly
// cadence every label is in scope, so which stages a diff affects decides
// what is skipped (on regular, tests only run on request, which hides it).
func affectedRepo(t *testing.T) *Registry {
	t.Helper()
	r, err := Scan(repo(map[string]string{
		"tests/e2e/test_a.py":   "register_cuda_ci(100, 'stage-b-2-gpu-h200', labels=['megatron'])\n",
		"tests/e2e/test_b.py":   "register_cuda_ci(100, 'stage-c-2-gpu-h200', labels=['fsdp'])\n",
		"tests/e2e/test_n.py":   "register_cuda_ci(100, 'stage-c-4-gpu-h200', labels=['megatron'], nightly=True)\n",
		"tests/e2e/test_m.py":   "register_cuda_ci(100, 'stage-c-8-gpu-h100', labels=['megatron'])\n",
		"tests/e2e/test_d.py":   "register_cuda_ci(100, 'stage-c-8-gpu-h200', labels=['lora'], disabled='flaky')\n",
		"tests/e2e/test_cpu.py": "register_cpu_ci(5, 'stage-b-cpu')\n",
	}), DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	if r.HasErrors() {
		t.Fatalf("unexpected errors: %v", r.Findings)
	}
	return r
}

func TestSkippedStagesAffected(t *testing.T) {
	r := affectedRepo(t)
	pc := r.Config().Policy
	except := func(keep ...string) string {
		var out []string
		for _, s := range pc.PRGPUStages {
			if !slices.Contains(keep, s) {
				out = append(out, s)
			}
		}
		slices.Sort(out)
		return strings.Join(out, ",")
	}
	const b2, c2, c4, c8h100 = "stage-b-2-gpu-h200", "stage-c-2-gpu-h200", "stage-c-4-gpu-h200", "stage-c-8-gpu-h100"
	for _, c := range []struct {
		name, cadence string
		raw           []string
		entries       []string
		want          string
	}{
		{"a test file affects its stage", "weekly", nil, []string{"M", "tests/e2e/test_a.py"}, except(b2)},
		{"two test files", "weekly", nil, []string{"M", "tests/e2e/test_a.py", "M", "tests/e2e/test_b.py"}, except(b2, c2)},
		{"docs prefix", "weekly", nil, []string{"M", "docs/x.txt"}, except()},
		{"docs suffix", "weekly", nil, []string{"M", "README.md"}, except()},
		{"docs path", "weekly", nil, []string{"M", ".pre-commit-config.yaml"}, except()},
		{"other file: every runnable stage", "weekly", nil, []string{"M", "miles/core.py"}, except(b2, c2, c4, c8h100)},
		{"other file after docs", "weekly", nil, []string{"M", "docs/x.txt", "M", "miles/core.py"}, except(b2, c2, c4, c8h100)},
		{"other file after a test file", "weekly", nil, []string{"M", "tests/e2e/test_a.py", "A", "miles/core.py"}, except(b2, c2, c4, c8h100)},
		{"a test on no PR stage affects nothing", "weekly", nil, []string{"M", "tests/e2e/test_cpu.py"}, except()},
		{"a nightly test runs weekly", "weekly", nil, []string{"M", "tests/e2e/test_n.py"}, except(c4)},
		{"a disabled test's stage does not run", "weekly", nil, []string{"M", "tests/e2e/test_d.py"}, except()},
		{"rename into a test file", "weekly", nil, []string{"R100", "docs/a.txt", "tests/e2e/test_b.py"}, except(c2)},
		{"a label runs its stages without a change", "weekly", []string{"run-ci-megatron"}, []string{"M", "docs/x.txt"}, except(b2, c4, c8h100)},
		{"run-ci-all: every runnable stage", "weekly", []string{"run-ci-all"}, []string{"M", "docs/x.txt"}, except(b2, c2, c4, c8h100)},
		{"regular: a label leaves out nightly tests", "regular", []string{"run-ci-megatron"}, []string{"M", "docs/x.txt"}, except(b2, c8h100)},
		{"regular: a changed file without its label", "regular", nil, []string{"M", "tests/e2e/test_a.py"}, except()},
	} {
		ch, ok := ParseNameStatusZ([]byte(strings.Join(c.entries, "\x00") + "\x00"))
		if !ok {
			t.Fatalf("%s: diff unusable", c.name)
		}
		p, _, err := ResolvePolicy(c.cadence, c.raw, r.Known, pc)
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Join(r.SkippedStages(p, c.raw, ch, true), ","); got != c.want {
			t.Errorf("%s: skipped %s\nwant %s", c.name, got, c.want)
		}
	}
}

// TestSelectSorted: Select sorts what it returns, whatever the order of
// the registrations.
func TestSelectSorted(t *testing.T) {
	r := affectedRepo(t)
	slices.Reverse(r.Registrations)
	p, _, err := ResolvePolicy("weekly", nil, r.Known, r.Config().Policy)
	if err != nil {
		t.Fatal(err)
	}
	// A second disabled test, filed before test_d, after it.
	c := r.Registrations[slices.IndexFunc(r.Registrations, func(g Registration) bool { return g.File == "tests/e2e/test_d.py" })]
	c.File = "tests/e2e/test_c.py"
	r.Registrations = append(r.Registrations, c)
	sel, err := r.Select(p, "", "", true)
	if err != nil {
		t.Fatal(err)
	}
	if got := files(sel.Enabled); got != "test_a.py@cuda test_b.py@cuda test_cpu.py@cpu test_m.py@cuda test_n.py@cuda" {
		t.Errorf("enabled %s", got)
	}
	if got := files(sel.Skipped); got != "test_c.py@cuda test_d.py@cuda" || !sel.Skipped[0].Disabled || sel.Skipped[0].Reason != "flaky" {
		t.Errorf("skipped %s %+v", got, sel.Skipped)
	}
}

// TestPartitionBounds: the last valid partition id is size-1.
func TestPartitionBounds(t *testing.T) {
	n := func(v int) *int { return &v }
	for _, c := range []struct {
		id, size *int
		ok       bool
	}{
		{n(1), n(2), true}, {n(2), n(2), false}, {n(0), n(1), true}, {n(-1), n(1), false}, {n(0), n(0), false}, {nil, nil, true}, {n(0), nil, false},
	} {
		if err := PartitionArgs(c.id, c.size); (err == nil) != c.ok {
			t.Errorf("PartitionArgs(%v, %v) = %v", c.id, c.size, err)
		}
	}
	tests := []Selected{{File: "a", EstTime: 2}, {File: "b", EstTime: 1}}
	for _, c := range []struct {
		id, size int
		want     string
	}{{0, 2, "a"}, {1, 2, "b"}, {2, 2, ""}, {-1, 2, ""}, {0, 0, ""}, {0, 1, "a b"}} {
		var got []string
		for _, s := range Shard(tests, c.id, c.size) {
			got = append(got, s.File)
		}
		if strings.Join(got, " ") != c.want {
			t.Errorf("Shard(%d/%d) = %q, want %q", c.id, c.size, got, c.want)
		}
	}
}

// TestStagedFilterWideFiles: each registry-wide file makes every finding
// count; a file of the same name elsewhere does not.
func TestStagedFilterWideFiles(t *testing.T) {
	cfg := DefaultConfig()
	for _, f := range []string{cfg.Labels.File, cfg.Suites.File, cfg.AccessPolicy, ".cicheck.yaml"} {
		if keep, relevant := StagedFilter(cfg, []string{"docs/x.md", f}); !relevant || keep != nil {
			t.Errorf("%s staged: keep %v relevant %v", f, keep != nil, relevant)
		}
	}
	if keep, _ := StagedFilter(cfg, []string{"sub/.cicheck.yaml"}); keep == nil {
		t.Error("sub/.cicheck.yaml is not the configuration")
	}
}

// TestLoadLabelsNearMiss: a statement after ';', a bare annotation, reads
// that look like writes (comparisons, a call's keyword in an index), writes
// that look like reads, nested scopes, rebinding by import and one-element
// unpacking, and elements that are not string literals. why is the
// labels-not-literal reason ("" when the labels load).
func TestLoadLabelsNearMiss(t *testing.T) {
	for _, c := range []struct{ src, keys, why string }{
		{"X = 1; KNOWN_LABELS = ['a']\n", "a", ""},
		{"KNOWN_LABELS = ['a']; KNOWN_LABELS = ['b']\n", "b", ""},
		{"KNOWN_LABELS: list\nKNOWN_LABELS = ['a']\n", "a", ""},
		{"KNOWN_LABELS = ['a']\nKNOWN_LABELS: list\n", "a", ""},
		{"KNOWN_LABELS = ['a']\nKNOWN_LABELS == ['b']\n", "a", ""},
		{"KNOWN_LABELS = ['a']\nKNOWN_LABELS[0] == 'b'\n", "a", ""},
		{"KNOWN_LABELS = ['a']\nKNOWN_LABELS[0] <= 'b'\n", "a", ""},
		{"KNOWN_LABELS = ['a']\nKNOWN_LABELS[0] != 'b'\n", "a", ""},
		{"KNOWN_LABELS = ['a']\nKNOWN_LABELS[f(x=1)] = 2\n", "-", "it is modified after its assignment on line 1"},
		{"KNOWN_LABELS = ['a']\nKNOWN_LABELS[f(x=1)]\n", "a", ""},
		{"KNOWN_LABELS = ['a']\nKNOWN_LABELS.x += 1\n", "-", "it is modified after its assignment on line 1"},
		{"KNOWN_LABELS = ['a']\nKNOWN_LABELS += ['b']\n", "-", "it is modified after its assignment on line 1"},
		{"KNOWN_LABELS = ['a']\nasync def f():\n    KNOWN_LABELS = ['b']\n", "a", ""},
		{"KNOWN_LABELS = ['a']\nY = [KNOWN_LABELS for KNOWN_LABELS in x]\n", "a", ""},
		{"KNOWN_LABELS = ['a']\nimport KNOWN_LABELS\n", "-", "it is rebound after its assignment on line 1"},
		{"KNOWN_LABELS = ['a']\nfrom m import (x, KNOWN_LABELS)\n", "-", "it is rebound after its assignment on line 1"},
		{"KNOWN_LABELS = ['a']\nKNOWN_LABELS, = ['b']\n", "-", "it is rebound after its assignment on line 1"},
		{"KNOWN_LABELS = {1: 'x'}\n", "-", "a key is a int constant, not a string literal"},
		{"KNOWN_LABELS = {'a': 1}\n", "a", ""},
		{"KNOWN_LABELS = [b'a']\n", "-", "an element is a bytes constant, not a string literal"},
		{"KNOWN_LABELS = set(['a'], x=1)\n", "-", "the value is a Call, not a literal"},
		{"KNOWN_LABELS = set()\n", "", ""},
		{"KNOWN_LABELS = frozenset(['a', 'b'])\n", "a,b", ""},
		{"KNOWN_LABELS = set([f()])\n", "-", "an element is a Call, not a string literal"},
		{"KNOWN_LABELS = other(['a'])\n", "-", "the value is a Call, not a literal"},
		{"KNOWN_LABELS\n", "-", "no module-level assignment of KNOWN_LABELS"},
		{"KNOWN_LABELS = ['a']\ndel KNOWN_LABELS[0]\n", "-", "it is modified after its assignment on line 1"},
		{"KNOWN_LABELS = ['a']\ndel X, KNOWN_LABELS\n", "-", "it is rebound after its assignment on line 1"},
		{"KNOWN_LABELS = ['a']\nKNOWN_LABELS = \\\n    ['b']\n", "b", ""},
	} {
		ls, fs := loadLabels(fstest.MapFS{"tests/ci/labels.py": {Data: []byte(c.src)}}, DefaultConfig())
		keys := "-"
		if ls != nil {
			var k []string
			for _, x := range ls.keys {
				if !x.dup {
					k = append(k, x.name)
				}
			}
			keys = strings.Join(k, ",")
		}
		why := ""
		if len(fs) > 0 {
			why = strings.TrimSuffix(strings.TrimPrefix(fs[0].Message, "cannot load KNOWN_LABELS statically: "), "; label checks are skipped")
		}
		if keys != c.keys || why != c.why || (why != "" && fs[0].Rule != RuleLabelsNotLiteral) {
			t.Errorf("%q: keys %q, %v; want %q, %q", c.src, keys, fs, c.keys, c.why)
		}
	}
}

// TestSelectOneBackend: a backend without a suite names no suite of it; an
// unknown backend is named in upper case.
func TestSelectOneBackend(t *testing.T) {
	r := affectedRepo(t)
	p, _, err := ResolvePolicy("weekly", nil, r.Known, r.Config().Policy)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ hw, suite, err string }{
		{"cuda", "", "Unknown suite  for backend CUDA"},
		{"tpu", "x", "Unknown suite x for backend TPU"},
		{"cuda", "stage-b-2-gpu-h200", ""},
	} {
		_, err := r.Select(p, c.hw, c.suite, false)
		if got := fmt.Sprint(err); (err == nil) != (c.err == "") || (err != nil && got != c.err) {
			t.Errorf("Select(%q, %q): %v, want %q", c.hw, c.suite, err, c.err)
		}
	}
}

// TestHasEnabledTestWholeRepo: "", "." and "./" mean the whole repository.
func TestHasEnabledTestWholeRepo(t *testing.T) {
	r := affectedRepo(t)
	for _, target := range []string{"", ".", "./"} {
		if !r.HasEnabledTest(target) {
			t.Errorf("HasEnabledTest(%q) = false", target)
		}
	}
	if r.HasEnabledTest("tests/e2e/test_d.py") {
		t.Error("a disabled test counts")
	}
}

// TestFirstMention: the earliest of several names, at offset 0 too, in
// whichever order the names come.
func TestFirstMention(t *testing.T) {
	for _, c := range []struct {
		src       string
		names     []string
		line, col int
		ok        bool
	}{
		{"x", []string{"x"}, 1, 1, true},
		{"ab", []string{"a", "b"}, 1, 1, true},
		{"ab", []string{"b", "a"}, 1, 1, true},
		{"q\nzz b a", []string{"a", "b"}, 2, 4, true},
		{"abc", []string{"z"}, 0, 0, false},
	} {
		line, col, ok := firstMention(c.src, c.names)
		if line != c.line || col != c.col || ok != c.ok {
			t.Errorf("firstMention(%q, %q) = %d, %d, %v", c.src, c.names, line, col, ok)
		}
	}
}

// TestAccessPolicyNeedsLabelsAndFile: the allowlist is compared only when
// KNOWN_LABELS loaded and an access-policy file is configured.
func TestAccessPolicyNeedsLabelsAndFile(t *testing.T) {
	cfg := DefaultConfig()
	files := fstest.MapFS{cfg.AccessPolicy: {Data: []byte(`{"commands": {"add_label": {"allowed_labels": ["nightly"]}}}`)}}
	labels, _ := loadLabels(fstest.MapFS{"tests/ci/labels.py": {Data: []byte("KNOWN_LABELS = ['a']\n")}}, cfg)
	if labels == nil {
		t.Fatal("labels did not load")
	}
	if fs := checkAccessPolicy(files, cfg, labels); len(fs) == 0 {
		t.Error("the near miss with both reports no drift")
	}
	// Extra entries are listed sorted, whatever the map order.
	many := fstest.MapFS{cfg.AccessPolicy: {Data: []byte(`{"commands": {"add_label": {"allowed_labels": ["run-ci-a", "z", "y", "x", "w", "v", "u"]}}}`)}}
	fs := checkAccessPolicy(many, cfg, labels)
	if !slices.ContainsFunc(fs, func(f finding.Finding) bool {
		return strings.HasSuffix(f.Message, "not run-ci-<key> for a KNOWN_LABELS key, run-ci-image or bypass-fastfail: ['u', 'v', 'w', 'x', 'y', 'z']")
	}) {
		t.Errorf("extras: %v", fs)
	}
	if fs := checkAccessPolicy(files, cfg, nil); fs != nil {
		t.Errorf("labels unknown: %v", fs)
	}
	noFile := cfg
	noFile.AccessPolicy = ""
	if fs := checkAccessPolicy(files, noFile, labels); fs != nil {
		t.Errorf("no access-policy file configured: %v", fs)
	}
}
