package function

import (
	"fmt"
	"math"

	"github.com/carquet-go/carquet/sqlplan/vec"
)

// Numeric functions of DuckDB's list that carquet lacked: the hyperbolic
// functions, fdiv and fmod, and banker's rounding. Each is a batch kernel
// over DOUBLE columns, as DuckDB computes them (v1.5): a result outside
// DOUBLE's range is an infinity or NaN, not an error, except where DuckDB
// refuses the argument (atanh outside [-1, 1]).

func init() {
	register(map[string]*Scalar{
		"sinh":  {Min: 1, Max: 1, Rule: Sig(tFloat, tFloat), Batch: floatMap(math.Sinh)},
		"cosh":  {Min: 1, Max: 1, Rule: Sig(tFloat, tFloat), Batch: floatMap(math.Cosh)},
		"tanh":  {Min: 1, Max: 1, Rule: Sig(tFloat, tFloat), Batch: floatMap(math.Tanh)},
		"asinh": {Min: 1, Max: 1, Rule: Sig(tFloat, tFloat), Batch: floatMap(math.Asinh)},
		"acosh": {Min: 1, Max: 1, Rule: Sig(tFloat, tFloat), Batch: floatMap(math.Acosh)},
		"atanh": {Min: 1, Max: 1, Rule: Sig(tFloat, tFloat), Batch: atanhBatch},
		// error raises its message; volatile, so that a constant call is
		// not raised while the statement is bound, only where it runs.
		"error": {Min: 1, Max: 1, Rule: Sig(tString, tString), Volatile: true, Row: func(a []*vec.Col, i int) (any, error) {
			return nil, errorValue(str(a[0], i))
		}},
		// fdiv is floor(x / y) and fmod x - y * floor(x / y) (the sign of
		// y, as Python's %), in DOUBLE.
		"fdiv": {Min: 2, Max: 2, Rule: Sig(tFloat, tFloat), Batch: floatMap2(func(x, y float64) float64 { return math.Floor(x / y) })},
		"fmod": {Min: 2, Max: 2, Rule: Sig(tFloat, tFloat), Batch: floatMap2(func(x, y float64) float64 { return x - y*math.Floor(x/y) })},
		// round_even rounds half to even at a number of decimals (negative:
		// tens, hundreds), in DOUBLE (roundEven).
		"round_even":   {Min: 2, Max: 2, Rule: Sig(tFloat, tFloat, tInt), Batch: roundEvenBatch},
		"roundbankers": {Min: 2, Max: 2, Rule: Sig(tFloat, tFloat, tInt), Batch: roundEvenBatch},
	})
}

// floatMap is the batch kernel of a function of one DOUBLE.
func floatMap(f func(float64) float64) func(a []*vec.Col, n int) (*vec.Col, error) {
	return func(a []*vec.Col, n int) (*vec.Col, error) {
		out := &vec.Col{T: tFloat, Len: n, Null: vec.MergeNulls(n, a...), F: make([]float64, n)}
		for i, x := range a[0].F[:n] {
			out.F[i] = f(x)
		}
		return out, nil
	}
}

// floatMap2 is the batch kernel of a function of two DOUBLEs.
func floatMap2(f func(x, y float64) float64) func(a []*vec.Col, n int) (*vec.Col, error) {
	return func(a []*vec.Col, n int) (*vec.Col, error) {
		out := &vec.Col{T: tFloat, Len: n, Null: vec.MergeNulls(n, a...), F: make([]float64, n)}
		ys := a[1].F[:n]
		for i, x := range a[0].F[:n] {
			out.F[i] = f(x, ys[i])
		}
		return out, nil
	}
}

// atanhBatch is atanh, which DuckDB refuses outside [-1, 1] (the ends are
// infinities).
func atanhBatch(a []*vec.Col, n int) (*vec.Col, error) {
	out := &vec.Col{T: tFloat, Len: n, Null: vec.MergeNulls(n, a...), F: make([]float64, n)}
	for i, x := range a[0].F[:n] {
		if out.Null != nil && out.Null[i] {
			continue
		}
		if x < -1 || x > 1 {
			return nil, fmt.Errorf("ATANH is undefined outside [-1,1]")
		}
		out.F[i] = math.Atanh(x)
	}
	return out, nil
}

// roundEvenBatch is round_even(x, decimals): x scaled by 10^decimals,
// rounded half to even, scaled back.
func roundEvenBatch(a []*vec.Col, n int) (*vec.Col, error) {
	out := &vec.Col{T: tFloat, Len: n, Null: vec.MergeNulls(n, a...), F: make([]float64, n)}
	ds := a[1].I[:n]
	for i, x := range a[0].F[:n] {
		out.F[i] = roundEven(x, ds[i])
	}
	return out, nil
}

// roundEven is DuckDB's definition (a macro there): when the digit after
// the last one kept is exactly a 5, round(x / 2, decimals) * 2, otherwise
// round(x, decimals), with round's half away from zero.
func roundEven(x float64, decimals int64) float64 {
	// Beyond 10^±308 the scale is infinite or zero: keep to DOUBLE's range.
	decimals = max(min(decimals, 308), -308)
	if math.Mod(math.Abs(x)*math.Pow(10, float64(decimals+1)), 10) == 5 {
		return roundDigits(x/2, decimals) * 2
	}
	return roundDigits(x, decimals)
}

// roundDigits is round(x, decimals) of a DOUBLE as DuckDB computes it: an
// infinite or NaN intermediate gives x back (0 for negative decimals).
func roundDigits(x float64, decimals int64) float64 {
	if decimals < 0 {
		m := math.Pow(10, float64(-decimals))
		if r := math.Round(x/m) * m; !math.IsInf(r, 0) && !math.IsNaN(r) {
			return r
		}
		return 0
	}
	m := math.Pow(10, float64(decimals))
	if r := math.Round(x*m) / m; !math.IsInf(r, 0) && !math.IsNaN(r) {
		return r
	}
	return x
}

// errorValue is the error error(msg) raises: the message as it is.
type errorValue string

func (e errorValue) Error() string { return string(e) }
