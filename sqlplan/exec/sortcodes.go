package exec

import (
	"cmp"
	"math/bits"
	"slices"

	"github.com/carquet-go/carquet/sqlplan/vec"
)

// Sorting on codes. When every sort key's values map to small unsigned
// codes in their order (integers by their offset from the least, strings
// by their rank among the distinct ones, bools), the keys of a row pack
// into one uint64, first key highest, and rows sort by that number alone:
// no per-comparison dispatch over keys and types, no string comparisons
// past the ranking (TPC-H Q16 sorts its 18,000 groups by a count and
// three keys of 25, 150 and 50 values).

// keyCodes are one key's codes of the rows and the bits they take.
type keyCodes struct {
	codes []uint64
	width int
}

// sortByCodes returns the order of the n rows by the keys as SortRows
// does, ok false when the keys do not pack into 64 bits.
func sortByCodes(keys []SortKey, cols []*vec.Col, n int) ([]int32, bool) {
	var all []keyCodes
	total := 0
	for _, k := range keys {
		kc, ok := codesOf(k, cols[k.Col], n)
		if total += kc.width; !ok || total > 64 {
			return nil, false
		}
		all = append(all, kc)
	}
	packed := make([]uint64, n)
	for _, kc := range all {
		for i, c := range kc.codes {
			packed[i] = packed[i]<<kc.width | c
		}
	}
	idx := make([]int32, n)
	// The row number in the low bits makes every code distinct and
	// breaks ties by it, as a stable sort would.
	if rowBits := bits.Len(uint(n)); total+rowBits <= 64 {
		for i := range packed {
			packed[i] = packed[i]<<rowBits | uint64(i)
		}
		slices.Sort(packed)
		mask := uint64(1)<<rowBits - 1
		for i, p := range packed {
			idx[i] = int32(p & mask)
		}
		return idx, true
	}
	type row struct {
		code uint64
		i    int32
	}
	rows := make([]row, n)
	for i, p := range packed {
		rows[i] = row{p, int32(i)}
	}
	slices.SortFunc(rows, func(a, b row) int {
		if c := cmp.Compare(a.code, b.code); c != 0 {
			return c
		}
		return cmp.Compare(a.i, b.i)
	})
	for i, r := range rows {
		idx[i] = r.i
	}
	return idx, true
}

// codesOf is the codes of key k's column c: each non-null value's rank
// in [0, span] (reversed for DESC), and NULL below or above them all.
func codesOf(k SortKey, c *vec.Col, n int) (keyCodes, bool) {
	codes := make([]uint64, n)
	var span uint64
	switch {
	case c.I != nil:
		span = intCodes(c, n, codes)
	case c.Off != nil:
		var ok bool
		if span, ok = stringCodes(c, n, codes); !ok {
			return keyCodes{}, false
		}
	case c.B != nil:
		span = 1
		for i, b := range c.B[:n] {
			if b {
				codes[i] = 1
			}
		}
	default:
		return keyCodes{}, false
	}
	if k.Desc {
		for i, x := range codes {
			codes[i] = span - x
		}
	}
	if hasNull(c, n) {
		if span++; span == 0 {
			return keyCodes{}, false
		}
		for i, null := range c.Null[:n] {
			switch {
			case null && k.NullsFirst:
				codes[i] = 0
			case null:
				codes[i] = span
			case k.NullsFirst:
				codes[i]++
			}
		}
	}
	return keyCodes{codes: codes, width: bits.Len64(span)}, true
}

func hasNull(c *vec.Col, n int) bool {
	return c.Null != nil && slices.Contains(c.Null[:n], true)
}

// intCodes sets codes to the integers' offsets from the least non-null
// one (unsigned integers compared as such) and returns the greatest.
func intCodes(c *vec.Col, n int, codes []uint64) uint64 {
	// Offsetting by the least flips the sign bit of signed values, so
	// that unsigned order of the offsets is their signed order.
	flip := uint64(1) << 63
	if c.T.Kind == vec.KUint {
		flip = 0
	}
	lo, hi, seen := uint64(0), uint64(0), false
	for i, v := range c.I[:n] {
		if c.Null != nil && c.Null[i] {
			continue
		}
		u := uint64(v) ^ flip
		if !seen {
			lo, hi, seen = u, u, true
		}
		lo, hi = min(lo, u), max(hi, u)
	}
	for i, v := range c.I[:n] {
		if c.Null == nil || !c.Null[i] {
			codes[i] = uint64(v) ^ flip - lo
		}
	}
	return hi - lo
}

// maxRankedStrings bounds the distinct strings a key ranks, past a
// quarter of its rows: ranking many distinct strings costs a sort of its
// own and copies them, and comparing them in the row sort does as well.
func maxRankedStrings(n int) int { return 1024 + n/4 }

// stringCodes sets codes to the strings' ranks among the distinct
// non-null strings and returns the greatest; ok is false when they are
// too many (maxRankedStrings).
func stringCodes(c *vec.Col, n int, codes []uint64) (uint64, bool) {
	ids := map[string]uint64{}
	var distinct []string
	for i := 0; i < n; i++ {
		if c.Null != nil && c.Null[i] {
			continue
		}
		s := c.Str(i)
		id, seen := ids[string(s)]
		if !seen {
			if len(distinct) >= maxRankedStrings(n) {
				return 0, false
			}
			id = uint64(len(distinct))
			distinct = append(distinct, string(s))
			ids[string(s)] = id
		}
		codes[i] = id
	}
	if len(distinct) == 0 {
		return 0, true
	}
	order := make([]uint64, len(distinct))
	for id := range order {
		order[id] = uint64(id)
	}
	compare := cmp.Compare[string]
	if c.T.Bit {
		compare = vec.CompareBitText // DuckDB's order of bit strings
	}
	slices.SortFunc(order, func(a, b uint64) int { return compare(distinct[a], distinct[b]) })
	rank := make([]uint64, len(distinct))
	for r, id := range order {
		rank[id] = uint64(r)
	}
	for i := 0; i < n; i++ {
		if c.Null == nil || !c.Null[i] {
			codes[i] = rank[codes[i]]
		}
	}
	return uint64(len(distinct) - 1), true
}
