package function

import (
	"math"
	"strconv"

	"github.com/carquet-go/carquet/sqlplan/vec"
)

// FLOAT (REAL) values are float64s holding float32 values
// (vec.Type.Float32): a cast to FLOAT rounds to the nearest float32, as
// DuckDB's does, and a finite number beyond FLOAT's range is an error
// (NULL for TRY_CAST); arithmetic whose result is a FLOAT rounds each
// result (RoundFloat32s). A float64 operation on two float32 values,
// rounded to float32, gives the float32 operation's result for + - * /
// (the float64 significand is more than twice as wide), so FLOAT
// arithmetic computes in float64.

// Wide is t with a FLOAT widened to DOUBLE.
func Wide(t vec.Type) vec.Type {
	t.Float32 = false
	return t
}

// narrowsToFloat32 reports whether a cast from from to to rounds numbers
// to FLOAT. Text casts round as they parse (an out-of-range text is
// infinite, as in DuckDB).
func narrowsToFloat32(from, to vec.Type) bool {
	return to.Kind == vec.KFloat && to.Float32 && from.IsNumeric() && !(from.Kind == vec.KFloat && from.Float32)
}

// narrowFloat is x, a number of type from cast to DOUBLE, as a FLOAT.
func narrowFloat(x float64, from vec.Type, try bool) (any, error) {
	// Halfway between FLOAT's largest value and the next power of two
	// (which is infinite) and beyond, a value rounds to infinity.
	if math.Abs(x) >= 0x1.ffffffp127 && !math.IsInf(x, 0) {
		if try {
			return nil, nil
		}
		return nil, errorf("Type %s with value %s can't be cast because the value is out of range for the destination type FLOAT",
			from.SQLName(), strconv.FormatFloat(x, 'g', -1, 64))
	}
	return float64(float32(x)), nil
}

// narrowFloatCol is wide, a column of type from cast to DOUBLE, as the
// FLOAT column of type to, in new storage.
func narrowFloatCol(wide *vec.Col, from, to vec.Type, try bool) (*vec.Col, error) {
	n := wide.Len
	out := &vec.Col{T: to, Len: n, Null: wide.Null, F: make([]float64, n)}
	ownNull := false
	for i, x := range wide.F[:n] {
		if wide.IsNull(i) {
			continue
		}
		v, err := narrowFloat(x, from, try)
		if err != nil {
			return nil, err
		}
		if v == nil {
			if !ownNull {
				out.Null, ownNull = make([]bool, n), true // TRY_CAST: NULL, in a copy
				copy(out.Null, wide.Null)
			}
			out.Null[i] = true
			continue
		}
		out.F[i] = v.(float64)
	}
	return out, nil
}

// RoundFloat32s rounds f's values to float32, in place.
func RoundFloat32s(f []float64) {
	for i, x := range f {
		f[i] = float64(float32(x))
	}
}

// Float32Result is the type of an operation on numbers of types a and b
// whose result is a floating-point number: FLOAT when one is a FLOAT and
// the other no DOUBLE (an integer or a decimal), as in DuckDB; else
// DOUBLE.
func Float32Result(a, b vec.Type) vec.Type {
	double := func(t vec.Type) bool { return t.Kind == vec.KFloat && !t.Float32 }
	single := func(t vec.Type) bool { return t.Kind == vec.KFloat && t.Float32 }
	if (single(a) || single(b)) && !double(a) && !double(b) {
		return vec.Type{Kind: vec.KFloat, Float32: true}
	}
	return vec.Type{Kind: vec.KFloat}
}
