package testregistry

import (
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/cicheck/cicheck/pyparse"
)

// diffGolden is the output of tools/registry-diff/gen.py: seed files, and
// cases that each edit one seed, with CPython's verdict on the result.
type diffGolden struct {
	Python    string            `json:"python"`
	Generator string            `json:"generator"`
	Bases     map[string]string `json:"bases"`
	Cases     []struct {
		Class string   `json:"class"`
		Base  string   `json:"base"`
		At    int      `json:"at"`
		Del   int      `json:"del"`
		Ins   string   `json:"ins"`
		Want  []string `json:"want"`
	} `json:"cases"`
}

// pyFloatRepr formats f as Python's repr(float) does.
func pyFloatRepr(f float64) string {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return map[bool]string{true: "inf", false: "-inf"}[f > 0]
	}
	exp := 0
	if f != 0 {
		exp = int(math.Floor(math.Log10(math.Abs(f))))
	}
	if exp < -4 || exp >= 16 {
		m, e, _ := strings.Cut(strconv.FormatFloat(f, 'e', -1, 64), "e")
		n, _ := strconv.Atoi(e)
		sign := "+"
		if n < 0 {
			sign, n = "-", -n
		}
		return fmt.Sprintf("%se%s%02d", m, sign, n)
	}
	s := strconv.FormatFloat(f, 'f', -1, 64)
	if !strings.Contains(s, ".") {
		s += ".0"
	}
	return s
}

// jsonText renders nil, a string or a []string as Python's json.dumps
// does (ensure_ascii, ", " between items), lone surrogates included.
func jsonText(v any) string {
	switch v := v.(type) {
	case nil:
		return "null"
	case []string:
		parts := make([]string, len(v))
		for i, s := range v {
			parts[i] = jsonText(s)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case string:
		var sb strings.Builder
		sb.WriteByte('"')
		for i := 0; i < len(v); {
			r, n := pyparse.DecodeRune(v[i:])
			i += n
			switch {
			case r == '"' || r == '\\':
				sb.WriteByte('\\')
				sb.WriteRune(r)
			case r == '\n':
				sb.WriteString(`\n`)
			case r == '\r':
				sb.WriteString(`\r`)
			case r == '\t':
				sb.WriteString(`\t`)
			case r == '\b':
				sb.WriteString(`\b`)
			case r == '\f':
				sb.WriteString(`\f`)
			case r < 0x20 || r > 0x7f && r <= 0xffff:
				fmt.Fprintf(&sb, `\u%04x`, r)
			case r > 0xffff:
				r -= 0x10000
				fmt.Fprintf(&sb, `\u%04x\u%04x`, 0xd800+(r>>10), 0xdc00+(r&0x3ff))
			default:
				sb.WriteRune(r)
			}
		}
		sb.WriteByte('"')
		return sb.String()
	}
	panic(fmt.Sprintf("jsonText: %T", v))
}

// diffVerdict is the scanner's view of one file in gen.py's verdict form.
func diffVerdict(sc *scanner, file, src string) []string {
	res := sc.scanFile(file, src)
	var out []string
	for _, g := range res.regs {
		fn := g.Func
		var dis any
		if g.Disabled != nil {
			dis = *g.Disabled
		}
		labels := g.Labels
		if labels == nil {
			labels = []string{}
		}
		out = append(out, fmt.Sprintf("reg %d:%d %s %s %s %s %s %s %s", g.Line, g.Column, fn, g.Backend, pyFloatRepr(g.EstTime),
			jsonText(g.Suite), jsonText(labels), map[bool]string{true: "True", false: "False"}[g.Nightly], jsonText(dis)))
	}
	for _, e := range res.firsts {
		out = append(out, fmt.Sprintf("call %d:%d %s", e.line, e.col, e.msg))
	}
	for _, f := range res.findings {
		line, msg := f.Line, f.Message
		switch f.Rule {
		case RuleSyntaxError:
			if msg == "source code string cannot contain null bytes" {
				line = 0 // CPython gives no line (SyntaxError.NoLine)
			}
		case RuleNoRegistry, RuleGPUInImplicit:
		case RuleMentionNoCall:
			line = 0
		case RuleRocmAliasQuirk:
			line, msg = 0, "rocm-alias-quirk"
		default:
			continue
		}
		out = append(out, fmt.Sprintf("file %d %s", line, msg))
	}
	slices.Sort(out)
	return out
}

// TestDifferentialCPython replays CPython's verdicts on generated mutants of
// real-looking test files (tools/registry-diff/gen.py, checked in as
// testdata/differential.json) with the target version the oracle ran.
// Every case must agree: the same registrations and call errors, or the
// same syntax error message on the same line.
//
// REGISTRY_PYTHON=python3 runs the oracle live on a fresh seed
// (REGISTRY_DIFF_SEED, default 1; REGISTRY_DIFF_N cases per class, default
// 400) instead of the checked-in file.
func TestDifferentialCPython(t *testing.T) {
	var data []byte
	var err error
	if py := os.Getenv("REGISTRY_PYTHON"); py != "" {
		seed, n := os.Getenv("REGISTRY_DIFF_SEED"), os.Getenv("REGISTRY_DIFF_N")
		if seed == "" {
			seed = "1"
		}
		if n == "" {
			n = "400"
		}
		cmd := exec.Command(py, filepath.Join("..", "tools", "registry-diff", "gen.py"), n, seed)
		cmd.Stderr = os.Stderr
		if data, err = cmd.Output(); err != nil {
			t.Fatalf("%s gen.py: %v", py, err)
		}
	} else if data, err = os.ReadFile(filepath.Join("testdata", "differential.json")); err != nil {
		t.Fatal(err)
	}
	var g diffGolden
	if err := json.Unmarshal(data, &g); err != nil {
		t.Fatal(err)
	}
	cfg := DefaultConfig()
	cfg.Python = g.Python
	known := []string{"amd", "ft-long", "megatron", "short"} // testdata/crosscheck/tests/ci/labels.py
	sc := &scanner{cfg: cfg, minor: targetMinor(cfg.Python), known: map[string]bool{}, knownList: known, knownOK: true}
	for _, k := range known {
		sc.known[k] = true
	}
	// testdata/differential-divergences.txt lists the case numbers not yet
	// fixed (only for the checked-in file), so the list can only shrink: a
	// new divergence fails, and so does a listed case that now agrees.
	// UPDATE_REGISTRY_DIVERGENCES=1 rewrites it.
	listPath := filepath.Join("testdata", "differential-divergences.txt")
	live := os.Getenv("REGISTRY_PYTHON") != ""
	listed := map[int]bool{}
	if b, err := os.ReadFile(listPath); err == nil && !live {
		for _, l := range strings.Split(string(b), "\n") {
			l, _, _ = strings.Cut(l, "#")
			if n, err := strconv.Atoi(strings.TrimSpace(l)); err == nil {
				listed[n] = true
			}
		}
	}
	var diverged []string
	gated := map[string]int{}
	agree, total := map[string]int{}, map[string]int{}
	bad, reported := 0, 0
	for i, c := range g.Cases {
		base, ok := g.Bases[c.Base]
		if !ok || c.At+c.Del > len(base) {
			t.Fatalf("case %d: bad edit of %q", i, c.Base)
		}
		src := base[:c.At] + c.Ins + base[c.At+c.Del:]
		got := diffVerdict(sc, c.Base, src)
		want := c.Want
		if want == nil {
			want = []string{}
		}
		if got == nil {
			got = []string{}
		}
		total[c.Class]++
		// Grammar newer than the target gets cicheck's own message,
		// naming the construct and its version: it agrees with any
		// syntax error CPython reports.
		if len(got) == 1 && newerRe.MatchString(got[0]) && len(want) == 1 && syntaxVerdict(want[0]) {
			gated[c.Class]++
			got = want
		}
		if slices.Equal(got, want) {
			agree[c.Class]++
			if listed[i] {
				t.Errorf("case %d (%s) now agrees: remove it from %s", i, c.Class, listPath)
			}
			continue
		}
		bad++
		diverged = append(diverged, fmt.Sprintf("%d # %s", i, c.Class))
		if listed[i] {
			continue
		}
		if reported++; reported <= diffReportMax {
			t.Errorf("case %d (%s) %s, edit at %d -%d +%q:\n  CPython %s: %q\n  cicheck:     %q", i, c.Class, c.Base, c.At, c.Del, c.Ins, g.Python, want, got)
		}
	}
	sum := 0
	for _, cl := range slices.Sorted(maps.Keys(total)) {
		sum += total[cl]
		t.Logf("%-10s %4d/%4d agree (%d of them on grammar newer than %s)", cl, agree[cl], total[cl], gated[cl], g.Python)
	}
	t.Logf("total %d/%d agree with CPython %s (%s)", sum-bad, sum, g.Python, g.Generator)
	if reported > diffReportMax {
		t.Errorf("... and %d more divergences", reported-diffReportMax)
	}
	if os.Getenv("UPDATE_REGISTRY_DIVERGENCES") != "" && !live {
		b := "# case numbers of testdata/differential.json where cicheck and CPython still disagree (TestDifferentialCPython)\n" +
			strings.Join(diverged, "\n") + "\n"
		if err := os.WriteFile(listPath, []byte(b), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

var newerRe = regexp.MustCompile(`^file \d+ .* requires Python 3\.\d+ or newer \(`)

// syntaxVerdict reports a verdict line of a file CPython cannot parse.
func syntaxVerdict(v string) bool {
	if !strings.HasPrefix(v, "file ") {
		return false
	}
	for _, m := range []string{"No CI registry found", "is forbidden in", "file mentions", "rocm-alias-quirk"} {
		if strings.Contains(v, m) {
			return false
		}
	}
	return true
}

// diffReportMax bounds the divergences printed in full
// (REGISTRY_DIFF_SHOW raises it).
var diffReportMax = func() int {
	if n, err := strconv.Atoi(os.Getenv("REGISTRY_DIFF_SHOW")); err == nil {
		return n
	}
	return 60
}()
