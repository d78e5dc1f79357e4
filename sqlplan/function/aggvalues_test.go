package function

import (
	"math"
	"math/big"
	"testing"

	"github.com/carquet-go/carquet/parquet/value"
	"github.com/carquet-go/carquet/sqlplan/vec"
)

// quantileOf feeds vals (nil: NULL) to a fresh accumulator of call a as
// one group and returns its result.
func quantileOf(t *testing.T, a *AggCall, c *vec.Col) any {
	t.Helper()
	acc := NewAccumulator(a)
	acc.Update(make([]int32, c.Len), 1, c)
	if err := AccError(acc); err != nil {
		t.Fatal(err)
	}
	return acc.Result(1).Get(0)
}

// The typed quantiles (integer-stored and float values) pick and
// interpolate as DuckDB: quantile_cont between the two values around
// (n-1)*q, truncated for integers; quantile_disc the ceil(n*q)-th; NULLs
// skipped; DESC ranks downwards; UBIGINT ranks unsigned; NaN above all.
func TestQuantileTyped(t *testing.T) {
	ints := func(tt vec.Type, vs ...int64) *vec.Col {
		return &vec.Col{T: tt, Len: len(vs), I: vs}
	}
	tInt := vec.Type{Kind: vec.KInt}
	tDec := vec.Type{Kind: vec.KDecimal, Prec: 9, Scale: 2}
	tU := vec.Type{Kind: vec.KUint}
	withNull := ints(tInt, 10, 0, 30, 20)
	withNull.SetNull(1)
	cases := []struct {
		name string
		a    AggCall
		c    *vec.Col
		want any
	}{
		{"cont median, even count", AggCall{Fn: "quantile_cont", T: tDec, Q: 0.5}, ints(tDec, 400, 100, 300, 200), int64(250)},
		{"cont truncates", AggCall{Fn: "quantile_cont", T: tInt, Q: 0.25}, ints(tInt, 0, 3), int64(0)},
		{"disc skips NULL", AggCall{Fn: "quantile_disc", T: tInt, Q: 0.5}, withNull, int64(20)},
		{"disc desc", AggCall{Fn: "quantile_disc", T: tInt, Q: 0.25, QDesc: true}, ints(tInt, 1, 2, 3, 4), int64(4)},
		{"disc unsigned", AggCall{Fn: "quantile_disc", T: tU, Q: 1}, ints(tU, 1, -1, 5), uint64(math.MaxUint64)},
		{"cont floats", AggCall{Fn: "quantile_cont", T: tFloat, Q: 0.5}, &vec.Col{T: tFloat, Len: 3, F: []float64{3, 1, 2}}, 2.0},
		{"disc NaN last", AggCall{Fn: "quantile_disc", T: tFloat, Q: 1}, &vec.Col{T: tFloat, Len: 3, F: []float64{math.NaN(), 1e300, 0}}, math.NaN()},
	}
	for _, c := range cases {
		got := quantileOf(t, &c.a, c.c)
		if f, ok := c.want.(float64); ok && math.IsNaN(f) {
			if g, ok := got.(float64); !ok || !math.IsNaN(g) {
				t.Errorf("%s: %v, want NaN", c.name, got)
			}
			continue
		}
		if got != c.want {
			t.Errorf("%s: %v (%T), want %v (%T)", c.name, got, got, c.want, c.want)
		}
	}
	// A list of fractions gives the list of quantiles, typed values too.
	a := AggCall{Fn: "quantile_disc", T: vec.Type{Kind: vec.KNested, Elem: &tInt}, Qs: []float64{0, 0.5, 1}}
	got, ok := quantileOf(t, &a, ints(tInt, 5, 1, 3)).([]any)
	if !ok || len(got) != 3 || got[0] != int64(1) || got[1] != int64(3) || got[2] != int64(5) {
		t.Errorf("list of quantiles: %v", got)
	}
	// Wide decimals stay scalars, interpolated exactly.
	wide := vec.Type{Kind: vec.KDecimal, Prec: 38, Scale: 0}
	b := vec.NewBuilder(wide, 2)
	b.Add(value.Decimal{Unscaled: big.NewInt(10)})
	b.Add(value.Decimal{Unscaled: big.NewInt(20)})
	w := AggCall{Fn: "quantile_cont", T: wide, Q: 0.5}
	if d, ok := quantileOf(t, &w, b.C).(value.Decimal); !ok || d.Unscaled.Int64() != 15 {
		t.Errorf("wide decimal median: %v", d)
	}
	// A group without values is NULL.
	empty := NewAccumulator(&AggCall{Fn: "quantile_cont", T: tFloat, Q: 0.5})
	if r := empty.Result(2); !r.IsNull(0) || !r.IsNull(1) {
		t.Errorf("empty groups: %v %v", r.Get(0), r.Get(1))
	}
}

// TestExtremeBytes: min and max of text compare bytes in place, keep
// their own copies (the input's buffers are reused), and take the empty
// string as a value.
func TestExtremeBytes(t *testing.T) {
	tStr := vec.Type{Kind: vec.KString}
	batch := func(vs ...string) *vec.Col {
		b := vec.NewBuilder(tStr, len(vs))
		for _, v := range vs {
			if v == "NULL" {
				b.Add(nil)
			} else {
				b.Add(v)
			}
		}
		return b.C
	}
	lo, hi := NewAccumulator(&AggCall{Fn: "min", T: tStr}), NewAccumulator(&AggCall{Fn: "max", T: tStr})
	gids := []int32{0, 1, 0, 1}
	first := batch("pear", "NULL", "apple", "")
	for _, a := range []Accumulator{lo, hi} {
		a.Update(gids, 3, first)
	}
	clear(first.Data) // the input's buffer is reused
	second := batch("zebra", "b", "NULL", "NULL")
	for _, a := range []Accumulator{lo, hi} {
		a.Update(gids, 3, second)
	}
	want := map[Accumulator][]any{lo: {"apple", "", nil}, hi: {"zebra", "b", nil}}
	for a, w := range want {
		r := a.Result(3)
		for g, v := range w {
			if got := r.Get(g); got != v {
				t.Errorf("group %d: %v, want %v", g, got, v)
			}
		}
	}
}

// TestArgTyped: arg_max and arg_min over keys kept typed (integers,
// UBIGINT, TIMETZ, floats) take the first of equal keys, skip rows where
// either argument is NULL, rank UBIGINT unsigned, TIMETZ by local time
// and NaN above all, over several batches; other keys as scalars.
func TestArgTyped(t *testing.T) {
	tInt := vec.Type{Kind: vec.KInt}
	val := func(vs ...int64) *vec.Col { return &vec.Col{T: tInt, Len: len(vs), I: vs} }
	run := func(fn string, kt vec.Type, batches ...[2]*vec.Col) any {
		acc := NewAccumulator(&AggCall{Fn: fn, T: tInt, Arg2T: kt}).(PairAccumulator)
		for _, b := range batches {
			acc.Update2(make([]int32, b[0].Len), 1, b[0], b[1])
		}
		return acc.Result(1).Get(0)
	}
	withNullVal := val(1, 2, 3)
	withNullVal.SetNull(2)
	keyNull := &vec.Col{T: tInt, Len: 2, I: []int64{100, 5}}
	keyNull.SetNull(0)
	tU, tTZ := vec.Type{Kind: vec.KUint}, vec.Type{Kind: vec.KTimeTZ}
	// 12:00+00 is later in local time than 11:00-05 (16:00 UTC).
	noonUTC := vec.TimeTZKey(12*3600e6, 0)
	elevenEST := vec.TimeTZKey(11*3600e6, -5*3600)
	tF := vec.Type{Kind: vec.KFloat}
	floats := func(vs ...float64) *vec.Col { return &vec.Col{T: tF, Len: len(vs), F: vs} }
	cases := []struct {
		name string
		got  any
		want any
	}{
		{"max, first of ties", run("arg_max", tInt, [2]*vec.Col{val(1, 2, 3), val(7, 9, 9)}), int64(2)},
		{"min, later batch", run("arg_min", tInt, [2]*vec.Col{val(1, 2), val(7, 9)}, [2]*vec.Col{val(3), val(-4)}), int64(3)},
		{"NULL value skipped", run("arg_max", tInt, [2]*vec.Col{withNullVal, val(1, 2, 50)}), int64(2)},
		{"NULL key skipped", run("arg_max", tInt, [2]*vec.Col{val(1, 2), keyNull}), int64(2)},
		{"unsigned", run("arg_max", tU, [2]*vec.Col{val(1, 2), &vec.Col{T: tU, Len: 2, I: []int64{5, -1}}}), int64(2)},
		{"timetz local", run("arg_max", tTZ, [2]*vec.Col{val(1, 2), &vec.Col{T: tTZ, Len: 2, I: []int64{noonUTC, elevenEST}}}), int64(1)},
		{"float NaN highest", run("arg_max", tF, [2]*vec.Col{val(1, 2, 3), floats(math.Inf(1), math.NaN(), 0)}), int64(2)},
		{"float min", run("arg_min", tF, [2]*vec.Col{val(1, 2), floats(-0.5, 3)}), int64(1)},
		{"no rows", run("arg_max", tInt), nil},
	}
	for _, c := range cases {
		if c.got != c.want {
			t.Errorf("%s: %v, want %v", c.name, c.got, c.want)
		}
	}
	// Keys with no typed storage (text) compare as scalars.
	tStr := vec.Type{Kind: vec.KString}
	b := vec.NewBuilder(tStr, 3)
	for _, s := range []string{"b", "c", "a"} {
		b.Add(s)
	}
	if got := run("arg_max", tStr, [2]*vec.Col{val(1, 2, 3), b.C}); got != int64(2) {
		t.Errorf("text keys: %v", got)
	}
}

// TestLastTyped: last of integers and floats keeps each group's last
// row's value, a NULL one included, over several batches; a group
// without rows is NULL; a batch of NULLs without values counts.
func TestLastTyped(t *testing.T) {
	tInt, tF := vec.Type{Kind: vec.KInt}, vec.Type{Kind: vec.KFloat}
	ints := NewAccumulator(&AggCall{Fn: "last", T: tInt})
	if _, ok := ints.(*lastTypedAcc[int64]); !ok {
		t.Fatalf("last of BIGINT: %T", ints)
	}
	ints.Update([]int32{0, 1, 0, 2}, 3, &vec.Col{T: tInt, Len: 4, I: []int64{1, 2, 3, 4}})
	nulls := &vec.Col{T: tInt, Len: 1}
	nulls.SetNull(0)
	ints.Update([]int32{2}, 4, nulls)
	r := ints.Result(4)
	for g, want := range []any{int64(3), int64(2), nil, nil} {
		if got := r.Get(g); got != want {
			t.Errorf("ints, group %d: %v, want %v", g, got, want)
		}
	}
	floats := NewAccumulator(&AggCall{Fn: "last", T: tF})
	withNull := &vec.Col{T: tF, Len: 2, F: []float64{1.5, 0}}
	withNull.SetNull(1)
	floats.Update([]int32{0, 0}, 1, withNull)
	floats.Update([]int32{1}, 2, &vec.Col{T: tF, Len: 1, F: []float64{-2}})
	rf := floats.Result(2)
	if rf.Get(0) != nil || rf.Get(1) != -2.0 {
		t.Errorf("floats: %v %v, want NULL -2", rf.Get(0), rf.Get(1))
	}
}
