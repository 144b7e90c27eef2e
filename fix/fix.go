// Package fix applies the fixes cicheck's gate rules compute to a
// workflow's text. A fix extends a job's `if:` and keeps the author's
// condition character for character: new terms go before it (on a line of
// their own in a block scalar), `always()` calls become `!cancelled()`,
// and nothing else in the file changes, not even a comment.
//
// It is data-safe by construction and by check: only a block-style job
// whose `if:` it can locate exactly is edited (a flow mapping, an anchor,
// an alias, a tag or a merge key is skipped with the reason), and before
// it answers, the fixed text is parsed again and every node of the YAML
// tree, comments included, must be what it was, except the edited `if:`
// values, which must read as the intended condition. Otherwise the file
// is left as it is.
package fix

import (
	"bytes"
	"fmt"
	"slices"
	"sort"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/cicheck/cicheck/finding"
	"github.com/cicheck/cicheck/workflowgraph"
)

// Rules are the rules whose fix is a certain edit of a job's `if:`:
// applying it makes the finding go away.
var rules = map[string]bool{"gpu-gate": true, "closure-bridge": true, "always-without-cancelled": true, "dead-needs-result": true}

// Fixable reports whether --fix can apply f.
func Fixable(f finding.Finding) bool {
	return rules[f.Rule] && f.Job != "" && !f.Edit.IsZero()
}

// Skip is a fixable finding left as it is, and why.
type Skip struct {
	Finding finding.Finding
	Reason  string
}

// Result is a file's text after its fixes.
type Result struct {
	Source []byte // the fixed text
	// Original is the text the fixes were computed from: a writer checks
	// that the file still holds it.
	Original []byte
	Applied  []finding.Finding
	Skipped  []Skip

	old   []string // the original lines
	edits []edit   // in file order
}

// edit replaces lines [from, to) (0-based) of the file with text.
type edit struct {
	from, to int
	text     []string
}

// srcEdit replaces del bytes at offset at of the source with text.
type srcEdit struct {
	at, del int
	text    string
}

// jobFix is one job's edits and what the check after them expects.
type jobFix struct {
	id    string
	found []finding.Finding
	edits []srcEdit
	node  jobNode
	plan  plan
}

// Apply fixes src, whose parsed workflow is w, for every fixable finding
// in fs.
func Apply(src []byte, w *workflowgraph.Workflow, fs []finding.Finding) Result {
	res := Result{Source: src, Original: src}
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
	skip := func(found []finding.Finding, reason string) {
		for _, f := range found {
			res.Skipped = append(res.Skipped, Skip{f, reason})
		}
	}
	d, why := parseDoc(src)
	if why != "" {
		for _, id := range jobs {
			skip(byJob[id], why)
		}
		return res
	}
	var todo []jobFix
	for _, id := range jobs {
		found := byJob[id]
		e := found[0].Edit
		if slices.ContainsFunc(found[1:], func(f finding.Finding) bool { return f.Edit != e }) {
			skip(found, "rules want different conditions for this job; fix it by hand")
			continue
		}
		j := w.Job(id)
		if j == nil {
			skip(found, "the job is not in the file")
			continue
		}
		p, why := planFor(j.If, e)
		if why != "" {
			skip(found, why)
			continue
		}
		jn, why := d.findJob(id)
		if why != "" {
			skip(found, why)
			continue
		}
		es, why := d.sourceEdits(jn, j, p)
		if why != "" {
			skip(found, why)
			continue
		}
		todo = append(todo, jobFix{id: id, found: found, edits: es, node: jn, plan: p})
	}
	out, ok := d.applyChecked(todo)
	if !ok {
		// Find the jobs whose edit alone breaks the check; the others are
		// applied together.
		var good []jobFix
		for _, jf := range todo {
			if _, ok := d.applyChecked([]jobFix{jf}); ok {
				good = append(good, jf)
			} else {
				skip(jf.found, "the fixed file would not keep the rest of the YAML tree as it was; fix it by hand")
			}
		}
		if out, ok = d.applyChecked(good); !ok {
			for _, jf := range good {
				skip(jf.found, "the fixes together would not keep the rest of the YAML tree as it was; fix them by hand")
			}
			good = nil
			out = src
		}
		todo = good
	}
	var all []srcEdit
	for _, jf := range todo {
		res.Applied = append(res.Applied, jf.found...)
		all = append(all, jf.edits...)
	}
	sort.SliceStable(all, func(a, b int) bool { return all[a].at < all[b].at })
	res.Source = out
	res.old = splitLines(string(src))
	res.edits = d.lineEdits(all)
	return res
}

func splitLines(s string) []string {
	lines := strings.SplitAfter(s, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1] // the text after the last newline
	}
	return lines
}

// applyChecked applies the jobs' edits and checks the result: the same
// YAML tree except the edited if: values, which read as planned.
func (d *doc) applyChecked(jobs []jobFix) ([]byte, bool) {
	var all []srcEdit
	for _, jf := range jobs {
		all = append(all, jf.edits...)
	}
	if len(all) == 0 {
		return d.src, true
	}
	sort.SliceStable(all, func(a, b int) bool { return all[a].at < all[b].at })
	out, ok := applyEdits(d.src, all)
	if !ok {
		return nil, false
	}
	return out, sameTree(d, out, jobs)
}

// applyEdits applies non-overlapping edits sorted by offset.
func applyEdits(src []byte, es []srcEdit) ([]byte, bool) {
	var b bytes.Buffer
	pos := 0
	for _, e := range es {
		if e.at < pos || e.at+e.del > len(src) {
			return nil, false
		}
		b.Write(src[pos:e.at])
		b.WriteString(e.text)
		pos = e.at + e.del
	}
	b.Write(src[pos:])
	return b.Bytes(), true
}

// spaces reports a run of nothing but spaces.
func spaces(b []byte) bool { return len(bytes.TrimLeft(b, " ")) == 0 }

// sourceEdits turns a job's plan into edits of the source.
func (d *doc) sourceEdits(jn jobNode, j *workflowgraph.Job, p plan) ([]srcEdit, string) {
	if jn.ifValue == nil {
		if j.If != nil {
			return nil, "the if: is not where the YAML tree has it"
		}
		if len(jn.value.Content) < 2 {
			return nil, "the job has no keys to add the if: to"
		}
		first := jn.value.Content[0]
		fo := d.offset(first.Line, first.Column)
		if fo < 0 || first.Line <= jn.key.Line || jn.key.Line >= len(d.lines) {
			return nil, "the job has no block mapping to add the if: to"
		}
		ls := d.lineStart(fo)
		if !spaces(d.src[ls:fo]) {
			return nil, "the job's first key is not at the start of its line (tabs or a list); add the if: by hand"
		}
		at := d.lines[jn.key.Line] // the line after the job's key
		text := strings.Repeat(" ", fo-ls) + "if: ${{ " + p.cond + " }}" + d.eol(ls)
		return []srcEdit{{at: at, text: text}}, ""
	}
	v := jn.ifValue
	if j.If == nil || v.Value != j.If.Raw {
		return nil, "the if: is not what the YAML tree holds"
	}
	off, ko := d.offset(v.Line, v.Column), d.offset(jn.ifKey.Line, jn.ifKey.Column)
	if off < 0 || ko < 0 || !spaces(d.src[d.lineStart(ko):ko]) {
		return nil, "the if:'s position is unknown"
	}
	style := v.Style &^ yaml.TaggedStyle
	s, why := readScalar(d.src, off, style, ko-d.lineStart(ko))
	if why != "" {
		return nil, why
	}
	if string(s.text) != v.Value {
		return nil, "the if: is written in a form the fix cannot follow exactly; edit it by hand"
	}
	block := style == yaml.LiteralStyle || style == yaml.FoldedStyle
	var es []srcEdit
	var ownIndent string
	for i, c := range p.changes {
		pos := s.at[c.at]
		if pos < 0 {
			return nil, "the if: cannot be edited at that place"
		}
		if c.del > 0 {
			for k := range c.del {
				if s.at[c.at+k] != pos+k {
					return nil, "the if:'s always() is written with escapes; edit it by hand"
				}
			}
		}
		if block && c.own && c.del == 0 {
			ls := d.lineStart(pos)
			if i == 0 && spaces(d.src[ls:pos]) {
				// The new terms on a line of their own, indented as the
				// author's first line.
				ownIndent = string(d.src[ls:pos])
				es = append(es, srcEdit{at: ls, text: ownIndent + strings.TrimRight(c.text, " ") + d.eol(ls)})
				continue
			}
			if le, next := lineEnd(d.src, pos); i > 0 && ownIndent != "" && spaces(d.src[pos:le]) {
				// The closing parenthesis on a line of its own after the
				// author's last line (a whole line, so the diff shows it so).
				if next > le {
					es = append(es, srcEdit{at: next, text: ownIndent + c.text + d.eol(ls)})
				} else {
					es = append(es, srcEdit{at: le, text: d.eol(ls) + ownIndent + c.text})
				}
				continue
			}
		}
		text, why := encode(style, c.text)
		if why != "" {
			return nil, why
		}
		es = append(es, srcEdit{at: pos, del: c.del, text: text})
	}
	if p.wrap && style == 0 {
		es = append([]srcEdit{{at: s.at[0], text: "${{ "}}, es...)
		es = append(es, srcEdit{at: s.at[len(s.text)], text: " }}"})
	}
	sort.SliceStable(es, func(a, b int) bool { return es[a].at < es[b].at })
	return es, ""
}

// encode writes decoded text t for a scalar of style.
func encode(style yaml.Style, t string) (string, string) {
	switch style {
	case yaml.SingleQuotedStyle:
		return strings.ReplaceAll(t, "'", "''"), ""
	case yaml.DoubleQuotedStyle:
		return strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(t), ""
	}
	if strings.ContainsAny(t, "\n\r") || strings.Contains(t, ": ") || strings.Contains(t, " #") {
		return "", "the fix cannot be written into this scalar"
	}
	return t, ""
}

// lineEdits groups byte edits (sorted) into line edits for the diff.
func (d *doc) lineEdits(es []srcEdit) []edit {
	lineOf := func(i int) int {
		n := sort.Search(len(d.lines), func(k int) bool { return d.lines[k] > i })
		return n - 1
	}
	lineAt := func(k int) int {
		if k >= len(d.lines) {
			return len(d.src)
		}
		return d.lines[k]
	}
	type group struct {
		from, to int
		es       []srcEdit
	}
	var gs []group
	for _, e := range es {
		from := lineOf(e.at)
		to := lineOf(max(e.at, e.at+e.del-1)) + 1
		if e.del == 0 && d.lines[from] == e.at && strings.HasSuffix(e.text, "\n") {
			to = from // whole lines inserted before line from
		}
		if n := len(gs); n > 0 && (from < gs[n-1].to || (from == gs[n-1].to && gs[n-1].from == gs[n-1].to)) {
			gs[n-1].to = max(gs[n-1].to, to)
			gs[n-1].es = append(gs[n-1].es, e)
			continue
		}
		gs = append(gs, group{from, to, []srcEdit{e}})
	}
	var out []edit
	for _, g := range gs {
		base := lineAt(g.from)
		local := make([]srcEdit, len(g.es))
		for i, e := range g.es {
			local[i] = srcEdit{at: e.at - base, del: e.del, text: e.text}
		}
		text, _ := applyEdits(d.src[base:lineAt(g.to)], local)
		var lines []string
		if len(text) > 0 {
			lines = splitLines(string(text))
		}
		out = append(out, edit{from: g.from, to: g.to, text: lines})
	}
	return out
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
