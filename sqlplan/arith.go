package sqlplan

import (
	"math"
	"math/big"

	"github.com/carquet-go/carquet/parquet/value"
	"github.com/carquet-go/carquet/sqlplan/function"
	"github.com/carquet-go/carquet/sqlplan/num"
	"github.com/carquet-go/carquet/sqlplan/vec"
)

// Arithmetic on column vectors: integer, decimal (18-digit and 128-bit),
// float and interval operands, with DuckDB's overflow errors.

// arithExpr is + - * / % on numbers, dates and times.
type arithExpr struct {
	named
	op   byte // + - * / %
	l, r expr
	t    Type
}

func (e *arithExpr) Type() Type { return e.t }

func (e *arithExpr) Eval(b *Batch) (*Col, error) {
	lc, err := e.operand(e.l, b)
	if err != nil {
		return nil, err
	}
	n := b.N
	// Temporal arithmetic with a constant interval keeps calendar months.
	if k, ok := isConst(e.r); ok && e.t.Kind != KInterval {
		if iv, ok := k.v.(interval); ok {
			return addInterval(lc, iv, e.op == '-', e.t)
		}
	}
	rc, err := e.operand(e.r, b)
	if err != nil {
		return nil, err
	}
	out, err := e.compute(lc, rc, n)
	if err != nil {
		return nil, err
	}
	release(lc)
	release(rc)
	return out, nil
}

// vectorKernel reports whether e runs on one of the kernels of
// arithkernels.go, which take a constant operand as a one-row column.
func (e *arithExpr) vectorKernel() bool {
	switch e.t.Kind {
	case KFloat:
		return e.op != '%'
	case KDecimal:
		return e.t.Prec <= 18 && (e.op == '+' || e.op == '-' || e.op == '*')
	}
	return false
}

// operand evaluates one side of e: a constant that a kernel broadcasts as
// a one-row column, anything else as a column of the batch's rows.
func (e *arithExpr) operand(side expr, b *Batch) (*Col, error) {
	if k, ok := isConst(side); ok && b.N > 1 && e.vectorKernel() {
		switch v := k.v.(type) {
		case float64:
			if e.t.Kind == KFloat {
				return &Col{T: k.t, Len: 1, F: []float64{v}}, nil
			}
		case int64:
			if e.t.Kind == KDecimal && k.t.Kind == KDecimal {
				return &Col{T: k.t, Len: 1, I: []int64{v}}, nil
			}
		}
	}
	return side.Eval(b)
}

// compute is l op r on evaluated operands.
func (e *arithExpr) compute(lc, rc *Col, n int) (*Col, error) {
	out := &Col{T: e.t, Len: n, Null: mergeNulls(n, lc, rc)}
	lt, rt := e.l.Type(), e.r.Type()
	switch {
	case e.t.Kind == KFloat && e.op != '%':
		out.F, out.Scratch = scratchFloats(n)
		function.FloatArith(e.op, out.F, floats(lc), floats(rc))
		return out, nil
	case e.t.Kind == KFloat:
		x, y := floats(lc), floats(rc)
		out.F = make([]float64, n)
		switch e.op {
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
		return out, nil
	case e.t.Kind == KDecimal && e.t.Prec <= 18 && (e.op == '+' || e.op == '-' || e.op == '*'):
		ls, rs := scaleOf(lt), scaleOf(rt)
		out.I, out.Scratch = scratchInts(n)
		if e.op == '*' {
			if i, ok := function.MulDecimals18(out.I, lc.I, rc.I, out.Null); !ok {
				x, y := intAt(lc, i), intAt(rc, i)
				return nil, errorf("overflow in %s * %s: the result does not fit %s",
					string(num.FromInt64(x).AppendDecimal(nil, ls)), string(num.FromInt64(y).AppendDecimal(nil, rs)), e.t.SQLName())
			}
			return out, nil
		}
		function.AddScaled(out.I, lc.I, rc.I, pow10[e.t.Scale-ls], pow10[e.t.Scale-rs], e.op == '-')
		return out, nil
	case e.t.Kind == KDecimal && e.t.Prec <= 18:
		x, y := lc.I, rc.I
		ls, rs := scaleOf(lt), scaleOf(rt)
		out.I = make([]int64, n)
		switch e.op {
		case '%':
			lm, rm := pow10[e.t.Scale-ls], pow10[e.t.Scale-rs]
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
	case e.t.Kind == KUHuge:
		if err := uhugeArith(e.op, lc, rc, out); err != nil {
			return nil, err
		}
		return out, nil
	case e.t.Kind == KDecimal && (e.op != '%' || e.t.Huge) && storage(e.t) == stHuge && exactInts(lc) && exactInts(rc):
		if err := hugeArith(e.op, lc, rc, scaleOf(lt), scaleOf(rt), out); err != nil {
			return nil, err
		}
		return out, nil
	case e.t.Kind == KDecimal:
		bld := newBuilder(e.t, n)
		for i := 0; i < n; i++ {
			if out.IsNull(i) {
				bld.Add(nil)
				continue
			}
			a, bb := decRat(decimalScalar(lt, lc.Get(i))), decRat(decimalScalar(rt, rc.Get(i)))
			var r = a
			switch e.op {
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
				return nil, errorf("operator %c on decimals is not supported", e.op)
			}
			v, err := fitDecimal(ratDecimal(r, e.t.Scale), e.t)
			if err != nil {
				return nil, err
			}
			bld.Add(v)
		}
		return bld.C, nil
	}
	if lt.Kind == KInterval || rt.Kind == KInterval {
		return intervalArith(e, lc, rc, out)
	}
	// Integer-like results.
	x, y := lc.I, rc.I
	out.I = make([]int64, n)
	switch {
	case lt.Kind == KDate && rt.Kind == KDate: // days between
		for i := range out.I {
			out.I[i] = x[i] - y[i]
		}
	case lt.Kind == KDate && e.t.Kind == KDate: // date ± days
		for i := range out.I {
			if e.op == '+' {
				out.I[i] = x[i] + y[i]
			} else {
				out.I[i] = x[i] - y[i]
			}
		}
	case rt.Kind == KDate && e.t.Kind == KDate: // days + date
		for i := range out.I {
			out.I[i] = x[i] + y[i]
		}
	case e.t.Kind == KInterval: // timestamp - timestamp
		out.A, out.I = make([]any, n), nil
		for i := range out.A {
			out.A[i] = vec.SplitMicros(x[i] - y[i])
		}
	default:
		overflow := false
		switch e.op {
		case '+':
			for i := range out.I {
				r, o := addInt64(x[i], y[i])
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
				if e.op == '%' {
					out.I[i] = x[i] % y[i]
				} else {
					out.I[i] = x[i] / y[i]
				}
			}
		}
		if bits := e.t.Bits; bits != 0 && bits < 64 && e.t.Kind == KInt {
			if err := e.checkWidth(out, x, y, bits); err != nil {
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
				switch e.op {
				case '+':
					bad = (a+b > a) != (b > 0)
				case '-':
					bad = (a-b < a) != (b > 0)
				case '*':
					bad = a != 0 && ((a*b)/a != b || a == -1 && b == math.MinInt64)
				}
				if bad {
					return nil, e.overflowError(64, a, b)
				}
			}
		}
	}
	return out, nil
}

// checkWidth reports a result of narrow integer arithmetic outside its
// width (DuckDB's overflow error: INTEGER + INTEGER stays an INTEGER).
func (e *arithExpr) checkWidth(out *Col, x, y []int64, bits int) error {
	lo, hi := int64(-1)<<(bits-1), int64(1)<<(bits-1)-1
	for i, r := range out.I {
		if (r < lo || r > hi) && !out.IsNull(i) {
			return e.overflowError(bits, x[i], y[i])
		}
	}
	return nil
}

// overflowError is DuckDB's error for an integer result outside its type.
func (e *arithExpr) overflowError(bits int, a, b int64) error {
	return errorf("Overflow in %s of INT%d (%d %s %d)!", opName[e.op], bits, a, opSymbol(e.op), b)
}

// floats returns a numeric column as float64s.
func floats(c *Col) []float64 {
	if c.F != nil {
		return c.F
	}
	out := make([]float64, c.Len)
	switch {
	case c.T.Kind == KDecimal && c.I != nil:
		for i, x := range c.I[:c.Len] {
			out[i] = decFloat(x, c.T.Scale)
		}
	case c.T.Kind == KUint:
		for i, x := range c.I[:c.Len] {
			out[i] = float64(uint64(x))
		}
	case c.I != nil:
		for i, x := range c.I[:c.Len] {
			out[i] = float64(x)
		}
	case c.H != nil && c.T.Kind == KUHuge:
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
				f, _ := castScalar(v, c.T, Type{Kind: KFloat})
				out[i], _ = f.(float64)
			}
		}
	}
	return out
}

// addInterval adds a constant interval to dates, timestamps or times.
func addInterval(c *Col, iv interval, sub bool, t Type) (*Col, error) {
	n := c.Len
	out := &Col{T: t, Len: n, Null: c.Null, I: make([]int64, n)}
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
func addIntervalAt(from Kind, x int64, iv interval, sub bool, to Kind) int64 {
	sign := int64(1)
	if sub {
		sign = -1
	}
	if to == KTime {
		us := x + sign*iv.Micros
		return ((us % microsPerDay) + microsPerDay) % microsPerDay
	}
	if to == KTimeTZ { // the local time moves, the offset stays
		us, off := timetzParts(x)
		return timetzKey(addIntervalAt(KTime, us, iv, sub, KTime), off)
	}
	if from == KDate {
		x *= microsPerDay
	}
	us := iv.AddTo(x, sign)
	if to == KDate {
		us /= microsPerDay
	}
	return us
}

// intervalArith computes e on interval columns: date, timestamp or time
// plus or minus an interval, and intervals plus or minus each other. out
// has the result's type and NULLs.
func intervalArith(e *arithExpr, lc, rc *Col, out *Col) (*Col, error) {
	n := out.Len
	if e.t.Kind == KInterval {
		out.A = make([]any, n)
		for i := range out.A {
			if out.IsNull(i) {
				continue
			}
			l, r := lc.Get(i).(interval), rc.Get(i).(interval)
			if e.op == '-' {
				r = r.Neg()
			}
			out.A[i] = l.Add(r)
		}
		return out, nil
	}
	out.I = make([]int64, n)
	for i := range out.I {
		if !out.IsNull(i) {
			out.I[i] = addIntervalAt(lc.T.Kind, lc.I[i], rc.Get(i).(interval), e.op == '-', e.t.Kind)
		}
	}
	return out, nil
}

// negExpr is unary minus.
type negExpr struct {
	named
	e expr
}

func (e *negExpr) Type() Type { return e.e.Type() }

func (e *negExpr) Eval(b *Batch) (*Col, error) {
	c, err := e.e.Eval(b)
	if err != nil {
		return nil, err
	}
	out := &Col{T: c.T, Len: c.Len, Null: c.Null}
	switch {
	case c.I != nil:
		out.I = make([]int64, c.Len)
		for i, x := range c.I[:c.Len] {
			if x == math.MinInt64 && !c.IsNull(i) {
				return nil, errorf("integer overflow in %s", e.String())
			}
			out.I[i] = -x
		}
	case c.F != nil:
		out.F = make([]float64, c.Len)
		for i, x := range c.F[:c.Len] {
			out.F[i] = -x
		}
	case c.T.Kind == KUHuge:
		out.H = uhugeNeg(c.Decoded())
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
		bld := newBuilder(c.T, c.Len)
		for i := 0; i < c.Len; i++ {
			v := c.Get(i)
			switch d := v.(type) {
			case value.Decimal:
				v = value.Decimal{Unscaled: new(big.Int).Neg(d.Unscaled), Scale: d.Scale}
			case interval:
				v = d.Neg()
			}
			bld.Add(v)
		}
		return bld.C, nil
	}
	return out, nil
}

// intAt is row i of an int64 operand (a constant's one value).
func intAt(c *Col, i int) int64 {
	if len(c.I) <= i {
		return c.I[0]
	}
	return c.I[i]
}

// uhugeOperand reports an operand that arithmetic with a UHUGEINT keeps
// UHUGEINT, as DuckDB: a UHUGEINT, an unsigned integer, or an integer
// literal that is not negative.
func uhugeOperand(e expr) bool {
	t := e.typ()
	switch {
	case t.Kind == KUHuge || t.Kind == KUint:
		return true
	case t.Op() == KInt:
		v, lit := intLiteral(e)
		return lit && v >= 0
	}
	return false
}
