package function

import (
	"fmt"
	"math"
	"math/big"
	"strings"

	"github.com/carquet-go/carquet/parquet/value"
	"github.com/carquet-go/carquet/sqlplan/num"
	"github.com/carquet-go/carquet/sqlplan/vec"
)

// UHUGEINT, DuckDB's unsigned 128-bit integer. Col.H holds each value's
// bits with the top bit flipped (num.Int128.FlipSign), so that the
// signed order of the slots is the values' order and the comparisons,
// sorting, grouping, joins and min/max of 128-bit columns serve it
// unchanged; as a scalar it is a value.Decimal of scale 0 (get, decimal
// and the column builder convert). Arithmetic with unsigned integers and
// integer literals stays UHUGEINT, with DuckDB's overflow errors; with
// other numbers it is a DOUBLE.

// TUHuge is UHUGEINT.
var TUHuge = vec.Type{Kind: vec.KUHuge}

// MaxUHuge is 2^128 - 1.
var MaxUHuge = new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 128), big.NewInt(1))

// uhugeRangeError is DuckDB's error for a value outside a cast's target.
func uhugeRangeError(from vec.Type, v any, to string) error {
	return fmt.Errorf("Type %s with value %s can't be cast because the value is out of range for the destination type %s", from.SQLName(), vec.ScalarText(from, v), to)
}

// castUHuge casts a scalar to or from UHUGEINT (ok false when neither
// side is one): from text, the integers, decimals, floats and BOOLEAN
// (rounded as the casts to HUGEINT), to text, floats and, in range, the
// integers and decimals.
func castUHuge(v any, from, to vec.Type) (r any, ok bool, err error) {
	switch {
	case from.Kind != vec.KUHuge && to.Kind != vec.KUHuge:
		return nil, false, nil
	case from.Kind == to.Kind:
		return v, true, nil
	case to.Kind == vec.KUHuge:
		r, err = toUHuge(v, from)
		return r, true, err
	}
	d, isDec := v.(value.Decimal)
	if !isDec || d.Unscaled == nil {
		return nil, true, fmt.Errorf("bad UHUGEINT value %v", v)
	}
	u := d.Unscaled
	switch {
	case to.Op() == vec.KString:
		return u.String(), true, nil
	case to.Kind == vec.KFloat:
		f, _ := new(big.Float).SetInt(u).Float64()
		return f, true, nil
	case to.Kind == vec.KUint && (to.Bits == 0 || to.Bits == 64):
		if !u.IsUint64() {
			return nil, true, uhugeRangeError(from, v, "UINT64")
		}
		return u.Uint64(), true, nil
	case to.IsNumeric() || to.Kind == vec.KBool:
		// Through HUGEINT's casts, which check the target's range; past
		// HUGEINT only a DECIMAL target reports it itself.
		if !THuge.FitsBig(u) && (to.Kind != vec.KDecimal || to.Huge) {
			return nil, true, uhugeRangeError(from, v, "INT128")
		}
		r, err = castScalar(v, THuge, to)
		return r, true, err
	}
	return nil, true, fmt.Errorf("Unimplemented type for cast (%s -> %s)", from.SQLName(), to.SQLName())
}

// toUHuge is the cast of scalar v of type from to UHUGEINT.
func toUHuge(v any, from vec.Type) (any, error) {
	var u *big.Int
	switch x := v.(type) {
	case string:
		r, ok := new(big.Rat).SetString(strings.TrimSpace(x))
		if !ok {
			return nil, fmt.Errorf("Could not convert string %s to UINT128", QuoteText(x)) // DuckDB's words
		}
		u = vec.RatDecimal(r, 0).Unscaled
		if u.Sign() < 0 {
			return nil, fmt.Errorf("Could not convert string %s to UINT128", QuoteText(x))
		}
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return nil, uhugeRangeError(from, v, "UINT128")
		}
		u, _ = new(big.Float).SetFloat64(math.RoundToEven(x)).Int(nil)
	case bool:
		u = big.NewInt(0)
		if x {
			u.SetInt64(1)
		}
	case uint64:
		u = new(big.Int).SetUint64(x)
	case int64:
		u = big.NewInt(x)
		if from.Kind == vec.KDecimal {
			u = vec.RatDecimal(vec.DecRat(DecimalOf(x, from.Scale)), 0).Unscaled
		}
	case value.Decimal:
		u = vec.RatDecimal(vec.DecRat(x), 0).Unscaled
	default:
		return nil, fmt.Errorf("Unimplemented type for cast (%s -> UHUGEINT)", from.SQLName())
	}
	if u.Sign() < 0 || u.Cmp(MaxUHuge) > 0 {
		return nil, uhugeRangeError(from, v, "UINT128")
	}
	return value.Decimal{Unscaled: u}, nil
}

// UHugeArith computes l op r (+ - * // %) of two UHUGEINT columns into
// out.H, with DuckDB's overflow errors; a zero divisor gives NULL.
func UHugeArith(op byte, lc, rc *vec.Col, out *vec.Col) error {
	out.H = make([]num.Int128, out.Len)
	for i := range out.H {
		if out.IsNull(i) {
			continue
		}
		x, y := lc.H[i].FlipSign(), rc.H[i].FlipSign()
		var r num.Int128
		ok := true
		switch op {
		case '+':
			r, ok = num.UAdd(x, y)
		case '-':
			r, ok = num.USub(x, y)
		case '*':
			r, ok = num.UMul(x, y)
		case 'd', '%':
			q, rem, nonzero := num.UQuoRem(x, y)
			if !nonzero {
				out.SetNull(i)
				continue
			}
			r = q
			if op == '%' {
				r = rem
			}
		}
		if !ok {
			return errorf("Overflow in %s of UINT128 (%s %s %s)!", OpName[op], num.UBig(x), OpSymbol(op), num.UBig(y))
		}
		out.H[i] = r.FlipSign()
	}
	return nil
}

// UHugeNeg is -x of each UHUGEINT in c.H: DuckDB wraps it modulo 2^128
// (-3 is 2^128 - 3, -0 is 0) rather than failing, as it does for the
// other unsigned integers. Two's complement negation of the unsigned
// bits is that wrap; Negate's overflow flag only marks 2^127, whose
// negation wraps to itself.
func UHugeNeg(c *vec.Col) []num.Int128 {
	out := make([]num.Int128, c.Len)
	for i, x := range c.H[:c.Len] {
		n, _ := x.FlipSign().Negate()
		out[i] = n.FlipSign()
	}
	return out
}
