package exec

import (
	"testing"

	"github.com/carquet-go/carquet/sqlplan/vec"
)

// frameBenchCols are 1M rows in 100 partitions: a partition key, a
// distinct order key and an int64 argument with a NULL in 17. The rows
// are sorted once (WindowSorts keeps the order): the benchmarks time the
// kernels.
func frameBenchCols() (*WindowCols, int) {
	const n = 1 << 20
	part, order, arg := make([]int64, n), make([]int64, n), make([]int64, n)
	var nulls []int
	for i := range n {
		part[i], order[i], arg[i] = int64(i%100), int64((i*7919)%n), int64((i*31)%1000003-500000)
		if i%17 == 0 {
			nulls = append(nulls, i)
		}
	}
	in := &WindowCols{Part: []*vec.Col{nullable(part)}, Order: []*vec.Col{nullable(order)}, Arg: nullable(arg, nulls...), Sorts: &WindowSorts{}}
	return in, n
}

// BenchmarkFrameAggregates times the frame kernels for count and the exact sum over running and sliding frames.
func BenchmarkFrameAggregates(b *testing.B) {
	in, n := frameBenchCols()
	sliding := &WinFrame{Rows: true, Start: FrameBound{Kind: 'o', Off: -5}, End: FrameBound{Kind: 'c'}}
	for _, c := range []struct {
		name  string
		fn    string
		t     vec.Type
		frame *WinFrame
	}{
		{"count-running", "count", vec.Type{Kind: vec.KInt}, nil},
		{"sum-running", "sum", vec.Type{Kind: vec.KDecimal, Prec: 38, Huge: true}, nil},
		{"sum-sliding", "sum", vec.Type{Kind: vec.KDecimal, Prec: 38, Huge: true}, sliding},
		{"min-sliding", "min", vec.Type{Kind: vec.KInt}, sliding},
	} {
		b.Run(c.name, func(b *testing.B) {
			w := &WindowCall{Fn: c.fn, T: c.t, Frame: c.frame, Desc: []bool{false}, NullsFirst: []bool{false}}
			for b.Loop() {
				if _, err := w.Eval(in, n); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
