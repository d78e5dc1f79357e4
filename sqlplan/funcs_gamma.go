package sqlplan

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// DuckDB's gamma, lgamma, nextafter and to_base.

func init() { addFuncs(gammaFuncs) }

var gammaFuncs = map[string]*fn{
	// gamma of a negative integer is NaN and past the double range
	// infinity or (negative half) -0, as in DuckDB; only zero is an error.
	"gamma": {1, 1, sig(tFloat, tFloat), func(a []*Col, i int) (any, error) {
		x := a[0].F[i]
		if x == 0 {
			return nil, fmt.Errorf("cannot take gamma of zero")
		}
		return math.Gamma(x), nil
	}, false, false},
	// lgamma is the logarithm of |gamma(x)|: +Inf at the negative integers.
	"lgamma": {1, 1, sig(tFloat, tFloat), func(a []*Col, i int) (any, error) {
		x := a[0].F[i]
		if x == 0 {
			return nil, fmt.Errorf("cannot take log gamma of zero")
		}
		v, _ := math.Lgamma(x)
		return v, nil
	}, false, false},
	"nextafter": {2, 2, bindNextafter, func(a []*Col, i int) (any, error) {
		x, y := a[0].F[i], a[1].F[i]
		if a[0].T.Float32 && a[1].T.Float32 {
			return float64(math.Nextafter32(float32(x), float32(y))), nil
		}
		return math.Nextafter(x, y), nil
	}, false, false},
	"to_base": {2, 3, bindToBase, toBase, false, false},
}

// bindNextafter steps in single precision when both arguments are FLOAT
// (and returns FLOAT), in double precision otherwise.
func bindNextafter(p *planner, in []expr) ([]expr, Type, error) {
	if in[0].typ().Float32 && in[1].typ().Float32 {
		return in, Type{Kind: KFloat, Float32: true}, nil
	}
	return sig(tFloat, tFloat)(p, in)
}

// bindToBase takes to_base(BIGINT, INTEGER[, INTEGER]): like DuckDB it has
// no overload for a fractional number.
func bindToBase(p *planner, in []expr) ([]expr, Type, error) {
	for _, a := range in {
		if k := a.typ().Kind; k == KFloat || k == KDecimal {
			return nil, Type{}, fmt.Errorf("no function matches the given name and argument types: to_base takes (BIGINT, INTEGER[, INTEGER])")
		}
	}
	return sig(tString, tInt)(p, in)
}

// toBase writes a non-negative number in a radix from 2 to 36 with
// upper-case digits, padded with zeros to min_length (0 to 64).
func toBase(a []*Col, i int) (any, error) {
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
