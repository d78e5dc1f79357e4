package function

import (
	"github.com/carquet-go/carquet/sqlplan/num"
	"github.com/carquet-go/carquet/sqlplan/vec"
)

// CastCol converts a column to type to; with try, a value that does
// not convert is NULL rather than an error.
func CastCol(c *vec.Col, to vec.Type, try bool) (*vec.Col, error) {
	if narrowsToFloat32(c.T, to) { // float32.go
		wide, err := castCol(c, Wide(to), try)
		if err != nil {
			return nil, err
		}
		return narrowFloatCol(wide, c.T, to, try)
	}
	if textToJSON(c.T, to) { // jsoncast.go
		return castTextToJSON(c, to, try)
	}
	return castCol(c, to, try)
}

func castCol(c *vec.Col, to vec.Type, try bool) (*vec.Col, error) {
	from := c.T
	n := c.Len
	if enumCast(from, to) {
		return castEnumCol(c, to, try)
	}
	if from.Kind == vec.KUint && from.Op() == vec.KInt && to.Kind == vec.KInt && (to.Bits == 0 || to.Bits > from.Bits) && c.I != nil {
		// UTINYINT..UINTEGER to a wider signed type: the values are
		// already int64s that fit it.
		out := *c
		out.T = to
		return &out, nil
	}
	if from.Kind == to.Kind && from.Kind != vec.KDecimal && !(to.Op() == vec.KInt && to.Bits != 0 && to.Bits < 64) && SameNested(from, to) && SameUnit(from, to) && from.Bit == to.Bit {
		out := *c
		out.T = to
		return &out, nil
	}
	if err := coarseCastError(from, to); err != nil {
		if try {
			return vec.NullCol(to, n), nil
		}
		return nil, err
	}
	if BitBlobCast(from, to) {
		return castBitBlob(c, to)
	}
	if from.Bit != to.Bit && from.Kind != vec.KNull && !bitIntCast(from, to) { // those cast row by row, below
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
				bld := vec.NewBuilder(to, n)
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
	if from.Kind == vec.KTimestamp && to.Kind == vec.KTimestamp && to.Coarse > 0 && !from.Nanos && from.TZ == to.TZ && c.I != nil {
		// TIMESTAMP (or TIMESTAMP_S into TIMESTAMP_MS) to a coarser unit:
		// rounded, as DuckDB's cast.
		out := &vec.Col{T: to, Len: n, Null: c.Null, I: make([]int64, n)}
		ownNull := false
		for i, x := range c.I[:n] {
			if c.Null != nil && c.Null[i] {
				continue
			}
			var err error
			if out.I[i], err = coarseStamp(x, to); err != nil {
				if !try {
					return nil, err
				}
				if !ownNull {
					out.Null, ownNull = make([]bool, n), true // TRY_CAST: NULL, in a copy
					copy(out.Null, c.Null)
				}
				out.Null[i] = true
			}
		}
		return out, nil
	}
	if from.Kind == to.Kind && from.Nanos && !to.Nanos && c.I != nil {
		// TIMESTAMP_NS/TIME_NS down to microseconds: truncated toward
		// zero, as DuckDB's cast.
		out := &vec.Col{T: to, Len: n, Null: c.Null, I: make([]int64, n)}
		for i, x := range c.I[:n] {
			out.I[i] = x / 1000
			if from.Kind == vec.KTimestamp && vec.InfiniteStamp(x) {
				out.I[i] = x // the infinities are the same in both units
			}
		}
		return out, nil
	}
	if from.Kind == vec.KNull {
		return vec.NullCol(to, n), nil
	}
	// Fast paths for the common numeric widenings.
	if c.I != nil && from.Op() == vec.KInt && to.Kind == vec.KFloat {
		out := &vec.Col{T: to, Len: n, Null: c.Null, F: make([]float64, n)}
		for i, x := range c.I[:n] {
			out.F[i] = float64(x)
		}
		return out, nil
	}
	if h, ok, err := castHuge(c, from, to); ok || err != nil {
		return h, err
	}
	if c.I != nil && from.Kind == vec.KDecimal && to.Kind == vec.KFloat {
		out := &vec.Col{T: to, Len: n, Null: c.Null}
		out.F, out.Scratch = vec.ScratchFloats(n)
		for i, x := range c.I[:n] {
			out.F[i] = DecFloat(x, from.Scale)
		}
		vec.Release(c)
		return out, nil
	}
	if c.I != nil && from.Kind == vec.KInt && to.Kind == vec.KDecimal && to.Prec <= 18 && to.Scale >= 0 && to.Scale <= to.Prec {
		// An integer fits DECIMAL(p,s) when it has at most p-s digits;
		// a batch with a value that does not takes the path below, which
		// raises the cast's error (or gives NULL for TRY_CAST).
		out := &vec.Col{T: to, Len: n, Null: c.Null, I: make([]int64, n)}
		m, limit := Pow10[to.Scale], Pow10[to.Prec-to.Scale]
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
	bld := vec.NewBuilder(to, n)
	for i := 0; i < n; i++ {
		v, err := CastScalar(c.Get(i), from, to, try)
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
func castHuge(c *vec.Col, from, to vec.Type) (*vec.Col, bool, error) {
	if !ExactInts(c) || (vec.Storage(from) != vec.StHuge && vec.Storage(to) != vec.StHuge) || (from.Kind != vec.KDecimal && from.Op() != vec.KInt) {
		return nil, false, nil
	}
	n := c.Len
	fs := ScaleOf(from)
	switch {
	case to.Kind == vec.KFloat:
		out := &vec.Col{T: to, Len: n, Null: c.Null, F: make([]float64, n)}
		for i := 0; i < n; i++ {
			out.F[i] = huge(c, i).Float64Scaled(fs)
		}
		return out, true, nil
	case to.Kind != vec.KDecimal && to.Op() != vec.KInt:
		return nil, false, nil
	case to.Op() == vec.KInt && to.Bits != 0 && to.Bits < 64:
		return nil, false, nil // narrow integers: their range checks
	}
	ts := ScaleOf(to)
	out := &vec.Col{T: to, Len: n, Null: c.Null}
	st := vec.Storage(to)
	if st == vec.StHuge {
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
		case ts < fs && to.Kind == vec.KDecimal:
			r = x.DivPow10Round(fs - ts)
		case ts < fs:
			// To an integer: DuckDB rounds half away from zero too.
			r = x.DivPow10Round(fs - ts)
		}
		if ok && st != vec.StHuge && !r.IsInt64() {
			ok = false
		}
		if !ok || (to.Kind == vec.KDecimal && !to.Fits(r)) {
			if to.Kind == vec.KDecimal { // DuckDB's words, as castScalar's
				return nil, true, errorf("Could not cast value %s to %s", string(x.AppendDecimal(nil, fs)), to.SQLName())
			}
			return nil, true, errorf("%s is out of range for %s", string(x.AppendDecimal(nil, fs)), to.SQLName())
		}
		if st == vec.StHuge {
			out.H[i] = r
		} else {
			out.I[i] = r.Int64()
		}
	}
	return out, true, nil
}

// ExactInts reports whether c holds integers or decimals as fixed-width
// integers (int64, uint64 or 128-bit), not coded and not as Go values.
func ExactInts(c *vec.Col) bool {
	return c.Dict == nil && (c.I != nil || c.H != nil)
}

// huge returns row i of an ExactInts column as a 128-bit integer.
func huge(c *vec.Col, i int) num.Int128 {
	switch {
	case c.H != nil:
		return c.H[i]
	case c.T.Kind == vec.KUint:
		return num.FromUint64(uint64(c.I[i]))
	}
	return num.FromInt64(c.I[i])
}

// HugeArith computes x op y (+, - or *; also // and % for a HUGEINT) of
// two columns of unscaled integers (scales ls and rs) into out.H, the
// unscaled values of out.T, a DECIMAL of 19 to 38 digits or a HUGEINT, in
// 128-bit integers: + and - at the result's scale, * at ls+rs, then
// rounded to the result's scale. A result beyond the type is an error, as
// in DuckDB; NULL rows are skipped and a zero divisor gives NULL.
func HugeArith(op byte, lc, rc *vec.Col, ls, rs int, out *vec.Col) error {
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
