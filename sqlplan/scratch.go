package sqlplan

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

// scratchCap is the length of the pooled slices: a scan batch's rows.
const scratchCap = 8192

var (
	intScratch   sync.Pool // *[]int64 of len scratchCap
	floatScratch sync.Pool // *[]float64 of len scratchCap
)

// scratchInts returns n int64s of unspecified values, from the pool when
// n fits its slices; scratch reports whether they do.
func scratchInts(n int) (s []int64, scratch bool) {
	if n > scratchCap {
		return make([]int64, n), false
	}
	if p, ok := intScratch.Get().(*[]int64); ok {
		return (*p)[:n], true
	}
	return make([]int64, n, scratchCap), true
}

// scratchFloats is scratchInts for float64s.
func scratchFloats(n int) (s []float64, scratch bool) {
	if n > scratchCap {
		return make([]float64, n), false
	}
	if p, ok := floatScratch.Get().(*[]float64); ok {
		return (*p)[:n], true
	}
	return make([]float64, n, scratchCap), true
}

// release gives a scratch column's vector back to the pool; c must not be
// read afterwards (its slices are cleared so that a mistake shows).
func release(c *Col) {
	if c == nil || !c.Scratch {
		return
	}
	c.Scratch = false
	if c.I != nil && cap(c.I) == scratchCap {
		s := c.I[:scratchCap]
		intScratch.Put(&s)
	}
	if c.F != nil && cap(c.F) == scratchCap {
		s := c.F[:scratchCap]
		floatScratch.Put(&s)
	}
	c.I, c.F = nil, nil
}
