package testregistry

import (
	"fmt"
	"io/fs"
	"path"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/rhysd/actionlint"

	"github.com/cicheck/cicheck/finding"
	"github.com/cicheck/cicheck/workflowgraph"
)

// WorkflowFile is a workflow as the registry checks read it: its path,
// source and parsed tree (nil when it does not parse).
type WorkflowFile struct {
	Path   string
	Source []byte
	AST    *actionlint.Workflow
}

// LoadWorkflows reads and parses the workflow files directly in dir
// (.yml and .yaml, in name order), the input of the registry's workflow
// checks. A file that cannot be read is left out.
func LoadWorkflows(fsys fs.FS, dir string) []WorkflowFile {
	if dir == "" {
		return nil
	}
	entries, err := fs.ReadDir(fsys, dir)
	if err != nil {
		return nil
	}
	var out []WorkflowFile
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || !strings.HasSuffix(name, ".yml") && !strings.HasSuffix(name, ".yaml") {
			continue
		}
		file := path.Join(dir, name)
		// Read with the registry's checks (no FIFO, nothing outside the
		// repository), then lint's checks of a workflow's bytes.
		src, err := readBounded(fsys, file, kindWorkflow, typeUnknown, nil)
		if err != nil || workflowgraph.CheckSource(file, src) != nil {
			continue
		}
		ast, _ := actionlint.Parse(src)
		out = append(out, WorkflowFile{Path: file, Source: src, AST: ast})
	}
	return out
}

// checkWorkflows reads the workflows' string values from their parsed
// trees (spec §13): a configured suite that no workflow passes as
// --suite is never run (reg-suite-no-consumer, external suites
// allow-listed), and a quoted run-ci-<x> whose <x> is not a known label
// selects nothing (policy-unknown-request). A file that does not parse
// is no evidence: GitHub runs nothing from it.
func (r *Registry) checkWorkflows(wfs []WorkflowFile, spos suitePos) []finding.Finding {
	cfg := r.cfg
	if cfg.Workflows == "" {
		return nil
	}
	consumed := map[string]bool{}
	read := 0
	var out []finding.Finding
	prefix := cfg.Policy.LabelPrefix
	for _, wf := range wfs {
		if wf.AST == nil {
			continue
		}
		read++
		lines := lineStarts(wf.Source)
		for _, s := range workflowgraph.Strings(wf.AST) {
			for _, name := range suiteArgs(s.Value) {
				consumed[name] = true
			}
			if !r.KnownOK || prefix == "" {
				continue
			}
			for _, q := range quotedNames(wf.Source, lines, s) {
				x, ok := strings.CutPrefix(q.name, prefix)
				if !ok || x == "all" || x == "image" || slices.Contains(r.Known, x) ||
					strings.HasSuffix(x, ".yml") || strings.HasSuffix(x, ".yaml") {
					continue
				}
				out = append(out, newFinding(RuleUnknownRequest, wf.Path, q.line, q.col,
					fmt.Sprintf("%s is not %s<label> for a known label, so it selects nothing (known: %s, plus %sall and %simage)",
						pyRepr(q.name), prefix, strings.Join(r.Known, ", "), prefix, prefix)))
			}
		}
	}
	if r.Suites == nil || read == 0 {
		return out // no workflow read: no evidence either way
	}
	if r.Tables != nil {
		return out // the sglang layout's suites: runSuiteWorkflowChecks
	}
	for _, backend := range sortedKeys(r.Suites) {
		for _, s := range r.Suites[backend] {
			if consumed[s] || matchesAny(cfg.ExternalSuites, s) {
				continue
			}
			line, col := 1, 1
			if p, ok := spos[s]; ok {
				line, col = p[0], p[1]
			}
			out = append(out, newFinding(RuleSuiteNoConsumer, cfg.Suites.File, line, col,
				fmt.Sprintf("suite %s (%s) is passed as --suite by no workflow in %s, so its tests never run; add it to registry.external-suites if it runs elsewhere",
					pyRepr(s), strings.ToUpper(backend), cfg.Workflows)))
		}
	}
	return out
}

// isSuiteNameByte is a byte of a suite or label name: [A-Za-z0-9_.-].
func isSuiteNameByte(b byte) bool {
	return b == '_' || b == '.' || b == '-' || b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z'
}

// nameEnd is the end of the name starting at i (i when there is none).
func nameEnd(s string, i int) int {
	for i < len(s) && isSuiteNameByte(s[i]) {
		i++
	}
	return i
}

// suiteArgs returns the names passed as `--suite NAME`, `--suite=NAME`
// or with the name quoted, in a command line such as a run: script or a
// with: value.
func suiteArgs(s string) []string {
	var out []string
	for i := 0; ; {
		j := strings.Index(s[i:], "--suite")
		if j < 0 {
			return out
		}
		k := i + j + len("--suite")
		i = k
		switch {
		case k < len(s) && s[k] == '=':
			k++
		case k < len(s) && (s[k] == ' ' || s[k] == '\t'):
			for k < len(s) && (s[k] == ' ' || s[k] == '\t') {
				k++
			}
		default:
			continue
		}
		if k < len(s) && (s[k] == '\'' || s[k] == '"') {
			k++
		}
		if e := nameEnd(s, k); e > k {
			out = append(out, s[k:e])
			i = e
		}
	}
}

// quoted is a quoted name found in a workflow and where its first
// character is (1-based line, byte column).
type quoted struct {
	name      string
	line, col int
}

// quotedNames finds the names written between quotes in s: inside its
// value ('run-ci-x' in an if: expression or a script), or as the whole
// value of a quoted YAML scalar. Each is placed in the source by
// searching from where s starts, so block and folded scalars, whose
// lines the value no longer shows as written, place correctly.
func quotedNames(src []byte, lines []int, s *actionlint.String) []quoted {
	start := offsetOf(src, lines, s.Pos)
	if start < 0 {
		return nil
	}
	// A quoted scalar whose whole value is a name.
	if start < len(src) && (src[start] == '\'' || src[start] == '"') && s.Value != "" && nameEnd(s.Value, 0) == len(s.Value) {
		if off := start + 1; strings.HasPrefix(string(src[off:min(len(src), off+len(s.Value))]), s.Value) {
			line, col := posOf(lines, off)
			return []quoted{{s.Value, line, col}}
		}
	}
	var out []quoted
	cursor := start
	v := s.Value
	for i := 0; i < len(v); i++ {
		if v[i] != '\'' && v[i] != '"' {
			continue
		}
		e := nameEnd(v, i+1)
		if e == i+1 || e >= len(v) || v[e] != '\'' && v[e] != '"' {
			continue
		}
		name := v[i+1 : e]
		off := findQuotedName(src, cursor, name)
		if off < 0 {
			off = start // written with escapes: the value's start
		} else {
			cursor = off + len(name)
		}
		line, col := posOf(lines, off)
		out = append(out, quoted{name, line, col})
		i = e
	}
	return out
}

// findQuotedName finds, from offset from, name preceded by a quote and
// not followed by another name character; it returns the name's offset.
func findQuotedName(src []byte, from int, name string) int {
	for from < len(src) {
		j := strings.Index(string(src[from:]), name)
		if j < 0 {
			return -1
		}
		at := from + j
		end := at + len(name)
		if at > 0 && (src[at-1] == '\'' || src[at-1] == '"') && (end == len(src) || !isSuiteNameByte(src[end])) {
			return at
		}
		from = at + 1
	}
	return -1
}

// lineStarts is the offset of each line of src (line 1 at index 0).
func lineStarts(src []byte) []int {
	starts := []int{0}
	for i, b := range src {
		if b == '\n' {
			starts = append(starts, i+1)
		}
	}
	return starts
}

// posOf is the 1-based line and byte column of offset off.
func posOf(lines []int, off int) (int, int) {
	i := sort.Search(len(lines), func(i int) bool { return lines[i] > off })
	return i, off - lines[i-1] + 1
}

// offsetOf converts actionlint's position (1-based line, column counted
// in characters) to a byte offset in src; -1 when it is not in src.
func offsetOf(src []byte, lines []int, p *actionlint.Pos) int {
	if p == nil || p.Line < 1 || p.Line > len(lines) {
		return -1
	}
	off := lines[p.Line-1]
	for c := 1; c < p.Col && off < len(src) && src[off] != '\n'; c++ {
		_, n := utf8.DecodeRune(src[off:])
		off += n
	}
	return off
}

func matchesAny(globs []string, s string) bool {
	for _, g := range globs {
		if ok, _ := path.Match(g, s); ok {
			return true
		}
	}
	return false
}
