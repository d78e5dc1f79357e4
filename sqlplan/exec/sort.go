package exec

import (
	"bytes"
	"cmp"
	"slices"

	"github.com/carquet-go/carquet/sqlplan/vec"
)

// SortKey orders by one column of the batches; NULLs sort last in both
// directions (as in DuckDB) unless NullsFirst.
type SortKey struct {
	Col        int
	Desc       bool
	NullsFirst bool
	Text       string // the key as written, for EXPLAIN
}

// CompareRows orders row i of a against row j of b by the keys.
func CompareRows(keys []SortKey, a []*vec.Col, i int, b []*vec.Col, j int) int {
	for _, k := range keys {
		ca, cb := a[k.Col], b[k.Col]
		an, bn := ca.IsNull(i), cb.IsNull(j)
		var c int
		switch {
		case an && bn:
			continue
		case an:
			if k.NullsFirst {
				return -1
			}
			return 1
		case bn:
			if k.NullsFirst {
				return 1
			}
			return -1
		default:
			c = vec.CompareAt(ca, i, cb, j)
		}
		if c != 0 {
			if k.Desc {
				return -c
			}
			return c
		}
	}
	return 0
}

// SortRows returns the order of the n rows of cols by the keys; rows
// that tie keep their input order. The sort is not a stable one (a
// stable sort's merges compare far more): ties are broken by row
// number, which orders them as a stable sort would.
func SortRows(keys []SortKey, cols []*vec.Col, n int) []int32 {
	if idx, ok := sortByCodes(keys, cols, n); ok {
		return idx
	}
	idx := make([]int32, n)
	for i := range idx {
		idx[i] = int32(i)
	}
	o := newRowOrder(keys, cols)
	slices.SortFunc(idx, func(a, b int32) int {
		if c := o.compare(int(a), int(b)); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
	return idx
}

// rowOrder compares rows of one set of columns by sort keys, each key's
// values read from its typed slice.
type rowOrder []keyOrder

// keyOrder is one key of a rowOrder.
type keyOrder struct {
	how        keyKind
	null       []bool
	ints       []int64
	floats     []float64
	off        []int32
	data       []byte
	col        *vec.Col // the others
	desc       bool
	nullsFirst bool
}

type keyKind uint8

const (
	keyInt keyKind = iota
	keyUint
	keyFloat
	keyBytes
	keyOther
)

func newRowOrder(keys []SortKey, cols []*vec.Col) rowOrder {
	o := make(rowOrder, len(keys))
	for k, key := range keys {
		c := cols[key.Col]
		ko := keyOrder{how: keyOther, null: c.Null, col: c, desc: key.Desc, nullsFirst: key.NullsFirst}
		switch {
		case c.I != nil && c.T.Kind == vec.KUint:
			ko.how, ko.ints = keyUint, c.I
		case c.I != nil:
			ko.how, ko.ints = keyInt, c.I
		case c.F != nil:
			ko.how, ko.floats = keyFloat, c.F
		case c.Off != nil && !c.T.Bit: // a BIT has its own order (CompareAt)
			ko.how, ko.off, ko.data = keyBytes, c.Off, c.Data
		}
		o[k] = ko
	}
	return o
}

// compare orders rows i and j as CompareRows does.
func (o rowOrder) compare(i, j int) int {
	for k := range o {
		ko := &o[k]
		if ko.null != nil {
			an, bn := ko.null[i], ko.null[j]
			if an || bn {
				if an && bn {
					continue
				}
				if an == ko.nullsFirst {
					return -1
				}
				return 1
			}
		}
		var c int
		switch ko.how {
		case keyInt:
			c = cmp.Compare(ko.ints[i], ko.ints[j])
		case keyUint:
			c = cmp.Compare(uint64(ko.ints[i]), uint64(ko.ints[j]))
		case keyFloat:
			c = vec.CmpFloat(ko.floats[i], ko.floats[j])
		case keyBytes:
			c = bytes.Compare(ko.data[ko.off[i]:ko.off[i+1]], ko.data[ko.off[j]:ko.off[j+1]])
		default:
			c = vec.CompareAt(ko.col, i, ko.col, j)
		}
		if c != 0 {
			if ko.desc {
				return -c
			}
			return c
		}
	}
	return 0
}

// TopHeap is a max-heap (by sort order) of row indices into Kept, for
// container/heap: its top is the worst row kept.
type TopHeap struct {
	Keys []SortKey
	Kept []*vec.Col
	Idx  []int32
}

func (h *TopHeap) Len() int { return len(h.Idx) }
func (h *TopHeap) Less(a, b int) bool {
	return CompareRows(h.Keys, h.Kept, int(h.Idx[a]), h.Kept, int(h.Idx[b])) > 0
}
func (h *TopHeap) Swap(a, b int) { h.Idx[a], h.Idx[b] = h.Idx[b], h.Idx[a] }
func (h *TopHeap) Push(x any)    { h.Idx = append(h.Idx, x.(int32)) }
func (h *TopHeap) Pop() any {
	x := h.Idx[len(h.Idx)-1]
	h.Idx = h.Idx[:len(h.Idx)-1]
	return x
}
