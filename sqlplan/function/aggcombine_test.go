package function

import (
	"fmt"
	"math"
	"testing"

	"github.com/carquet-go/carquet/sqlplan/vec"
)

// TestCombineEqualsOneAccumulator feeds the rows of a column to one
// accumulator, and the same rows split in two (each share numbering its
// groups its own way) to two partial ones combined into a third: every
// combining aggregate gives the same result.
func TestCombineEqualsOneAccumulator(t *testing.T) {
	dec := vec.Type{Kind: vec.KDecimal, Prec: 38, Scale: 2}
	ints := &vec.Col{T: tInt, I: []int64{5, math.MaxInt64 - 3, -7, 5, math.MaxInt64 - 1, 9, 5, 0}, Null: []bool{false, false, false, false, false, false, true, false}}
	ints.Len = len(ints.I)
	decs := &vec.Col{T: vec.Type{Kind: vec.KDecimal, Prec: 18, Scale: 2}, I: ints.I, Null: ints.Null, Len: ints.Len}
	bools := &vec.Col{T: tBool, B: []bool{true, true, false, true, true, true, false, true}, Len: ints.Len}
	strs := vec.NewBuilder(tVarchar, 8)
	for _, s := range []string{"b", "zz", "a", "b", "c", "", "q", "m"} {
		strs.Add([]byte(s))
	}
	calls := []struct {
		call AggCall
		c    *vec.Col
	}{
		{AggCall{Fn: "count", T: tInt}, ints},
		{AggCall{Fn: "count_star", T: tInt}, ints},
		{AggCall{Fn: "sum", T: dec}, decs}, // the int64 sums overflow: widened
		{AggCall{Fn: "avg", T: tFloat, ExactT: &dec}, decs},
		{AggCall{Fn: "min", T: tInt}, ints},
		{AggCall{Fn: "max", T: tInt}, ints},
		{AggCall{Fn: "min", T: tVarchar}, strs.C},
		{AggCall{Fn: "max", T: tVarchar}, strs.C},
		{AggCall{Fn: "bool_and", T: tBool}, bools},
		{AggCall{Fn: "bool_or", T: tBool}, bools},
		{AggCall{Fn: "count", T: tInt, Distinct: true}, ints},
		{AggCall{Fn: "count", T: tInt, Distinct: true}, strs.C},
		{AggCall{Fn: "sum", T: dec, Distinct: true}, decs},
	}
	// Rows 0-7 in groups 0,1,0,1,0,1,2,2; the shares: rows 0-3 and 4-7.
	gids := []int32{0, 1, 0, 1, 0, 1, 2, 2}
	// Share 2 numbers group 1 as 0, group 0 as 1, group 2 as 2.
	into2 := []int32{1, 0, 2}
	for _, k := range calls {
		whole := NewAccumulator(&k.call)
		if !Combines(whole) {
			t.Fatalf("%s: does not combine", k.call.Fn)
		}
		whole.Update(gids, 3, k.c)
		p1, p2 := NewAccumulator(&k.call), NewAccumulator(&k.call)
		MarkPartial(p1)
		MarkPartial(p2)
		p1.Update(gids[:4], 2, k.c.Take([]int32{0, 1, 2, 3}))
		p2.Update([]int32{1, 0, 2, 2}, 3, k.c.Take([]int32{4, 5, 6, 7}))
		final := NewAccumulator(&k.call)
		final.(Combiner).Combine(p1, []int32{0, 1}, 2)
		final.(Combiner).Combine(p2, into2, 3)
		want, got := colText(whole.Result(3)), colText(final.Result(3))
		if got != want {
			t.Errorf("%s (distinct %v) of %s: combined %s, want %s", k.call.Fn, k.call.Distinct, k.c.T.SQLName(), got, want)
		}
	}
}

// TestCombinesOnlyOrderFree: aggregates whose result depends on the
// order of their rows do not combine.
func TestCombinesOnlyOrderFree(t *testing.T) {
	for _, c := range []AggCall{
		{Fn: "sum", T: tFloat}, {Fn: "avg", T: tFloat}, {Fn: "min", T: tFloat},
		{Fn: "string_agg", T: tVarchar}, {Fn: "first", T: tInt},
	} {
		if Combines(NewAccumulator(&c)) {
			t.Errorf("%s of %s combines", c.Fn, c.T.SQLName())
		}
	}
	tz := vec.Type{Kind: vec.KTimeTZ}
	if Combines(NewAccumulator(&AggCall{Fn: "max", T: tz})) {
		t.Errorf("max of TIMETZ combines")
	}
}

func colText(c *vec.Col) string {
	var s string
	for i := range c.Len {
		s += fmt.Sprint(c.Value(i), " ")
	}
	return s
}
