package workflowgraph

import (
	"testing"
	"testing/fstest"
)

// FuzzReadAgain: the keys read from the source that actionlint's tree
// drops (concurrency queue, parallel steps) never panic, whatever the
// bytes, and every position they give lies inside the file.
func FuzzReadAgain(f *testing.F) {
	f.Add([]byte("on: push\nconcurrency: {group: g, queue: max, cancel-in-progress: true}\njobs:\n  a:\n    concurrency: {group: j, queue: [x]}\n    runs-on: x\n    steps: [{run: x}]\n"))
	f.Add([]byte("on: push\njobs:\n  a:\n    runs-on: x\n    steps:\n      - {id: s, run: x, background: true}\n      - wait: [s, t]\n      - cancel: s\n      - parallel:\n          - {id: p, run: y}\n      - wait-all:\n"))
	f.Add([]byte("on: push\nx: &a {queue: max}\nconcurrency: *a\njobs: {a: {runs-on: x, steps: *a}}\n"))
	f.Add([]byte("queue: wait: parallel:\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		w, _, err := Load(fstest.MapFS{"w.yml": {Data: src}}, "w.yml")
		if err != nil || w == nil {
			return
		}
		lines := 1
		for _, b := range src {
			if b == '\n' {
				lines++
			}
		}
		for _, c := range w.Concurrencies() {
			if c.QueueLine < 1 || c.QueueLine > lines {
				t.Fatalf("queue at line %d of %d", c.QueueLine, lines)
			}
		}
		for _, js := range w.ParallelSteps() {
			for _, st := range js.Steps {
				if st.Line < 1 || st.Line > lines {
					t.Fatalf("step at line %d of %d", st.Line, lines)
				}
			}
		}
	})
}
