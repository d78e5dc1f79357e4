package scan

import (
	"math"

	"github.com/carquet-go/carquet/internal/intset"
	"github.com/carquet-go/carquet/parquet/vector"
	"github.com/carquet-go/carquet/simd"
)

// fastEval evaluates comparisons of integer and float columns with
// constants over whole batches: the simd compare kernels for integers, a
// typed loop for floats (whose NaN ordering the kernels do not follow).
// It reports false when the term is not of that kind and the generic path
// must run. truth gets the rows where the term holds, known the non-null
// rows.
func (e *leafEval) fastEval(v *vector.Vector, n int, truth, known vector.Bitmap) bool {
	if e.byValue {
		return false
	}
	var ops []Op
	var bounds []*bound
	not := false
	switch p := e.pred.(type) {
	case Compare:
		ops, bounds = []Op{p.Op}, []*bound{&e.bounds[0]}
	case In:
		if e.inInts != nil && e.ci.dom == domInt && (v.Kind == vector.Int32 || v.Kind == vector.Int64) {
			inIntsBatch(e.inInts, v, n, truth, p.Not)
			setKnown(v, n, known)
			if v.Valid != nil {
				for w := range truth[:(n+63)/64] {
					truth[w] &= known[w]
				}
			}
			return true
		}
		if len(e.bounds) > 16 {
			return false
		}
		// NOT IN is IN negated on the non-null rows (below): the list
		// holds no NULL, the planner having decided those.
		not = p.Not
		for i := range e.bounds {
			ops = append(ops, Eq)
			bounds = append(bounds, &e.bounds[i])
		}
	default:
		return false
	}
	words := (n + 63) / 64
	var scratch vector.Bitmap
	if len(ops) > 1 {
		scratch = make(vector.Bitmap, words)
	}
	for k, op := range ops {
		dst := truth
		if k > 0 {
			dst = scratch
			clear(dst)
		}
		ok := false
		switch {
		case v.Kind == vector.Int32 && e.ci.dom == domInt:
			ok = compareInt(dst, n, op, bounds[k], math.MinInt32, math.MaxInt32, func(op Op, c int64) {
				simd.CompareInt32(dst, v.Int32s[:n], simd.CmpOp(op), int32(c))
			})
		case v.Kind == vector.Int64 && e.ci.dom == domInt:
			ok = compareInt(dst, n, op, bounds[k], math.MinInt64, math.MaxInt64, func(op Op, c int64) {
				simd.CompareInt64(dst, v.Int64s[:n], simd.CmpOp(op), c)
			})
		case v.Kind == vector.Float64 && e.ci.dom == domFloat:
			compareFloats(dst, v.Float64s[:n], op, bounds[k].f)
			ok = true
		case v.Kind == vector.Float32 && e.ci.dom == domFloat:
			compareFloats(dst, v.Float32s[:n], op, bounds[k].f)
			ok = true
		}
		if !ok {
			return false
		}
		if k > 0 {
			for w := range truth[:words] {
				truth[w] |= dst[w]
			}
		}
	}
	if not {
		for w := range truth[:words] {
			truth[w] = ^truth[w]
		}
		if r := uint(n) & 63; r != 0 {
			truth[words-1] &= 1<<r - 1
		}
	}
	setKnown(v, n, known)
	if v.Valid != nil {
		for w := range truth[:words] {
			truth[w] &= known[w]
		}
	}
	return true
}

// compareInt evaluates `x op b` for integer x in [lo, hi], reducing a
// constant that is fractional or out of range to an integer comparison or
// to a constant answer.
func compareInt(dst vector.Bitmap, n int, op Op, b *bound, lo, hi int64, kernel func(Op, int64)) bool {
	c := b.i
	low, high := b.low, b.high
	if !low && !high && b.frac > 0 {
		// The constant lies strictly between c and c+1.
		switch op {
		case Lt, Le:
			op = Le
		case Gt, Ge:
			op = Gt
		case Eq:
			fill(dst, n, false)
			return true
		case Ne:
			fill(dst, n, true)
			return true
		}
	}
	if !low && !high {
		if c < lo {
			low = true
		} else if c > hi {
			high = true
		}
	}
	if low || high {
		// Every value of the column is above (low) or below (high) it.
		var res bool
		switch op {
		case Eq:
			res = false
		case Ne:
			res = true
		case Lt, Le:
			res = high
		case Gt, Ge:
			res = low
		}
		fill(dst, n, res)
		return true
	}
	kernel(op, c)
	return true
}

func fill(dst vector.Bitmap, n int, v bool) {
	words := (n + 63) / 64
	if !v {
		clear(dst[:words])
		return
	}
	for w := range dst[:words] {
		dst[w] = ^uint64(0)
	}
	if r := uint(n) & 63; r != 0 {
		dst[words-1] = 1<<r - 1
	}
}

// compareFloats sets dst to `x op c` with NaN equal to NaN and above every
// other value, -0 equal to +0 (DuckDB's and PostgreSQL's order).
func compareFloats[T float32 | float64](dst vector.Bitmap, xs []T, op Op, c float64) {
	clear(dst[:(len(xs)+63)/64])
	cNaN := math.IsNaN(c)
	for i, x := range xs {
		f := float64(x)
		var cmp int
		switch xn := f != f; {
		case xn && cNaN:
			cmp = 0
		case xn:
			cmp = 1
		case cNaN:
			cmp = -1
		case f < c:
			cmp = -1
		case f > c:
			cmp = 1
		}
		if holds(op, cmp) {
			dst[i>>6] |= 1 << (uint(i) & 63)
		}
	}
}

// inBitmap sets truth for the values of xs whose bit in bits (bit d for
// lo+d, up to hi) is set, or clear with flip 1: without a branch that
// depends on the outcome, which a join's key set (a sixth of the rows
// passing, in no order) makes unpredictable.
func inBitmap[T int32 | int64](xs []T, bits []uint64, lo, hi int64, flip uint64, truth vector.Bitmap) {
	span := uint64(hi) - uint64(lo)
	for i, x := range xs {
		var hit uint64
		if d := uint64(int64(x)) - uint64(lo); int64(x) >= lo && d <= span {
			hit = bits[d>>6] >> (d & 63) & 1
		}
		truth[i>>6] |= (hit ^ flip) << (uint(i) & 63)
	}
}

// inIntsBatch sets truth for the rows of an integer column whose value is
// in set (not in it, for NOT IN); NULL slots are masked by the caller.
func inIntsBatch(set *intset.Set, v *vector.Vector, n int, truth vector.Bitmap, not bool) {
	if bits, lo, hi, ok := set.Bitmap(); ok {
		var flip uint64
		if not {
			flip = 1
		}
		if v.Kind == vector.Int32 {
			inBitmap(v.Int32s[:n], bits, lo, hi, flip, truth)
		} else {
			inBitmap(v.Int64s[:n], bits, lo, hi, flip, truth)
		}
		return
	}
	if v.Kind == vector.Int32 {
		for i, x := range v.Int32s[:n] {
			if set.Has(int64(x)) != not {
				truth[i>>6] |= 1 << (i & 63)
			}
		}
		return
	}
	for i, x := range v.Int64s[:n] {
		if set.Has(x) != not {
			truth[i>>6] |= 1 << (i & 63)
		}
	}
}
