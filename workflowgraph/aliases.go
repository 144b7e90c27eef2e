package workflowgraph

import (
	"bytes"
	"fmt"

	"go.yaml.in/yaml/v4"
)

// MaxAliasNodes is how many nodes YAML aliases may add to a workflow's
// tree once expanded. actionlint (and everything after it) walks the tree
// with every alias replaced by its anchor, so a 700-byte "billion laughs"
// (ten aliases of ten aliases of ...) grows to gigabytes; reuse as people
// write it (a list of steps anchored once and aliased in a few jobs) adds
// hundreds of nodes.
const MaxAliasNodes = 100_000

// checkAliases rejects src when its aliases expand past MaxAliasNodes, at
// the alias where the running total crosses it. It parses with actionlint's
// own YAML library, before actionlint does, and counts without expanding:
// each anchor's expanded size is computed once. YAML that does not parse is
// left to actionlint, whose syntax finding it is.
func checkAliases(p string, src []byte) error {
	if !mayAlias(src) {
		return nil
	}
	var root yaml.Node
	if yaml.Unmarshal(src, &root) != nil {
		return nil
	}
	c := aliasCounter{memo: map[*yaml.Node]int{}, busy: map[*yaml.Node]bool{}}
	if a := c.overBudget(&root); a != nil {
		return &InvalidFile{Path: p, Line: a.Line, Col: a.Column, Msg: fmt.Sprintf(
			"YAML aliases expand the workflow by more than %d nodes (a \"billion laughs\" alias bomb?); cicheck reads no further than that budget", MaxAliasNodes)}
	}
	return nil
}

// aliasCounter counts expanded sizes, saturating past the budget.
type aliasCounter struct {
	memo  map[*yaml.Node]int
	busy  map[*yaml.Node]bool // on the current path: an alias inside its own anchor
	extra int
}

const saturated = MaxAliasNodes + 1

// size is the node count of n with every alias expanded, at most saturated.
func (c *aliasCounter) size(n *yaml.Node) int {
	if n.Kind == yaml.AliasNode {
		if n.Alias == nil {
			return 1
		}
		n = n.Alias
	}
	if v, ok := c.memo[n]; ok {
		return v
	}
	if c.busy[n] {
		return saturated // recursive: infinite once expanded
	}
	c.busy[n] = true
	total := 1
	for _, ch := range n.Content {
		total = min(total+c.size(ch), saturated)
	}
	delete(c.busy, n)
	c.memo[n] = total
	return total
}

// overBudget walks the tree as written, in document order, adding what
// each alias expands to beyond itself; it returns the alias at which the
// total passes MaxAliasNodes, or nil.
func (c *aliasCounter) overBudget(n *yaml.Node) *yaml.Node {
	if n.Kind == yaml.AliasNode {
		if c.extra += c.size(n) - 1; c.extra > MaxAliasNodes {
			return n
		}
		return nil
	}
	for _, ch := range n.Content {
		if a := c.overBudget(ch); a != nil {
			return a
		}
	}
	return nil
}

// mayAlias reports whether src can hold an alias of an anchor: some
// "*name" whose name is also written as "&name" (a name runs to white
// space or a flow indicator). It is a byte scan over the whole text, so it
// has no false negatives; "&&" in a script or "**" in a glob rarely pair.
func mayAlias(src []byte) bool {
	if bytes.IndexByte(src, '&') < 0 || bytes.IndexByte(src, '*') < 0 {
		return false
	}
	names := func(sigil byte) map[string]bool {
		out := map[string]bool{}
		for i := 0; i < len(src); i++ {
			if src[i] != sigil {
				continue
			}
			j := i + 1
			for j < len(src) && !isNameEnd(src[j]) {
				j++
			}
			if j > i+1 {
				out[string(src[i+1:j])] = true
			}
		}
		return out
	}
	anchors := names('&')
	if len(anchors) == 0 {
		return false
	}
	for a := range names('*') {
		if anchors[a] {
			return true
		}
	}
	return false
}

func isNameEnd(b byte) bool {
	switch b {
	case ' ', '\t', '\n', '\r', ',', '[', ']', '{', '}':
		return true
	}
	return false
}
