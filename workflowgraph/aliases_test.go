package workflowgraph

import (
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"testing/fstest"
)

// laughs is the classic alias bomb in strategy.matrix: nine levels of ten
// aliases each, 10^9 leaves once expanded, in about 700 bytes.
func laughs() string {
	var b strings.Builder
	b.WriteString("on: push\njobs:\n  j:\n    runs-on: ubuntu-latest\n    strategy:\n      matrix:\n        a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n")
	for i := 'b'; i <= 'i'; i++ {
		prev := string(i - 1)
		fmt.Fprintf(&b, "        %c: &%c [*%s,*%s,*%s,*%s,*%s,*%s,*%s,*%s,*%s,*%s]\n", i, i, prev, prev, prev, prev, prev, prev, prev, prev, prev, prev)
	}
	b.WriteString("    steps: [{run: echo}]\n")
	return b.String()
}

// reuse anchors a list of n scalars and aliases it k times: the aliases
// add k*n nodes.
func reuse(n, k int) string {
	var b strings.Builder
	b.WriteString("on: push\njobs:\n  j:\n    runs-on: ubuntu-latest\n    env: {X: x}\n    steps: [{run: echo}]\n    strategy:\n      matrix:\n        a: &a [")
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, "v%d", i)
	}
	b.WriteString("]\n")
	for i := range k {
		fmt.Fprintf(&b, "        r%d: *a\n", i)
	}
	return b.String()
}

func TestAliasBudget(t *testing.T) {
	bomb := laughs()
	if len(bomb) > 800 {
		t.Fatalf("the bomb is %d bytes", len(bomb))
	}
	for _, c := range []struct {
		name, src string
		over      bool
		line      int
	}{
		{"billion laughs", bomb, true, 11},
		// 100 aliases of a 1,000-item list add exactly the budget; one
		// more alias passes it. The near miss keeps the guard honest.
		{"at the budget", reuse(1000, 100), false, 0},
		{"one alias over", reuse(1000, 101), true, 110},
		{"anchors people write", "on: push\njobs:\n  a:\n    runs-on: x\n    steps: &s [{run: make}, {run: make test}]\n  b:\n    runs-on: x\n    steps: *s\n", false, 0},
		// The YAML library refuses an alias inside its own anchor: a syntax
		// finding, not the budget's.
		{"recursive alias", "on: push\njobs:\n  a: &j\n    runs-on: x\n    steps: [{run: *j}]\n", false, 0},
	} {
		var inv *InvalidFile
		err := CheckWorkflowBytes("w.yml", []byte(c.src))
		if got := errors.As(err, &inv); got != c.over {
			t.Errorf("%s: over budget %v (%v), want %v", c.name, got, err, c.over)
			continue
		}
		if c.over && (inv.Line != c.line || !strings.Contains(inv.Msg, "100000 nodes")) {
			t.Errorf("%s: %v, want line %d", c.name, err, c.line)
		}
	}
}

// TestAliasBombBounded: loading the bomb (the path lint, graph, simulate
// and explain-diff take) allocates a bounded amount and reports the file,
// instead of expanding 10^9 nodes.
func TestAliasBombBounded(t *testing.T) {
	fsys := fstest.MapFS{"w.yml": {Data: []byte(laughs())}}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	w, _, err := Load(fsys, "w.yml")
	runtime.ReadMemStats(&after)
	var inv *InvalidFile
	if w != nil || !errors.As(err, &inv) {
		t.Fatalf("Load = %v, %v; want an invalid file", w, err)
	}
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 16<<20 {
		t.Fatalf("loading a 700-byte file allocated %d MiB", grew>>20)
	}
}

// TestMayAlias: the byte scan that spares most files a second parse has no
// false negative, and the usual "&&" and "**" do not trip it.
func TestMayAlias(t *testing.T) {
	for src, want := range map[string]bool{
		"a: &x 1\nb: *x\n":               true,
		"a: &x [1]\nb: [*x]\n":           true,
		"a: &x {k: 1}\nb: {c: *x}\n":     true,
		"run: make && make test\n":       false,
		"paths: ['**/*.py', 'src/**']\n": false,
		"run: a && b\npaths: [**]\n":     false,
		"a: &x 1\nb: *y\n":               false,
		"no anchors at all\n":            false,
	} {
		if got := mayAlias([]byte(src)); got != want {
			t.Errorf("mayAlias(%q) = %v, want %v", src, got, want)
		}
	}
}

// FuzzAliasBudget: no panic, and a file within the budget is one whose
// aliases really add at most MaxAliasNodes (checked by the pre-filter's
// agreement: a file without a paired anchor is never rejected for them).
func FuzzAliasBudget(f *testing.F) {
	f.Add(laughs())
	f.Add(reuse(10, 3))
	f.Add("a: &j\n  b: [*j]\n")
	f.Add("run: a && b **\n")
	f.Fuzz(func(t *testing.T, src string) {
		err := checkAliases("w.yml", []byte(src))
		if err != nil && !mayAlias([]byte(src)) {
			t.Fatalf("rejected without an alias: %v", err)
		}
	})
}
