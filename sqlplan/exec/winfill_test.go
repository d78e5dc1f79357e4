package exec

import (
	"testing"

	"github.com/carquet-go/carquet/sqlplan/vec"
)

// TestWindowFillTyped: fill writes a typed column in the input's row
// order: gaps interpolated (truncated), leading and trailing NULLs
// extrapolated (rounded half to even), rows with a NULL key untouched, a
// partition without values left NULL, and a TINYINT result past its
// range NULL.
func TestWindowFillTyped(t *testing.T) {
	part := nullable([]int64{1, 1, 1, 1, 1, 1, 2, 2})
	key := nullable([]int64{6, 1, 3, 2, 5, 0, 1, 2}, 5)
	arg := nullable([]int64{0, 10, 15, 0, 7, 0, 0, 0}, 0, 3, 4, 5, 6, 7)
	w := &WindowCall{Fn: "fill", T: vec.Type{Kind: vec.KInt}, Desc: []bool{false}, NullsFirst: []bool{false}}
	in := &WindowCols{Part: []*vec.Col{part}, Order: []*vec.Col{key}, Arg: arg}
	got, err := w.Eval(in, 8)
	if err != nil {
		t.Fatal(err)
	}
	// Partition 1 by key: 1: 10, 2: NULL (12), 3: 15, 5: NULL (from 10 by
	// 2 * 5: 20), 6: NULL (from 10 by 2.5 * 5 = 12.5, rounded to 12: 22);
	// a NULL key: NULL. Partition 2 has no value.
	if want := "22 10 15 12 20 NULL NULL NULL"; got.I == nil || colText(got) != want {
		t.Fatalf("fill: got %s, want %s", colText(got), want)
	}
	tiny := vec.Type{Kind: vec.KInt, Bits: 8}
	arg = &vec.Col{T: tiny, Len: 3, I: []int64{100, 120, 0}}
	arg.SetNull(2)
	w.T = tiny
	got, err = w.Eval(&WindowCols{Order: []*vec.Col{nullable([]int64{1, 2, 3})}, Arg: arg}, 3)
	if err != nil {
		t.Fatal(err)
	}
	if want := "100 120 NULL"; colText(got) != want {
		t.Fatalf("fill past TINYINT: got %s, want %s", colText(got), want)
	}
}

// TestInterpolateInt: inside the points the share of the difference is
// truncated; outside them the distance from the smaller value is rounded
// half to even, and a value past the limits is refused.
func TestInterpolateInt(t *testing.T) {
	lim := [2]int64{-128, 127}
	for _, c := range []struct {
		y0, y1 int64
		d      float64
		want   int64
		ok     bool
	}{
		{10, 15, 0.5, 12, true},
		{-3, 2, 0.5, -1, true},
		{15, 20, -0.5, 13, true}, // 2.5 rounds to 2
		{15, 20, 1.5, 23, true},  // 7.5 rounds to 8
		{40, 10, 2, -50, true},   // decreasing: mirrored about 10
		{100, 120, 2, 0, false},  // 140 leaves TINYINT
	} {
		got, ok := interpolateInt(c.y0, c.y1, c.d, lim)
		if ok != c.ok || ok && got != c.want {
			t.Errorf("interpolateInt(%d, %d, %g) = %d, %v; want %d, %v", c.y0, c.y1, c.d, got, ok, c.want, c.ok)
		}
	}
}
