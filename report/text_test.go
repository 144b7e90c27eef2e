package report

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/fatih/color"

	"github.com/cicheck/cicheck/finding"
)

func TestSnippetLine(t *testing.T) {
	long := strings.Repeat("abcdefghij", 30) // 300 cells
	tests := []struct {
		name      string
		line      string
		col       int
		wantShown string
		wantPad   int
	}{
		{"first column", "runs-on: x", 1, "runs-on: x", 0},
		{"middle", "runs-on: x", 10, "runs-on: x", 9},
		{"just past the end", "abc", 4, "abc", 3},
		{"far past the end", "abc", 99, "abc", 3},
		{"empty line", "", 5, "", 0},
		{"column 0", "abc", 0, "abc", 0},
		{"leading tab", "\tx", 2, "    x", 4},
		{"tab to next stop", "ab\tx", 4, "ab  x", 4},
		{"two tabs", "a\t\tx", 4, "a       x", 8},
		{"latin accents are one cell", "café: x", 7, "café: x", 6},
		{"CJK is two cells", "名前: x", 5, "名前: x", 6},
		{"caret under CJK", "a日本", 3, "a日本", 3},
		{"combining mark takes no cell", "e\u0301x", 3, "e\u0301x", 1},
		{"emoji is two cells", "🚀 go", 3, "🚀 go", 3},
		{"tab after CJK", "日\tx", 3, "日  x", 4},
		{"control char escaped", "a\x1bb", 3, `a\x1bb`, 5},
		{"bidi override escaped", "a\u202eb", 3, `a\u202eb`, 7},
		{"invalid UTF-8", "a\xffb", 3, "a\uFFFDb", 2},
		{"long line, caret near start", long, 5, long[:120] + "...", 4},
		{"long line, caret in middle", long, 150, "..." + long[89:209] + "...", 3 + 60},
		{"long line, caret at end", long, 301, "..." + long[240:], 3 + 60},
		{"long line, caret far past the end", long, 10000, "..." + long[240:], 3 + 60},
		{"long line, tab before the window", "\t" + long, 200, "..." + long[138:258] + "...", 3 + 60},
		{"long line of wide characters", strings.Repeat("日", 100), 50, "..." + strings.Repeat("日", 60) + "...", 3 + 60},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			shown, pad := snippetLine(tt.line, indexLine(tt.line), tt.col)
			if shown != tt.wantShown || pad != tt.wantPad {
				t.Errorf("snippetLine(%q, %d) = %q, %d; want %q, %d", tt.line, tt.col, shown, pad, tt.wantShown, tt.wantPad)
			}
		})
	}
}

// TestSnippetLineIndexed: starting from the line index's nearest mark
// gives what measuring from the start of the line gives (an index without
// marks), for every column of long lines mixing tabs, wide, escaped and
// invalid runes, across mark boundaries.
func TestSnippetLineIndexed(t *testing.T) {
	for _, unit := range []string{"abcdefghij", "a\tb", "日本\tx", "a\x1bb\u202e", "x\xffy", "é\u0301\t🚀 "} {
		for _, reps := range []int{1, 100, 257} {
			line := strings.Repeat(unit, reps)
			ix, flat := indexLine(line), &lineIndex{runes: utf8.RuneCountInString(line)}
			for col := 0; col <= flat.runes+2; col++ {
				gs, gp := snippetLine(line, ix, col)
				ws, wp := snippetLine(line, flat, col)
				if gs != ws || gp != wp {
					t.Fatalf("%q×%d col %d: indexed %q, %d; from the start %q, %d", unit, reps, col, gs, gp, ws, wp)
				}
			}
		}
	}
}

// TestTextLongLineManyFindings renders findings spread along one 6,000-character
// line (a flow mapping of every job): each snippet is cut to a window
// around its column with "..." on the cut sides, and the caret sits under
// the character the column names.
func TestTextLongLineManyFindings(t *testing.T) {
	var b strings.Builder
	b.WriteString("jobs: {")
	for i := range 200 {
		fmt.Fprintf(&b, "j%03d: {runs-on: foo}, ", i)
	}
	b.WriteString("}")
	line := b.String()
	var fs []finding.Finding
	var cols []int
	for i := range 200 {
		col := strings.Index(line, fmt.Sprintf("j%03d:", i)) + 1
		cols = append(cols, col)
		fs = append(fs, finding.Finding{Rule: "r", Severity: finding.Notice, File: "w.yml", Line: 1, Column: col, Message: "m"})
	}
	got := textOf(t, fs, Options{Sources: map[string][]byte{"w.yml": []byte(line + "\n")}})
	lines := strings.Split(got, "\n")
	for i, col := range cols {
		snip, caret := lines[3*i+1], lines[3*i+2]
		shown, ok := strings.CutPrefix(snip, "  1 | ")
		if !ok || !strings.HasPrefix(caret, "    | ") {
			t.Fatalf("finding %d: snippet lines %q, %q", i, snip, caret)
		}
		at := strings.Index(caret, "^") - len("    | ")
		if want := fmt.Sprintf("j%03d:", i); !strings.HasPrefix(shown[at:], want) {
			t.Errorf("finding %d (column %d): caret under %q, want %q\n%s\n%s", i, col, shown[at:min(at+5, len(shown))], want, snip, caret)
		}
		if w := utf8.RuneCountInString(shown); w > maxSnippet+6 {
			t.Errorf("finding %d: snippet of %d cells", i, w)
		}
		if cut := col > maxSnippet/2+1; cut != strings.HasPrefix(shown, "...") {
			t.Errorf("finding %d (column %d): snippet %q", i, col, shown)
		}
		if !strings.HasSuffix(shown, "...") && len(line)-col > maxSnippet {
			t.Errorf("finding %d (column %d): right side not cut: %q", i, col, shown)
		}
	}
	// One finding in the middle, exactly: 60 cells left of the caret after "...".
	mid := textOf(t, fs[100:101], Options{Sources: map[string][]byte{"w.yml": []byte(line + "\n")}})
	c := cols[100]
	want := fmt.Sprintf("w.yml:1:%d: notice: m [r]\n  1 | ...%s...\n    | %s^\n", c, line[c-1-60:c-1+60], strings.Repeat(" ", 63))
	if body, _, _ := strings.Cut(mid, "\n\n"); body+"\n" != want {
		t.Errorf("got\n%s\nwant\n%s", body, want)
	}
}

func textOf(t *testing.T, fs []finding.Finding, opts Options) string {
	t.Helper()
	var buf bytes.Buffer
	if err := Write(&buf, "text", fs, opts); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

func TestTextSnippetEdges(t *testing.T) {
	src := map[string][]byte{
		"crlf.yml":  []byte("a: 1\r\nb: 2\r\n"),
		"bom.yml":   []byte("\uFEFFon: push\n"),
		"noeol.yml": []byte("x: 1\ny: 2"),
		"empty.yml": {},
	}
	tests := []struct {
		name string
		f    finding.Finding
		want string
	}{
		{"CRLF line ends are not shown",
			finding.Finding{Severity: finding.Error, File: "crlf.yml", Line: 2, Column: 4, Message: "m"},
			"crlf.yml:2:4: error: m\n  2 | b: 2\n    |    ^\n"},
		{"BOM is not a column",
			finding.Finding{Severity: finding.Error, File: "bom.yml", Line: 1, Column: 1, Message: "m"},
			"bom.yml:1:1: error: m\n  1 | on: push\n    | ^\n"},
		{"last line without newline",
			finding.Finding{Severity: finding.Error, File: "noeol.yml", Line: 2, Column: 1, Message: "m"},
			"noeol.yml:2:1: error: m\n  2 | y: 2\n    | ^\n"},
		{"line past the end of the file",
			finding.Finding{Severity: finding.Error, File: "noeol.yml", Line: 3, Column: 1, Message: "m"},
			"noeol.yml:3:1: error: m\n"},
		{"empty file",
			finding.Finding{Severity: finding.Error, File: "empty.yml", Line: 1, Column: 1, Message: "m"},
			"empty.yml:1:1: error: m\n"},
		{"whole-file finding",
			finding.Finding{Severity: finding.Error, File: "noeol.yml", Message: "m"},
			"noeol.yml: error: m\n"},
		{"missing source",
			finding.Finding{Severity: finding.Error, File: "gone.yml", Line: 1, Column: 1, Message: "m"},
			"gone.yml:1:1: error: m\n"},
		{"source found through a cleaned path",
			finding.Finding{Severity: finding.Error, File: "./noeol.yml", Line: 1, Column: 3, Message: "m"},
			"./noeol.yml:1:3: error: m\n  1 | x: 1\n    |   ^\n"},
		{"no file",
			finding.Finding{Severity: finding.Warning, Message: "m"},
			"warning: m\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := textOf(t, []finding.Finding{tt.f}, Options{Sources: src})
			body, _, _ := strings.Cut(got, "\n\n")
			if body+"\n" != tt.want {
				t.Errorf("got:\n%s\nwant:\n%s", got, tt.want)
			}
		})
	}
}

func TestTextSummary(t *testing.T) {
	mk := func(sev ...finding.Severity) []finding.Finding {
		var fs []finding.Finding
		for i, s := range sev {
			fs = append(fs, finding.Finding{Severity: s, File: "a.yml", Line: i + 1, Message: "m"})
		}
		return fs
	}
	tests := []struct {
		fs   []finding.Finding
		want string
	}{
		{mk(finding.Error), "1 finding (1 error)"},
		{mk(finding.Error, finding.Warning, finding.Warning), "3 findings (1 error, 2 warnings)"},
		{mk(finding.Notice, finding.Notice), "2 findings (2 notices)"},
		{mk(finding.Warning, finding.Notice, finding.Error), "3 findings (1 error, 1 warning, 1 notice)"},
	}
	for _, tt := range tests {
		got := textOf(t, tt.fs, Options{})
		if !strings.HasSuffix(got, "\n\n"+tt.want+"\n") {
			t.Errorf("summary of %d findings: got\n%s\nwant last line %q", len(tt.fs), got, tt.want)
		}
	}
	if got := textOf(t, nil, Options{}); got != "" {
		t.Errorf("no findings printed %q, want nothing", got)
	}
}

func TestTextColor(t *testing.T) {
	fs := []finding.Finding{
		{Rule: "r", Severity: finding.Error, File: "a.yml", Line: 1, Column: 1, Message: "m", Job: "j", Fix: "f"},
		{Rule: "r", Severity: finding.Warning, File: "a.yml", Line: 2, Column: 1, Message: "m"},
		{Rule: "r", Severity: finding.Notice, File: "a.yml", Line: 3, Column: 1, Message: "m"},
	}
	src := map[string][]byte{"a.yml": []byte("a\nb\nc\n")}
	saved := color.NoColor
	t.Cleanup(func() { color.NoColor = saved })
	for _, global := range []bool{true, false} {
		// The global switch reflects the test process's stdout; it must
		// neither decide the output nor be changed by Write.
		color.NoColor = global
		plain := textOf(t, fs, Options{Sources: src, Color: false})
		if strings.Contains(plain, "\x1b") {
			t.Errorf("Color off (global NoColor=%v) printed escape codes:\n%q", global, plain)
		}
		colored := textOf(t, fs, Options{Sources: src, Color: true})
		for _, code := range []string{"\x1b[31;1m", "\x1b[33;1m", "\x1b[36;1m"} {
			if !strings.Contains(colored, code) {
				t.Errorf("Color on (global NoColor=%v) lacks %q:\n%q", global, code, colored)
			}
		}
		if stripANSI(colored) != plain {
			t.Errorf("coloured text differs from plain text beyond escape codes:\n%s\n---\n%s", stripANSI(colored), plain)
		}
		if color.NoColor != global {
			t.Errorf("Write changed color.NoColor from %v", global)
		}
	}
}

// stripANSI removes SGR escape sequences.
func stripANSI(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == 0x1b && i+1 < len(s) && s[i+1] == '[' {
			j := i + 2
			for j < len(s) && s[j] != 'm' {
				j++
			}
			i = j
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

func TestTextDefusesWorkflowCommands(t *testing.T) {
	fs := []finding.Finding{
		{Rule: "r", Severity: finding.Error, File: "::error::file.yml", Line: 1, Message: "x\n::add-mask::secret\n  \t::warning::y\n\u00a0\u3000::debug::z", Fix: "::notice::z"},
	}
	got := textOf(t, fs, Options{})
	for _, l := range strings.Split(got, "\n") {
		if strings.HasPrefix(strings.TrimLeftFunc(l, unicode.IsSpace), "::") {
			t.Errorf("line would run as a workflow command: %q", l)
		}
	}
	if !strings.Contains(got, `\x3a:add-mask::secret`) {
		t.Errorf("command line not escaped visibly:\n%s", got)
	}
}

func FuzzText(f *testing.F) {
	f.Add("on: push\n\tjobs: 日本\n", "msg", 2, 3)
	f.Add("a\r\nb\xff\x1b", "x\n::error::y", 1, 100)
	f.Add("", "", 0, 0)
	f.Add(strings.Repeat("名", 200), "long", 1, 150)
	f.Fuzz(func(t *testing.T, source, msg string, line, col int) {
		fd := finding.Finding{Rule: "r", Severity: finding.Warning, File: "f.yml", Line: line, Column: col, Message: msg, Job: msg, Fix: msg}
		var buf bytes.Buffer
		if err := Write(&buf, "text", []finding.Finding{fd}, Options{Sources: map[string][]byte{"f.yml": []byte(source)}}); err != nil {
			t.Fatal(err)
		}
		out := buf.String()
		if strings.Contains(out, "\x1b") || strings.Contains(out, "\r") {
			t.Fatalf("raw control character in text output: %q", out)
		}
		for _, l := range strings.Split(out, "\n") {
			if strings.HasPrefix(strings.TrimLeftFunc(l, unicode.IsSpace), "::") {
				t.Fatalf("line would run as a workflow command: %q", l)
			}
		}
	})
}
