package function

import (
	"math/bits"

	"github.com/carquet-go/carquet/sqlplan/vec"
)

// Unsigned integer arithmetic: UTINYINT, USMALLINT, UINTEGER and UBIGINT
// results (both operands unsigned), computed in uint64 with the carry,
// borrow and high word of math/bits, and DuckDB's overflow errors
// ("Overflow in addition of UINT8 (200 + 100)!"). Col.I holds the bits of
// the values (a UBIGINT's above 2^63 as negative int64s).

// UintMax is the largest value of an unsigned integer of width w (0: 64).
func UintMax(w int) uint64 {
	if w == 0 || w >= 64 {
		return ^uint64(0)
	}
	return 1<<w - 1
}

// uintArith computes out = x op y for out of the unsigned type t; x and
// y hold unsigned values of at most t's width.
func uintArith(op byte, t vec.Type, lc, rc, out *vec.Col) error {
	n := out.Len
	x, y := lc.I[:n], rc.I[:n]
	out.I = make([]int64, n)
	limit := UintMax(t.Bits)
	bad := -1 // the first row that overflows
	switch op {
	case '+':
		for i := range out.I {
			s, carry := bits.Add64(uint64(x[i]), uint64(y[i]), 0)
			if (carry != 0 || s > limit) && bad < 0 && !out.IsNull(i) {
				bad = i
			}
			out.I[i] = int64(s)
		}
	case '-':
		for i := range out.I {
			d, borrow := bits.Sub64(uint64(x[i]), uint64(y[i]), 0)
			if borrow != 0 && bad < 0 && !out.IsNull(i) {
				bad = i
			}
			out.I[i] = int64(d)
		}
	case '*':
		for i := range out.I {
			hi, lo := bits.Mul64(uint64(x[i]), uint64(y[i]))
			if (hi != 0 || lo > limit) && bad < 0 && !out.IsNull(i) {
				bad = i
			}
			out.I[i] = int64(lo)
		}
	case 'd', '/', '%':
		// Integer division and remainder; NULL for a zero divisor.
		for i := range out.I {
			d := uint64(y[i])
			if d == 0 {
				out.SetNull(i)
				continue
			}
			if op == '%' {
				out.I[i] = int64(uint64(x[i]) % d)
			} else {
				out.I[i] = int64(uint64(x[i]) / d)
			}
		}
	default:
		return errorf("operator %s on %s is not supported", OpSymbol(op), t.SQLName())
	}
	if bad >= 0 {
		w := t.Bits
		if w == 0 {
			w = 64
		}
		return errorf("Overflow in %s of UINT%d (%d %s %d)!", OpName[op], w, uint64(x[bad]), OpSymbol(op), uint64(y[bad]))
	}
	return nil
}
