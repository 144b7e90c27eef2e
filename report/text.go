package report

import (
	"bytes"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/fatih/color"
	"github.com/mattn/go-runewidth"

	"github.com/cicheck/cicheck/finding"
	"github.com/cicheck/cicheck/internal/plural"
	"github.com/cicheck/cicheck/internal/safetext"
)

// The text format, one block per finding:
//
//	.github/workflows/ci.yml:12:14: error: label "foo" is unknown [runner-label]
//	  job: build
//	  fix: use "ubuntu-latest"
//	  12 |     runs-on: foo
//	     |              ^
//
// The position drops ":col" when the column is 0 and ":line:col" when the
// line is 0 (a whole-file finding, which gets no snippet). The job and fix
// lines appear only when set. The snippet needs opts.Sources[file] and a line
// that exists; the caret sits under the column (1-based, counted in
// characters as actionlint and yaml.v3 count them), with tabs expanded and
// wide characters taking two cells; a column past the end of the line puts
// the caret just after the last character. Very long lines are cut to a
// window around the column, marked with "...".
//
// After the findings comes one blank line and a summary such as
// "3 findings (1 error, 2 warnings)". No findings print nothing at all, so a
// clean run is silent in the Unix way; the exit code says it was clean.

const (
	tabWidth   = 4   // tab stops for the snippet; we expand tabs ourselves so the caret lines up
	maxSnippet = 120 // widest snippet shown before cutting a window around the column
)

// widthCond measures terminal cells. It is fixed rather than read from the
// locale (runewidth.DefaultCondition looks at LANG), so output is the same
// on every machine.
var widthCond = &runewidth.Condition{EastAsianWidth: false, StrictEmojiNeutral: true}

// textStyle holds the colours of the text format. Each is a local
// *color.Color forced on or off, so fatih/color's global NoColor (set from
// the process's own stdout) neither decides nor is changed.
type textStyle struct {
	pos, rule, gutter, caret, summary *color.Color
	sev                               map[finding.Severity]*color.Color
}

func newTextStyle(on bool) textStyle {
	mk := func(attrs ...color.Attribute) *color.Color {
		c := color.New(attrs...)
		if on {
			c.EnableColor()
		} else {
			c.DisableColor()
		}
		return c
	}
	return textStyle{
		pos:     mk(color.Bold),
		rule:    mk(color.FgHiBlack),
		gutter:  mk(color.FgBlue),
		caret:   mk(color.FgGreen, color.Bold),
		summary: mk(color.Bold),
		sev: map[finding.Severity]*color.Color{
			finding.Error:   mk(color.FgRed, color.Bold),
			finding.Warning: mk(color.FgYellow, color.Bold),
			finding.Notice:  mk(color.FgCyan, color.Bold),
		},
	}
}

func (st textStyle) severity(s finding.Severity) string {
	if c, ok := st.sev[s]; ok {
		return c.Sprint(s.String())
	}
	return s.String()
}

func writeText(buf *bytes.Buffer, fs []finding.Finding, opts Options) error {
	st := newTextStyle(opts.Color)
	src := sourceCache{sources: opts.Sources, lines: map[string][]string{}, index: map[lineKey]*lineIndex{}}
	counts := map[finding.Severity]int{}
	for _, f := range fs {
		counts[f.Severity]++
		if pos := position(f); pos != "" {
			buf.WriteString(st.pos.Sprint(safetext.Block(pos, "") + ":"))
			buf.WriteByte(' ')
		}
		buf.WriteString(st.severity(f.Severity))
		buf.WriteString(": ")
		buf.WriteString(safetext.Block(f.Message, "  "))
		if f.Rule != "" {
			buf.WriteString(" " + st.rule.Sprint("["+safetext.Block(f.Rule, "")+"]"))
		}
		buf.WriteByte('\n')
		if f.Job != "" {
			buf.WriteString("  job: " + safetext.Block(f.Job, "       ") + "\n")
		}
		if f.Fix != "" {
			buf.WriteString("  fix: " + safetext.Block(f.Fix, "       ") + "\n")
		}
		if f.Line > 0 {
			if line, ix, ok := src.line(f.File, f.Line); ok {
				writeSnippet(buf, st, f.Line, f.Column, line, ix)
			}
		}
	}
	if len(fs) > 0 {
		buf.WriteByte('\n')
		buf.WriteString(st.summary.Sprint(summary(len(fs), counts)))
		buf.WriteByte('\n')
	}
	// The one place the text format escapes: fields through safetext.Block,
	// then no line may start a workflow command.
	out := safetext.DefuseCommands(buf.Bytes())
	buf.Reset()
	buf.Write(out)
	return nil
}

// position is "file:line:col", shortened when line or column is unknown.
func position(f finding.Finding) string {
	p := f.File
	if f.Line > 0 {
		p += ":" + strconv.Itoa(f.Line)
		if f.Column > 0 {
			p += ":" + strconv.Itoa(f.Column)
		}
	}
	return p
}

// summary is "3 findings (1 error, 2 warnings)"; zero counts are left out.
func summary(total int, counts map[finding.Severity]int) string {
	var parts []string
	for _, s := range []finding.Severity{finding.Error, finding.Warning, finding.Notice} {
		if n := counts[s]; n > 0 {
			parts = append(parts, plural.Count(n, s.String()))
		}
	}
	out := plural.Count(total, "finding")
	if len(parts) > 0 {
		out += " (" + strings.Join(parts, ", ") + ")"
	}
	return out
}

// sourceCache splits each source file into lines once, however many
// findings point into it, and measures each line shown once: thousands of
// findings on one long line (a flow mapping of every job) would otherwise
// each scan the line from its start.
type sourceCache struct {
	sources map[string][]byte
	lines   map[string][]string
	index   map[lineKey]*lineIndex
}

type lineKey struct {
	file string
	line int
}

// line returns line n (1-based) of file without its line terminator, and
// its index.
func (c sourceCache) line(file string, n int) (string, *lineIndex, bool) {
	text, ok := c.text(file, n)
	if !ok {
		return "", nil, false
	}
	k := lineKey{file, n}
	ix := c.index[k]
	if ix == nil {
		ix = indexLine(text)
		c.index[k] = ix
	}
	return text, ix, true
}

func (c sourceCache) text(file string, n int) (string, bool) {
	lines, ok := c.lines[file]
	if !ok {
		data, found := c.sources[file]
		if !found {
			data, found = c.sources[slashPath(file)]
		}
		if found {
			text := string(data)
			text = strings.TrimSuffix(text, "\n")
			if text != "" || len(data) > 0 {
				lines = strings.Split(text, "\n")
			}
			if len(lines) > 0 {
				lines[0] = strings.TrimPrefix(lines[0], "\uFEFF") // a BOM is not a column
			}
		}
		c.lines[file] = lines
	}
	if n < 1 || n > len(lines) {
		return "", false
	}
	return strings.TrimSuffix(lines[n-1], "\r"), true
}

// cell is one rune of a source line as displayed.
type cell struct {
	r     rune
	width int
}

// text is what a cell prints: tabs as spaces, unsafe runes escaped.
func (c cell) text() string {
	switch {
	case c.r == '\t':
		return strings.Repeat(" ", c.width)
	case safetext.IsUnsafe(c.r):
		return safetext.EscapeRune(c.r)
	}
	return string(c.r) // invalid bytes decode to U+FFFD and print as such
}

// cellOf measures rune r starting w cells into the line.
func cellOf(r rune, w int) cell {
	switch {
	case r >= ' ' && r < 0x7f: // printable ASCII, nearly every rune in a workflow
		return cell{r, 1}
	case r == '\t':
		return cell{r, tabWidth - w%tabWidth}
	case safetext.IsUnsafe(r):
		if r < 0x100 {
			return cell{r, len(`\x00`)}
		}
		return cell{r, len(`\u0000`)}
	case r == utf8.RuneError:
		return cell{r, 1}
	}
	return cell{r, widthCond.RuneWidth(r)}
}

// indexStride is how many runes apart lineIndex marks are: a snippet
// measures at most this many runes before its window.
const indexStride = 256

// lineIndex lets a snippet start measuring near its window instead of at
// the start of the line: the rune count and, every indexStride runes, the
// byte offset and the cells so far (tabs are expanded from the start of the
// line, so a window's layout depends on what precedes it). One pass builds
// it; it holds a 16-byte mark per indexStride runes.
type lineIndex struct {
	runes int
	marks []lineMark // marks[k] is rune k·indexStride
}

type lineMark struct{ off, cells int }

func indexLine(line string) *lineIndex {
	ix := &lineIndex{}
	w := 0
	for off, r := range line {
		if ix.runes%indexStride == 0 {
			ix.marks = append(ix.marks, lineMark{off, w})
		}
		w += cellOf(r, w).width
		ix.runes++
	}
	return ix
}

// layout returns the cells of runes [lo, hi) of line, measured from the
// mark of ix at or before lo. Earlier runes are not kept: a megabyte-long
// minified line costs no more memory than a short one.
func layout(line string, ix *lineIndex, lo, hi int) []cell {
	cs := make([]cell, 0, min(hi-lo, len(line)))
	w, i := 0, 0
	if k := lo / indexStride; k < len(ix.marks) {
		m := ix.marks[k]
		line, w, i = line[m.off:], m.cells, k*indexStride
	}
	for _, r := range line {
		if i >= hi {
			break
		}
		c := cellOf(r, w)
		w += c.width
		if i >= lo {
			cs = append(cs, c)
		}
		i++
	}
	return cs
}

// snippetLine returns the line as displayed and the number of cells before
// the caret for the 1-based character column col (clamped to just past the
// end of the line). ix is indexLine(line), built once per line however
// many findings point into it; the work here is bounded by the snippet
// width and indexStride, not by the line's length.
func snippetLine(line string, ix *lineIndex, col int) (string, int) {
	n := ix.runes
	k := min(max(col-1, 0), n) // caret before rune k
	// Only runes within one snippet width of the caret can be shown.
	lo, hi := max(k-maxSnippet, 0), min(k+maxSnippet+1, n)
	cs := layout(line, ix, lo, hi)
	kk := k - lo // caret before cs[kk]
	start, end := 0, len(cs)
	total := 0
	for _, c := range cs {
		total += c.width
	}
	if lo > 0 || hi < n || total > maxSnippet {
		// Keep up to half the budget left of the caret, then fill to the right.
		w := 0
		start = kk
		for start > 0 && w+cs[start-1].width <= maxSnippet/2 {
			start--
			w += cs[start].width
		}
		w, end = 0, start
		for end < len(cs) && w+cs[end].width <= maxSnippet {
			w += cs[end].width
			end++
		}
	}
	var b strings.Builder
	pad := 0
	if lo+start > 0 {
		b.WriteString("...")
		pad += 3
	}
	for i := start; i < end; i++ {
		b.WriteString(cs[i].text())
		if i < kk {
			pad += cs[i].width
		}
	}
	if lo+end < n {
		b.WriteString("...")
	}
	return b.String(), pad
}

func writeSnippet(buf *bytes.Buffer, st textStyle, lineNo, col int, line string, ix *lineIndex) {
	num := strconv.Itoa(lineNo)
	shown, pad := snippetLine(line, ix, col)
	buf.WriteString(st.gutter.Sprint("  " + num + " |"))
	if shown != "" {
		buf.WriteString(" " + shown)
	}
	buf.WriteByte('\n')
	if col > 0 {
		buf.WriteString(st.gutter.Sprint("  " + strings.Repeat(" ", len(num)) + " |"))
		buf.WriteString(" " + strings.Repeat(" ", pad) + st.caret.Sprint("^") + "\n")
	}
}
