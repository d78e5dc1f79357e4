package exec

import (
	"cmp"
	"container/heap"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestSortRows sorts rows of an integer, a string, a float and an
// unsigned key with NULLs and many ties, in every direction and NULL
// placement, against a reference comparison of the keys' values; rows
// that tie on all keys keep their input order.
func TestSortRows(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	const n = 3000
	ints := &Col{T: tInt, Len: n, I: make([]int64, n), Null: make([]bool, n)}
	floats := &Col{T: Type{Kind: KFloat}, Len: n, F: make([]float64, n), Null: make([]bool, n)}
	uints := &Col{T: Type{Kind: vecKUint}, Len: n, I: make([]int64, n)}
	strs := make([]string, n)
	fv := []float64{math.NaN(), math.Inf(-1), -1, 0, 2.5, math.Inf(1)}
	for i := 0; i < n; i++ {
		ints.I[i] = r.Int64N(7) - 3
		ints.Null[i] = r.IntN(6) == 0
		floats.F[i] = fv[r.IntN(len(fv))]
		floats.Null[i] = r.IntN(9) == 0
		uints.I[i] = int64(r.Uint64() >> r.IntN(64)) // half above MaxInt64 as signed
		strs[i] = words[r.IntN(3)]
	}
	null := make([]bool, n)
	for i := range null {
		null[i] = r.IntN(7) == 0
	}
	cols := []*Col{ints, strColumn(strs, null), floats, uints}
	// ref orders the non-null values of column c.
	ref := func(c, a, b int) int {
		switch c {
		case 0:
			return cmp.Compare(ints.I[a], ints.I[b])
		case 1:
			return cmp.Compare(strs[a], strs[b])
		case 2:
			return cmp.Compare(floats.F[a], floats.F[b]) // NaN first: flipped below
		}
		return cmp.Compare(uint64(uints.I[a]), uint64(uints.I[b]))
	}
	for _, desc := range []bool{false, true} {
		for _, nullsFirst := range []bool{false, true} {
			for _, order := range [][]int{{0}, {1, 0}, {2}, {3}, {0, 2, 1}} {
				var keys []SortKey
				for _, c := range order {
					keys = append(keys, SortKey{Col: c, Desc: desc, NullsFirst: nullsFirst})
				}
				got := SortRows(keys, cols, n)
				for p := 1; p < n; p++ {
					a, b := int(got[p-1]), int(got[p])
					c := 0
					for _, col := range order {
						an, bn := cols[col].IsNull(a), cols[col].IsNull(b)
						switch {
						case an && bn:
							continue
						case an != bn:
							c = map[bool]int{true: -1, false: 1}[an == nullsFirst]
						default:
							c = ref(col, a, b)
							if col == 2 && (math.IsNaN(floats.F[a]) != math.IsNaN(floats.F[b])) {
								c = -c // NaN sorts above every number
							}
							if desc {
								c = -c
							}
						}
						if c != 0 {
							break
						}
					}
					if c > 0 || c == 0 && a > b {
						t.Fatalf("keys %v desc %v nulls first %v: row %d before row %d", order, desc, nullsFirst, a, b)
					}
				}
			}
		}
	}
}

// TopHeap keeps the k first rows by the keys: its top is the worst kept.
func TestTopHeap(t *testing.T) {
	c := &Col{T: tInt, Len: 10, I: []int64{5, 3, 9, 1, 7, 3, 0, 8, 2, 6}, Null: make([]bool, 10)}
	c.Null[6] = true
	h := &TopHeap{Keys: []SortKey{{Col: 0}}, Kept: []*Col{c}}
	for i := 0; i < c.Len; i++ {
		if h.Len() < 4 {
			heap.Push(h, int32(i))
		} else if CompareRows(h.Keys, h.Kept, i, h.Kept, int(h.Idx[0])) < 0 {
			h.Idx[0] = int32(i)
			heap.Fix(h, 0)
		}
	}
	var got []int64
	for h.Len() > 0 {
		got = append(got, c.I[heap.Pop(h).(int32)])
	}
	if !slices.Equal(got, []int64{3, 3, 2, 1}) {
		t.Errorf("kept %v, want the four smallest, worst first", got)
	}
}

// Strings too many to rank sort by comparison, in the same order.
func TestSortRowsManyStrings(t *testing.T) {
	r := rand.New(rand.NewPCG(15, 16))
	const n = 5000
	vals := make([]string, n)
	for i := range vals {
		vals[i] = string(rune('a'+r.IntN(26))) + string(rune('a'+r.IntN(26))) + string(rune('a'+r.IntN(26)))
	}
	c := strColumn(vals, nil)
	keys := []SortKey{{Col: 0, Desc: true}}
	if _, ok := sortByCodes(keys, []*Col{c}, n); ok {
		t.Fatal("ranked more strings than maxRankedStrings")
	}
	got := SortRows(keys, []*Col{c}, n)
	for p := 1; p < n; p++ {
		a, b := got[p-1], got[p]
		if c := cmp.Compare(vals[a], vals[b]); c < 0 || c == 0 && a > b {
			t.Fatalf("row %d (%q) before row %d (%q)", a, vals[a], b, vals[b])
		}
	}
}
