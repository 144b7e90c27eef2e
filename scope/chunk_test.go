package scope

import (
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/cicheck/cicheck/finding"
)

// specExample is the illustrative scope of spec A6 (lengths 37, 26, 38, 35, 28).
var specExample = []string{
	"tests/attention/test_batch_prefill.py",
	"tests/gemm/test_bmm_fp8.py",
	"tests/moe/test_trtllm_gen_fused_moe.py",
	"tests/comm/test_allreduce_fusion.py",
	"tests/utils/test_sampling.py",
}

func TestPlanStatusesSpecExample(t *testing.T) {
	got, err := PlanStatuses(specExample, "ci/test-scope", 140, 4)
	if err != nil {
		t.Fatal(err)
	}
	first := strings.Join(specExample[:4], " ")
	if len(first) != 139 {
		t.Fatalf("chunk 1 is %d characters, the spec says 139", len(first))
	}
	want := []Status{
		{"ci/test-scope-1", first},
		{"ci/test-scope-2", "tests/utils/test_sampling.py"},
		{"ci/test-scope-3", ""},
		{"ci/test-scope-4", ""},
	}
	if !slices.Equal(got, want) {
		t.Fatalf("got %q", got)
	}
}

func TestChunkTable(t *testing.T) {
	tests := []struct {
		name    string
		targets []string
		limit   int
		want    []string
		wantErr string
	}{
		{"empty is the full suite", nil, 140, nil, ""},
		{"one chunk even for one target", []string{"tests/a.py"}, 140, []string{"tests/a.py"}, ""},
		{"exactly the limit", []string{"tests/a.py", "tests/b.py"}, 21, []string{"tests/a.py tests/b.py"}, ""},
		{"one over the limit", []string{"tests/a.py", "tests/b.py"}, 20, []string{"tests/a.py", "tests/b.py"}, ""},
		{"duplicates collapse first", []string{"tests/a.py", "tests/b.py", "tests/a.py"}, 140, []string{"tests/a.py tests/b.py"}, ""},
		{"target longer than the limit", []string{"tests/a.py", "tests/abcdef.py"}, 12, nil,
			"target longer than the 12-character chunk limit and so cannot be split: tests/abcdef.py"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Chunk(tt.targets, tt.limit)
			if tt.wantErr != "" {
				if err == nil || err.Error() != tt.wantErr {
					t.Fatalf("err = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil || !slices.Equal(got, tt.want) {
				t.Fatalf("got %q, %v; want %q", got, err, tt.want)
			}
			for _, c := range got {
				if len(c) > tt.limit {
					t.Errorf("chunk %q over the limit", c)
				}
			}
		})
	}
}

func TestFingerprint(t *testing.T) {
	if got := Fingerprint(""); got != "e3b0c44298fc1c14" {
		t.Fatalf("empty scope fingerprint %s", got)
	}
	if got := Fingerprint(ScopeString([]string{"tests/a.py", "tests/a.py"})); got != Fingerprint("tests/a.py") {
		t.Fatalf("duplicates must not change the fingerprint: %s", got)
	}
}

func TestReassemble(t *testing.T) {
	o := Options{Root: "tests/", MaxTargets: 16, ChunkLimit: 140}
	plan, _ := PlanStatuses(specExample, "ci/test-scope", 140, 0)
	scope := strings.Join(specExample, " ")
	tests := []struct {
		name      string
		statuses  []Status
		wantScope string
		wantPrev  int
		wantRules []string
	}{
		{name: "round trip, reversed order", statuses: []Status{plan[1], plan[0], {"other", "x"}}, wantScope: scope, wantPrev: 2},
		{name: "numeric, not lexical, order", statuses: func() []Status {
			var s []Status
			for i := 10; i >= 1; i-- {
				s = append(s, Status{"ci/test-scope-" + strconv.Itoa(i), "tests/t" + strconv.Itoa(i) + ".py"})
			}
			return s
		}(), wantScope: "tests/t1.py tests/t2.py tests/t3.py tests/t4.py tests/t5.py tests/t6.py tests/t7.py tests/t8.py tests/t9.py tests/t10.py", wantPrev: 10},
		{name: "blanks after the scope are no gap", statuses: []Status{{"ci/test-scope-1", "tests/a.py"}, {"ci/test-scope-2", ""}, {"ci/test-scope-3", ""}}, wantScope: "tests/a.py", wantPrev: 3},
		{name: "all blank is the full suite", statuses: []Status{{"ci/test-scope-1", ""}}, wantScope: "", wantPrev: 1},
		{name: "nothing is the full suite", statuses: nil, wantScope: ""},
		{name: "gap", statuses: []Status{{"ci/test-scope-1", "tests/a.py"}, {"ci/test-scope-2", ""}, {"ci/test-scope-3", "tests/b.py"}}, wantScope: "tests/a.py tests/b.py", wantPrev: 3, wantRules: []string{RuleGap}},
		{name: "missing index", statuses: []Status{{"ci/test-scope-1", "tests/a.py"}, {"ci/test-scope-3", "tests/b.py"}}, wantScope: "tests/a.py tests/b.py", wantPrev: 3, wantRules: []string{RuleGap}},
		{name: "duplicate index", statuses: []Status{{"ci/test-scope-1", "tests/a.py"}, {"ci/test-scope-01", "tests/b.py"}}, wantScope: "tests/a.py", wantPrev: 1, wantRules: []string{RuleDuplicateIndex}},
		{name: "injected scope", statuses: []Status{{"ci/test-scope-1", "tests/a.py;rm -rf /"}}, wantScope: "tests/a.py;rm -rf /", wantPrev: 1, wantRules: []string{RuleRevalidate}},
		{name: "marker matches", statuses: []Status{plan[0], plan[1], {"ci/test-snapshot", "b m t " + Fingerprint(scope)}}, wantScope: scope, wantPrev: 2},
		{name: "empty marker matches the full suite", statuses: []Status{{"ci/test-snapshot", "b m t e3b0c44298fc1c14"}}, wantScope: ""},
		{name: "marker mismatch", statuses: []Status{plan[0], {"ci/test-snapshot", "b m t e3b0c44298fc1c14"}}, wantScope: plan[0].Description, wantPrev: 1, wantRules: []string{RuleMarkerMismatch}},
		{name: "index out of range", statuses: []Status{{"ci/test-scope-1", "tests/a.py"}, {"ci/test-scope-99999999999999999999", "tests/b.py"}}, wantScope: "tests/a.py tests/b.py", wantPrev: 1, wantRules: []string{RuleBadIndex}},
		{name: "index above MaxChunkIndex", statuses: []Status{{"ci/test-scope-1", "tests/a.py"}, {"ci/test-scope-10001", ""}}, wantScope: "tests/a.py", wantPrev: 1, wantRules: []string{RuleBadIndex}},
		{name: "index at MaxChunkIndex", statuses: []Status{{"ci/test-scope-1", "tests/a.py"}, {"ci/test-scope-10000", ""}}, wantScope: "tests/a.py", wantPrev: 10000},
		{name: "latest entry per context wins", statuses: []Status{{"ci/test-scope-1", "tests/new.py"}, {"ci/test-scope-1", "tests/old.py"}}, wantScope: "tests/new.py", wantPrev: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := Reassemble(tt.statuses, "ci/test-scope", "ci/test-snapshot", o, "statuses.json")
			if r.Scope != tt.wantScope || r.Previous != tt.wantPrev {
				t.Fatalf("scope %q previous %d; want %q %d", r.Scope, r.Previous, tt.wantScope, tt.wantPrev)
			}
			var rules []string
			for _, f := range r.Findings {
				rules = append(rules, f.Rule)
			}
			if !slices.Equal(rules, tt.wantRules) {
				t.Fatalf("findings %v, want rules %v", r.Findings, tt.wantRules)
			}
			accepted := true
			for _, f := range r.Findings {
				accepted = accepted && f.Severity != finding.Error
			}
			if r.Accepted() != accepted || accepted != (r.Targets != nil) {
				t.Fatalf("accepted=%v targets=%q", r.Accepted(), r.Targets)
			}
			if r.Fingerprint != Fingerprint(r.Scope) {
				t.Fatalf("fingerprint %s", r.Fingerprint)
			}
		})
	}
}

func TestParseStatuses(t *testing.T) {
	in := `{"state":"success","statuses":[{"context":"ci/test-scope-1","description":"tests/a.py","state":"success"},{"context":"ci/test-scope-2","description":null}]}
{"statuses":[{"context":"ci/test-scope-3","description":"tests/b.py"}]}`
	got, err := ParseStatuses(strings.NewReader(in), "<stdin>")
	if err != nil {
		t.Fatal(err)
	}
	want := []Status{{"ci/test-scope-1", "tests/a.py"}, {"ci/test-scope-2", ""}, {"ci/test-scope-3", "tests/b.py"}}
	if !slices.Equal(got, want) {
		t.Fatalf("got %q", got)
	}
	got, err = ParseStatuses(strings.NewReader(`[{"statuses":[]},{"statuses":[{"context":"a"}]}]`), "<stdin>")
	if err != nil || len(got) != 1 {
		t.Fatalf("pages: %v %v", got, err)
	}
	_, err = ParseStatuses(strings.NewReader("{\n  \"statuses\": [1,]\n}"), "s.json")
	if err == nil || !strings.HasPrefix(err.Error(), "s.json:2:") {
		t.Fatalf("err = %v", err)
	}
	for _, bad := range []string{"", " \n", `{"statuses":[{"context":"ci/test-scope-1","description":5}]}`} {
		// Neither may read as "no chunks", which means the full suite.
		if _, err := ParseStatuses(strings.NewReader(bad), "s.json"); err == nil || !strings.HasPrefix(err.Error(), "s.json:") {
			t.Errorf("ParseStatuses(%q) err = %v, want a positioned error", bad, err)
		}
	}
	_, err = ParseStatuses(strings.NewReader(`{"statuses":[{"description":"x"}]}`), "s.json")
	if err == nil || !strings.Contains(err.Error(), `no string "context"`) {
		t.Fatalf("err = %v", err)
	}
}

// FuzzChunkReassemble checks that chunking and reassembly round-trip and
// never exceed the limit.
func FuzzChunkReassemble(f *testing.F) {
	f.Add(strings.Join(specExample, " "), 140, 3)
	f.Add("tests/a.py tests/a.py tests/b.py", 10, 0)
	f.Add("", 140, 5)
	f.Fuzz(func(t *testing.T, s string, limit, prev int) {
		if limit < 1 || limit > 1000 || prev < 0 || prev > 100 {
			return
		}
		targets := SplitArgs(s)
		plan, err := PlanStatuses(targets, "ci/test-scope", limit, prev)
		if err != nil {
			return
		}
		for _, st := range plan {
			if len(st.Description) > limit {
				t.Fatalf("description %q over %d", st.Description, limit)
			}
		}
		r := Reassemble(plan, "ci/test-scope", "ci/test-snapshot", Options{}, "fuzz")
		if r.Scope != ScopeString(targets) {
			t.Fatalf("round trip %q != %q", r.Scope, ScopeString(targets))
		}
	})
}

func TestSnapshotMarker(t *testing.T) {
	b, m, tr := strings.Repeat("a", 40), strings.Repeat("b", 40), strings.Repeat("c", 40)
	got, err := SnapshotMarker(b, m, tr, "")
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 139 || !strings.HasSuffix(got, " e3b0c44298fc1c14") {
		t.Fatalf("marker %q (%d characters)", got, len(got))
	}
	// The consumer side accepts what the publisher wrote.
	r := Reassemble([]Status{{"ci/test-snapshot", got}}, "ci/test-scope", "ci/test-snapshot", Options{}, "s")
	if !r.Accepted() {
		t.Fatalf("%v", r.Findings)
	}
	if _, err := SnapshotMarker(strings.ToUpper(b), m, tr, ""); err == nil {
		t.Fatal("upper-case SHA accepted")
	}
}

func TestPlanStatusesPreviousBound(t *testing.T) {
	if p, err := PlanStatuses([]string{"tests/a.py"}, "ci/test-scope", 140, MaxChunkIndex); err != nil || len(p) != MaxChunkIndex {
		t.Fatalf("at the bound: %d statuses, %v", len(p), err)
	}
	// Beyond it the plan used to allocate prevMax statuses (3 GB for 10^8).
	if _, err := PlanStatuses(nil, "ci/test-scope", 140, 100_000_000); err == nil {
		t.Fatal("huge previous accepted")
	}
}
