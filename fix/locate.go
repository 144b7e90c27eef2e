package fix

import (
	"bytes"
	"errors"
	"io"
	"strings"

	"gopkg.in/yaml.v3"
)

// doc is a workflow's YAML tree with the byte offset of every line, so a
// node's position becomes an offset in the source.
type doc struct {
	src   []byte
	root  *yaml.Node
	lines []int // offset of each line's start
	bom   int   // bytes of a UTF-8 byte order mark before line 1
}

// parseDoc parses src as one YAML document. A stream of several documents
// is refused: the edit and its check cover one tree.
func parseDoc(src []byte) (*doc, string) {
	dec := yaml.NewDecoder(bytes.NewReader(src))
	var root yaml.Node
	if err := dec.Decode(&root); err != nil {
		return nil, "the file does not parse as YAML"
	}
	var more yaml.Node
	if err := dec.Decode(&more); !errors.Is(err, io.EOF) {
		return nil, "the file holds more than one YAML document"
	}
	if bytes.IndexByte(src, '\r') >= 0 && bytes.Contains(bytes.ReplaceAll(src, []byte("\r\n"), nil), []byte("\r")) {
		// YAML breaks lines at a bare CR too; positions here count LF.
		return nil, "the file has line breaks that are a bare CR"
	}
	d := &doc{src: src, root: &root, lines: []int{0}}
	if bytes.HasPrefix(src, []byte("\ufeff")) {
		d.bom = 3
	}
	for i, b := range src {
		if b == '\n' {
			d.lines = append(d.lines, i+1)
		}
	}
	return d, ""
}

// offset is the byte offset of a 1-based line and column; yaml.v3 counts
// columns in characters. -1 when out of range.
func (d *doc) offset(line, col int) int {
	if line < 1 || line > len(d.lines) || col < 1 {
		return -1
	}
	i := d.lines[line-1]
	if line == 1 {
		i += d.bom
	}
	for c := 1; c < col; c++ {
		if i >= len(d.src) || d.src[i] == '\n' {
			return -1
		}
		if d.src[i] < 0x80 {
			i++
			continue
		}
		i++
		for i < len(d.src) && d.src[i]&0xC0 == 0x80 {
			i++
		}
	}
	return i
}

// lineStart is the offset of the start of the line holding offset i.
func (d *doc) lineStart(i int) int {
	lo, hi := 0, len(d.lines)-1
	for lo < hi {
		m := (lo + hi + 1) / 2
		if d.lines[m] <= i {
			lo = m
		} else {
			hi = m - 1
		}
	}
	return d.lines[lo]
}

// eol is the file's line ending at the line holding offset i.
func (d *doc) eol(i int) string {
	end, _ := lineEnd(d.src, i)
	if end < len(d.src) && d.src[end] == '\r' {
		return "\r\n"
	}
	return "\n"
}

// jobNode is one job as the YAML tree holds it.
type jobNode struct {
	key, value *yaml.Node // the job's key and its mapping
	ifKey      *yaml.Node // nil: the job has no if:
	ifValue    *yaml.Node
}

// explicitTag reports a tag written in the source (`!!str x`, `!t x`).
func explicitTag(n *yaml.Node) bool { return n.Style&yaml.TaggedStyle != 0 }

// mapping returns n's value for key in a block mapping.
func mapValue(n *yaml.Node, key string) (k, v *yaml.Node, count int) {
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Kind == yaml.ScalarNode && n.Content[i].Value == key {
			if count == 0 {
				k, v = n.Content[i], n.Content[i+1]
			}
			count++
		}
	}
	return k, v, count
}

// blockMapping explains why n is not a block mapping the fix can edit
// (not a mapping, flow style, anchored, tagged, an alias or with a merge
// key); "" when it is one.
func blockMapping(n *yaml.Node, what string) string {
	switch {
	case n.Kind == yaml.AliasNode:
		return what + " is an alias; an edit would change what it refers to"
	case n.Kind != yaml.MappingNode:
		return what + " is not a mapping"
	case n.Style&yaml.FlowStyle != 0:
		return what + " is written in flow style ({...}); add the if: by hand"
	case n.Anchor != "":
		return what + " has an anchor (&" + n.Anchor + "); an edit would change every alias of it"
	case explicitTag(n):
		return what + " has a tag"
	}
	if _, _, n := mapValue(n, "<<"); n > 0 {
		return what + " has a merge key (<<); its keys come from elsewhere"
	}
	return ""
}

// findJob locates job id (compared case-insensitively, as GitHub does) in
// the tree, or says why its if: cannot be edited exactly.
func (d *doc) findJob(id string) (jobNode, string) {
	top := d.root
	if top.Kind == yaml.DocumentNode && len(top.Content) == 1 {
		top = top.Content[0]
	}
	if why := blockMapping(top, "the workflow"); why != "" {
		return jobNode{}, why
	}
	_, jobs, n := mapValue(top, "jobs")
	if n != 1 {
		return jobNode{}, "the workflow has no single jobs: key"
	}
	if why := blockMapping(jobs, "jobs:"); why != "" {
		return jobNode{}, why
	}
	var j jobNode
	found := 0
	for i := 0; i+1 < len(jobs.Content); i += 2 {
		if k := jobs.Content[i]; k.Kind == yaml.ScalarNode && strings.EqualFold(k.Value, id) {
			j.key, j.value = k, jobs.Content[i+1]
			found++
		}
	}
	if found != 1 {
		return jobNode{}, "the job is not exactly once in the file"
	}
	if j.key.Style&(yaml.LiteralStyle|yaml.FoldedStyle) != 0 || explicitTag(j.key) || j.key.Anchor != "" {
		return jobNode{}, "the job's key is not a simple key"
	}
	if why := blockMapping(j.value, "the job"); why != "" {
		return jobNode{}, why
	}
	k, v, n := mapValue(j.value, "if")
	if n > 1 {
		return jobNode{}, "the job has more than one if:"
	}
	j.ifKey, j.ifValue = k, v
	if v != nil {
		switch {
		case v.Kind == yaml.AliasNode:
			return jobNode{}, "the if: is an alias (*" + v.Value + "); edit it by hand"
		case v.Kind != yaml.ScalarNode:
			return jobNode{}, "the if: is not a scalar"
		case v.Anchor != "":
			return jobNode{}, "the if: has an anchor (&" + v.Anchor + ") another node may use; edit it by hand"
		case explicitTag(v):
			return jobNode{}, "the if: has a tag; edit it by hand"
		case k.Line != v.Line:
			return jobNode{}, "the if:'s value does not start on the key's line"
		}
	}
	return j, ""
}
