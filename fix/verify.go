package fix

import (
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/cicheck/cicheck/expr"
	"github.com/cicheck/cicheck/workflowgraph"
)

// sameTree reports whether out parses to d's tree with only the planned
// changes: each edited if: value reads as its new condition and still
// holds the author's condition verbatim, each added if: is the job's first
// key, and every other node (kind, style, tag, anchor, value and comments)
// is what it was.
func sameTree(d *doc, out []byte, jobs []jobFix) bool {
	nd, why := parseDoc(out)
	if why != "" {
		return false
	}
	c := comparer{edited: map[*yaml.Node]plan{}, added: map[*yaml.Node]plan{}}
	for _, jf := range jobs {
		if jf.node.ifValue != nil {
			c.edited[jf.node.ifValue] = jf.plan
		} else {
			c.added[jf.node.value] = jf.plan
		}
	}
	return c.same(d.root, nd.root)
}

type comparer struct {
	edited, added map[*yaml.Node]plan
}

func (c comparer) same(a, b *yaml.Node) bool {
	if a.Kind != b.Kind || a.Style != b.Style || a.Anchor != b.Anchor ||
		a.HeadComment != b.HeadComment || a.LineComment != b.LineComment || a.FootComment != b.FootComment {
		return false
	}
	if p, ok := c.edited[a]; ok {
		// An implicit tag follows the text (`if: true` is a !!bool, the
		// fixed value a !!str); an explicit one was refused before.
		return reads(b.Value, p)
	}
	if a.Tag != b.Tag {
		return false
	}
	if a.Value != b.Value {
		return false
	}
	if a.Kind == yaml.AliasNode {
		return a.Alias != nil && b.Alias != nil && a.Alias.Anchor == b.Alias.Anchor
	}
	bc := b.Content
	if p, ok := c.added[a]; ok {
		if len(bc) < 2 || bc[0].Kind != yaml.ScalarNode || bc[0].Value != "if" || bc[0].Style != 0 ||
			bc[1].Kind != yaml.ScalarNode || bc[1].Style != 0 || bc[0].HeadComment != "" || bc[1].LineComment != "" ||
			bc[0].LineComment != "" || bc[1].FootComment != "" || !reads(bc[1].Value, p) {
			return false
		}
		bc = bc[2:]
	}
	if len(a.Content) != len(bc) {
		return false
	}
	for i := range a.Content {
		if !c.same(a.Content[i], bc[i]) {
			return false
		}
	}
	return true
}

// reads reports whether an if: value v reads, as GitHub reads it, as p's
// condition, and holds the author's condition as written.
func reads(v string, p plan) bool {
	for _, k := range p.keep {
		if !strings.Contains(v, k) {
			return false
		}
	}
	if strings.Contains(v, "${{") {
		end := strings.Index(v, "}}")
		if !strings.HasPrefix(v, "${{") || end+2 != len(v) || strings.Count(v, "${{") != 1 {
			return false
		}
		v = v[3:end]
	}
	got, err := workflowgraph.ParseExpr(v)
	if err != "" {
		return false
	}
	want, err := workflowgraph.ParseExpr(p.cond)
	return err == "" && expr.Render(got) == expr.Render(want)
}
