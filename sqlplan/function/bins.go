package function

import (
	"fmt"
	"math"
	"math/big"

	"github.com/carquet-go/carquet/sqlplan/vec"
)

// equi_width_bins: the upper bounds of bin_count bins of equal width over
// [min, max], as a list of the type of min and max.

// maxBins is DuckDB's limit on bin_count.
const maxBins = 1_000_000

// EquiWidthBins is the row function of equi_width_bins(min, max,
// bin_count, nice_rounding) over arguments the binder cast: min and max of
// the element type (BIGINT or an integer, DOUBLE or FLOAT, TIMESTAMP or
// DATE), the count BIGINT, the rounding BOOLEAN.
func EquiWidthBins(a []*vec.Col, i int) (any, error) {
	elem := a[0].T
	n := a[2].I[i]
	if n <= 0 {
		return nil, fmt.Errorf("Invalid input for bin function - there must be > 0 bins")
	}
	if n > maxBins {
		return nil, fmt.Errorf("Invalid input for bin function - max bin count of %d exceeded", maxBins)
	}
	nice := a[3].B[i]
	if a[0].T.Kind == vec.KFloat {
		lo, hi := a[0].F[i], a[1].F[i]
		if math.IsInf(lo, 0) || math.IsNaN(lo) || math.IsInf(hi, 0) || math.IsNaN(hi) {
			return nil, fmt.Errorf("equi_width_bucket does not support infinite or nan as min/max value")
		}
		if hi < lo {
			return nil, errBinsOrder
		}
		var v []float64
		switch {
		case hi == lo:
			v = []float64{hi}
		case nice:
			v = niceBins(lo, hi, n)
		default:
			v = floatBins(lo, hi, n)
		}
		out := make([]any, len(v))
		for k, x := range v {
			if elem.Float32 {
				x = float64(float32(x))
			}
			out[k] = x
		}
		return out, nil
	}
	lo, hi := a[0].I[i], a[1].I[i]
	if elem.Kind == vec.KDate {
		lo, hi = lo*vec.MicrosPerDay, hi*vec.MicrosPerDay
	}
	if hi < lo {
		return nil, errBinsOrder
	}
	var v []int64
	switch {
	case hi == lo:
		v = []int64{hi}
	case nice && (elem.Kind == vec.KTimestamp || elem.Kind == vec.KDate):
		return nil, fmt.Errorf("equi_width_bins with nice rounding of dates or timestamps is not supported")
	case nice:
		for _, x := range niceBins(float64(lo), float64(hi), n) {
			v = append(v, truncInt64(x))
		}
	default:
		v = intBins(lo, hi, n)
	}
	out := make([]any, 0, len(v))
	for k, x := range v {
		if k > 0 && x == v[k-1] {
			continue // bins that truncate to one value are one bin
		}
		switch elem.Kind {
		case vec.KDate:
			out = append(out, vec.GoValue(elem, vec.FloorDiv(x, vec.MicrosPerDay)))
		case vec.KTimestamp:
			out = append(out, vec.GoValue(elem, x))
		default:
			if b := elem.Bits; b > 0 && b < 64 && (x >= 1<<(b-1) || x < -(1<<(b-1))) {
				return nil, fmt.Errorf("Conversion Error: Type INT64 with value %d can't be cast because the value is out of range for the destination type INT%d", x, b)
			}
			out = append(out, x)
		}
	}
	return out, nil
}

var errBinsOrder = fmt.Errorf("Invalid input for bin function - max value is smaller than min value")

// truncInt64 truncates x toward zero, saturating at the int64 range.
func truncInt64(x float64) int64 {
	switch {
	case x >= math.MaxInt64:
		return math.MaxInt64
	case x <= math.MinInt64:
		return math.MinInt64
	}
	return int64(x)
}

// intBins is the exact max - (max-min)*k/n, truncated toward zero, for
// k = n-1 down to 0.
func intBins(lo, hi, n int64) []int64 {
	span := new(big.Int).Sub(big.NewInt(hi), big.NewInt(lo))
	top := new(big.Int).Mul(big.NewInt(hi), big.NewInt(n))
	bn := big.NewInt(n)
	out := make([]int64, 0, n)
	var t, q big.Int
	for k := n - 1; k >= 0; k-- {
		t.Mul(span, big.NewInt(k))
		t.Sub(top, &t)
		q.Quo(&t, bn)
		out = append(out, q.Int64())
	}
	return out
}

// floatBins steps down from max by (max-min)/n, n-1 times (in double
// precision for FLOAT too).
func floatBins(lo, hi float64, n int64) []float64 {
	step := (hi - lo) / float64(n)
	out := make([]float64, n)
	cur := hi
	for k := n - 1; k >= 0; k-- {
		out[k] = cur
		cur -= step
	}
	return out
}

// niceBins rounds the width (max-min)/n to 1, 2 or 5 times a power of
// ten and returns the multiples of it from the first above min to the
// first at or above max.
func niceBins(lo, hi float64, n int64) []float64 {
	step := (hi - lo) / float64(n)
	e := math.Floor(math.Log10(step))
	m := step / math.Pow(10, e)
	var d float64
	switch {
	case m < 1.5:
		d = 1
	case m < 3:
		d = 2
	case m < 7.5:
		d = 5
	default:
		d, e = 1, e+1
	}
	scale := math.Pow(10, math.Abs(e))
	val := func(j float64) float64 {
		if e < 0 {
			return j * d / scale
		}
		return j * d * scale
	}
	w := val(1)
	var out []float64
	for j := math.Ceil(hi / w); ; j-- {
		x := val(j)
		if x <= lo || len(out) > 2*maxBins {
			break
		}
		out = append(out, x)
	}
	for l, r := 0, len(out)-1; l < r; l, r = l+1, r-1 {
		out[l], out[r] = out[r], out[l]
	}
	return out
}
