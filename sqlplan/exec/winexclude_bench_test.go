package exec

import (
	"testing"

	"github.com/carquet-go/carquet/sqlplan/vec"
)

// BenchmarkFrameExclude times the kernels over frames with EXCLUDE
// (frameBenchCols' 1M rows): prefix sums over runs, the trees of float
// sums and of min, and first_value over runs.
func BenchmarkFrameExclude(b *testing.B) {
	in, n := frameBenchCols()
	f := func(start int64, ex byte) *WinFrame {
		return &WinFrame{Rows: true, Start: FrameBound{Kind: 'o', Off: start}, End: FrameBound{Kind: 'o', Off: 5}, Exclude: ex}
	}
	floats := *in
	floats.Arg = &vec.Col{T: vec.Type{Kind: vec.KFloat}, Len: n, F: make([]float64, n)}
	for i := range n {
		floats.Arg.F[i] = float64(in.Arg.I[i]) / 7
	}
	for _, c := range []struct {
		name  string
		fn    string
		t     vec.Type
		in    *WindowCols
		frame *WinFrame
	}{
		{"sum-exclude-current", "sum", vec.Type{Kind: vec.KDecimal, Prec: 38, Huge: true}, in, f(-5, 'c')},
		{"count-exclude-ties", "count", vec.Type{Kind: vec.KInt}, in, f(-5, 't')},
		{"float-sum-exclude", "sum", vec.Type{Kind: vec.KFloat}, &floats, f(-50, 'c')},
		{"min-exclude", "min", vec.Type{Kind: vec.KInt}, in, f(-1<<30, 'c')},
		{"first_value-exclude", "first_value", vec.Type{Kind: vec.KInt}, in, f(-5, 'c')},
	} {
		b.Run(c.name, func(b *testing.B) {
			w := &WindowCall{Fn: c.fn, T: c.t, Frame: c.frame, Desc: []bool{false}, NullsFirst: []bool{false}}
			for b.Loop() {
				if _, err := w.Eval(c.in, n); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
