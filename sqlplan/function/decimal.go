package function

import (
	"math"
	"math/big"
	"math/bits"

	"github.com/carquet-go/carquet/parquet/value"
	"github.com/carquet-go/carquet/sqlplan/num"
	"github.com/carquet-go/carquet/sqlplan/vec"
)

var Pow10 = func() []int64 {
	p := make([]int64, 19)
	p[0] = 1
	for i := 1; i < 19; i++ {
		p[i] = p[i-1] * 10
	}
	return p
}()

func DecimalOf(unscaled int64, scale int) value.Decimal {
	return value.DecimalFromInt64(unscaled, int32(scale))
}

// DecFloat is the nearest float to unscaled × 10^-scale.
func DecFloat(unscaled int64, scale int) float64 {
	if scale < len(Pow10) {
		return float64(unscaled) / float64(Pow10[scale])
	}
	return float64(unscaled) / math.Pow10(scale)
}

// Rescale changes a decimal's scale (rounding half away from zero when
// reducing); ok false on overflow.
func Rescale(u int64, from, to int) (int64, bool) {
	if to == from {
		return u, true
	}
	if to > from {
		d := to - from
		if d >= len(Pow10) {
			return 0, u == 0
		}
		m := Pow10[d]
		r := u * m
		if u != 0 && (r/m != u) {
			return 0, false
		}
		return r, true
	}
	d := from - to
	if d >= len(Pow10) {
		return 0, true
	}
	m := Pow10[d]
	q, rem := u/m, u%m
	if rem*2 >= m {
		q++
	} else if rem*2 <= -m {
		q--
	}
	return q, true
}

// DecimalToInt64 converts a value.Decimal to unscaled at scale; ok false
// if it does not fit.
func DecimalToInt64(d value.Decimal, scale int) (int64, bool) {
	u := new(big.Int).Set(d.Unscaled)
	diff := scale - int(d.Scale)
	if diff > 0 {
		u.Mul(u, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(diff)), nil))
	} else if diff < 0 {
		m := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(-diff)), nil)
		q, r := new(big.Int).QuoRem(u, m, new(big.Int))
		r2 := new(big.Int).Mul(r, big.NewInt(2))
		if r2.CmpAbs(m) >= 0 {
			if u.Sign() < 0 {
				q.Sub(q, big.NewInt(1))
			} else {
				q.Add(q, big.NewInt(1))
			}
		}
		u = q
	}
	if !u.IsInt64() {
		return 0, false
	}
	return u.Int64(), true
}

// hugeOverflow is the error for x op y outside the type t: DuckDB's words
// for a HUGEINT, the decimal's precision otherwise.
func hugeOverflow(op byte, x, y num.Int128, ls, rs int, t vec.Type) error {
	switch {
	case t.Huge && (op == 'd' || op == '%'):
		return errorf("Overflow in division of %s / %s", x, y)
	case t.Huge:
		return errorf("Overflow in %s of INT128 (%s %s %s)!", OpName[op], x, OpSymbol(op), y)
	}
	return errorf("overflow in %s %c %s: the result does not fit %s",
		string(x.AppendDecimal(nil, ls)), op, string(y.AppendDecimal(nil, rs)), t.SQLName())
}

// AddInt64 returns a+b and whether the sum left int64 (wrapped around).
func AddInt64(a, b int64) (int64, bool) {
	s := a + b
	return s, (s > a) != (b > 0)
}

// Quotient is the unscaled decimal sum of the given scale divided by n
// (an average), as the nearest float64, ties to even: what big.Rat's
// Float64 of the exact quotient gives. Without big numbers while |sum|
// and n × 10^scale fit 64 bits, which is every average whose count and
// scale are not extreme.
func Quotient(sum num.Int128, n int64, scale int) float64 {
	if f, ok := quotient64(sum, n, scale); ok {
		return f
	}
	den := new(big.Int).Mul(big.NewInt(n), num.Pow10(scale).Big())
	f, _ := new(big.Rat).SetFrac(sum.Big(), den).Float64()
	return f
}

// quotient64 is Quotient when |sum| and the divisor d = n × 10^scale fit
// a uint64. It divides |sum| × 2^s by d with s chosen so that the integer
// quotient q has 63 or 64 bits (and the 128-bit dividend's high word is
// below d, as bits.Div64 needs); a non-zero remainder sets q's lowest bit,
// which lies below float64's rounding position, so converting q rounds as
// the exact quotient would, and scaling by 2^-s is exact.
func quotient64(sum num.Int128, n int64, scale int) (float64, bool) {
	if n <= 0 || scale >= len(Pow10) {
		return 0, false
	}
	dh, d := bits.Mul64(uint64(n), uint64(Pow10[scale]))
	neg := sum.Sign() < 0
	a := sum
	if neg {
		a = sum.Neg()
	}
	if dh != 0 || a.Hi != 0 {
		return 0, false // also the one Int128 without a positive negation
	}
	if a.Lo == 0 {
		return 0, true
	}
	s := 63 + bits.Len64(d) - bits.Len64(a.Lo)
	var hi, lo uint64
	if s < 64 {
		hi, lo = a.Lo>>(64-s), a.Lo<<s // a shift by 64 is 0 in Go
	} else {
		hi = a.Lo << (s - 64)
	}
	q, r := bits.Div64(hi, lo, d)
	if r != 0 {
		q |= 1
	}
	f := math.Ldexp(float64(q), -s)
	if neg {
		f = -f
	}
	return f, true
}
