package function

import (
	"math"
	"testing"

	"github.com/carquet-go/carquet/sqlplan/vec"
)

// TestOtherBin: is_histogram_other_bin is true exactly for the key of
// the histogram's overflow bin of each type, and refuses the types
// carquet has no such key for.
func TestOtherBin(t *testing.T) {
	for _, c := range []struct {
		col  *vec.Col
		want []bool
	}{
		{&vec.Col{T: vec.Type{Kind: vec.KInt, Bits: 8}, Len: 3, I: []int64{127, 126, -128}}, []bool{true, false, false}},
		{&vec.Col{T: vec.Type{Kind: vec.KInt, Bits: 32}, Len: 2, I: []int64{math.MaxInt32, math.MaxInt64}}, []bool{true, false}},
		{&vec.Col{T: vec.Type{Kind: vec.KUint, Bits: 16}, Len: 2, I: []int64{65535, 255}}, []bool{true, false}},
		{&vec.Col{T: vec.Type{Kind: vec.KUint}, Len: 1, I: []int64{-1}}, []bool{true}},
		{floatCol(math.Inf(1), math.Inf(-1), math.NaN(), 0), []bool{true, false, false, false}},
		{strCol("", "a"), []bool{true, false}},
		{&vec.Col{T: vec.Type{Kind: vec.KDecimal, Prec: 3, Scale: 2}, Len: 2, I: []int64{999, 998}}, []bool{true, false}},
		{&vec.Col{T: vec.Type{Kind: vec.KNested, Elem: &tInt}, Len: 2, A: []any{[]any{}, []any{int64(1)}}}, []bool{true, false}},
		{&vec.Col{T: tBool, Len: 2, B: []bool{true, false}}, []bool{false, false}},
	} {
		if _, _, err := otherBinRule([]vec.Type{c.col.T}); err != nil {
			t.Fatalf("%s: %v", c.col.T.SQLName(), err)
		}
		out, err := otherBinBatch([]*vec.Col{c.col}, c.col.Len)
		if err != nil {
			t.Fatal(err)
		}
		for i, w := range c.want {
			if out.B[i] != w {
				t.Errorf("%s row %d: %v, want %v", c.col.T.SQLName(), i, out.B[i], w)
			}
		}
	}
	if _, _, err := otherBinRule([]vec.Type{{Kind: vec.KDecimal, Prec: 38, Huge: true}}); err == nil {
		t.Error("HUGEINT: no error")
	}
}

// TestTimeTZSortKey: the sort key orders by UTC time, then the larger
// offset first, and matches DuckDB's value for 18:18:16.21-07:00.
func TestTimeTZSortKey(t *testing.T) {
	keys := &vec.Col{T: TTimeTZ, Len: 3, I: []int64{
		vec.TimeTZKey(65896210000, -7*3600), vec.TimeTZKey(3600e6, 3600), vec.TimeTZKey(0, 0),
	}}
	keys.SetNull(2)
	out, err := timeTZSortKeyBatch([]*vec.Col{keys}, 3)
	if err != nil {
		t.Fatal(err)
	}
	if uint64(out.I[0]) != 2494691656335442799 || !out.IsNull(2) || out.T.Kind != vec.KUint {
		t.Errorf("keys %v (NULL %v, %s)", out.I, out.IsNull(2), out.T.SQLName())
	}
	if out.I[1] >= vec.TimeTZKey(3600e6, 0) {
		t.Error("01:00+01 (00:00 UTC) does not sort before 01:00+00")
	}
}
