package dv

import (
	"math/bits"
	"slices"
	"sort"
)

// arrayMax is the largest cardinality held in an array container; above it
// a container is a 65536-bit bitmap (the Roaring convention, which the
// serialized form relies on to tell the two apart).
const arrayMax = 4096

type kind uint8

const (
	kindArray kind = iota
	kindBitmap
	kindRun
)

// run is an inclusive interval [start, last] of 16-bit values.
type run struct{ start, last uint16 }

// container holds the low 16 bits of the rows sharing one 48-bit high key.
// Exactly one representation is in use, named by k. Run containers come only
// from deserialization (so memory stays proportional to the input); Add
// converts them to an array or bitmap first.
type container struct {
	k    kind
	n    int           // cardinality, 1..65536
	arr  []uint16      // kindArray: ascending values
	bm   *[1024]uint64 // kindBitmap: bit v%64 of word v/64
	runs []run         // kindRun: ascending, disjoint (touching runs allowed)
}

// Bitmap is a set of uint64 row indexes, stored as Roaring containers keyed
// by the high 48 bits of each row. The zero value is an empty set ready to
// use. A Bitmap is not safe for concurrent mutation; concurrent reads
// (Contains, AppendRange, Cardinality) are safe.
type Bitmap struct {
	keys  []uint64 // row>>16 of each container, strictly ascending
	conts []container
	card  uint64
}

// New returns an empty Bitmap.
func New() *Bitmap { return &Bitmap{} }

// Of returns a Bitmap holding rows.
func Of(rows ...uint64) *Bitmap {
	b := New()
	for _, r := range rows {
		b.Add(r)
	}
	return b
}

// search returns the index of the first key >= hk and whether it equals hk.
func (b *Bitmap) search(hk uint64) (int, bool) {
	n := len(b.keys)
	if n > 0 && b.keys[n-1] < hk { // appending in row order is the common case
		return n, false
	}
	lo, hi := 0, n
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if b.keys[m] < hk {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo, lo < n && b.keys[lo] == hk
}

// Add inserts row into the set. Adding rows in ascending order is fastest.
func (b *Bitmap) Add(row uint64) {
	hk, v := row>>16, uint16(row)
	i, found := b.search(hk)
	if !found {
		b.keys = append(b.keys, 0)
		copy(b.keys[i+1:], b.keys[i:])
		b.keys[i] = hk
		b.conts = append(b.conts, container{})
		copy(b.conts[i+1:], b.conts[i:])
		b.conts[i] = container{k: kindArray, n: 1, arr: []uint16{v}}
		b.card++
		return
	}
	if b.conts[i].add(v) {
		b.card++
	}
}

// AddRange inserts every row in [lo, hi).
func (b *Bitmap) AddRange(lo, hi uint64) {
	for r := lo; r < hi; r++ {
		b.Add(r)
	}
}

// Contains reports whether row is in the set.
func (b *Bitmap) Contains(row uint64) bool {
	i, found := b.search(row >> 16)
	return found && b.conts[i].contains(uint16(row))
}

// Cardinality returns the number of rows in the set.
func (b *Bitmap) Cardinality() uint64 { return b.card }

// IsEmpty reports whether the set is empty.
func (b *Bitmap) IsEmpty() bool { return b.card == 0 }

// AppendRange appends the rows of the set in [lo, hi) to dst in ascending
// order and returns the extended slice.
func (b *Bitmap) AppendRange(dst []uint64, lo, hi uint64) []uint64 {
	if lo >= hi {
		return dst
	}
	return b.appendClosed(dst, lo, hi-1)
}

// ToArray returns all rows of the set in ascending order.
func (b *Bitmap) ToArray() []uint64 {
	return b.appendClosed(make([]uint64, 0, b.card), 0, ^uint64(0))
}

// Equal reports whether b and o hold the same rows.
func (b *Bitmap) Equal(o *Bitmap) bool {
	if b.card != o.card || len(b.keys) != len(o.keys) {
		return false
	}
	for i := range b.keys {
		if b.keys[i] != o.keys[i] || !b.conts[i].equal(&o.conts[i]) {
			return false
		}
	}
	return true
}

// appendClosed appends the rows in the closed interval [lo, last].
func (b *Bitmap) appendClosed(dst []uint64, lo, last uint64) []uint64 {
	hlo, hlast := lo>>16, last>>16
	i, _ := b.search(hlo)
	for ; i < len(b.keys) && b.keys[i] <= hlast; i++ {
		hk := b.keys[i]
		from, to := uint16(0), uint16(0xFFFF)
		if hk == hlo {
			from = uint16(lo)
		}
		if hk == hlast {
			to = uint16(last)
		}
		dst = b.conts[i].appendClosed(dst, hk<<16, from, to)
	}
	return dst
}

func (c *container) contains(v uint16) bool {
	switch c.k {
	case kindBitmap:
		return c.bm[v>>6]&(1<<(v&63)) != 0
	case kindRun:
		// first run whose last >= v
		j := sort.Search(len(c.runs), func(j int) bool { return c.runs[j].last >= v })
		return j < len(c.runs) && c.runs[j].start <= v
	default:
		a := c.arr
		lo, hi := 0, len(a)
		for lo < hi {
			m := int(uint(lo+hi) >> 1)
			if a[m] < v {
				lo = m + 1
			} else {
				hi = m
			}
		}
		return lo < len(a) && a[lo] == v
	}
}

// add inserts v and reports whether it was absent.
func (c *container) add(v uint16) bool {
	switch c.k {
	case kindRun:
		if c.contains(v) {
			return false
		}
		if c.n < arrayMax {
			c.arr, c.k = c.toArray(), kindArray
		} else {
			c.bm, c.k = c.toBitmap(), kindBitmap
		}
		c.runs = nil
		return c.add(v)
	case kindBitmap:
		w, m := v>>6, uint64(1)<<(v&63)
		if c.bm[w]&m != 0 {
			return false
		}
		c.bm[w] |= m
		c.n++
		return true
	}
	a := c.arr
	j := len(a)
	if j > 0 && a[j-1] >= v {
		j = sort.Search(len(a), func(i int) bool { return a[i] >= v })
		if a[j] == v {
			return false
		}
	}
	if len(a) >= arrayMax {
		c.bm, c.k, c.arr = c.toBitmap(), kindBitmap, nil
		return c.add(v)
	}
	a = append(a, 0)
	copy(a[j+1:], a[j:])
	a[j] = v
	c.arr = a
	c.n++
	return true
}

// appendClosed appends base|v for every v in the container within [from, to].
func (c *container) appendClosed(dst []uint64, base uint64, from, to uint16) []uint64 {
	switch c.k {
	case kindBitmap:
		wFrom, wTo := int(from>>6), int(to>>6)
		for w := wFrom; w <= wTo; w++ {
			word := c.bm[w]
			if w == wFrom {
				word &= ^uint64(0) << (from & 63)
			}
			if w == wTo {
				word &= ^uint64(0) >> (63 - to&63)
			}
			for word != 0 {
				t := bits.TrailingZeros64(word)
				dst = append(dst, base|uint64(w<<6+t))
				word &= word - 1
			}
		}
	case kindRun:
		j := sort.Search(len(c.runs), func(j int) bool { return c.runs[j].last >= from })
		for ; j < len(c.runs) && c.runs[j].start <= to; j++ {
			s, l := max(c.runs[j].start, from), min(c.runs[j].last, to)
			for v := uint32(s); v <= uint32(l); v++ {
				dst = append(dst, base|uint64(v))
			}
		}
	default:
		a := c.arr
		j := 0
		if from > 0 {
			j = sort.Search(len(a), func(i int) bool { return a[i] >= from })
		}
		for ; j < len(a) && a[j] <= to; j++ {
			dst = append(dst, base|uint64(a[j]))
		}
	}
	return dst
}

// toArray returns the container's values as an ascending array.
func (c *container) toArray() []uint16 {
	out := make([]uint16, 0, c.n)
	switch c.k {
	case kindArray:
		return append(out, c.arr...)
	case kindBitmap:
		for w, word := range c.bm {
			for word != 0 {
				out = append(out, uint16(w<<6+bits.TrailingZeros64(word)))
				word &= word - 1
			}
		}
	case kindRun:
		for _, r := range c.runs {
			for v := uint32(r.start); v <= uint32(r.last); v++ {
				out = append(out, uint16(v))
			}
		}
	}
	return out
}

// toBitmap returns the container's values as a bitmap.
func (c *container) toBitmap() *[1024]uint64 {
	bm := new([1024]uint64)
	switch c.k {
	case kindBitmap:
		*bm = *c.bm
	case kindArray:
		for _, v := range c.arr {
			bm[v>>6] |= 1 << (v & 63)
		}
	case kindRun:
		for _, r := range c.runs {
			setBits(bm, uint32(r.start), uint32(r.last))
		}
	}
	return bm
}

// setBits sets bits [s, l] (inclusive) of bm.
func setBits(bm *[1024]uint64, s, l uint32) {
	for w := s >> 6; w <= l>>6; w++ {
		m := ^uint64(0)
		if w == s>>6 {
			m &= ^uint64(0) << (s & 63)
		}
		if w == l>>6 {
			m &= ^uint64(0) >> (63 - l&63)
		}
		bm[w] |= m
	}
}

// toRuns returns the container's values as maximal runs.
func (c *container) toRuns() []run {
	switch c.k {
	case kindRun:
		return mergeRuns(c.runs)
	case kindArray:
		var out []run
		for _, v := range c.arr {
			if n := len(out); n > 0 && uint32(out[n-1].last)+1 == uint32(v) {
				out[n-1].last = v
			} else {
				out = append(out, run{v, v})
			}
		}
		return out
	}
	arr := container{k: kindArray, n: c.n, arr: c.toArray()}
	return arr.toRuns()
}

// numRuns counts the maximal runs in the container without building them.
func (c *container) numRuns() int {
	switch c.k {
	case kindRun:
		return len(mergeRuns(c.runs))
	case kindArray:
		n := 0
		for i, v := range c.arr {
			if i == 0 || uint32(c.arr[i-1])+1 != uint32(v) {
				n++
			}
		}
		return n
	}
	n := 0
	prevTop := uint64(0) // bit 63 of the previous word
	for _, w := range c.bm {
		// a run starts at each set bit whose predecessor is clear
		starts := w &^ (w<<1 | prevTop)
		n += bits.OnesCount64(starts)
		prevTop = w >> 63
	}
	return n
}

// mergeRuns joins adjacent runs (a serialized run container may list
// [1,2] and [3,4] separately).
func mergeRuns(rs []run) []run {
	out := make([]run, 0, len(rs))
	for _, r := range rs {
		if n := len(out); n > 0 && uint32(out[n-1].last)+1 == uint32(r.start) {
			out[n-1].last = r.last
		} else {
			out = append(out, r)
		}
	}
	return out
}

func (c *container) equal(o *container) bool {
	if c.n != o.n {
		return false
	}
	if c.k == kindRun && o.k == kindRun {
		return slices.Equal(mergeRuns(c.runs), mergeRuns(o.runs))
	}
	if c.k == kindBitmap || o.k == kindBitmap || c.n > arrayMax {
		return *c.toBitmap() == *o.toBitmap()
	}
	a, b := c.toArray(), o.toArray()
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
