package testregistry

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cicheck/cicheck/finding"
)

// TestDifferentialReferenceCollector replays the reference collector's own
// verdicts (tools/registry-diff/reference.py: radixark/miles' ci_register
// collect_tests) on every mutant of testdata/differential.json: the same
// syntax error line and message, the same first call error, or the same
// registrations. Where cicheck goes beyond the reference on purpose it
// says so and is held to that instead: grammar newer than the target
// (any syntax error of CPython's on the line), a NUL byte (CPython names
// no line), a file that only mentions register_rocm_ci in tests/fast/
// (flagged, where the reference registers an implicit CPU test).
func TestDifferentialReferenceCollector(t *testing.T) {
	var g diffGolden
	b, err := os.ReadFile(filepath.Join("testdata", "differential.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &g); err != nil {
		t.Fatal(err)
	}
	var ref struct {
		Known    []string `json:"known"`
		Verdicts []struct {
			Regs   [][]any `json:"regs"`
			Syntax []any   `json:"syntax"`
			Error  *string `json:"error"`
		} `json:"verdicts"`
	}
	b, err = os.ReadFile(filepath.Join("testdata", "differential-reference.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &ref); err != nil {
		t.Fatal(err)
	}
	if len(ref.Verdicts) != len(g.Cases) || len(g.Cases) < 10000 {
		t.Fatalf("%d verdicts for %d cases", len(ref.Verdicts), len(g.Cases))
	}
	cfg := DefaultConfig()
	cfg.Python = g.Python
	sc := &scanner{cfg: cfg, minor: targetMinor(cfg.Python), known: map[string]bool{}, knownList: ref.Known, knownOK: true}
	for _, k := range ref.Known {
		sc.known[k] = true
	}
	reg := func(file, backend string, est any, suite string, labels []string, nightly bool, disabled any) string {
		if labels == nil {
			labels = []string{}
		}
		return fmt.Sprintf("%s %s %v %s %q %v %v", file, backend, est, suite, labels, nightly, disabled)
	}
	agree, compared := 0, 0
	for i, c := range g.Cases {
		if strings.HasPrefix(c.Base, "tests/manual/") {
			continue // no root: collect_tests is never given such a file
		}
		compared++
		base := g.Bases[c.Base]
		res := sc.scanFile(c.Base, base[:c.At]+c.Ins+base[c.At+c.Del:])
		var syntax, firstErr string
		quirk := false
		for _, f := range res.findings {
			switch {
			case f.Rule == RuleSyntaxError && syntax == "":
				syntax = fmt.Sprintf("syntax %d %s", f.Line, f.Message)
			case f.Rule == RuleRocmAliasQuirk:
				quirk = true
			case f.Severity == finding.Error && firstErr == "":
				firstErr = f.Message
			}
		}
		if len(res.firsts) > 0 {
			firstErr = res.firsts[0].msg
		}
		var got []string
		switch {
		case syntax != "":
			got = []string{syntax}
		case firstErr != "":
			got = []string{"error " + firstErr}
		case quirk:
			got = []string{"quirk"}
		default:
			for _, r := range res.regs {
				var dis any = "<nil>"
				if r.Disabled != nil {
					dis = *r.Disabled
				}
				got = append(got, reg(r.File, r.Backend, r.EstTime, r.Suite, r.Labels, r.Nightly, dis))
			}
		}
		v := ref.Verdicts[i]
		var want []string
		switch {
		case v.Syntax != nil:
			want = []string{fmt.Sprintf("syntax %v %v", v.Syntax[0], v.Syntax[1])}
		case v.Error != nil:
			want = []string{"error " + strings.TrimPrefix(*v.Error, c.Base+": ")}
		default:
			for _, r := range v.Regs {
				var labels []string
				for _, l := range r[4].([]any) {
					labels = append(labels, l.(string))
				}
				dis := r[6]
				if dis == nil {
					dis = "<nil>"
				}
				want = append(want, reg(r[0].(string), r[1].(string), r[2], r[3].(string), labels, r[5].(bool), dis))
			}
		}
		gs, ws := strings.Join(got, "; "), strings.Join(want, "; ")
		switch {
		case gs == ws:
		case quirk && len(v.Regs) == 1 && v.Regs[0][1] == "cpu": // flagged on purpose
		case v.Syntax != nil && v.Syntax[0] == nil && strings.HasSuffix(gs, fmt.Sprint(v.Syntax[1])): // NUL: no line
		case v.Syntax != nil && len(got) == 1 && strings.HasPrefix(gs, "syntax ") &&
			newerRe.MatchString("file "+strings.TrimPrefix(gs, "syntax ")):
			// grammar newer than the target: cicheck's own message, which
			// agrees with any syntax error (as in TestDifferentialCPython)
		default:
			t.Errorf("case %d (%s) %s:\n  reference %s\n  cicheck   %s", i, c.Class, c.Base, ws, gs)
			continue
		}
		agree++
	}
	t.Logf("%d/%d agree with the reference's ci_register.collect_tests", agree, compared)
}
