package function

import (
	"github.com/carquet-go/carquet/sqlplan/num"
	"github.com/carquet-go/carquet/sqlplan/vec"
)

// The loops of the common arithmetic: DOUBLE + - * /, and DECIMAL of at
// most 18 digits + - * on unscaled int64s. An operand whose column has
// fewer rows than dst is a constant (the engine's arithExpr.operand): its one value is
// used for every row, without a vector of copies.

// FloatArith computes dst[i] = l op r (op + - * /; IEEE division, as
// DuckDB: x/0 is ±Inf, 0/0 NaN).
func FloatArith(op byte, dst, x, y []float64) {
	n := len(dst)
	switch {
	case len(y) < n:
		k := y[0]
		x = x[:n]
		switch op {
		case '+':
			for i := range dst {
				dst[i] = x[i] + k
			}
		case '-':
			for i := range dst {
				dst[i] = x[i] - k
			}
		case '*':
			for i := range dst {
				dst[i] = x[i] * k
			}
		case '/':
			for i := range dst {
				dst[i] = x[i] / k
			}
		}
	case len(x) < n:
		k := x[0]
		y = y[:n]
		switch op {
		case '+':
			for i := range dst {
				dst[i] = k + y[i]
			}
		case '-':
			for i := range dst {
				dst[i] = k - y[i]
			}
		case '*':
			for i := range dst {
				dst[i] = k * y[i]
			}
		case '/':
			for i := range dst {
				dst[i] = k / y[i]
			}
		}
	default:
		x, y = x[:n], y[:n]
		switch op {
		case '+':
			for i := range dst {
				dst[i] = x[i] + y[i]
			}
		case '-':
			for i := range dst {
				dst[i] = x[i] - y[i]
			}
		case '*':
			for i := range dst {
				dst[i] = x[i] * y[i]
			}
		case '/':
			for i := range dst {
				dst[i] = x[i] / y[i]
			}
		}
	}
}

// AddScaled computes dst[i] = l*lm ± r*rm: DECIMAL + and - at the
// result's scale (the type rules keep the result within 18 digits, so
// nothing overflows int64).
func AddScaled(dst, x, y []int64, lm, rm int64, sub bool) {
	n := len(dst)
	if sub {
		rm = -rm
	}
	switch {
	case len(y) < n:
		k := y[0] * rm
		x = x[:n]
		for i := range dst {
			dst[i] = x[i]*lm + k
		}
	case len(x) < n:
		k := x[0] * lm
		y = y[:n]
		for i := range dst {
			dst[i] = k + y[i]*rm
		}
	default:
		x, y = x[:n], y[:n]
		for i := range dst {
			dst[i] = x[i]*lm + y[i]*rm
		}
	}
}

// MulDecimals18 computes dst[i] = l*r for a DECIMAL of at most 18 digits;
// on a product beyond 18 digits in a row that is not NULL it returns that
// row and false.
func MulDecimals18(dst, x, y []int64, null []bool) (int, bool) {
	n := len(dst)
	if len(x) < n {
		x, y = y, x // a constant on the right
	}
	x = x[:n]
	bad := -1
	slow := func(i int, a, b int64) {
		p, ok := mulDecimal18(a, b)
		if !ok && bad < 0 && (null == nil || !null[i]) {
			bad = i
		}
		dst[i] = p
	}
	if len(y) < n {
		k := y[0]
		if !small9(k) {
			for i, a := range x {
				slow(i, a, k)
			}
			return bad, bad < 0
		}
		for i, a := range x {
			if small9(a) {
				dst[i] = a * k
				continue
			}
			slow(i, a, k)
		}
		return bad, bad < 0
	}
	y = y[:n]
	for i, a := range x {
		if b := y[i]; small9(a) && small9(b) {
			dst[i] = a * b
			continue
		}
		slow(i, a, y[i])
	}
	return bad, bad < 0
}

// small9 reports |x| < 10^9: two such factors make a product below 10^18,
// which needs no 128-bit check.
func small9(x int64) bool { return uint64(x+999_999_999) < 1_999_999_999 }

// mulDecimal18 multiplies two unscaled decimals into a DECIMAL of at most
// 18 digits; ok is false when the product has more.
func mulDecimal18(x, y int64) (int64, bool) {
	r := num.Mul64(x, y)
	if !r.FitsDigits(18) {
		return 0, false
	}
	return r.Int64(), true
}

// OpName names an arithmetic operator in DuckDB's overflow errors.
var OpName = map[byte]string{'+': "addition", '-': "subtraction", '*': "multiplication", '/': "division", 'd': "division", '%': "modulo"}

func OpSymbol(op byte) string {
	if op == 'd' {
		return "//"
	}
	return string(op)
}

func ScaleOf(t vec.Type) int {
	if t.Kind == vec.KDecimal {
		return t.Scale
	}
	return 0
}
