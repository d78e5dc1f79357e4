package function

import (
	"math"
	"math/big"

	"github.com/carquet-go/carquet/parquet/value"
	"github.com/carquet-go/carquet/sqlplan/num"
	"github.com/carquet-go/carquet/sqlplan/vec"
)

// Arithmetic on column vectors: integer, decimal (18-digit and 128-bit),
// float and interval operands, with DuckDB's overflow errors (the
// binder types the operation, sqlplan/bindops.go; Arith computes it).

// Arith is lc op rc (+ - * / %, and d for //), operands of types lt and
// rt, n rows, into a column of the result type t the binder chose. A
// constant operand of the float and 18-digit decimal kernels may be a
// one-row column.
func Arith(op byte, lt, rt, t vec.Type, lc, rc *vec.Col, n int) (*vec.Col, error) {
	out := &vec.Col{T: t, Len: n, Null: vec.MergeNulls(n, lc, rc)}
	if t.Kind == vec.KFloat && op == 'd' {
		op = '/' // // of DOUBLEs divides, as DuckDB's (7.0 // 2 is 3.5)
	}
	switch {
	case t.Kind == vec.KFloat && op != '%':
		out.F, out.Scratch = vec.ScratchFloats(n)
		FloatArith(op, out.F, floats(lc), floats(rc))
		if t.Float32 {
			RoundFloat32s(out.F) // float32.go
		}
		return out, nil
	case t.Kind == vec.KFloat:
		x, y := floats(lc), floats(rc)
		out.F = make([]float64, n)
		switch op {
		case '+':
			for i := range out.F {
				out.F[i] = x[i] + y[i]
			}
		case '-':
			for i := range out.F {
				out.F[i] = x[i] - y[i]
			}
		case '*':
			for i := range out.F {
				out.F[i] = x[i] * y[i]
			}
		case '/':
			// IEEE division, as DuckDB: x/0 is ±Inf, 0/0 NaN.
			for i := range out.F {
				out.F[i] = x[i] / y[i]
			}
		case '%':
			for i := range out.F {
				if y[i] == 0 {
					out.SetNull(i)
					continue
				}
				out.F[i] = math.Mod(x[i], y[i])
			}
		}
		if t.Float32 {
			RoundFloat32s(out.F)
		}
		return out, nil
	case t.Kind == vec.KDecimal && t.Prec <= 18 && (op == '+' || op == '-' || op == '*'):
		ls, rs := ScaleOf(lt), ScaleOf(rt)
		out.I, out.Scratch = vec.ScratchInts(n)
		if op == '*' {
			if i, ok := MulDecimals18(out.I, lc.I, rc.I, out.Null); !ok {
				x, y := intAt(lc, i), intAt(rc, i)
				return nil, errorf("overflow in %s * %s: the result does not fit %s",
					string(num.FromInt64(x).AppendDecimal(nil, ls)), string(num.FromInt64(y).AppendDecimal(nil, rs)), t.SQLName())
			}
			return out, nil
		}
		AddScaled(out.I, lc.I, rc.I, Pow10[t.Scale-ls], Pow10[t.Scale-rs], op == '-')
		return out, nil
	case t.Kind == vec.KDecimal && t.Prec <= 18:
		x, y := lc.I, rc.I
		ls, rs := ScaleOf(lt), ScaleOf(rt)
		out.I = make([]int64, n)
		switch op {
		case '%':
			lm, rm := Pow10[t.Scale-ls], Pow10[t.Scale-rs]
			for i := range out.I {
				d := y[i] * rm
				if d == 0 {
					out.SetNull(i)
					continue
				}
				out.I[i] = (x[i] * lm) % d
			}
		}
		return out, nil
	case t.Kind == vec.KUHuge:
		if err := UHugeArith(op, lc, rc, out); err != nil {
			return nil, err
		}
		return out, nil
	case t.Kind == vec.KDecimal && (op != '%' || t.Huge) && vec.Storage(t) == vec.StHuge && ExactInts(lc) && ExactInts(rc):
		if err := HugeArith(op, lc, rc, ScaleOf(lt), ScaleOf(rt), out); err != nil {
			return nil, err
		}
		return out, nil
	case t.Kind == vec.KDecimal:
		bld := vec.NewBuilder(t, n)
		for i := 0; i < n; i++ {
			if out.IsNull(i) {
				bld.Add(nil)
				continue
			}
			a, bb := vec.DecRat(DecimalScalar(lt, lc.Get(i))), vec.DecRat(DecimalScalar(rt, rc.Get(i)))
			var r = a
			switch op {
			case '+':
				r = a.Add(a, bb)
			case '-':
				r = a.Sub(a, bb)
			case '*':
				r = a.Mul(a, bb)
			case '%':
				// The remainder of the quotient truncated toward zero (the
				// sign of a), NULL for a zero divisor, as DuckDB.
				if bb.Sign() == 0 {
					bld.Add(nil)
					continue
				}
				q := new(big.Rat).Quo(a, bb)
				t := new(big.Int).Quo(q.Num(), q.Denom())
				r = a.Sub(a, bb.Mul(bb, new(big.Rat).SetInt(t)))
			default:
				return nil, errorf("operator %c on decimals is not supported", op)
			}
			v, err := FitDecimal(vec.RatDecimal(r, t.Scale), t)
			if err != nil {
				return nil, err
			}
			bld.Add(v)
		}
		return bld.C, nil
	}
	if lt.Kind == vec.KInterval || rt.Kind == vec.KInterval {
		return intervalArith(op, t, lc, rc, out)
	}
	if t.Kind == vec.KUint {
		if err := uintArith(op, t, lc, rc, out); err != nil {
			return nil, err
		}
		return out, nil
	}
	// Integer-like results.
	x, y := lc.I, rc.I
	out.I = make([]int64, n)
	switch {
	case lt.Kind == vec.KDate && rt.Kind == vec.KDate: // days between
		for i := range out.I {
			out.I[i] = x[i] - y[i]
		}
	case lt.Kind == vec.KDate && t.Kind == vec.KDate: // date ± days
		for i := range out.I {
			if vec.InfiniteDate(x[i]) {
				out.I[i] = x[i] // an infinity stays, as DuckDB's
			} else if op == '+' {
				out.I[i] = x[i] + y[i]
			} else {
				out.I[i] = x[i] - y[i]
			}
		}
	case rt.Kind == vec.KDate && t.Kind == vec.KDate: // days + date
		for i := range out.I {
			out.I[i] = x[i] + y[i]
			if vec.InfiniteDate(y[i]) {
				out.I[i] = y[i]
			}
		}
	case t.Kind == vec.KInterval: // timestamp - timestamp
		out.A, out.I = make([]any, n), nil
		for i := range out.A {
			if !out.IsNull(i) && (vec.InfiniteStamp(x[i]) || vec.InfiniteStamp(y[i])) {
				return nil, errorf("Cannot subtract infinite timestamps")
			}
			out.A[i] = vec.SplitMicros(x[i] - y[i])
		}
	default:
		overflow := false
		switch op {
		case '+':
			for i := range out.I {
				r, o := AddInt64(x[i], y[i])
				overflow = overflow || o
				out.I[i] = r
			}
		case '-':
			for i := range out.I {
				r := x[i] - y[i]
				overflow = overflow || (r < x[i]) != (y[i] > 0)
				out.I[i] = r
			}
		case '*':
			for i := range out.I {
				r := x[i] * y[i]
				if x[i] != 0 && (r/x[i] != y[i] || x[i] == -1 && y[i] == math.MinInt64) {
					overflow = true
				}
				out.I[i] = r
			}
		case '/', '%', 'd':
			for i := range out.I {
				if y[i] == 0 {
					out.SetNull(i)
					continue
				}
				if op == '%' {
					out.I[i] = x[i] % y[i]
				} else {
					out.I[i] = x[i] / y[i]
				}
			}
		}
		if bits := t.Bits; bits != 0 && bits < 64 && t.Kind == vec.KInt {
			if err := checkWidth(op, out, x, y, bits); err != nil {
				return nil, err
			}
		}
		if overflow {
			// Only rows that are not NULL count.
			for i := range out.I {
				if out.IsNull(i) {
					continue
				}
				a, b := x[i], y[i]
				var bad bool
				switch op {
				case '+':
					bad = (a+b > a) != (b > 0)
				case '-':
					bad = (a-b < a) != (b > 0)
				case '*':
					bad = a != 0 && ((a*b)/a != b || a == -1 && b == math.MinInt64)
				}
				if bad {
					return nil, overflowError(op, 64, a, b)
				}
			}
		}
	}
	return out, nil
}

// checkWidth reports a result of narrow integer arithmetic outside its
// width (DuckDB's overflow error: INTEGER + INTEGER stays an INTEGER).
func checkWidth(op byte, out *vec.Col, x, y []int64, bits int) error {
	lo, hi := int64(-1)<<(bits-1), int64(1)<<(bits-1)-1
	for i, r := range out.I {
		if (r < lo || r > hi) && !out.IsNull(i) {
			return overflowError(op, bits, x[i], y[i])
		}
	}
	return nil
}

// overflowError is DuckDB's error for an integer result outside its type.
func overflowError(op byte, bits int, a, b int64) error {
	return errorf("Overflow in %s of INT%d (%d %s %d)!", OpName[op], bits, a, OpSymbol(op), b)
}

// floats returns a numeric column as float64s.
func floats(c *vec.Col) []float64 {
	if c.F != nil {
		return c.F
	}
	out := make([]float64, c.Len)
	switch {
	case c.T.Kind == vec.KDecimal && c.I != nil:
		for i, x := range c.I[:c.Len] {
			out[i] = DecFloat(x, c.T.Scale)
		}
	case c.T.Kind == vec.KUint:
		for i, x := range c.I[:c.Len] {
			out[i] = float64(uint64(x))
		}
	case c.I != nil:
		for i, x := range c.I[:c.Len] {
			out[i] = float64(x)
		}
	case c.H != nil && c.T.Kind == vec.KUHuge:
		for i, x := range c.H[:c.Len] {
			out[i], _ = new(big.Float).SetInt(num.UBig(x.FlipSign())).Float64()
		}
	case c.H != nil:
		for i, x := range c.H[:c.Len] {
			out[i] = x.Float64Scaled(c.T.Scale)
		}
	case c.A != nil:
		for i, v := range c.A[:c.Len] {
			if v != nil {
				f, _ := castScalar(v, c.T, vec.Type{Kind: vec.KFloat})
				out[i], _ = f.(float64)
			}
		}
	}
	return out
}

// AddInterval adds a constant interval to dates, timestamps or times.
func AddInterval(c *vec.Col, iv vec.Interval, sub bool, t vec.Type) (*vec.Col, error) {
	n := c.Len
	out := &vec.Col{T: t, Len: n, Null: c.Null, I: make([]int64, n)}
	for i := 0; i < n; i++ {
		if !c.IsNull(i) {
			out.I[i] = addIntervalAt(c.T.Kind, c.I[i], iv, sub, t.Kind)
		}
	}
	return out, nil
}

// addIntervalAt is x (a date, timestamp or time of kind from) plus iv
// (minus, with sub), of kind to. A time (with or without its time zone)
// adds only the microseconds, and wraps around midnight.
func addIntervalAt(from vec.Kind, x int64, iv vec.Interval, sub bool, to vec.Kind) int64 {
	sign := int64(1)
	if sub {
		sign = -1
	}
	if to == vec.KTime {
		us := x + sign*iv.Micros
		return ((us % vec.MicrosPerDay) + vec.MicrosPerDay) % vec.MicrosPerDay
	}
	if to == vec.KTimeTZ { // the local time moves, the offset stays
		us, off := vec.TimeTZParts(x)
		return vec.TimeTZKey(addIntervalAt(vec.KTime, us, iv, sub, vec.KTime), off)
	}
	if inf, ok := infinityTo(from, x, to); ok {
		return inf // DuckDB's infinities stay where they are
	}
	if from == vec.KDate {
		x *= vec.MicrosPerDay
	}
	us := iv.AddTo(x, sign)
	if to == vec.KDate {
		us /= vec.MicrosPerDay
	}
	return us
}

// infinityTo is the infinity of kind to (DATE or TIMESTAMP) for x of kind
// from when x is one of DuckDB's infinities.
func infinityTo(from vec.Kind, x int64, to vec.Kind) (int64, bool) {
	switch {
	case from == vec.KDate && vec.InfiniteDate(x):
		if to == vec.KDate {
			return x, true
		}
		return infiniteStamp(x), true
	case from == vec.KTimestamp && vec.InfiniteStamp(x):
		if to == vec.KDate {
			return infiniteDate(x), true
		}
		return x, true
	}
	return 0, false
}

// intervalArith computes lc op rc, of result type t, on interval columns: date, timestamp or time
// plus or minus an interval, and intervals plus or minus each other. out
// has the result's type and NULLs.
func intervalArith(op byte, t vec.Type, lc, rc *vec.Col, out *vec.Col) (*vec.Col, error) {
	n := out.Len
	if t.Kind == vec.KInterval {
		out.A = make([]any, n)
		for i := range out.A {
			if out.IsNull(i) {
				continue
			}
			l, r := lc.Get(i).(vec.Interval), rc.Get(i).(vec.Interval)
			if op == '-' {
				r = r.Neg()
			}
			out.A[i] = l.Add(r)
		}
		return out, nil
	}
	out.I = make([]int64, n)
	for i := range out.I {
		if !out.IsNull(i) {
			out.I[i] = addIntervalAt(lc.T.Kind, lc.I[i], rc.Get(i).(vec.Interval), op == '-', t.Kind)
		}
	}
	return out, nil
}

// intAt is row i of an int64 operand (a constant's one value).
func intAt(c *vec.Col, i int) int64 {
	if len(c.I) <= i {
		return c.I[0]
	}
	return c.I[i]
}

// IntMin is the least value of the signed integer type t (its Bits, 64
// when 0).
func IntMin(t vec.Type) int64 {
	if t.Bits == 0 || t.Bits >= 64 {
		return math.MinInt64
	}
	return -(int64(1) << (t.Bits - 1))
}

// Negate is -c; text names the operation in an integer overflow's error.
func Negate(c *vec.Col, text string) (*vec.Col, error) {
	out := &vec.Col{T: c.T, Len: c.Len, Null: c.Null}
	switch {
	case c.I != nil && c.T.Kind == vec.KUint:
		// Unsigned: modulo 2^width, as DuckDB's (-(200::UTINYINT) is 56).
		out.I = make([]int64, c.Len)
		mask := UintMax(c.T.Bits)
		for i, x := range c.I[:c.Len] {
			out.I[i] = int64(-uint64(x) & mask)
		}
	case c.I != nil:
		out.I = make([]int64, c.Len)
		least := IntMin(c.T) // -(-128::TINYINT) does not fit a TINYINT
		for i, x := range c.I[:c.Len] {
			if x == least && !c.IsNull(i) {
				return nil, errorf("integer overflow in %s", text)
			}
			out.I[i] = -x
		}
	case c.F != nil:
		out.F = make([]float64, c.Len)
		for i, x := range c.F[:c.Len] {
			out.F[i] = -x
		}
	case c.T.Kind == vec.KUHuge:
		out.H = UHugeNeg(c.Decoded())
	case c.H != nil && c.Dict == nil:
		out.H = make([]num.Int128, c.Len)
		for i, x := range c.H[:c.Len] {
			n, ok := x.Negate()
			if !ok && !c.IsNull(i) {
				return nil, errorf("Overflow in negation of numeric value!") // DuckDB's words (a HUGEINT's minimum)
			}
			out.H[i] = n
		}
	default:
		bld := vec.NewBuilder(c.T, c.Len)
		for i := 0; i < c.Len; i++ {
			v := c.Get(i)
			switch d := v.(type) {
			case value.Decimal:
				v = value.Decimal{Unscaled: new(big.Int).Neg(d.Unscaled), Scale: d.Scale}
			case vec.Interval:
				v = d.Neg()
			}
			bld.Add(v)
		}
		return bld.C, nil
	}
	return out, nil
}
