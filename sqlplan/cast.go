package sqlplan

import (
	"github.com/carquet-go/carquet/sqlplan/num"
)

// Casts of column vectors between every pair of types (castColTry), with
// DuckDB's rules for overflow, rounding and text.

// castExpr converts values to another type.
type castExpr struct {
	named
	e   expr
	to  Type
	try bool // TRY_CAST: values that do not convert are NULL
}

func (e *castExpr) Type() Type { return e.to }

func (e *castExpr) Eval(b *Batch) (*Col, error) {
	c, err := e.e.Eval(b)
	if err != nil {
		return nil, err
	}
	return castColTry(c, e.to, e.try)
}

// castCol converts a column to type to.
func castCol(c *Col, to Type) (*Col, error) { return castColTry(c, to, false) }

// castColTry converts a column to type to; with try, a value that does
// not convert is NULL rather than an error.
func castColTry(c *Col, to Type, try bool) (*Col, error) {
	from := c.T
	n := c.Len
	if from.Kind == to.Kind && from.Kind != KDecimal && !(to.Op() == KInt && to.Bits != 0 && to.Bits < 64) && sameNested(from, to) && sameUnit(from, to) && from.Bit == to.Bit {
		out := *c
		out.T = to
		return &out, nil
	}
	if err := coarseCastError(from, to); err != nil {
		if try {
			return nullCol(to, n), nil
		}
		return nil, err
	}
	if bitBlobCast(from, to) {
		return castBitBlob(c, to)
	}
	if from.Bit != to.Bit && from.Kind != KNull && !bitIntCast(from, to) { // those cast row by row, below
		if err := bitCastError(from, to); err != nil {
			return nil, err
		}
		if to.Bit {
			// VARCHAR to BIT: the same strings, checked.
			var bad []bool
			for i := 0; i < n; i++ {
				if c.IsNull(i) {
					continue
				}
				if err := checkBits(c.Str(i)); err != nil {
					if !try {
						return nil, err
					}
					if bad == nil {
						bad = make([]bool, n)
					}
					bad[i] = true
				}
			}
			if bad != nil {
				bld := newBuilder(to, n)
				for i := 0; i < n; i++ {
					if bad[i] || c.IsNull(i) {
						bld.Add(nil)
					} else {
						bld.Add(string(c.Str(i)))
					}
				}
				return bld.C, nil
			}
		}
		out := *c
		out.T = to
		return &out, nil
	}
	if from.Kind == KTimestamp && to.Kind == KTimestamp && to.Coarse > 0 && !from.Nanos && from.TZ == to.TZ && c.I != nil {
		// TIMESTAMP (or TIMESTAMP_S into TIMESTAMP_MS) to a coarser unit:
		// rounded, as DuckDB's cast.
		out := &Col{T: to, Len: n, Null: c.Null, I: make([]int64, n)}
		for i, x := range c.I[:n] {
			out.I[i] = roundToUnit(x, to.Coarse)
		}
		return out, nil
	}
	if from.Kind == to.Kind && from.Nanos && !to.Nanos && c.I != nil {
		// TIMESTAMP_NS/TIME_NS down to microseconds: truncated toward
		// zero, as DuckDB's cast.
		out := &Col{T: to, Len: n, Null: c.Null, I: make([]int64, n)}
		for i, x := range c.I[:n] {
			out.I[i] = x / 1000
		}
		return out, nil
	}
	if from.Kind == KNull {
		return nullCol(to, n), nil
	}
	// Fast paths for the common numeric widenings.
	if c.I != nil && from.Op() == KInt && to.Kind == KFloat {
		out := &Col{T: to, Len: n, Null: c.Null, F: make([]float64, n)}
		for i, x := range c.I[:n] {
			out.F[i] = float64(x)
		}
		return out, nil
	}
	if h, ok, err := castHuge(c, from, to); ok || err != nil {
		return h, err
	}
	if c.I != nil && from.Kind == KDecimal && to.Kind == KFloat {
		out := &Col{T: to, Len: n, Null: c.Null}
		out.F, out.Scratch = scratchFloats(n)
		for i, x := range c.I[:n] {
			out.F[i] = decFloat(x, from.Scale)
		}
		release(c)
		return out, nil
	}
	if c.I != nil && from.Kind == KInt && to.Kind == KDecimal && to.Prec <= 18 && to.Scale >= 0 && to.Scale <= to.Prec {
		// An integer fits DECIMAL(p,s) when it has at most p-s digits;
		// a batch with a value that does not takes the path below, which
		// raises the cast's error (or gives NULL for TRY_CAST).
		out := &Col{T: to, Len: n, Null: c.Null, I: make([]int64, n)}
		m, limit := pow10[to.Scale], pow10[to.Prec-to.Scale]
		fits := true
		for i, x := range c.I[:n] {
			if (x >= limit || x <= -limit) && !c.IsNull(i) {
				fits = false
				break
			}
			out.I[i] = x * m
		}
		if fits {
			return out, nil
		}
	}
	bld := newBuilder(to, n)
	for i := 0; i < n; i++ {
		v, err := castScalarTry(c.Get(i), from, to, try)
		if err != nil {
			if !try {
				return nil, err
			}
			v = nil
		}
		bld.Add(v)
	}
	return bld.C, nil
}

// castHuge casts between integers, decimals of every width and floats
// where one side is a 128-bit decimal, in fixed-width arithmetic; ok is
// false when it does not apply.
func castHuge(c *Col, from, to Type) (*Col, bool, error) {
	if !exactInts(c) || (storage(from) != stHuge && storage(to) != stHuge) || (from.Kind != KDecimal && from.Op() != KInt) {
		return nil, false, nil
	}
	n := c.Len
	fs := scaleOf(from)
	switch {
	case to.Kind == KFloat:
		out := &Col{T: to, Len: n, Null: c.Null, F: make([]float64, n)}
		for i := 0; i < n; i++ {
			out.F[i] = huge(c, i).Float64Scaled(fs)
		}
		return out, true, nil
	case to.Kind != KDecimal && to.Op() != KInt:
		return nil, false, nil
	case to.Op() == KInt && to.Bits != 0 && to.Bits < 64:
		return nil, false, nil // narrow integers: their range checks
	}
	ts := scaleOf(to)
	out := &Col{T: to, Len: n, Null: c.Null}
	st := storage(to)
	if st == stHuge {
		out.H = make([]num.Int128, n)
	} else {
		out.I = make([]int64, n)
	}
	for i := 0; i < n; i++ {
		if c.IsNull(i) {
			continue
		}
		x := huge(c, i)
		r, ok := x, true
		switch {
		case ts > fs:
			r, ok = x.MulPow10(ts - fs)
		case ts < fs && to.Kind == KDecimal:
			r = x.DivPow10Round(fs - ts)
		case ts < fs:
			// To an integer: DuckDB rounds half away from zero too.
			r = x.DivPow10Round(fs - ts)
		}
		if ok && st != stHuge && !r.IsInt64() {
			ok = false
		}
		if !ok || (to.Kind == KDecimal && !to.Fits(r)) {
			return nil, true, errorf("%s is out of range for %s", string(x.AppendDecimal(nil, fs)), to.SQLName())
		}
		if st == stHuge {
			out.H[i] = r
		} else {
			out.I[i] = r.Int64()
		}
	}
	return out, true, nil
}

// exactInts reports whether c holds integers or decimals as fixed-width
// integers (int64, uint64 or 128-bit), not coded and not as Go values.
func exactInts(c *Col) bool {
	return c.Dict == nil && (c.I != nil || c.H != nil)
}

// huge returns row i of an exactInts column as a 128-bit integer.
func huge(c *Col, i int) num.Int128 {
	switch {
	case c.H != nil:
		return c.H[i]
	case c.T.Kind == KUint:
		return num.FromUint64(uint64(c.I[i]))
	}
	return num.FromInt64(c.I[i])
}

// hugeArith computes x op y (+, - or *; also // and % for a HUGEINT) of
// two columns of unscaled integers (scales ls and rs) into out.H, the
// unscaled values of out.T, a DECIMAL of 19 to 38 digits or a HUGEINT, in
// 128-bit integers: + and - at the result's scale, * at ls+rs, then
// rounded to the result's scale. A result beyond the type is an error, as
// in DuckDB; NULL rows are skipped and a zero divisor gives NULL.
func hugeArith(op byte, lc, rc *Col, ls, rs int, out *Col) error {
	t := out.T
	out.H = make([]num.Int128, out.Len)
	lm, rm := t.Scale-ls, t.Scale-rs
	for i := range out.H {
		if out.IsNull(i) {
			continue
		}
		x, y := huge(lc, i), huge(rc, i)
		var r num.Int128
		ok := true
		switch op {
		case '+', '-':
			var ok1, ok2 bool
			x, ok1 = x.MulPow10(lm)
			y, ok2 = y.MulPow10(rm)
			if op == '+' {
				r, ok = x.Add(y)
			} else {
				r, ok = x.Sub(y)
			}
			ok = ok && ok1 && ok2
		case '*':
			r, ok = x.Mul(y)
			if d := t.Scale - (ls + rs); ok && d > 0 {
				r, ok = r.MulPow10(d)
			} else if d < 0 {
				r = r.DivPow10Round(-d)
			}
		case 'd', '%': // HUGEINT only: both operands are integers
			if y.Sign() == 0 {
				out.SetNull(i)
				continue
			}
			q, rem, qok := x.QuoRem(y)
			r, ok = q, qok // DuckDB refuses the minimum // -1 and % -1 alike
			if op == '%' {
				r = rem
			}
		}
		if !ok || !t.Fits(r) {
			return hugeOverflow(op, huge(lc, i), huge(rc, i), ls, rs, t)
		}
		out.H[i] = r
	}
	return nil
}
