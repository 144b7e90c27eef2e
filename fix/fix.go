// Package fix applies the fixes cicheck's gate rules compute to a
// workflow's text: each fixable finding names a job and the whole `if:` it
// should have, and the fix rewrites that one value (or adds the line)
// without touching comments, quoting, key order or indentation anywhere
// else. A fix that cannot be applied with certainty (a block scalar, a
// flow-style job, two rules wanting different conditions) is skipped with
// the reason, never guessed.
package fix

import (
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/cicheck/cicheck/finding"
	"github.com/cicheck/cicheck/workflowgraph"
)

// Rules are the rules whose fix is a whole `if:` and certain: applying it
// makes the finding go away.
var rules = map[string]bool{"gpu-gate": true, "closure-bridge": true, "always-without-cancelled": true}

// Fixable reports whether --fix applies f.
func Fixable(f finding.Finding) bool {
	return rules[f.Rule] && f.Job != "" && strings.HasPrefix(f.Fix, "if: ")
}

// Skip is a fixable finding left as it is, and why.
type Skip struct {
	Finding finding.Finding
	Reason  string
}

// Result is a file's text after its fixes.
type Result struct {
	Source  []byte
	Applied []finding.Finding
	Skipped []Skip

	old   []string // the original lines
	edits []edit   // in file order
}

// edit replaces lines [from, to) (0-based) of the file with text.
type edit struct {
	from, to int
	text     []string
}

// Apply fixes src, whose parsed workflow is w, for every fixable finding
// in fs.
func Apply(src []byte, w *workflowgraph.Workflow, fs []finding.Finding) Result {
	res := Result{Source: src}
	byJob := map[string][]finding.Finding{}
	var jobs []string
	for _, f := range fs {
		if !Fixable(f) {
			continue
		}
		if _, seen := byJob[f.Job]; !seen {
			jobs = append(jobs, f.Job)
		}
		byJob[f.Job] = append(byJob[f.Job], f)
	}
	if len(jobs) == 0 || w == nil {
		return res
	}
	lines := strings.SplitAfter(string(src), "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1] // the text after the last newline
	}
	var edits []edit
	for _, id := range jobs {
		found := byJob[id]
		skip := func(reason string) {
			for _, f := range found {
				res.Skipped = append(res.Skipped, Skip{f, reason})
			}
		}
		cond := strings.TrimPrefix(found[0].Fix, "if: ")
		for _, f := range found[1:] {
			if strings.TrimPrefix(f.Fix, "if: ") != cond {
				skip("rules want different conditions for this job; fix it by hand")
				cond = ""
				break
			}
		}
		j := w.Job(id)
		if cond == "" {
			continue
		}
		if j == nil {
			skip("the job is not in the file")
			continue
		}
		if j.If != nil && j.If.ParseError != "" {
			// The fix is built from the parsed condition: it would drop it.
			skip("the if: does not parse; fix the expression first")
			continue
		}
		e, why := jobEdit(lines, j, yamlValue(cond))
		if why != "" {
			skip(why)
			continue
		}
		edits = append(edits, e)
		res.Applied = append(res.Applied, found...)
	}
	sort.Slice(edits, func(a, b int) bool { return edits[a].from < edits[b].from })
	res.old, res.edits = slices.Clone(lines), edits
	for i := len(edits) - 1; i >= 0; i-- {
		e := edits[i]
		lines = append(lines[:e.from], append(e.text, lines[e.to:]...)...)
	}
	res.Source = []byte(strings.Join(lines, ""))
	return res
}

// yamlValue writes cond as a YAML scalar: plain when YAML reads it back
// unchanged, else double-quoted.
func yamlValue(cond string) string {
	if !strings.Contains(cond, ": ") && !strings.Contains(cond, " #") && !strings.HasSuffix(cond, ":") {
		return cond
	}
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(cond) + `"`
}

// keyLineRE matches a block-mapping key line: a plain key that starts with
// no YAML indicator (tag, anchor, alias, complex key, flow or block
// scalar), or a simply quoted one, then `:` and a space or the end of the
// line.
var keyLineRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^ *([^ \t#\-\[\]{}'"!&*?|>%@,` + "`" + `][^:#]*|"[^"\\]*"|'[^']*'):( |\r?\n?$)`)
})

// indentOf is the number of leading spaces of a line.
func indentOf(s string) int { return len(s) - len(strings.TrimLeft(s, " ")) }

// blank reports a line holding nothing but spaces and maybe a comment.
func blank(s string) bool {
	t := strings.TrimSpace(s)
	return t == "" || strings.HasPrefix(t, "#")
}

// eol is the line's own line ending.
func eol(s string) string {
	switch {
	case strings.HasSuffix(s, "\r\n"):
		return "\r\n"
	case strings.HasSuffix(s, "\n"):
		return "\n"
	}
	return "\n"
}

// jobEdit replaces the value of j's `if:` with value, or adds an `if:`
// line as the job's first key. why is set when that is not certain.
func jobEdit(lines []string, j *workflowgraph.Job, value string) (edit, string) {
	if j.If != nil && j.If.Line > 0 {
		return ifEdit(lines, j, value)
	}
	k := j.Line - 1
	if k < 0 || k >= len(lines) {
		return edit{}, "the job's position is unknown"
	}
	key := lines[k]
	rest := strings.TrimRight(key[min(len(key), j.Column-1):], "\r\n")
	if i := strings.Index(rest, ":"); i < 0 || !blank(rest[i+1:]) {
		return edit{}, "the job is written in flow style on one line; add the if: by hand"
	}
	for n := k + 1; n < len(lines); n++ {
		if blank(lines[n]) {
			continue
		}
		ind := indentOf(lines[n])
		if ind <= j.Column-1 || strings.HasPrefix(strings.TrimSpace(lines[n]), "- ") {
			return edit{}, "the job has no block mapping to add the if: to"
		}
		if strings.ContainsRune(lines[n][:ind], '\t') {
			return edit{}, "the job is indented with tabs"
		}
		if !keyLineRE().MatchString(lines[n]) {
			return edit{}, "the job has no block mapping to add the if: to"
		}
		return edit{from: k + 1, to: k + 1, text: []string{strings.Repeat(" ", ind) + "if: " + value + eol(key)}}, ""
	}
	return edit{}, "the job has no body"
}

// ifEdit rewrites the scalar value of j's `if:`: a one-line value keeps
// its trailing comment; a value over several lines (a block scalar, a
// folded plain or quoted scalar) becomes the one-line value.
func ifEdit(lines []string, j *workflowgraph.Job, value string) (edit, string) {
	k := j.If.Line - 1
	if k < 0 || k >= len(lines) || j.If.Column < 1 || j.If.Column > len(strings.TrimRight(lines[k], "\r\n")) {
		return edit{}, "the if:'s position is unknown"
	}
	line := strings.TrimRight(lines[k], "\r\n")
	start := j.If.Column - 1
	before, v := line[:start], line[start:]
	if !strings.HasSuffix(strings.TrimRight(before, " "), ":") {
		return edit{}, "the if: is not a `key: value` line"
	}
	// The lines after the key's that are blank or indented deeper belong
	// to the value (trailing blank lines do not).
	keyIndent := indentOf(before)
	cont := 0
	for n := k + 1; n < len(lines); n++ {
		if strings.TrimSpace(lines[n]) != "" && indentOf(lines[n]) <= keyIndent {
			break
		}
		if strings.TrimSpace(lines[n]) != "" {
			cont = n - k
		}
	}
	whole := edit{from: k, to: k + 1 + cont, text: []string{before + value + eol(lines[k])}}
	end := -1
	switch v[0] {
	case '|', '>':
		header := strings.TrimLeft(v[1:], "0123456789+-")
		if !blank(header) {
			return edit{}, "the if:'s block scalar header is unusual; edit it by hand"
		}
		if c := strings.TrimSpace(header); c != "" {
			whole.text[0] = before + value + " " + c + eol(lines[k]) // the header's comment
		}
		return whole, ""
	case '"':
		for i := 1; i < len(v); i++ {
			if v[i] == '\\' {
				i++
			} else if v[i] == '"' {
				end = i + 1
				break
			}
		}
	case '\'':
		for i := 1; i < len(v); i++ {
			if v[i] == '\'' {
				if i+1 < len(v) && v[i+1] == '\'' {
					i++
					continue
				}
				end = i + 1
				break
			}
		}
	default:
		end = len(v)
		if i := strings.Index(v, " #"); i >= 0 {
			end = i
		}
		end = len(strings.TrimRight(v[:end], " "))
	}
	if cont > 0 || end < 0 {
		// A scalar folded over several lines (YAML allows no comment
		// among them).
		if end >= 0 && cont > 0 && !blank(v[end:]) {
			return edit{}, "the if: is followed by more text on its line"
		}
		return whole, ""
	}
	tail := v[end:]
	if !blank(tail) {
		return edit{}, "the if: is followed by more text on its line"
	}
	if c := strings.TrimSpace(tail); c != "" {
		tail = " " + c // a comment must stay apart from a plain value
	}
	return edit{from: k, to: k + 1, text: []string{before + value + tail + eol(lines[k])}}, ""
}

// Unified is the fix as a unified diff of path (a/ and b/ prefixed, three
// lines of context), "" when nothing changed.
func (r Result) Unified(path string) string {
	if len(r.edits) == 0 {
		return ""
	}
	const context = 3
	var b strings.Builder
	fmt.Fprintf(&b, "--- a/%s\n+++ b/%s\n", path, path)
	shift := 0 // new line number minus old, before the current hunk
	for i := 0; i < len(r.edits); {
		// A hunk holds every edit whose context touches the previous one's.
		j := i + 1
		for j < len(r.edits) && r.edits[j].from-r.edits[j-1].to <= 2*context {
			j++
		}
		start := max(0, r.edits[i].from-context)
		end := min(len(r.old), r.edits[j-1].to+context)
		var body strings.Builder
		oldN, newN, pos := 0, 0, start
		for _, e := range r.edits[i:j] {
			for ; pos < e.from; pos++ {
				body.WriteString(" " + line(r.old[pos]))
				oldN++
				newN++
			}
			for ; pos < e.to; pos++ {
				body.WriteString("-" + line(r.old[pos]))
				oldN++
			}
			for _, t := range e.text {
				body.WriteString("+" + line(t))
				newN++
			}
		}
		for ; pos < end; pos++ {
			body.WriteString(" " + line(r.old[pos]))
			oldN++
			newN++
		}
		fmt.Fprintf(&b, "@@ -%d,%d +%d,%d @@\n", start+1, oldN, start+1+shift, newN)
		b.WriteString(body.String())
		shift += newN - oldN
		i = j
	}
	return b.String()
}

// line ends a diff line with exactly one newline.
func line(s string) string { return strings.TrimRight(s, "\r\n") + "\n" }

// Describe is a one-line summary of a skip, for the user.
func (s Skip) Describe() string {
	return fmt.Sprintf("%s:%d:%d: not fixed [%s]: %s", s.Finding.File, s.Finding.Line, s.Finding.Column, s.Finding.Rule, s.Reason)
}
