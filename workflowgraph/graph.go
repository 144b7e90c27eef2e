package workflowgraph

import (
	"container/heap"
	"slices"
	"strings"
	"sync"

	"github.com/cicheck/cicheck/internal/bitset"
)

// graphMemo caches the graph queries that rules and simulations repeat
// for the same workflow (the needs edges are fixed once Build returns).
// It is filled lazily, so a run that asks nothing pays nothing, and it is
// safe for concurrent readers.
type graphMemo struct {
	topoOnce sync.Once
	topo     []string
	mu       sync.Mutex
	anc      map[string][]string
	nOnce    sync.Once
	nAnc     map[string]int
}

// Ancestors returns A(id): every job reachable from id by following needs,
// sorted. Unknown needs are skipped; cycles terminate (the job itself is
// included only when it lies on a cycle). The caller owns the slice.
func (w *Workflow) Ancestors(id string) []string {
	j := w.Job(id)
	if j == nil {
		return nil
	}
	m := w.memo
	if m == nil {
		return w.reach(j.ID, func(x *Job) []string { return x.Needs })
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	a, ok := m.anc[j.ID]
	if !ok {
		a = w.reach(j.ID, func(x *Job) []string { return x.Needs })
		if m.anc == nil {
			m.anc = map[string][]string{}
		}
		m.anc[j.ID] = a
	}
	return slices.Clone(a)
}

// AncestorCount returns len(Ancestors(id)) without listing them: the
// closures of all jobs are built once, as bitsets in dependency order
// (O(V·E/64) for the whole workflow, instead of a search per job).
func (w *Workflow) AncestorCount(id string) int {
	j := w.Job(id)
	if j == nil {
		return 0
	}
	if w.memo == nil || len(w.Cycles) > 0 {
		return len(w.reach(j.ID, func(x *Job) []string { return x.Needs })) // rare: no order to follow
	}
	w.memo.nOnce.Do(func() { w.memo.nAnc = w.ancestorCounts() })
	return w.memo.nAnc[j.ID]
}

func (w *Workflow) ancestorCounts() map[string]int {
	order := w.TopoOrder()
	pos := make(map[string]int, len(order))
	for i, id := range order {
		pos[id] = i
	}
	sets := make([]bitset.Set, len(order))
	out := make(map[string]int, len(order))
	for i, id := range order {
		s := bitset.New(len(order))
		for _, n := range w.byID[id].Needs {
			if p, ok := pos[n]; ok {
				s.Or(sets[p])
				s.Add(p)
			}
		}
		sets[i], out[id] = s, s.Len()
	}
	return out
}

// Descendants returns every job that transitively needs id, sorted.
func (w *Workflow) Descendants(id string) []string {
	j := w.Job(id)
	if j == nil {
		return nil
	}
	children := w.childMap()
	return w.reach(j.ID, func(x *Job) []string { return children[x.ID] })
}

// Children returns the jobs that directly need id, sorted.
func (w *Workflow) Children(id string) []string {
	j := w.Job(id)
	if j == nil {
		return nil
	}
	return w.childMap()[j.ID]
}

// childMap returns the reverse needs edges, computed once by Build (and
// on the fly for a Workflow built by hand).
func (w *Workflow) childMap() map[string][]string {
	if w.kids != nil {
		return w.kids
	}
	return w.children()
}

func (w *Workflow) children() map[string][]string {
	m := map[string][]string{}
	for _, j := range w.Jobs {
		// A job is listed once per need, however often it repeats it.
		for _, n := range uniq(j.Needs) {
			if w.byID[n] != nil {
				m[n] = append(m[n], j.ID)
			}
		}
	}
	for k := range m {
		slices.SortFunc(m[k], CompareIDs)
	}
	return m
}

// reach is an iterative DFS with a visited set, so cycles cannot hang it.
func (w *Workflow) reach(start string, next func(*Job) []string) []string {
	seen := map[string]bool{}
	stack := []string{start}
	var out []string
	for len(stack) > 0 {
		cur := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		j := w.byID[cur]
		if j == nil {
			continue
		}
		for _, n := range next(j) {
			if w.byID[n] == nil || seen[n] {
				continue
			}
			seen[n] = true
			out = append(out, n)
			stack = append(stack, n)
		}
	}
	slices.SortFunc(out, CompareIDs)
	return out
}

// CompareIDs orders job ids as GitHub matches them, case-insensitively
// (ties by spelling), so a workflow's lists read in the same order whether
// its keys are written `Build` or `build`.
func CompareIDs(a, b string) int {
	if c := strings.Compare(strings.ToLower(a), strings.ToLower(b)); c != 0 {
		return c
	}
	return strings.Compare(a, b)
}

// TopoOrder returns every job id so that each job comes after its needs;
// among ready jobs, file order wins. Jobs on or behind a cycle, which have
// no valid order, come last in file order. The caller owns the slice.
func (w *Workflow) TopoOrder() []string {
	m := w.memo
	if m == nil {
		return w.topoOrder()
	}
	m.topoOnce.Do(func() { m.topo = w.topoOrder() })
	return slices.Clone(m.topo)
}

func (w *Workflow) topoOrder() []string {
	// Kahn's algorithm with the ready jobs in a min-heap of file positions:
	// O((V+E) log V) instead of rescanning the file for each job.
	idx := make(map[string]int, len(w.Jobs))
	for i, j := range w.Jobs {
		idx[j.ID] = i
	}
	indeg := make([]int, len(w.Jobs))
	for i, j := range w.Jobs {
		for _, n := range uniq(j.Needs) {
			if w.byID[n] != nil {
				indeg[i]++
			}
		}
	}
	ready := &intHeap{}
	for i := range w.Jobs {
		if indeg[i] == 0 {
			heap.Push(ready, i)
		}
	}
	children := w.childMap()
	done := make([]bool, len(w.Jobs))
	out := make([]string, 0, len(w.Jobs))
	for ready.Len() > 0 {
		i := heap.Pop(ready).(int)
		done[i] = true
		out = append(out, w.Jobs[i].ID)
		for _, c := range children[w.Jobs[i].ID] {
			if ci := idx[c]; !done[ci] {
				if indeg[ci]--; indeg[ci] == 0 {
					heap.Push(ready, ci)
				}
			}
		}
	}
	// Jobs on or behind a cycle have no valid order: file order.
	for i, j := range w.Jobs {
		if !done[i] {
			out = append(out, j.ID)
		}
	}
	return out
}

// intHeap is a min-heap of file positions.
type intHeap []int

func (h intHeap) Len() int           { return len(h) }
func (h intHeap) Less(a, b int) bool { return h[a] < h[b] }
func (h intHeap) Swap(a, b int)      { h[a], h[b] = h[b], h[a] }
func (h *intHeap) Push(x any)        { *h = append(*h, x.(int)) }
func (h *intHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// uniq returns s without repeats, in first-occurrence order; it returns s
// itself when nothing repeats (the common case allocates nothing).
func uniq(s []string) []string {
	if len(s) < 2 {
		return s
	}
	if len(s) <= 8 { // no map for the usual handful of needs
		for i := 1; i < len(s); i++ {
			if slices.Contains(s[:i], s[i]) {
				goto repeats
			}
		}
		return s
	}
repeats:
	seen := make(map[string]bool, len(s))
	for i, x := range s {
		if seen[x] {
			out := slices.Clone(s[:i])
			for _, y := range s[i:] {
				if !seen[y] {
					seen[y] = true
					out = append(out, y)
				}
			}
			return out
		}
		seen[x] = true
	}
	return s
}

// findCycles returns the elementary cycles found by Tarjan's strongly
// connected components: one cycle per component (plus self-needs), each
// rotated to start at its smallest id, sorted.
func findCycles(w *Workflow) [][]string {
	index := map[string]int{}
	low := map[string]int{}
	onStack := map[string]bool{}
	var stack []string
	var sccs [][]string
	next := 0
	var strong func(v string)
	strong = func(v string) {
		index[v], low[v] = next, next
		next++
		stack = append(stack, v)
		onStack[v] = true
		for _, n := range w.byID[v].Needs {
			if w.byID[n] == nil {
				continue
			}
			if _, ok := index[n]; !ok {
				strong(n)
				low[v] = min(low[v], low[n])
			} else if onStack[n] {
				low[v] = min(low[v], index[n])
			}
		}
		if low[v] == index[v] {
			var comp []string
			for {
				x := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				onStack[x] = false
				comp = append(comp, x)
				if x == v {
					break
				}
			}
			if len(comp) > 1 || slices.Contains(w.byID[v].Needs, v) {
				sccs = append(sccs, comp)
			}
		}
	}
	for _, j := range w.Jobs {
		if _, ok := index[j.ID]; !ok {
			strong(j.ID)
		}
	}
	var out [][]string
	for _, comp := range sccs {
		out = append(out, cycleIn(w, comp))
	}
	slices.SortFunc(out, func(a, b []string) int { return slices.CompareFunc(a, b, CompareIDs) })
	return out
}

// cycleIn walks needs inside one strongly connected component from its
// smallest id until it returns, giving one concrete cycle.
func cycleIn(w *Workflow, comp []string) []string {
	in := map[string]bool{}
	for _, c := range comp {
		in[c] = true
	}
	start := slices.MinFunc(comp, CompareIDs)
	// BFS from start back to start inside the component.
	prev := map[string]string{}
	queue := []string{start}
	seen := map[string]bool{}
	for len(queue) > 0 {
		cur := queue[0]
		queue = queue[1:]
		ns := slices.Clone(w.byID[cur].Needs)
		slices.SortFunc(ns, CompareIDs)
		for _, n := range ns {
			if !in[n] {
				continue
			}
			if n == start {
				path := []string{cur}
				for p := cur; p != start; {
					p = prev[p]
					path = append(path, p)
				}
				slices.Reverse(path)
				return path
			}
			if !seen[n] {
				seen[n] = true
				prev[n] = cur
				queue = append(queue, n)
			}
		}
	}
	return []string{start}
}
