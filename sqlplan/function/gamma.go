package function

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/carquet-go/carquet/sqlplan/vec"
)

// DuckDB's gamma, lgamma, nextafter and to_base.

func init() { register(gammaFuncs) }

var gammaFuncs = map[string]*Scalar{
	// gamma of a negative integer is NaN and past the double range
	// infinity or (negative half) -0, as in DuckDB; only zero is an error.
	"gamma": {Min: 1, Max: 1, Rule: Sig(tFloat, tFloat), Row: func(a []*vec.Col, i int) (any, error) {
		x := a[0].F[i]
		if x == 0 {
			return nil, fmt.Errorf("cannot take gamma of zero")
		}
		return math.Gamma(x), nil
	}},
	// lgamma is the logarithm of |gamma(x)|: +Inf at the negative integers.
	"lgamma": {Min: 1, Max: 1, Rule: Sig(tFloat, tFloat), Row: func(a []*vec.Col, i int) (any, error) {
		x := a[0].F[i]
		if x == 0 {
			return nil, fmt.Errorf("cannot take log gamma of zero")
		}
		v, _ := math.Lgamma(x)
		return v, nil
	}},
	"nextafter": {Min: 2, Max: 2, Rule: bindNextafter, Row: func(a []*vec.Col, i int) (any, error) {
		x, y := a[0].F[i], a[1].F[i]
		if a[0].T.Float32 && a[1].T.Float32 {
			return float64(math.Nextafter32(float32(x), float32(y))), nil
		}
		return math.Nextafter(x, y), nil
	}},
	"to_base": {Min: 2, Max: 3, Rule: bindToBase, Row: toBase},
}

// bindNextafter steps in single precision when both arguments are FLOAT
// (and returns FLOAT), in double precision otherwise.
func bindNextafter(in []vec.Type) ([]vec.Type, vec.Type, error) {
	if in[0].Float32 && in[1].Float32 {
		return nil, vec.Type{Kind: vec.KFloat, Float32: true}, nil
	}
	return Sig(tFloat, tFloat)(in)
}

// bindToBase takes to_base(BIGINT, INTEGER[, INTEGER]): like DuckDB it has
// no overload for a fractional number.
func bindToBase(in []vec.Type) ([]vec.Type, vec.Type, error) {
	for _, t := range in {
		if t.Kind == vec.KFloat || t.Kind == vec.KDecimal {
			return nil, vec.Type{}, fmt.Errorf("no function matches the given name and argument types: to_base takes (BIGINT, INTEGER[, INTEGER])")
		}
	}
	return Sig(tString, tInt)(in)
}

// toBase writes a non-negative number in a radix from 2 to 36 with
// upper-case digits, padded with zeros to min_length (0 to 64).
func toBase(a []*vec.Col, i int) (any, error) {
	n, radix := a[0].I[i], a[1].I[i]
	if n < 0 {
		return nil, fmt.Errorf("'to_base' number must be greater than or equal to 0")
	}
	if radix < 2 || radix > 36 {
		return nil, fmt.Errorf("'to_base' radix must be between 2 and 36")
	}
	width := int64(0)
	if len(a) > 2 {
		width = a[2].I[i]
		if width < 0 || width > 64 {
			return nil, fmt.Errorf("'to_base' min_length must be between 0 and 64")
		}
	}
	s := strings.ToUpper(strconv.FormatInt(n, int(radix)))
	if pad := int(width) - len(s); pad > 0 {
		s = strings.Repeat("0", pad) + s
	}
	return s, nil
}
