package checks

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/cicheck/cicheck/finding"
)

// gate_reads.golden only records what the rules print; the reviewed
// expectation is in gate_reads.yml, one comment per group of jobs ("...: no
// finding", "...: a finding", "...: a notice"). This test checks the
// comments against gate-reads-unguarded-output's findings, so that
// regenerating the golden (-update-gate) cannot silently accept a change
// that contradicts them.
func TestGateReadsCommentsHold(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("testdata", "gate_reads.yml"))
	if err != nil {
		t.Fatal(err)
	}
	comment := regexp.MustCompile(`^  # (.*)$`)
	jobKey := regexp.MustCompile(`^  ([a-z0-9-]+):`)
	type group struct {
		says string
		jobs []string
	}
	var groups []*group
	for _, ln := range strings.Split(string(src), "\n") {
		if m := comment.FindStringSubmatch(ln); m != nil {
			groups = append(groups, &group{says: m[1]})
		} else if m := jobKey.FindStringSubmatch(ln); m != nil && len(groups) > 0 {
			g := groups[len(groups)-1]
			g.jobs = append(g.jobs, m[1])
		}
	}
	if len(groups) < 15 {
		t.Fatalf("only %d commented groups in gate_reads.yml", len(groups))
	}
	byJob := map[string][]finding.Finding{}
	for _, f := range Run(loadSrc(t, string(src)), "", nil, []*Rule{GateReadsUnguardedOutput}) {
		byJob[f.Job] = append(byJob[f.Job], f)
	}
	for _, g := range groups {
		var got []finding.Finding
		for _, j := range g.jobs {
			got = append(got, byJob[j]...)
		}
		var want string
		switch {
		case strings.HasSuffix(g.says, "no finding"), strings.HasSuffix(g.says, "not claimed"), strings.HasSuffix(g.says, "not this rule's"):
			want = ""
		case strings.HasSuffix(g.says, "a notice"):
			want = "notice"
		case strings.HasSuffix(g.says, "a finding"), strings.Contains(g.says, "one finding"):
			want = "warning"
		default:
			t.Errorf("comment %q: no expectation the test understands", g.says)
			continue
		}
		switch {
		case want == "" && len(got) > 0:
			t.Errorf("%q (%v): got\n%s", g.says, g.jobs, render(got))
		case want != "" && (len(got) != 1 || got[0].Severity.String() != want):
			t.Errorf("%q (%v): want one %s, got\n%s", g.says, g.jobs, want, render(got))
		}
	}
}

// The other gate goldens state their expectation in the workflow's header
// comment: gate_traps.yml's GPU jobs all look gated to a text search and
// only real-gate is (a comment, a string literal, a step-level if: and a
// block-scalar template are no gate); gate_certain.yml's push-only job
// below a pull-request-only job never runs on push (an error, the certain
// message), the same job without the push condition is a hypothesis (a
// warning).
func TestGateGoldensStatedExpectations(t *testing.T) {
	for _, tt := range []struct {
		file, rule, job, want string
	}{
		{"gate_traps", "gpu-gate", "comment-gate", "error"},
		{"gate_traps", "gpu-gate", "string-gate", "error"},
		{"gate_traps", "gpu-gate", "step-gate", "error"},
		{"gate_traps", "gpu-gate", "templated-gate", "error"},
		{"gate_traps", "gpu-gate", "real-gate", ""},
		{"gate_certain", "closure-bridge", "deploy", "error:never runs"},
		{"gate_certain", "closure-bridge", "deploy-any", "warning"},
		{"gate_certain", "gpu-gate", "gpu-nightly", "error:never runs"},
	} {
		src, err := os.ReadFile(filepath.Join("testdata", tt.file+".yml"))
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, f := range Run(loadSrc(t, string(src)), "", nil, gateRules) {
			if f.Job == tt.job && f.Rule == tt.rule {
				s := f.Severity.String()
				if strings.Contains(f.Message, "never runs") {
					s += ":never runs"
				}
				got = append(got, s)
			}
		}
		if strings.Join(got, ",") != tt.want {
			t.Errorf("%s %s %s: %v, want %q", tt.file, tt.rule, tt.job, got, tt.want)
		}
	}
}
