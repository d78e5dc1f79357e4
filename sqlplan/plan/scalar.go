package plan

import (
	"github.com/carquet-go/carquet/sqlplan/num"
)

// Scalars: one value in the engine's representation for its Type —
// nil for NULL; int64 for KInt, KDate (days), KTime and KTimestamp
// (microseconds), interval for KInterval, and KDecimal up to 18 digits
// (unscaled); uint64 for KUint; float64; bool; string for KString and
// KUUID; []byte for KBytes; value.Decimal for wide decimals; Go values
// for KNested.

// scaleIntervalCol is interval iv times (or, div, divided by) the number
// n, as interval.scale does.
func scaleIntervalCol(iv, n Expr, div bool) Expr {
	op := " * "
	if div {
		op = " / "
	}
	e := &funcExpr{name: "interval" + op, args: []Expr{iv, n}, t: Type{Kind: KInterval}, strict: true, row: func(a []*Col, i int) (any, error) {
		f, err := CastScalar(a[1].Get(i), a[1].T, tFloat)
		if err != nil {
			return nil, err
		}
		x := f.(float64)
		if a[1].T.Op() == KInt && !div {
			return a[0].Get(i).(Interval).MulInt(a[1].Get(i).(int64)), nil
		}
		if div {
			if x == 0 {
				return nil, errorf("division by zero")
			}
			x = 1 / x
		}
		r, ok := a[0].Get(i).(Interval).Scale(x)
		if !ok {
			return nil, errorf("the interval is out of range")
		}
		return r, nil
	}}
	e.setText(iv.String() + op + n.String())
	return e
}

// ConstCol is a column of n copies of scalar v.
func ConstCol(t Type, v any, n int) *Col {
	if v == nil {
		return NullCol(t, n)
	}
	c := &Col{T: t, Len: n}
	switch Storage(t) {
	case stInt:
		var x int64
		switch y := v.(type) {
		case int64:
			x = y
		case uint64:
			x = int64(y)
		}
		c.I = make([]int64, n)
		for i := range c.I {
			c.I[i] = x
		}
	case stFloat:
		c.F = make([]float64, n)
		x := v.(float64)
		for i := range c.F {
			c.F[i] = x
		}
	case stBool:
		c.B = make([]bool, n)
		x := v.(bool)
		for i := range c.B {
			c.B[i] = x
		}
	case stBytes:
		var s []byte
		switch y := v.(type) {
		case string:
			s = []byte(y)
		case []byte:
			s = y
		}
		c.Off = make([]int32, n+1)
		c.Data = make([]byte, 0, len(s)*n)
		for i := 0; i < n; i++ {
			c.Data = append(c.Data, s...)
			c.Off[i+1] = int32(len(c.Data))
		}
	case stHuge:
		c.H = make([]num.Int128, n)
		x := slot128(t, v)
		for i := range c.H {
			c.H[i] = x
		}
	default:
		c.A = make([]any, n)
		for i := range c.A {
			c.A[i] = v
		}
	}
	return c
}

func cmpOrdered[T int64 | uint64 | int32](a, b T) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
