package bitset

import (
	"math/rand"
	"slices"
	"testing"
)

// model is the reference: a sorted list of distinct ints.
func elems(s Set) []int {
	var out []int
	s.All(func(i int) bool { out = append(out, i); return true })
	return out
}

func random(rng *rand.Rand, n int) (Set, map[int]bool) {
	s, m := New(n), map[int]bool{}
	for k := rng.Intn(n + 1); k > 0; k-- {
		i := rng.Intn(n)
		s.Add(i)
		m[i] = true
	}
	return s, m
}

func keys(m map[int]bool) []int {
	var out []int
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// TestAgainstMaps checks every operation against map-based sets on
// random sets of sizes around word boundaries.
func TestAgainstMaps(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	for _, n := range []int{1, 63, 64, 65, 127, 128, 200} {
		for trial := 0; trial < 200; trial++ {
			a, ma := random(rng, n)
			b, mb := random(rng, n)
			if got := elems(a); !slices.Equal(got, keys(ma)) {
				t.Fatalf("n=%d elems %v, want %v", n, got, keys(ma))
			}
			if a.Len() != len(ma) || a.Empty() != (len(ma) == 0) {
				t.Fatalf("n=%d Len %d Empty %v for %v", n, a.Len(), a.Empty(), keys(ma))
			}
			union, inter, diff := map[int]bool{}, map[int]bool{}, map[int]bool{}
			for k := range ma {
				union[k] = true
				if mb[k] {
					inter[k] = true
				} else {
					diff[k] = true
				}
			}
			for k := range mb {
				union[k] = true
			}
			u := a.Clone()
			u.Or(b)
			i := a.Clone()
			i.And(b)
			d := a.Clone()
			d.AndNot(b)
			if !slices.Equal(elems(u), keys(union)) || !slices.Equal(elems(i), keys(inter)) || !slices.Equal(elems(d), keys(diff)) {
				t.Fatalf("n=%d or/and/andnot wrong for %v, %v", n, keys(ma), keys(mb))
			}
			if !slices.Equal(elems(Set(nil).Union(a, n)), keys(ma)) {
				t.Fatalf("Union into nil")
			}
			if len(ma) > 0 {
				in, out := a.Clone().Split(b)
				if !slices.Equal(elems(in), keys(inter)) || !slices.Equal(elems(out), keys(diff)) {
					t.Fatalf("n=%d Split(%v, %v) = %v, %v", n, keys(ma), keys(mb), elems(in), elems(out))
				}
				if (in == nil) != (len(inter) == 0) || (out == nil) != (len(diff) == 0) {
					t.Fatalf("Split: an empty part must be nil")
				}
			}
			full := Full(n)
			if full.Len() != n || full.Has(n) || !full.Has(n-1) {
				t.Fatalf("Full(%d) has %d elements", n, full.Len())
			}
			x := rng.Intn(n)
			a.Remove(x)
			if a.Has(x) {
				t.Fatalf("Remove(%d)", x)
			}
		}
	}
	var stop []int
	Full(10).All(func(i int) bool { stop = append(stop, i); return i < 3 })
	if !slices.Equal(stop, []int{0, 1, 2, 3}) {
		t.Fatalf("All did not stop: %v", stop)
	}
}
