// Package bitset is a dense set of small non-negative integers (job
// positions in dependency order), for the graph analyses that would
// otherwise keep a map or a list per job: V sets of V bits cost V²/8
// bytes and a union costs V/64 word operations.
package bitset

import "math/bits"

// Set is a set of integers below 64·len(s); nil is the empty set. Sets
// combined by the methods must have the same length (New with the same n),
// except that a nil argument is the empty set.
type Set []uint64

// New returns an empty set for the integers 0..n-1.
func New(n int) Set { return make(Set, (n+63)/64) }

// Full returns the set of the integers 0..n-1.
func Full(n int) Set {
	s := New(n)
	for i := range s {
		s[i] = ^uint64(0)
	}
	if r := n % 64; r != 0 {
		s[len(s)-1] = 1<<r - 1
	}
	return s
}

// Has reports whether i is in s.
func (s Set) Has(i int) bool { return i >= 0 && i/64 < len(s) && s[i/64]&(1<<(i%64)) != 0 }

// Add adds i, which must be below the size s was made for.
func (s Set) Add(i int) { s[i/64] |= 1 << (i % 64) }

// Remove removes i.
func (s Set) Remove(i int) {
	if i >= 0 && i/64 < len(s) {
		s[i/64] &^= 1 << (i % 64)
	}
}

// Empty reports whether s has no element.
func (s Set) Empty() bool {
	for _, w := range s {
		if w != 0 {
			return false
		}
	}
	return true
}

// Len is the number of elements.
func (s Set) Len() int {
	n := 0
	for _, w := range s {
		n += bits.OnesCount64(w)
	}
	return n
}

// Clone returns a copy (nil for nil).
func (s Set) Clone() Set { return append(Set(nil), s...) }

// Or adds every element of t to s.
func (s Set) Or(t Set) {
	for i := range t {
		s[i] |= t[i]
	}
}

// And keeps in s only the elements of t.
func (s Set) And(t Set) {
	for i := range s {
		if i < len(t) {
			s[i] &= t[i]
		} else {
			s[i] = 0
		}
	}
}

// AndNot removes the elements of t from s.
func (s Set) AndNot(t Set) {
	for i := range t {
		if i < len(s) {
			s[i] &^= t[i]
		}
	}
}

// Union returns s ∪ t, reusing s (allocating n bits when s is nil and t
// is not empty).
func (s Set) Union(t Set, n int) Set {
	if t.Empty() {
		return s
	}
	if s == nil {
		s = New(n)
	}
	s.Or(t)
	return s
}

// Split returns s ∩ t and s \ t, each nil when empty. A part equal to s is
// s itself and the other part is nil, so the common cases (t disjoint from
// s, or t ⊇ s) allocate nothing; otherwise s is reused for s \ t. s must
// not be empty.
func (s Set) Split(t Set) (in, out Set) {
	anyIn, anyOut := false, false
	for i, w := range s {
		var x uint64
		if i < len(t) {
			x = t[i]
		}
		anyIn = anyIn || w&x != 0
		anyOut = anyOut || w&^x != 0
		if anyIn && anyOut {
			break
		}
	}
	switch {
	case !anyIn:
		return nil, s
	case !anyOut:
		return s, nil
	}
	in = s.Clone()
	in.And(t)
	s.AndNot(t)
	return in, s
}

// All calls f for each element in increasing order until f returns false.
func (s Set) All(f func(int) bool) {
	for i, w := range s {
		for w != 0 {
			b := bits.TrailingZeros64(w)
			w &^= 1 << b
			if !f(i*64 + b) {
				return
			}
		}
	}
}
