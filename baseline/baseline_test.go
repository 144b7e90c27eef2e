package baseline

import (
	"strconv"
	"strings"
	"testing"

	"github.com/cicheck/cicheck/finding"
)

func f(rule, file, job, msg string, line int) finding.Finding {
	return finding.Finding{Rule: rule, Severity: finding.Error, File: file, Job: job, Message: msg, Line: line, Column: 3}
}

func TestApply(t *testing.T) {
	old := []finding.Finding{
		f("gpu-gate", "ci.yml", "resolve", "no status check", 10),
		f("expression", "ci.yml", "", "undefined variable", 20),
		f("expression", "ci.yml", "", "undefined variable", 30),
		f("runner-label", "old.yml", "x", "unknown label", 5),
	}
	b := Build(old)
	tests := []struct {
		name          string
		now           []finding.Finding
		wantNew       []string
		wantBaselined int
		wantStale     []string
	}{
		{"same findings, lines shifted", []finding.Finding{
			f("gpu-gate", "ci.yml", "resolve", "no status check", 14),
			f("expression", "ci.yml", "", "undefined variable", 24),
			f("expression", "ci.yml", "", "undefined variable", 34),
			f("runner-label", "old.yml", "x", "unknown label", 9),
		}, nil, 4, nil},
		{"a third copy is new", []finding.Finding{
			f("expression", "ci.yml", "", "undefined variable", 20),
			f("expression", "ci.yml", "", "undefined variable", 30),
			f("expression", "ci.yml", "", "undefined variable", 40),
		}, []string{"expression:40"}, 2, []string{"gpu-gate", "runner-label"}},
		{"other job is new", []finding.Finding{
			f("gpu-gate", "ci.yml", "stage-b", "no status check", 10),
		}, []string{"gpu-gate:10"}, 0, []string{"expression", "gpu-gate", "runner-label"}},
		{"one copy fixed leaves a stale count", []finding.Finding{
			f("expression", "ci.yml", "", "undefined variable", 20),
		}, nil, 1, []string{"expression", "gpu-gate", "runner-label"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := b.Apply(tt.now)
			var gotNew []string
			for _, n := range r.New {
				gotNew = append(gotNew, n.Rule+":"+strconv.Itoa(n.Line))
			}
			if strings.Join(gotNew, ",") != strings.Join(tt.wantNew, ",") {
				t.Errorf("new = %v, want %v", gotNew, tt.wantNew)
			}
			if r.Baselined != tt.wantBaselined {
				t.Errorf("baselined = %d, want %d", r.Baselined, tt.wantBaselined)
			}
			var gotStale []string
			for _, s := range r.Stale {
				gotStale = append(gotStale, s.Rule)
			}
			if strings.Join(gotStale, ",") != strings.Join(tt.wantStale, ",") {
				t.Errorf("stale = %v, want %v", gotStale, tt.wantStale)
			}
		})
	}
	if got := b.Apply(old[1:2]).Stale; len(got) != 3 || got[0].Rule != "expression" || got[0].Count != 1 {
		t.Errorf("partial fix: stale = %+v, want expression with count 1 first", got)
	}
}

func TestRoundTripAndDeterminism(t *testing.T) {
	a := []finding.Finding{f("r1", "a.yml", "j", "m", 1), f("r2", "b.yml", "", "n", 2), f("r1", "a.yml", "j", "m", 7)}
	rev := []finding.Finding{a[2], a[1], a[0]}
	if string(Build(a).Marshal()) != string(Build(rev).Marshal()) {
		t.Fatal("baseline depends on finding order")
	}
	b, err := Parse("b.json", Build(a).Marshal())
	if err != nil {
		t.Fatal(err)
	}
	if len(b.Entries) != 2 || b.Entries[0].Count != 2 {
		t.Fatalf("round trip: %+v", b.Entries)
	}
}

func TestParseErrors(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`{`, "b.json: not a cicheck baseline"},
		{`{"version":2,"findings":[]}`, "baseline version 2 is not supported"},
		{`{"version":1,"findings":[{"fingerprint":"","count":1}]}`, "entry 1 needs a fingerprint"},
		{`{"version":1,"bogus":1}`, "unknown field"},
	} {
		_, err := Parse("b.json", []byte(tc.in))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Parse(%s) error = %v, want %q", tc.in, err, tc.want)
		}
	}
}

func FuzzParse(f *testing.F) {
	f.Add([]byte(`{"version":1,"findings":[{"fingerprint":"ab","rule":"r","file":"f","message":"m","count":2}]}`))
	f.Add([]byte(`{"version":1,"findings":[]}`))
	f.Add([]byte(`null`))
	f.Fuzz(func(t *testing.T, data []byte) {
		b, err := Parse("fuzz.json", data)
		if err != nil {
			return
		}
		// Whatever parses must apply without panicking and re-marshal.
		_ = b.Apply([]finding.Finding{{Rule: "r", File: "f", Message: "m"}})
		if _, err := Parse("again.json", b.Marshal()); err != nil {
			t.Fatalf("re-parse of marshalled baseline failed: %v", err)
		}
	})
}

func TestSummaryAndKeepStale(t *testing.T) {
	r := Result{Baselined: 1, Stale: []Entry{{File: "a.yml"}, {File: "./b.yml"}}}
	if got, want := r.Summary("base.json"), "baseline base.json: 1 finding accepted, 2 baseline entries no longer occur (prune with 'cicheck baseline write')"; got != want {
		t.Errorf("got %q\nwant %q", got, want)
	}
	// Only b.yml was linted: a.yml's entry is not stale (its file was not
	// looked at); ./b.yml is b.yml.
	r.KeepStaleOf(func(f string) bool { return f == "b.yml" })
	if len(r.Stale) != 1 || r.Stale[0].File != "./b.yml" {
		t.Fatalf("stale = %+v", r.Stale)
	}
	r.Baselined = 2
	if got, want := r.Summary("b"), "baseline b: 2 findings accepted, 1 baseline entry no longer occurs (prune with 'cicheck baseline write')"; got != want {
		t.Errorf("got %q\nwant %q", got, want)
	}
	r.Stale = nil
	if got, want := r.Summary("b"), "baseline b: 2 findings accepted, 0 baseline entries no longer occur"; got != want {
		t.Errorf("got %q\nwant %q", got, want)
	}
}

// TestJobIDsWrittenOrFolded: a baseline written when cicheck printed job
// ids lower-cased (job and message) accepts the same findings now that they
// show the ids as written, and so does one written by a cicheck that showed
// a job as written but did not fold it (paths-filter findings). The near
// miss: a finding about another job is still new.
func TestJobIDsWrittenOrFolded(t *testing.T) {
	lower := f("gpu-gate", "ci.yml", "gpu_test", "gpu_test needs docker_build", 10)
	written := f("gpu-gate", "ci.yml", "GPU_Test", "GPU_Test needs Docker_Build", 12)
	written.IDs = "GPU_Test\nDocker_Build"
	other := f("gpu-gate", "ci.yml", "GPU_Test2", "GPU_Test2 needs Docker_Build", 14)
	other.IDs = "GPU_Test2\nDocker_Build"
	r := Build([]finding.Finding{lower}).Apply([]finding.Finding{written, other})
	if r.Baselined != 1 || len(r.New) != 1 || r.New[0].Job != "GPU_Test2" || len(r.Stale) != 0 {
		t.Errorf("old lower-cased baseline: %+v", r)
	}
	// Written without folding (no IDs known then): still accepted.
	asWritten := written
	asWritten.IDs = ""
	if r := Build([]finding.Finding{asWritten}).Apply([]finding.Finding{written}); r.Baselined != 1 {
		t.Errorf("unfolded baseline: %+v", r)
	}
	// A baseline written now matches itself.
	if r := Build([]finding.Finding{written}).Apply([]finding.Finding{written}); r.Baselined != 1 {
		t.Errorf("new baseline: %+v", r)
	}
}
