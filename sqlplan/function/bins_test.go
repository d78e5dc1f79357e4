package function

import (
	"math"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/carquet-go/carquet/sqlplan/vec"
)

// bins runs EquiWidthBins on one row of bounds lo and hi.
func bins(lo, hi *vec.Col, n int64, nice bool) (any, error) {
	niceCol := &vec.Col{T: tBool, Len: 1, B: []bool{nice}}
	return EquiWidthBins([]*vec.Col{lo, hi, intCol(n), niceCol}, 0)
}

func TestEquiWidthBins(t *testing.T) {
	for _, c := range []struct {
		name   string
		lo, hi *vec.Col
		n      int64
		nice   bool
		want   []any
	}{
		{"integers", intCol(0), intCol(10), 2, false, []any{int64(5), int64(10)}},
		{"one value", intCol(7), intCol(7), 3, false, []any{int64(7)}},
		{"truncated alike are one bin", intCol(0), intCol(1), 4, false, []any{int64(0), int64(1)}},
		{"nice integers", intCol(0), intCol(97), 5, true, []any{int64(20), int64(40), int64(60), int64(80), int64(100)}},
		{"doubles", floatCol(0), floatCol(1), 4, false, []any{0.25, 0.5, 0.75, 1.0}},
		{"nice doubles", floatCol(0), floatCol(0.97), 4, true, []any{0.2, 0.4, 0.6, 0.8, 1.0}},
	} {
		got, err := bins(c.lo, c.hi, c.n, c.nice)
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: %v, %v; want %v", c.name, got, err, c.want)
		}
	}
	date := func(d int64) *vec.Col { return &vec.Col{T: vec.Type{Kind: vec.KDate}, Len: 1, I: []int64{d}} }
	got, err := bins(date(0), date(10), 2, false)
	day := func(d int) time.Time { return time.Date(1970, 1, 1+d, 0, 0, 0, 0, time.UTC) }
	if want := []any{day(5), day(10)}; err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("dates: %v, %v; want %v", got, err, want)
	}
}

func TestEquiWidthBinsErrors(t *testing.T) {
	for _, c := range []struct {
		lo, hi *vec.Col
		n      int64
		want   string
	}{
		{intCol(0), intCol(1), 0, "> 0 bins"},
		{intCol(0), intCol(1), maxBins + 1, "max bin count"},
		{intCol(5), intCol(1), 2, "smaller than min"},
		{floatCol(0), floatCol(math.Inf(1)), 2, "infinite or nan"},
		{&vec.Col{T: vec.Type{Kind: vec.KInt, Bits: 8}, Len: 1, I: []int64{-128}}, &vec.Col{T: vec.Type{Kind: vec.KInt, Bits: 8}, Len: 1, I: []int64{127}}, 3, ""},
	} {
		_, err := bins(c.lo, c.hi, c.n, false)
		if c.want == "" {
			if err != nil {
				t.Errorf("TINYINT bins: %v", err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("bins(n=%d): error %v, want %q", c.n, err, c.want)
		}
	}
}
