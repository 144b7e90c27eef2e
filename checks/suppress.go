package checks

import (
	"bytes"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/cicheck/cicheck/finding"
	"github.com/cicheck/cicheck/workflowgraph"
)

// MetaRules are the findings about suppressions themselves.
func MetaRules() []*Rule {
	return []*Rule{
		{ID: "unused-suppression", Severity: finding.Notice,
			Doc:  "an inline `# cicheck: ignore[rule]` comment matches no finding",
			Help: "A suppression that matches nothing hides nothing today and may hide a real problem tomorrow. Remove it."},
		{ID: "bad-suppression", Severity: finding.Warning,
			Doc: "an inline suppression is malformed or has no reason",
			Help: "Write `# cicheck: ignore[rule-id] reason` on the finding's line, on the line above it, or on a job's key line " +
				"for the whole job. The reason is required and the comment is not applied without one."},
	}
}

var (
	suppressRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`#\s*cicheck:\s*ignore\[([^\]]*)\](.*)$`) })
	looseRE    = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`#\s*cicheck:\s*ignore\b`) })
	ruleIDRE   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-z0-9][a-z0-9_-]*$`) })
)

type suppression struct {
	line, col int
	rules     []string
	lines     []int  // lines the comment covers
	job       string // whole job when the comment sits on (or just above) its key line
	used      map[string]bool
}

// jobRange returns the lines a job spans: from its key line down to the
// last line indented deeper than the key, blank and comment lines aside.
// That is YAML's own rule for where a block mapping's value ends;
// actionlint's AST records where nodes start, not where they end. lines
// are split from the source as strings or as sub-slices of it (a trailing
// \r is blank to the test, so \r\n needs no rewriting).
func jobRange[L ~string | ~[]byte](lines []L, j *workflowgraph.Job) (int, int) {
	if j.Line < 1 || j.Line > len(lines) {
		return j.Line, j.Line
	}
	indent := j.Column - 1
	end := j.Line
	for i := j.Line; i < len(lines); i++ { // lines[i] is line i+1
		ln := lines[i]
		k := 0
		for k < len(ln) && (ln[k] == ' ' || ln[k] == '\t') {
			k++
		}
		if blankFrom(ln, k) || ln[k] == '#' {
			continue
		}
		if k <= indent {
			break
		}
		end = i + 1
	}
	return j.Line, end
}

// blankFrom reports whether ln holds only whitespace from byte k on.
func blankFrom[L ~string | ~[]byte](ln L, k int) bool {
	for ; k < len(ln); k++ {
		switch ln[k] {
		case ' ', '\t', '\r', '\v', '\f':
		default:
			return false
		}
	}
	return true
}

func leading(s string) int { return len(s) - len(strings.TrimLeft(s, " \t")) }

func splitLines(src []byte) []string {
	return strings.Split(strings.ReplaceAll(string(src), "\r\n", "\n"), "\n")
}

// AssignJobs fills the Job of findings (from actionlint) that lie inside a
// job's lines.
func AssignJobs(src []byte, w *workflowgraph.Workflow, fs []finding.Finding) []finding.Finding {
	if w == nil || len(w.Jobs) == 0 {
		return fs
	}
	missing := false
	for _, f := range fs {
		if f.Job == "" && f.Line > 0 {
			missing = true
			break
		}
	}
	if !missing {
		return fs
	}
	// Lines as sub-slices of src: splitLines would copy the whole source
	// for every file with an actionlint finding.
	lines := bytes.Split(src, []byte("\n"))
	// A finding goes to the first job (in w.Jobs' order, by start line)
	// whose lines hold it. reach[k] is the furthest end of spans 0..k, so
	// the first span ending at or after a line is found by binary search
	// rather than a scan per finding (n² with a finding per job).
	type span struct {
		id         string
		start, end int
	}
	spans := make([]span, 0, len(w.Jobs))
	reach := make([]int, 0, len(w.Jobs))
	for _, j := range w.Jobs {
		s, e := jobRange(lines, j)
		spans = append(spans, span{j.ID, s, e})
		if k := len(reach); k > 0 {
			e = max(e, reach[k-1])
		}
		reach = append(reach, e)
	}
	for i := range fs {
		if fs[i].Job != "" || fs[i].Line == 0 {
			continue
		}
		line := fs[i].Line
		k := sort.SearchInts(reach, line) // first span with end >= line
		if k < len(spans) && spans[k].start <= line {
			fs[i].Job = spans[k].id
		}
	}
	return fs
}

// MarkIDs gives the findings in file (a workflow's own findings, not those
// in the local actions it uses, which two workflows share) the workflow's
// job ids that are not lower-case, for report.Fingerprint to fold.
func MarkIDs(file string, w *workflowgraph.Workflow, fs []finding.Finding) []finding.Finding {
	if w == nil {
		return fs
	}
	var ids []string
	for _, j := range w.Jobs {
		if j.ID != strings.ToLower(j.ID) {
			ids = append(ids, j.ID)
		}
	}
	if len(ids) == 0 {
		return fs
	}
	joined := strings.Join(ids, "\n")
	for i := range fs {
		if fs[i].File == file {
			fs[i].IDs = joined
		}
	}
	return fs
}

// ApplySuppressions removes the findings matched by inline
// `# cicheck: ignore[rule-id] reason` comments and adds a notice for each
// suppression that matched nothing and a warning for each malformed one.
func ApplySuppressions(file string, src []byte, w *workflowgraph.Workflow, fs []finding.Finding) []finding.Finding {
	if !bytes.Contains(src, []byte("cicheck:")) { // no copy of the source: most files have no suppression
		return fs
	}
	lines := splitLines(src)
	jobAt := map[int]*workflowgraph.Job{}
	if w != nil {
		for _, j := range w.Jobs {
			jobAt[j.Line] = j
		}
	}
	var sups []*suppression
	var meta []finding.Finding
	for i, ln := range lines {
		if !strings.Contains(ln, "cicheck:") {
			continue
		}
		n := i + 1
		m := suppressRE().FindStringSubmatchIndex(ln)
		if m == nil {
			if loc := looseRE().FindStringIndex(ln); loc != nil {
				meta = append(meta, finding.Finding{Rule: "bad-suppression", Severity: finding.Warning, File: file, Line: n, Column: loc[0] + 1,
					Message: "malformed suppression: write # cicheck: ignore[rule-id] reason"})
			}
			continue
		}
		col := m[0] + 1
		ids := strings.Split(ln[m[2]:m[3]], ",")
		reason := strings.TrimSpace(ln[m[4]:m[5]])
		var rules []string
		bad := ""
		for _, id := range ids {
			id = strings.TrimSpace(id)
			if !ruleIDRE().MatchString(id) {
				bad = fmt.Sprintf("malformed suppression: %q is not a rule id", id)
				break
			}
			rules = append(rules, id)
		}
		if bad == "" && reason == "" {
			bad = fmt.Sprintf("suppression of [%s] has no reason: write # cicheck: ignore[%s] <why this is fine>", strings.Join(rules, ","), strings.Join(rules, ","))
		}
		if bad != "" {
			meta = append(meta, finding.Finding{Rule: "bad-suppression", Severity: finding.Warning, File: file, Line: n, Column: col, Message: bad})
			continue
		}
		s := &suppression{line: n, col: col, rules: rules, used: map[string]bool{}, lines: []int{n}}
		// The next code line below the comment is covered too.
		for k := n; k < len(lines); k++ {
			t := strings.TrimSpace(lines[k])
			if t == "" || strings.HasPrefix(t, "#") {
				continue
			}
			s.lines = append(s.lines, k+1)
			break
		}
		for _, l := range s.lines {
			if j := jobAt[l]; j != nil {
				s.job = j.ID
				start, end := jobRange(lines, j)
				for x := start; x <= end; x++ {
					if !slices.Contains(s.lines, x) {
						s.lines = append(s.lines, x)
					}
				}
				break
			}
		}
		sups = append(sups, s)
	}
	out := fs[:0:0]
	for _, f := range fs {
		hidden := false
		for _, s := range sups {
			if !slices.Contains(s.rules, f.Rule) {
				continue
			}
			if slices.Contains(s.lines, f.Line) || (s.job != "" && strings.EqualFold(f.Job, s.job)) {
				s.used[f.Rule] = true
				hidden = true
			}
		}
		if !hidden {
			out = append(out, f)
		}
	}
	for _, s := range sups {
		for _, r := range s.rules {
			if !s.used[r] {
				what := "this line or the next"
				if s.job != "" {
					what = fmt.Sprintf("job %q", s.job)
				}
				msg := fmt.Sprintf("suppression of [%s] matches no finding on %s; remove it", r, what)
				if !knownRule(r) {
					// A typo, not a fixed problem: "remove it" would mislead.
					msg = fmt.Sprintf("suppression of [%s] names no rule ('cicheck rules' lists them); fix the id or remove it", r)
				}
				out = append(out, finding.Finding{Rule: "unused-suppression", Severity: finding.Notice, File: file, Line: s.line, Column: s.col, Job: s.job,
					Message: msg})
			}
		}
	}
	return append(out, meta...)
}

// knownRule reports whether id names a rule a workflow finding can carry:
// cicheck's workflow rules, the suppression meta-rules, or actionlint's.
func knownRule(id string) bool {
	if _, ok := ActionlintKinds()[id]; ok {
		return true
	}
	for _, rs := range [][]*Rule{All(), MetaRules(), FileRules()} {
		for _, r := range rs {
			if r.ID == id {
				return true
			}
		}
	}
	return false
}
