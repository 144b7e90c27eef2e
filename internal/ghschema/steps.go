package ghschema

import (
	"bytes"
	"strings"
	"sync"

	"gopkg.in/yaml.v3"
)

// ParallelKeys are the step keys GitHub added on 2026-06-25 for steps that
// run concurrently; actionlint 1.7.12's parser drops them (a step with one
// of the last four and no run: or uses: is "a step that runs nothing").
var ParallelKeys = []string{"background", "wait", "wait-all", "cancel", "parallel"}

// Step is a step as GitHub's schema reads it, for what actionlint's syntax
// tree lacks: the parallel-step keys.
type Step struct {
	// Line and Column locate the step's mapping (its first key, or its
	// opening brace), where actionlint reports errors about the step.
	Line, Column int
	ID           string
	// Keys are the step's keys as written.
	Keys []string
	// Background is the value of background: as written ("" when absent).
	Background string
	// Wait lists the ids a wait: names; Cancel the value of cancel: as
	// written, CancelList whether it is a list (GitHub takes one id).
	Wait       []string
	Cancel     string
	CancelList bool
	// KeyLine and KeyColumn locate the wait:, wait-all:, cancel: or
	// parallel: key, IfLine the if: (0 when absent).
	KeyLine, KeyColumn int
	IfLine, IfColumn   int
	// Parallel holds the steps of a parallel: group.
	Parallel []Step
}

// Has reports whether the step has key.
func (s Step) Has(key string) bool {
	for _, k := range s.Keys {
		if k == key {
			return true
		}
	}
	return false
}

// Control is the step's wait, wait-all, cancel or parallel key, "" for a
// step that runs something.
func (s Step) Control() string {
	for _, k := range []string{"wait", "wait-all", "cancel", "parallel"} {
		if s.Has(k) {
			return k
		}
	}
	return ""
}

// JobSteps is one job's steps, in order.
type JobSteps struct {
	// Job is the job's key as written.
	Job   string
	Steps []Step
}

// hasParallelKey: one of ParallelKeys is a mapping key somewhere in src:
// at the start of a line (after indentation and sequence dashes) or after
// { or , in flow style, quoted or not. Not a word ("wait" is common in
// scripts) nor the end of another key (strategy's max-parallel:), which
// would make every matrix workflow be read twice. A scan for "key:" with a
// look back, which costs what bytes.Index costs (a regular expression here
// cost a tenth of a lint).
func hasParallelKey(src []byte) bool {
	for _, k := range ParallelKeys {
		for _, q := range []string{"", "\"", "'"} {
			pat := []byte(k + q + ":")
			for off := 0; ; {
				i := bytes.Index(src[off:], pat)
				if i < 0 {
					break
				}
				at := off + i
				off = at + len(pat)
				j := at
				if q != "" {
					if j == 0 || src[j-1] != q[0] {
						continue
					}
					j--
				}
				for j > 0 && (src[j-1] == ' ' || src[j-1] == '\t' || src[j-1] == '-') {
					j--
				}
				if j == 0 || src[j-1] == '\n' || src[j-1] == '{' || src[j-1] == ',' || src[j-1] == '\r' {
					return true
				}
			}
		}
	}
	return false
}

// Source is a workflow's text, with its steps read on first use: only a
// file that has one of ParallelKeys as a key is read at all.
type Source struct {
	src  []byte
	once sync.Once
	jobs []JobSteps
}

// NewSource wraps a workflow's text.
func NewSource(src []byte) *Source { return &Source{src: src} }

// Jobs returns the jobs' steps when the workflow uses a parallel-step key
// anywhere, else nil.
func (s *Source) Jobs() []JobSteps {
	if s == nil {
		return nil
	}
	s.once.Do(func() {
		if hasParallelKey(s.src) {
			s.jobs = readSteps(s.src)
		}
	})
	return s.jobs
}

// stepAt is the step (at any depth) whose mapping is at line:col.
func (s *Source) stepAt(line, col int) (Step, bool) {
	var find func([]Step) (Step, bool)
	find = func(ss []Step) (Step, bool) {
		for _, st := range ss {
			if st.Line == line && st.Column == col {
				return st, true
			}
			if st, ok := find(st.Parallel); ok {
				return st, true
			}
		}
		return Step{}, false
	}
	for _, j := range s.Jobs() {
		if st, ok := find(j.Steps); ok {
			return st, true
		}
	}
	return Step{}, false
}

// parallelIDs are the ids of the steps inside parallel: groups.
func (s *Source) parallelIDs() []string {
	var out []string
	for _, j := range s.Jobs() {
		for _, st := range j.Steps {
			for _, p := range st.Parallel {
				if p.ID != "" {
					out = append(out, strings.ToLower(p.ID))
				}
			}
		}
	}
	return out
}

// line is line n (1-based) of the source.
func (s *Source) line(n int) string {
	rest := s.src
	for i := 1; i < n; i++ {
		k := bytes.IndexByte(rest, '\n')
		if k < 0 {
			return ""
		}
		rest = rest[k+1:]
	}
	if k := bytes.IndexByte(rest, '\n'); k >= 0 {
		rest = rest[:k]
	}
	return string(rest)
}

func readSteps(src []byte) []JobSteps {
	var doc yaml.Node
	if err := yaml.Unmarshal(src, &doc); err != nil || len(doc.Content) == 0 {
		return nil
	}
	jobs := value(doc.Content[0], "jobs")
	if jobs == nil || jobs.Kind != yaml.MappingNode {
		return nil
	}
	var out []JobSteps
	for i := 0; i+1 < len(jobs.Content); i += 2 {
		out = append(out, JobSteps{Job: jobs.Content[i].Value, Steps: readStepList(value(jobs.Content[i+1], "steps"))})
	}
	return out
}

func readStepList(seq *yaml.Node) []Step {
	seq = deref(seq)
	if seq == nil || seq.Kind != yaml.SequenceNode {
		return nil
	}
	var out []Step
	for _, n := range seq.Content {
		n = deref(n)
		if n == nil || n.Kind != yaml.MappingNode {
			continue
		}
		st := Step{Line: n.Line, Column: n.Column}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], deref(n.Content[i+1])
			st.Keys = append(st.Keys, k.Value)
			switch k.Value {
			case "id":
				st.ID = v.Value
			case "background":
				st.Background = v.Value
			case "if":
				st.IfLine, st.IfColumn = k.Line, k.Column
			case "wait", "wait-all", "cancel", "parallel":
				st.KeyLine, st.KeyColumn = k.Line, k.Column
			}
			switch k.Value {
			case "wait":
				st.Wait = scalars(v)
			case "cancel":
				st.Cancel, st.CancelList = v.Value, v.Kind == yaml.SequenceNode
			case "parallel":
				st.Parallel = readStepList(v)
			}
		}
		out = append(out, st)
	}
	return out
}

// scalars is a scalar's value, or a sequence's scalar values.
func scalars(n *yaml.Node) []string {
	switch {
	case n == nil:
		return nil
	case n.Kind == yaml.ScalarNode:
		if n.Value == "" {
			return nil
		}
		return []string{n.Value}
	case n.Kind == yaml.SequenceNode:
		var out []string
		for _, c := range n.Content {
			if c = deref(c); c != nil && c.Kind == yaml.ScalarNode {
				out = append(out, c.Value)
			}
		}
		return out
	}
	return nil
}

func value(n *yaml.Node, key string) *yaml.Node {
	n = deref(n)
	if n == nil || n.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return deref(n.Content[i+1])
		}
	}
	return nil
}

// deref follows aliases, as GitHub's parser does.
func deref(n *yaml.Node) *yaml.Node {
	for n != nil && n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	return n
}
