package vec

import "testing"

// Take of a coded column keeps its dictionary: it used to give boxed
// NULLs (found by the differential test through a CASE over a GROUP BY
// key's column).
func TestTakeCodedColumn(t *testing.T) {
	b := NewBuilder(Type{Kind: KString}, 2)
	b.Add("x")
	b.Add("")
	c := &Col{T: Type{Kind: KString}, Len: 3, Dict: b.C, Codes: []int32{1, 0, 1}, Null: []bool{false, false, true}}
	got := c.Take([]int32{2, 1, 0})
	if got.Len != 3 || !got.IsNull(0) || got.Get(1) != "x" || got.Get(2) != "" {
		t.Fatalf("took %v %v %v (nulls %v)", got.Get(0), got.Get(1), got.Get(2), got.Null)
	}
}
