// Package intset is a set of int64s built once and then asked, row after
// row, whether it holds a value: the values of an IN list, the keys a
// semi-join keeps. Keys of one table are usually dense (1..n), so the set
// is a bitmap over the values' range when that range is small against
// their number, and a hash map otherwise.
package intset

import "math/bits"

// maxDenseWords bounds the bitmap of a sparse set: a set takes a bitmap
// when it needs at most this many words or four words per value.
const maxDenseWords = 1 << 15 // 256 KiB

// Set is an immutable set of int64s; its methods may be called from
// several goroutines at once.
type Set struct {
	lo, hi int64
	bits   []uint64
	m      map[int64]struct{}
	n      int
}

// NewBounded is New for a set that must not be a hash map of more than
// maxSparse values: ok is false when it would be.
func NewBounded(vals []int64, maxSparse int) (s *Set, ok bool) {
	lo, hi := bounds(vals)
	if len(vals) > maxSparse && !dense(lo, hi, len(vals)) {
		return nil, false
	}
	return build(vals, lo, hi), true
}

// New returns the set of vals (duplicates are fine).
func New(vals []int64) *Set {
	lo, hi := bounds(vals)
	return build(vals, lo, hi)
}

// bounds is the smallest and largest of vals (1, 0 when there are none).
func bounds(vals []int64) (lo, hi int64) {
	if len(vals) == 0 {
		return 1, 0
	}
	lo, hi = vals[0], vals[0]
	for _, v := range vals[1:] {
		lo = min(lo, v)
		hi = max(hi, v)
	}
	return lo, hi
}

// dense reports whether n values in [lo, hi] make a bitmap.
func dense(lo, hi int64, n int) bool {
	words := (uint64(hi)-uint64(lo))/64 + 1 // hi-lo modulo 2^64: no overflow
	return words <= maxDenseWords || words <= 4*uint64(n)
}

// build makes the set of vals, whose bounds are lo and hi.
func build(vals []int64, lo, hi int64) *Set {
	s := &Set{lo: lo, hi: hi}
	if len(vals) == 0 {
		return s // holds nothing: lo > hi
	}
	if dense(lo, hi, len(vals)) {
		s.bits = make([]uint64, (uint64(hi)-uint64(lo))/64+1)
		for _, v := range vals {
			d := uint64(v) - uint64(lo)
			if s.bits[d>>6]&(1<<(d&63)) == 0 {
				s.bits[d>>6] |= 1 << (d & 63)
				s.n++
			}
		}
		return s
	}
	s.m = make(map[int64]struct{}, len(vals))
	for _, v := range vals {
		s.m[v] = struct{}{}
	}
	s.n = len(s.m)
	return s
}

// Has reports whether x is in the set.
func (s *Set) Has(x int64) bool {
	if x < s.lo || x > s.hi {
		return false
	}
	if s.bits != nil {
		d := uint64(x) - uint64(s.lo)
		return s.bits[d>>6]&(1<<(d&63)) != 0
	}
	_, ok := s.m[x]
	return ok
}

// Bitmap returns the set's bits, bit d standing for lo+d, when the set is
// kept as a bitmap (dense); ok is false otherwise. For loops that test
// many values without a branch per value.
func (s *Set) Bitmap() (bits []uint64, lo, hi int64, ok bool) {
	return s.bits, s.lo, s.hi, s.bits != nil
}

// Len is the number of distinct values.
func (s *Set) Len() int { return s.n }

// Range returns the smallest and largest values; ok is false for the
// empty set.
func (s *Set) Range() (lo, hi int64, ok bool) { return s.lo, s.hi, s.n > 0 }

// AnyIn reports whether the set may hold a value in [lo, hi]: exactly for
// a bitmap, by the set's range otherwise.
func (s *Set) AnyIn(lo, hi int64) bool {
	lo, hi = max(lo, s.lo), min(hi, s.hi)
	if lo > hi {
		return false
	}
	if s.bits == nil {
		return true
	}
	a, b := uint64(lo)-uint64(s.lo), uint64(hi)-uint64(s.lo)
	wa, wb := a>>6, b>>6
	first := ^uint64(0) << (a & 63)
	last := ^uint64(0) >> (63 - b&63)
	if wa == wb {
		return s.bits[wa]&first&last != 0
	}
	if s.bits[wa]&first != 0 || s.bits[wb]&last != 0 {
		return true
	}
	for _, w := range s.bits[wa+1 : wb] {
		if w != 0 {
			return true
		}
	}
	return false
}

// Values returns the set's values in ascending order for a bitmap, in no
// particular order otherwise.
func (s *Set) Values() []int64 {
	out := make([]int64, 0, s.n)
	if s.bits != nil {
		for w, word := range s.bits {
			for word != 0 {
				b := bits.TrailingZeros64(word)
				out = append(out, int64(uint64(s.lo)+uint64(w)*64+uint64(b)))
				word &= word - 1
			}
		}
		return out
	}
	for v := range s.m {
		out = append(out, v)
	}
	return out
}
