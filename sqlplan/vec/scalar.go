package vec

import (
	"math/big"

	"github.com/carquet-go/carquet/parquet/value"
	"github.com/carquet-go/carquet/sqlplan/num"
)

// Get returns slot i of c as a scalar.
func (c *Col) Get(i int) any {
	if c.IsNull(i) {
		return nil
	}
	switch {
	case c.Dict != nil:
		return c.Dict.Get(int(c.Codes[i]))
	case c.I != nil:
		if c.T.Kind == KUint {
			return uint64(c.I[i])
		}
		return c.I[i]
	case c.F != nil:
		return c.F[i]
	case c.B != nil:
		return c.B[i]
	case c.Off != nil:
		if c.T.Kind == KBytes {
			return append([]byte(nil), c.Str(i)...)
		}
		return string(c.Str(i))
	case c.H != nil:
		return c.Decimal(i)
	case c.A != nil:
		return c.A[i]
	}
	return nil
}

// Builder appends scalars to a new column.
type Builder struct{ C *Col }

func NewBuilder(t Type, capacity int) *Builder {
	c := &Col{T: t}
	switch Storage(t) {
	case StInt:
		c.I = make([]int64, 0, capacity)
	case StFloat:
		c.F = make([]float64, 0, capacity)
	case StBool:
		c.B = make([]bool, 0, capacity)
	case StBytes:
		c.Off = make([]int32, 1, capacity+1)
	case StHuge:
		c.H = make([]num.Int128, 0, capacity)
	default:
		c.A = make([]any, 0, capacity)
	}
	return &Builder{C: c}
}

// AddRow appends row i of src, a column of the builder's Storage,
// without boxing the common kinds in an any.
func (b *Builder) AddRow(src *Col, i int) {
	c := b.C
	if src.IsNull(i) || src.Dict != nil {
		b.Add(src.Get(i))
		return
	}
	switch st := Storage(c.T); {
	case st == StInt && src.I != nil:
		c.I = append(c.I, src.I[i])
	case st == StFloat && src.F != nil:
		c.F = append(c.F, src.F[i])
	case st == StBytes && src.Off != nil:
		c.Data = append(c.Data, src.Str(i)...)
		c.Off = append(c.Off, int32(len(c.Data)))
	default:
		b.Add(src.Get(i))
		return
	}
	if c.Null != nil {
		c.Null = append(c.Null, false)
	}
	c.Len++
}

func (b *Builder) Add(v any) {
	c := b.C
	if v == nil {
		if c.Null == nil {
			c.Null = make([]bool, c.Len, cap(c.I)+cap(c.F)+cap(c.B)+cap(c.A)+cap(c.H)+cap(c.Off)+1)
		}
		c.Null = append(c.Null, true)
	} else if c.Null != nil {
		c.Null = append(c.Null, false)
	}
	c.Len++
	switch Storage(c.T) {
	case StInt:
		var x int64
		switch y := v.(type) {
		case int64:
			x = y
		case uint64:
			x = int64(y)
		}
		c.I = append(c.I, x)
	case StFloat:
		x, _ := v.(float64)
		c.F = append(c.F, x)
	case StBool:
		x, _ := v.(bool)
		c.B = append(c.B, x)
	case StBytes:
		switch y := v.(type) {
		case string:
			c.Data = append(c.Data, y...)
		case []byte:
			c.Data = append(c.Data, y...)
		}
		c.Off = append(c.Off, int32(len(c.Data)))
	case StHuge:
		c.H = append(c.H, Slot128(c.T, v))
	default:
		c.A = append(c.A, v)
	}
}

// HugeScalar is a decimal scalar as the unscaled 128-bit value at scale
// (zero for nil). The scalar's type is a DECIMAL of at most 38 digits, so
// it fits.
func HugeScalar(v any, scale int) num.Int128 {
	var x num.Int128
	switch y := v.(type) {
	case nil:
		return x
	case num.Int128:
		return y
	case int64:
		x = num.FromInt64(y)
		m, _ := x.MulPow10(scale)
		return m
	case uint64:
		x = num.FromUint64(y)
		m, _ := x.MulPow10(scale)
		return m
	case value.Decimal:
		u := y.Unscaled
		if u == nil {
			return x
		}
		d := value.Decimal{Unscaled: u, Scale: y.Scale}
		if int(y.Scale) != scale {
			d = RatDecimal(DecRat(y), scale)
		}
		x, _ = num.FromBig(d.Unscaled)
	}
	return x
}

func DecRat(d value.Decimal) *big.Rat {
	u := d.Unscaled
	if u == nil {
		u = new(big.Int)
	}
	if d.Scale >= 0 {
		return new(big.Rat).SetFrac(u, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(d.Scale)), nil))
	}
	return new(big.Rat).SetInt(new(big.Int).Mul(u, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(-d.Scale)), nil)))
}

// RatDecimal rounds r half away from zero to scale digits.
func RatDecimal(r *big.Rat, scale int) value.Decimal {
	m := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(scale)), nil)
	x := new(big.Rat).Mul(r, new(big.Rat).SetInt(m))
	q, rem := new(big.Int).QuoRem(x.Num(), x.Denom(), new(big.Int))
	if new(big.Int).Mul(rem, big.NewInt(2)).CmpAbs(x.Denom()) >= 0 {
		if x.Sign() < 0 {
			q.Sub(q, big.NewInt(1))
		} else {
			q.Add(q, big.NewInt(1))
		}
	}
	return value.Decimal{Unscaled: q, Scale: int32(scale)}
}

// UHugeSlot is the slot of a UHUGEINT scalar (a value.Decimal of scale 0,
// or an int64 or uint64 known to be in range).
func UHugeSlot(v any) num.Int128 {
	var x num.Int128
	switch y := v.(type) {
	case int64:
		x = num.FromUint64(uint64(y))
	case uint64:
		x = num.FromUint64(y)
	case value.Decimal:
		if y.Unscaled != nil {
			x, _ = num.UFromBig(y.Unscaled)
		}
	}
	return x.FlipSign()
}

// UHugeValue is the scalar of a UHUGEINT slot.
func UHugeValue(h num.Int128) value.Decimal {
	return value.Decimal{Unscaled: num.UBig(h.FlipSign())}
}

// Slot128 is the Col.H slot of scalar v of a type stored in 128 bits.
func Slot128(t Type, v any) num.Int128 {
	if t.Kind == KUHuge {
		return UHugeSlot(v)
	}
	return HugeScalar(v, t.Scale)
}
