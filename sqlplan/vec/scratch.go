package vec

import "sync"

// Scratch vectors: the int64 and float64 results that arithmetic makes
// for a batch come from a pool, and the expression or aggregate that
// consumes such a result gives it back. Without this, every operator of
// every batch allocates a fresh 64 KiB slice, and the garbage collector
// runs many times a second over a small live heap.
//
// A Col marked scratch is owned by the one expression that evaluated it
// until its consumer releases it; nothing may keep it past that (the
// consumers below copy what they keep).

// ScratchCap is the length of the pooled slices: a scan batch's rows.
const ScratchCap = 8192

var (
	intScratch   sync.Pool // *[]int64 of len ScratchCap
	floatScratch sync.Pool // *[]float64 of len ScratchCap
)

// ScratchInts returns n int64s of unspecified values, from the pool when
// n fits its slices; scratch reports whether they do.
func ScratchInts(n int) (s []int64, scratch bool) {
	if n > ScratchCap {
		return make([]int64, n), false
	}
	if p, ok := intScratch.Get().(*[]int64); ok {
		return (*p)[:n], true
	}
	return make([]int64, n, ScratchCap), true
}

// ScratchFloats is ScratchInts for float64s.
func ScratchFloats(n int) (s []float64, scratch bool) {
	if n > ScratchCap {
		return make([]float64, n), false
	}
	if p, ok := floatScratch.Get().(*[]float64); ok {
		return (*p)[:n], true
	}
	return make([]float64, n, ScratchCap), true
}

// Release gives a scratch column's vector back to the pool; c must not be
// read afterwards (its slices are cleared so that a mistake shows).
func Release(c *Col) {
	if c == nil || !c.Scratch {
		return
	}
	c.Scratch = false
	if c.I != nil && cap(c.I) == ScratchCap {
		s := c.I[:ScratchCap]
		intScratch.Put(&s)
	}
	if c.F != nil && cap(c.F) == ScratchCap {
		s := c.F[:ScratchCap]
		floatScratch.Put(&s)
	}
	c.I, c.F = nil, nil
}

// GrowTo extends s with zero values to length n, doubling its capacity
// when it must grow (group counts rise a batch at a time).
func GrowTo[T any](s []T, n int) []T {
	if len(s) >= n {
		return s
	}
	if cap(s) >= n {
		old := len(s)
		s = s[:n]
		clear(s[old:])
		return s
	}
	ns := make([]T, n, max(n, 2*cap(s)))
	copy(ns, s)
	return ns
}
