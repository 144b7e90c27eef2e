package workflowgraph

import (
	"bytes"

	"gopkg.in/yaml.v3"

	"github.com/cicheck/cicheck/internal/ghschema"
)

// Concurrency is a `concurrency:` mapping's `queue` key and the
// `cancel-in-progress` beside it. actionlint 1.7.12's parser drops the
// `queue` key GitHub added in May 2026 (see internal/ghschema), so its
// syntax tree cannot answer; the mapping is read from the source instead.
type Concurrency struct {
	// Job is the job's key as written, "" for the workflow's concurrency.
	Job string
	// Queue is the value as written; QueueScalar is false when it is a
	// mapping or a sequence. QueueLine and QueueColumn locate the value.
	Queue                  string
	QueueScalar            bool
	QueueLine, QueueColumn int
	// Cancel is cancel-in-progress as written ("" when absent); CancelLine
	// locates it.
	Cancel     string
	CancelLine int
}

// Concurrencies returns each workflow-level and job-level `concurrency:`
// mapping of w that has a `queue` key, in file order. The source is read
// again only when it has a queue: key at all: a file without one costs
// nothing.
func (w *Workflow) Concurrencies() []Concurrency {
	if w == nil || !bytes.Contains(w.Source, []byte("queue:")) {
		return nil
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(w.Source, &doc); err != nil || len(doc.Content) == 0 {
		return nil
	}
	root := doc.Content[0]
	var out []Concurrency
	add := func(job string, n *yaml.Node) {
		if c, ok := queueOf(job, n); ok {
			out = append(out, c)
		}
	}
	add("", mappingValue(root, "concurrency"))
	if jobs := mappingValue(root, "jobs"); jobs != nil && jobs.Kind == yaml.MappingNode {
		for i := 0; i+1 < len(jobs.Content); i += 2 {
			add(jobs.Content[i].Value, mappingValue(jobs.Content[i+1], "concurrency"))
		}
	}
	return out
}

func queueOf(job string, n *yaml.Node) (Concurrency, bool) {
	q := mappingValue(n, "queue")
	if q == nil {
		return Concurrency{}, false
	}
	c := Concurrency{Job: job, Queue: q.Value, QueueScalar: q.Kind == yaml.ScalarNode, QueueLine: q.Line, QueueColumn: q.Column}
	if v := mappingValue(n, "cancel-in-progress"); v != nil && v.Kind == yaml.ScalarNode {
		c.Cancel, c.CancelLine = v.Value, v.Line
	}
	return c, true
}

// mappingValue is the value of key in mapping n (nil when n is not a
// mapping or lacks the key). Aliases are followed, as GitHub's parser does.
func mappingValue(n *yaml.Node, key string) *yaml.Node {
	for n != nil && n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	if n == nil || n.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			v := n.Content[i+1]
			for v.Kind == yaml.AliasNode && v.Alias != nil {
				v = v.Alias
			}
			return v
		}
	}
	return nil
}

// ParallelSteps returns each job's steps as GitHub's schema reads them,
// with the parallel-step keys (background, wait, wait-all, cancel,
// parallel) that actionlint 1.7.12's syntax tree drops; nil when the file
// uses none of them.
func (w *Workflow) ParallelSteps() []ghschema.JobSteps {
	if w == nil {
		return nil
	}
	return ghschema.NewSource(w.Source).Jobs()
}
