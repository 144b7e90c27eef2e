package workflowgraph

import (
	"container/heap"
	"math/bits"
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
	evidence map[*Job][2]string // deviceEvidence, by job (under mu)
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

// AncestorCount returns len(Ancestors(id)) without listing them. The
// counts of all jobs are built once, in O(V+E) plus the bitset unions a
// DAG with real fan-in needs (see ancestorCounts); a search per job made
// a 4,000-job cycle cost V·(V+E).
func (w *Workflow) AncestorCount(id string) int {
	j := w.Job(id)
	if j == nil {
		return 0
	}
	if w.memo == nil {
		return len(w.reach(j.ID, func(x *Job) []string { return x.Needs }))
	}
	w.memo.nOnce.Do(func() { w.memo.nAnc = w.ancestorCounts() })
	return w.memo.nAnc[j.ID]
}

// ancestorCounts works on the strongly connected components of the needs
// graph (Tarjan's algorithm, which emits each component after every
// component it needs), so cycles cost nothing extra: a job's ancestors are
// the members of every component its own reaches, plus its own
// component's members when that component is a cycle. Each component's
// ancestor components are a bitset weighted by component size; a
// component hands its set on to its last dependant instead of that one
// copying it, so a chain costs O(V), and a job nothing needs counts its
// ancestors in a scratch set instead of keeping one.
func (w *Workflow) ancestorCounts() map[string]int {
	jobs, edges := w.needsGraph()
	comp, sizes := sccs(edges)
	nc := len(sizes)
	cyclic := make([]bool, nc)
	for i, es := range edges {
		for _, e := range es {
			if comp[e] == comp[i] {
				cyclic[comp[i]] = true
			}
		}
	}
	// parents[c]: the other components c's members need, each once;
	// waiting[p]: how many components still to be built need p.
	parents := make([][]int, nc)
	waiting := make([]int, nc)
	stamp := make([]int, nc)
	for c := range stamp {
		stamp[c] = -1
	}
	members := make([][]int, nc)
	for i := range jobs {
		members[comp[i]] = append(members[comp[i]], i)
	}
	for c := range nc {
		for _, i := range members[c] {
			for _, e := range edges[i] {
				if p := comp[e]; p != c && stamp[p] != c {
					stamp[p] = c
					parents[c] = append(parents[c], p)
					waiting[p]++
				}
			}
		}
	}
	sets := make([]bitset.Set, nc) // nil: no ancestors, or handed on
	count := make([]int, nc)       // total size of the ancestor components
	var scratch bitset.Set
	for c := range nc { // Tarjan's order: every parent before c
		ps := parents[c]
		if len(ps) == 0 {
			continue
		}
		if len(ps) == 1 && waiting[c] == 0 { // a leaf below one component: no set at all
			p := ps[0]
			count[c] = count[p] + sizes[p]
			if waiting[p]--; waiting[p] == 0 {
				sets[p] = nil
			}
			continue
		}
		var s bitset.Set
		n := 0
		for _, p := range ps {
			if waiting[p] == 1 && sets[p] != nil { // c is p's last dependant: take p's set
				s, n, sets[p] = sets[p], count[p], nil
				break
			}
		}
		if s == nil {
			if waiting[c] == 0 { // nothing needs c: count in scratch, keep nothing
				if scratch == nil {
					scratch = bitset.New(nc)
				}
				clear(scratch)
				s = scratch
			} else {
				s = bitset.New(nc)
			}
		}
		for _, p := range ps {
			n += orWeighted(s, sets[p], sizes)
			if !s.Has(p) {
				s.Add(p)
				n += sizes[p]
			}
			if waiting[p]--; waiting[p] == 0 {
				sets[p] = nil // no one left to read it
			}
		}
		count[c] = n
		if waiting[c] > 0 {
			sets[c] = s
		}
	}
	out := make(map[string]int, len(jobs))
	for i, j := range jobs {
		c := comp[i]
		out[j.ID] = count[c]
		if cyclic[c] {
			out[j.ID] += sizes[c]
		}
	}
	return out
}

// needsGraph numbers the jobs (one per id, in file order) and lists each
// one's needs that exist, once each, as numbers.
func (w *Workflow) needsGraph() ([]*Job, [][]int) {
	pos := make(map[*Job]int, len(w.Jobs))
	var jobs []*Job
	for _, j := range w.Jobs {
		if w.byID[j.ID] == j {
			pos[j] = len(jobs)
			jobs = append(jobs, j)
		}
	}
	edges := make([][]int, len(jobs))
	for i, j := range jobs {
		for _, n := range uniq(j.Needs) {
			if nj := w.byID[n]; nj != nil {
				edges[i] = append(edges[i], pos[nj])
			}
		}
	}
	return jobs, edges
}

// Components returns the strongly connected components of the needs
// graph, each the ids of its jobs in file order, every component after
// the components its jobs need: the dependency order of a graph that may
// have cycles (the jobs of one cycle share a component). O(V+E).
func (w *Workflow) Components() [][]string {
	jobs, edges := w.needsGraph()
	comp, sizes := sccs(edges)
	out := make([][]string, len(sizes))
	for i, j := range jobs {
		out[comp[i]] = append(out[comp[i]], j.ID)
	}
	return out
}

// orWeighted adds t's elements to s and returns the total weight of those
// s did not have.
func orWeighted(s, t bitset.Set, weight []int) int {
	n := 0
	for i, x := range t {
		fresh := x &^ s[i]
		s[i] |= fresh
		for ; fresh != 0; fresh &= fresh - 1 {
			n += weight[i*64+bits.TrailingZeros64(fresh)]
		}
	}
	return n
}

// sccs numbers the strongly connected components of the graph whose node
// i has edges[i], by Tarjan's algorithm made iterative (a needs chain of
// 100,000 jobs is 100,000 frames deep). A component is numbered after
// every component it has an edge to. It returns each node's component and
// each component's size.
func sccs(edges [][]int) (comp, sizes []int) {
	n := len(edges)
	index := make([]int, n)
	low := make([]int, n)
	onStack := make([]bool, n)
	comp = make([]int, n)
	for i := range index {
		index[i] = -1
	}
	var stack []int
	type frame struct{ v, next int }
	var calls []frame
	counter := 0
	for root := range n {
		if index[root] >= 0 {
			continue
		}
		calls = append(calls, frame{v: root})
		for len(calls) > 0 {
			f := &calls[len(calls)-1]
			v := f.v
			if f.next == 0 && index[v] < 0 {
				index[v], low[v] = counter, counter
				counter++
				stack = append(stack, v)
				onStack[v] = true
			}
			if f.next < len(edges[v]) {
				u := edges[v][f.next]
				f.next++
				if index[u] < 0 {
					calls = append(calls, frame{v: u})
				} else if onStack[u] {
					low[v] = min(low[v], index[u])
				}
				continue
			}
			calls = calls[:len(calls)-1]
			if len(calls) > 0 {
				parent := calls[len(calls)-1].v
				low[parent] = min(low[parent], low[v])
			}
			if low[v] == index[v] {
				c := len(sizes)
				size := 0
				for {
					x := stack[len(stack)-1]
					stack = stack[:len(stack)-1]
					onStack[x] = false
					comp[x] = c
					size++
					if x == v {
						break
					}
				}
				sizes = append(sizes, size)
			}
		}
	}
	return comp, sizes
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
