package exec

import (
	"math/rand/v2"
	"strconv"
	"testing"
)

// Keys met before the groups were many enough for the dense array (an
// unordered scan's first batch of high keys) move into it later; every
// key keeps its group throughout.
func TestGrouperMovesEarlyKeysIntoDenseArray(t *testing.T) {
	g := NewGrouper([]Type{tInt})
	ids := map[int64]int32{}
	check := func(keys []int64) {
		t.Helper()
		c := &Col{T: tInt, Len: len(keys), I: keys}
		gids := make([]int32, len(keys))
		g.Assign([]*Col{c}, len(keys), gids)
		for i, k := range keys {
			if id, ok := ids[k]; ok && id != gids[i] {
				t.Fatalf("key %d: group %d, was %d", k, gids[i], id)
			}
			ids[k] = gids[i]
		}
	}
	var high []int64
	for k := int64(1_000_000); k < 1_000_500; k++ {
		high = append(high, k)
	}
	check(high)
	r := rand.New(rand.NewPCG(5, 6))
	for from := int64(0); from < 1_200_000; from += 4096 {
		var batch []int64
		for k := from; k < from+4096; k += 4 {
			batch = append(batch, k, k)
		}
		batch = append(batch, high[r.IntN(len(high))])
		check(batch)
	}
	check(high)
	if g.Groups() != len(ids) {
		t.Fatalf("%d groups for %d keys", g.Groups(), len(ids))
	}
	if len(g.ints) != 0 {
		t.Errorf("%d keys are still in the map: they fit the dense array", len(g.ints))
	}
}

// Multi-column keys in small ranges go through the direct table; ranges
// that grow rebuild it, nulls and wide ranges take the map; a key keeps
// its group throughout, whichever way it is found.
func TestGrouperDenseMultiKeys(t *testing.T) {
	strCol := func(vals []string, null []bool) *Col {
		c := &Col{T: tString, Len: len(vals), Off: []int32{0}, Null: null}
		for _, v := range vals {
			c.Data = append(c.Data, v...)
			c.Off = append(c.Off, int32(len(c.Data)))
		}
		return c
	}
	g := NewGrouper([]Type{tString, tInt})
	ids := map[string]int32{}
	r := rand.New(rand.NewPCG(7, 8))
	check := func(strs []string, ints []int64, null []bool) {
		t.Helper()
		gids := make([]int32, len(strs))
		g.Assign([]*Col{strCol(strs, null), {T: tInt, Len: len(ints), I: ints}}, len(strs), gids)
		for i := range strs {
			k := strs[i] + "|" + strconv.FormatInt(ints[i], 10)
			if null != nil && null[i] {
				k = "NULL|" + strconv.FormatInt(ints[i], 10)
			}
			if id, ok := ids[k]; ok && id != gids[i] {
				t.Fatalf("key %q: group %d, was %d", k, gids[i], id)
			}
			ids[k] = gids[i]
		}
	}
	batch := func(letters string, lo, hi int64, nulls bool) {
		strs := make([]string, 2000)
		ints := make([]int64, 2000)
		var null []bool
		if nulls {
			null = make([]bool, 2000)
		}
		for i := range strs {
			strs[i] = string(letters[r.IntN(len(letters))])
			ints[i] = lo + r.Int64N(hi-lo+1)
			if nulls && i%7 == 0 {
				null[i] = true
			}
		}
		check(strs, ints, null)
	}
	batch("AR", 1, 3, false)
	if g.multiDense.table == nil {
		t.Fatal("small ranges did not build the direct table")
	}
	batch("ARN", -5, 10, false) // ranges grow: the table is rebuilt
	batch("AR", 1, 3, true)     // nulls: the map
	batch("NOFA", 0, 20, false)
	if g.multiDense.off {
		t.Fatal("the table was given up while its ranges stayed small")
	}
	batch("AR", 0, 1<<20, false) // too wide: the map for good
	if !g.multiDense.off {
		t.Fatal("a range of 2^20 kept the direct table")
	}
	batch("AR", 1, 3, false)
	if g.Groups() != len(ids) {
		t.Fatalf("%d groups for %d keys", g.Groups(), len(ids))
	}
}

// TestGrouperDenseAfterMapGroups: groups the map made for a batch with
// nulls (the direct table is not used then) can lie outside the ranges
// of a later batch without nulls; building the table for that batch
// must leave them to the map (it indexed the table with them: a panic
// found by the differential test).
func TestGrouperDenseAfterMapGroups(t *testing.T) {
	g := NewGrouper([]Type{tInt, tInt})
	gids := make([]int32, 3)
	g.Assign([]*Col{{T: tInt, Len: 3, I: []int64{191, 5, 7}, Null: []bool{false, false, true}}, {T: tInt, Len: 3, I: []int64{1, 2, 3}}}, 3, gids)
	first := gids[0]
	g.Assign([]*Col{{T: tInt, Len: 2, I: []int64{4, 5}}, {T: tInt, Len: 2, I: []int64{1, 2}}}, 2, gids)
	if gids[1] != 1 {
		t.Fatalf("key (5, 2) is group %d, was 1", gids[1])
	}
	g.Assign([]*Col{{T: tInt, Len: 1, I: []int64{191}}, {T: tInt, Len: 1, I: []int64{1}}}, 1, gids)
	if gids[0] != first {
		t.Fatalf("key (191, 1) is group %d, was %d", gids[0], first)
	}
	if g.Groups() != 4 {
		t.Fatalf("%d groups, want 4", g.Groups())
	}
}
