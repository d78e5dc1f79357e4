package exec

import "testing"

// A batch with NULL keys goes through the map, whose groups may lie
// outside the ranges a later batch gives the direct table; building the
// table indexed them out of it and panicked (found by the differential
// test: SUM(k / 8) ... GROUP BY d1, i2).
func TestGrouperDenseTableAfterMapGroups(t *testing.T) {
	g := NewGrouper([]Type{tInt, tInt})
	assign := func(a, b []int64, null []bool) []int32 {
		gids := make([]int32, len(a))
		g.Assign([]*Col{{T: tInt, Len: len(a), I: a, Null: null}, {T: tInt, Len: len(b), I: b}}, len(a), gids)
		return gids
	}
	first := assign([]int64{-25567, 0, 5}, []int64{-630160, 3, 1 << 40}, []bool{false, true, false})
	second := assign([]int64{1, 2, 1}, []int64{3, 4, 3}, nil)
	if g.multiDense.table == nil {
		t.Fatal("small ranges without NULLs did not build the direct table")
	}
	third := assign([]int64{-25567, 1, 5}, []int64{-630160, 3, 1 << 40}, nil)
	if third[0] != first[0] || third[1] != second[0] || third[2] != first[2] {
		t.Fatalf("groups %v, then %v and %v", third, first, second)
	}
	if g.Groups() != 5 {
		t.Fatalf("%d groups, want 5", g.Groups())
	}
}
