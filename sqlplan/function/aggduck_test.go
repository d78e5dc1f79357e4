package function

import (
	"math"
	"testing"

	"github.com/carquet-go/carquet/sqlplan/vec"
)

// TestArgNullModes: DuckDB's arg_max_null keeps a NULL argument as a
// value and skips NULL keys; arg_max_nulls_last also ranks a NULL key
// below every other, so it wins only in a group without another key,
// whichever batch that key comes in. The same for each storage of the
// keys (integers, floats, text as scalars); plain arg_max is unchanged.
func TestArgNullModes(t *testing.T) {
	tInt := vec.Type{Kind: vec.KInt}
	tF := vec.Type{Kind: vec.KFloat}
	tStr := vec.Type{Kind: vec.KString}
	// keys builds a key column of type kt from ints (nil: NULL).
	keys := func(kt vec.Type, vs ...any) *vec.Col {
		b := vec.NewBuilder(kt, len(vs))
		for _, v := range vs {
			switch {
			case v == nil:
				b.Add(nil)
			case kt.Kind == vec.KFloat:
				b.Add(float64(v.(int)))
			case kt.Kind == vec.KString:
				b.Add(string(rune('a' + v.(int))))
			default:
				b.Add(int64(v.(int)))
			}
		}
		return b.C
	}
	vals := func(vs ...any) *vec.Col { return keys(tInt, vs...) }
	// Group 0 holds rows (1, 5), (NULL, 9), (3, NULL), (4, 1); group 1
	// rows (1, NULL), (2, NULL), then in a second batch (7, 0); group 2
	// only (5, NULL).
	first := [3]*vec.Col{nil, vals(1, nil, 3, 4, 1, 2, 5), nil}
	gids1 := []int32{0, 0, 0, 0, 1, 1, 2}
	gids2 := []int32{1}
	want := map[string][3]any{
		"arg_max":            {int64(1), int64(7), nil},
		"arg_min":            {int64(4), int64(7), nil},
		"arg_max_null":       {nil, int64(7), nil},
		"arg_min_null":       {int64(4), int64(7), nil},
		"arg_max_nulls_last": {nil, int64(7), int64(5)},
		"arg_min_nulls_last": {int64(4), int64(7), int64(5)},
	}
	for _, kt := range []vec.Type{tInt, tF, tStr} {
		first[2] = keys(kt, 5, 9, nil, 1, nil, nil, nil)
		for fn, w := range want {
			acc := NewAccumulator(&AggCall{Fn: fn, T: tInt, Arg2T: kt}).(PairAccumulator)
			acc.Update2(gids1, 3, first[1], first[2])
			acc.Update2(gids2, 3, vals(7), keys(kt, 0))
			r := acc.Result(3)
			for g := range 3 {
				if got := r.Get(g); got != w[g] {
					t.Errorf("%s, %s keys, group %d: %v, want %v", fn, kt.SQLName(), g, got, w[g])
				}
			}
		}
	}
	// nulls_last before and after a key arrives, as a window's running
	// frame reads it: the NULL key's row, then the later key's.
	acc := NewAccumulator(&AggCall{Fn: "arg_max_nulls_last", T: tInt, Arg2T: tInt}).(PairAccumulator)
	acc.Update2([]int32{0}, 1, vals(1), keys(tInt, nil))
	if got := acc.Result(1).Get(0); got != int64(1) {
		t.Errorf("running, NULL key only: %v", got)
	}
	acc.Update2([]int32{0}, 1, vals(2), keys(tInt, -3))
	if got := acc.Result(1).Get(0); got != int64(2) {
		t.Errorf("running, then a key: %v", got)
	}
}

// TestMad: the median of the distances to the median, both interpolated;
// NULLs skipped; a group without values is NULL; reading the result
// twice gives it twice (a window's running frame does).
func TestMad(t *testing.T) {
	c := &vec.Col{T: tFloat, Len: 7, F: []float64{1, 2, 0, 3, 10, 1.5, 100}}
	c.SetNull(2)
	acc := NewAccumulator(&AggCall{Fn: "mad", T: tFloat})
	acc.Update([]int32{0, 0, 0, 0, 0, 1, 1}, 3, c)
	acc.Update([]int32{1}, 3, &vec.Col{T: tFloat, Len: 1, F: []float64{2.5}})
	for range 2 {
		r := acc.Result(3)
		// Group 0: 1 2 3 10, median 2.5, distances 1.5 .5 .5 7.5: 1.
		// Group 1: 1.5 100 2.5, median 2.5, distances 1 97.5 0: 1.
		if r.F[0] != 1 || r.F[1] != 1 || !r.IsNull(2) || r.IsNull(0) {
			t.Errorf("mad: %v %v %v", r.Get(0), r.Get(1), r.Get(2))
		}
	}
	sem := NewAccumulator(&AggCall{Fn: "sem", T: tFloat})
	sem.Update([]int32{0, 0, 0, 0}, 1, &vec.Col{T: tFloat, Len: 4, F: []float64{1, 2, 3, 10}})
	// stddev_pop = sqrt(12.5), over sqrt(4).
	if got := sem.Result(1).F[0]; math.Abs(got-math.Sqrt(12.5)/2) > 1e-12 {
		t.Errorf("sem: %v", got)
	}
}
