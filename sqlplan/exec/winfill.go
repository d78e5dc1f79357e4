package exec

import (
	"math"
	"slices"

	"github.com/carquet-go/carquet/sqlplan/num"
	"github.com/carquet-go/carquet/sqlplan/vec"
)

// fill(x) OVER (ORDER BY k), DuckDB's gap filling: each NULL x becomes
// the linear interpolation, over the key k, of the nearest usable values
// around it. The rules, as DuckDB 1.5 has them:
//   - only rows whose key is not NULL nor infinite take part (they form
//     one run of the sorted partition: NULL and infinite keys sort at its
//     ends); the others keep their value;
//   - a usable value is neither NULL nor infinite (nor NaN);
//   - the first point is the nearest usable value before the row, else
//     the nearest after it; the second the next usable value after the
//     first, else the one before the first (so rows past the last value
//     extrapolate from the last two). With one usable value it is copied;
//     with none the row stays NULL;
//   - the position between the points is (k - k0) / (k1 - k0) in floating
//     point, 0 when the two keys are equal;
//   - integers (and decimals, dates, times, timestamps, by their stored
//     units) interpolate as y0 + trunc((y1 - y0) * d); outside the points
//     they extrapolate from the smaller of the two values by the rounded
//     (half to even) distance, NULL past the type's range — which, where
//     the values decrease, mirrors the line about the smaller value (as
//     DuckDB does); floats compute y0 * (1 - d) + y1 * d.
// The frame clause plays no part. fill(x ORDER BY k) OVER (...) orders
// each partition by its own key instead.

// fill writes fill's results for the partition p into out.
func (w *WindowCall) fill(p *winPart, in *WindowCols, out *vec.Col) {
	seq := p.rows
	var key *vec.Col
	if len(in.AggOrder) == 0 {
		key = in.Order[0] // the binder checked there is one
	} else {
		key = in.AggOrder[0]
		seq = slices.Clone(p.rows)
		cols := in.AggOrder
		slices.SortStableFunc(seq, func(a, b int32) int { return CompareRows(w.ArgKeys, cols, int(a), cols, int(b)) })
	}
	arg := in.Arg
	for _, r := range seq {
		copyCell(out, int(r), arg, int(r))
	}
	// [lo, hi): the run of rows with a finite key.
	n := len(seq)
	lo := 0
	for lo < n && !finiteAt(key, int(seq[lo])) {
		lo++
	}
	hi := lo
	for hi < n && finiteAt(key, int(seq[hi])) {
		hi++
	}
	// before[k] and after[k]: the nearest usable position before and after
	// position k in the run, -1 for none.
	before, after := make([]int, n), make([]int, n)
	last := -1
	for k := lo; k < hi; k++ {
		before[k] = last
		if usable(arg, int(seq[k])) {
			last = k
		}
	}
	last = -1
	for k := hi - 1; k >= lo; k-- {
		after[k] = last
		if usable(arg, int(seq[k])) {
			last = k
		}
	}
	for k := lo; k < hi; k++ {
		r := int(seq[k])
		if !arg.IsNull(r) {
			continue
		}
		p0 := before[k]
		if p0 < 0 {
			p0 = after[k]
		}
		if p0 < 0 {
			continue // no usable value: stays NULL
		}
		p1 := after[p0]
		if p1 < 0 {
			p1 = before[p0]
			p0, p1 = p1, p0
		}
		if p0 < 0 { // one usable value
			copyCell(out, r, arg, int(seq[p1]))
			continue
		}
		r0, r1 := int(seq[p0]), int(seq[p1])
		x, x0, x1 := asFloat(key, r), asFloat(key, r0), asFloat(key, r1)
		d := 0.0
		if x1 != x0 {
			d = (x - x0) / (x1 - x0)
		}
		interpolateCell(out, r, arg, r0, r1, d)
	}
}

// copyCell sets row r of out to row src of c (same storage).
func copyCell(out *vec.Col, r int, c *vec.Col, src int) {
	if c.IsNull(src) {
		out.SetNull(r)
		return
	}
	if out.Null != nil {
		out.Null[r] = false
	}
	switch {
	case out.I != nil:
		out.I[r] = c.I[src]
	case out.F != nil:
		out.F[r] = c.F[src]
	case out.H != nil:
		out.H[r] = c.H[src]
	}
}

// finiteAt: row r of the key column is neither NULL nor infinite.
func finiteAt(c *vec.Col, r int) bool {
	if c.IsNull(r) {
		return false
	}
	switch c.T.Kind {
	case vec.KFloat:
		return !math.IsInf(c.F[r], 0) && !math.IsNaN(c.F[r])
	case vec.KDate:
		return !vec.InfiniteDate(c.I[r])
	case vec.KTimestamp:
		return !vec.InfiniteStamp(c.I[r])
	}
	return true
}

// usable: row r of a fill argument can be a point of the line.
func usable(c *vec.Col, r int) bool { return finiteAt(c, r) }

// asFloat is row r of a numeric or temporal column as a float64, in its
// stored units.
func asFloat(c *vec.Col, r int) float64 {
	switch {
	case c.F != nil:
		return c.F[r]
	case c.H != nil:
		return hugeFloat(c.T, c.H[r])
	case c.T.Kind == vec.KUint && c.T.Op() == vec.KUint:
		return float64(uint64(c.I[r]))
	}
	return float64(c.I[r])
}

// hugeFloat is a 128-bit value (HUGEINT, a wide decimal's unscaled value,
// or a UHUGEINT, stored less 2^127 to sort as signed) as a float64.
func hugeFloat(t vec.Type, h num.Int128) float64 {
	if t.Kind == vec.KUHuge {
		return h.Float64() + 0x1p127
	}
	return h.Float64()
}

// interpolateCell sets row r of out to the value at d between rows r0 and
// r1 of c (d outside [0, 1] extrapolates), NULL when it leaves the type.
func interpolateCell(out *vec.Col, r int, c *vec.Col, r0, r1 int, d float64) {
	if out.Null != nil {
		out.Null[r] = false
	}
	switch {
	case c.F != nil:
		y0, y1 := c.F[r0], c.F[r1]
		if c.T.Float32 {
			lo, hi := float32(y0), float32(y1)
			out.F[r] = float64(lo + float32(float64(hi-lo)*d))
			return
		}
		out.F[r] = y0*(1-d) + y1*d
	case c.I != nil && !(c.T.Kind == vec.KUint && c.T.Op() == vec.KUint):
		v, ok := interpolateInt(c.I[r0], c.I[r1], d, intLimits(c.T))
		if !ok {
			out.SetNull(r)
			return
		}
		out.I[r] = v
	default: // UBIGINT, HUGEINT, UHUGEINT, wide decimals: through a float64
		y0, y1 := asFloat(c, r0), asFloat(c, r1)
		if !setFromFloat(out, r, y0+(y1-y0)*d) {
			out.SetNull(r)
		}
	}
}

// interpolateInt is the value at d between y0 and y1 within [min, max]:
// inside the points y0 plus the truncated share of the difference;
// outside them the rounded distance from the smaller value (see fill).
func interpolateInt(y0, y1 int64, d float64, lim [2]int64) (int64, bool) {
	if d >= 0 && d <= 1 {
		return y0 + int64(float64(y1-y0)*d), true
	}
	if y0 > y1 {
		y0, y1, d = y1, y0, -d
	}
	off := math.RoundToEven(float64(y1-y0) * math.Abs(d))
	if off >= math.MaxInt64 {
		return 0, false
	}
	v := y0 + int64(off)
	if d < 0 {
		v = y0 - int64(off)
	}
	if d < 0 && v > y0 || d > 0 && v < y0 || v < lim[0] || v > lim[1] {
		return 0, false
	}
	return v, true
}

// intLimits are the smallest and largest values of an integer-stored type
// as DuckDB stores it: by its width for integers, by its precision's
// storage for decimals, 32-bit days for dates.
func intLimits(t vec.Type) [2]int64 {
	bits := 64
	switch {
	case t.Kind == vec.KInt || t.Kind == vec.KUint:
		if t.Bits != 0 {
			bits = t.Bits
		}
	case t.Kind == vec.KDecimal && t.Prec <= 4:
		bits = 16
	case t.Kind == vec.KDecimal && t.Prec <= 9, t.Kind == vec.KDate:
		bits = 32
	}
	if bits == 64 {
		return [2]int64{math.MinInt64, math.MaxInt64}
	}
	if t.Kind == vec.KUint {
		return [2]int64{0, 1<<bits - 1}
	}
	return [2]int64{-1 << (bits - 1), 1<<(bits-1) - 1}
}

// setFromFloat stores f, truncated, in row r of a UBIGINT or 128-bit
// column; false when it does not fit.
func setFromFloat(out *vec.Col, r int, f float64) bool {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return false
	}
	f = math.Trunc(f)
	switch {
	case out.I != nil: // UBIGINT
		if f < 0 || f >= 0x1p64 {
			return false
		}
		out.I[r] = int64(uint64(f))
		return true
	case out.T.Kind == vec.KUHuge:
		if f < 0 {
			return false
		}
		f -= 0x1p127
	}
	if f < -0x1p127 || f >= 0x1p127 {
		return false
	}
	// f = hi * 2^64 + lo, lo in [0, 2^64): two's complement halves.
	hi := math.Floor(f / 0x1p64)
	out.H[r] = num.Int128{Hi: int64(hi), Lo: uint64(f - hi*0x1p64)}
	return true
}
