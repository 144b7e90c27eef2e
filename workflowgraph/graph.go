package workflowgraph

import (
	"slices"
	"sort"
	"sync"
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
		for _, n := range j.Needs {
			if w.byID[n] != nil && !slices.Contains(m[n], j.ID) {
				m[n] = append(m[n], j.ID)
			}
		}
	}
	for k := range m {
		sort.Strings(m[k])
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
	sort.Strings(out)
	return out
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
	indeg := map[string]int{}
	for _, j := range w.Jobs {
		for _, n := range uniq(j.Needs) {
			if w.byID[n] != nil {
				indeg[j.ID]++
			}
		}
	}
	children := w.childMap()
	done := map[string]bool{}
	var out []string
	for len(out) < len(w.Jobs) {
		progressed := false
		for _, j := range w.Jobs {
			if done[j.ID] || indeg[j.ID] > 0 {
				continue
			}
			done[j.ID] = true
			out = append(out, j.ID)
			for _, c := range children[j.ID] {
				indeg[c]--
			}
			progressed = true
			break // restart so that file order decides among ready jobs
		}
		if !progressed {
			for _, j := range w.Jobs {
				if !done[j.ID] {
					done[j.ID] = true
					out = append(out, j.ID)
				}
			}
		}
	}
	return out
}

func uniq(s []string) []string {
	var out []string
	for _, x := range s {
		if !slices.Contains(out, x) {
			out = append(out, x)
		}
	}
	return out
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
	sort.Slice(out, func(a, b int) bool { return slices.Compare(out[a], out[b]) < 0 })
	return out
}

// cycleIn walks needs inside one strongly connected component from its
// smallest id until it returns, giving one concrete cycle.
func cycleIn(w *Workflow, comp []string) []string {
	in := map[string]bool{}
	for _, c := range comp {
		in[c] = true
	}
	start := slices.Min(comp)
	// BFS from start back to start inside the component.
	prev := map[string]string{}
	queue := []string{start}
	seen := map[string]bool{}
	for len(queue) > 0 {
		cur := queue[0]
		queue = queue[1:]
		ns := slices.Clone(w.byID[cur].Needs)
		sort.Strings(ns)
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
