package sqlplan

import (
	"math"
	"math/big"
	"time"

	"github.com/carquet-go/carquet/parquet/format"
	"github.com/carquet-go/carquet/parquet/schema"
	"github.com/carquet-go/carquet/parquet/value"
	"github.com/carquet-go/carquet/parquet/vector"
	"github.com/carquet-go/carquet/sqlplan/num"
)

// Col is one column of values in the engine: typed slices by Kind (see
// Kind), Null[i] set for NULL rows (nil when there are none). Strings and
// byte strings are one Data buffer plus Len+1 offsets, as in the scan's
// vectors, whose buffers a Col shares where it can.
type Col struct {
	T    Type
	Len  int
	Null []bool
	I    []int64
	F    []float64
	B    []bool
	Data []byte
	Off  []int32
	// H holds DECIMAL(p, s) with 18 < p <= 38: unscaled 128-bit values.
	H []num.Int128
	A []any
	// Dict, when set, makes a coded column: row i is Dict's value
	// Codes[i] and the slices above are empty. Only the scan node makes
	// them, for the one GROUP BY key of an aggregation right above it that
	// reads the column for nothing else (see useCodes); the grouper reads
	// them by code, and get and decoded work on them.
	Dict  *Col
	Codes []int32
	// Scratch: I or F is a pooled vector (Scratch.go) that the
	// consumer of this column gives back.
	Scratch bool
	// Dropped: a column of a relation that nothing reads after the
	// relation's own filter (droppedCol); it keeps its place and row
	// count, holds no values, and copies for free.
	Dropped bool
}

// droppedCol stands for a column nothing reads any more.
func droppedCol(t Type, n int) *Col { return &Col{T: t, Len: n, Dropped: true} }

// Batch is a set of rows as columns.
type Batch struct {
	Cols []*Col
	N    int
	// Recycle, set on a scan's batches, gives the scan back the buffers
	// of the batch's columns that it gathered (scan.Scanner.Recycle): a
	// consumer calls it only once nothing refers to the batch any more.
	Recycle func()
}

func (c *Col) IsNull(i int) bool { return c.Null != nil && c.Null[i] }

// Str returns the bytes of a string slot (aliasing the buffer).
func (c *Col) Str(i int) []byte { return c.Data[c.Off[i]:c.Off[i+1]] }

// newCol allocates a column of n rows of type t (zero values, no NULLs).
func newCol(t Type, n int) *Col {
	c := &Col{T: t, Len: n}
	switch storage(t) {
	case stInt:
		c.I = make([]int64, n)
	case stFloat:
		c.F = make([]float64, n)
	case stBool:
		c.B = make([]bool, n)
	case stBytes:
		c.Off = make([]int32, n+1)
	case stHuge:
		c.H = make([]num.Int128, n)
	default:
		c.A = make([]any, n)
	}
	return c
}

type storageKind uint8

const (
	stAny storageKind = iota
	stInt
	stFloat
	stBool
	stBytes
	stHuge // num.Int128: DECIMAL(19..38)
)

func storage(t Type) storageKind {
	switch t.Kind {
	case KInt, KUint, KDate, KTime, KTimeTZ, KTimestamp:
		return stInt
	case KDecimal:
		switch {
		case t.Prec <= 18:
			return stInt
		case t.Prec <= 38:
			return stHuge
		}
		return stAny
	case KUHuge:
		return stHuge
	case KFloat:
		return stFloat
	case KBool:
		return stBool
	case KString, KBytes, KUUID:
		return stBytes
	}
	return stAny
}

// nullCol is a column of n NULLs.
func nullCol(t Type, n int) *Col {
	c := newCol(t, n)
	c.Null = make([]bool, n)
	for i := range c.Null {
		c.Null[i] = true
	}
	return c
}

// SetNull marks row i NULL, allocating the null slice on first use.
func (c *Col) SetNull(i int) {
	if c.Null == nil {
		c.Null = make([]bool, c.Len)
	}
	c.Null[i] = true
}

// Take returns the rows of c at idx.
func (c *Col) Take(idx []int32) *Col {
	if c.Dropped {
		return droppedCol(c.T, len(idx))
	}
	out := &Col{T: c.T, Len: len(idx)}
	if c.Null != nil {
		out.Null = make([]bool, len(idx))
		any := false
		for k, i := range idx {
			if c.Null[i] {
				out.Null[k] = true
				any = true
			}
		}
		if !any {
			out.Null = nil
		}
	}
	switch {
	case c.I != nil:
		out.I = make([]int64, len(idx))
		for k, i := range idx {
			out.I[k] = c.I[i]
		}
	case c.F != nil:
		out.F = make([]float64, len(idx))
		for k, i := range idx {
			out.F[k] = c.F[i]
		}
	case c.B != nil:
		out.B = make([]bool, len(idx))
		for k, i := range idx {
			out.B[k] = c.B[i]
		}
	case c.H != nil:
		out.H = make([]num.Int128, len(idx))
		for k, i := range idx {
			out.H[k] = c.H[i]
		}
	case c.Off != nil:
		out.Off = make([]int32, len(idx)+1)
		size := 0
		for _, i := range idx {
			size += int(c.Off[i+1] - c.Off[i])
		}
		out.Data = make([]byte, 0, size)
		for k, i := range idx {
			out.Data = append(out.Data, c.Data[c.Off[i]:c.Off[i+1]]...)
			out.Off[k+1] = int32(len(out.Data))
		}
	default:
		out.A = make([]any, len(idx))
		for k, i := range idx {
			if c.A != nil {
				out.A[k] = c.A[i]
			}
		}
	}
	return out
}

// appendCol appends the rows of src to dst (same storage).
func appendCol(dst, src *Col) {
	if src.Len == 0 {
		return
	}
	if dst.Dropped || src.Dropped {
		dst.Len += src.Len
		dst.Dropped = true
		return
	}
	base := dst.Len
	if src.Null != nil || dst.Null != nil {
		if dst.Null == nil {
			dst.Null = make([]bool, base, base+src.Len)
		}
		if src.Null != nil {
			dst.Null = append(dst.Null, src.Null[:src.Len]...)
		} else {
			dst.Null = append(dst.Null, make([]bool, src.Len)...)
		}
	}
	dst.Len += src.Len
	switch storage(dst.T) {
	case stInt:
		dst.I = append(dst.I, src.I[:src.Len]...)
	case stFloat:
		dst.F = append(dst.F, src.F[:src.Len]...)
	case stBool:
		dst.B = append(dst.B, src.B[:src.Len]...)
	case stBytes:
		if len(dst.Off) == 0 {
			dst.Off = append(dst.Off, 0)
		}
		shift := int32(len(dst.Data)) - src.Off[0]
		for _, o := range src.Off[1 : src.Len+1] {
			dst.Off = append(dst.Off, o+shift)
		}
		dst.Data = append(dst.Data, src.Data[src.Off[0]:src.Off[src.Len]]...)
	case stHuge:
		dst.H = append(dst.H, src.H[:src.Len]...)
	default:
		if src.A == nil {
			dst.A = append(dst.A, make([]any, src.Len)...)
		} else {
			dst.A = append(dst.A, src.A[:src.Len]...)
		}
	}
}

// emptyLike returns an empty column of c's type for appending.
func emptyCol(t Type) *Col {
	c := &Col{T: t}
	if storage(t) == stBytes {
		c.Off = []int32{0}
	}
	return c
}

// fromVector converts a scan vector of a column of type t into a Col,
// sharing buffers where the layouts agree.
func fromVector(t Type, v *vector.Vector, n int) *Col {
	c := &Col{T: t, Len: n, Null: nullsOf(v, n)}
	if v.Dict != nil {
		// Not asked for codes: the values.
		v.Decode()
	}
	f := t.Field
	if f == nil {
		// A hive partition column: int64 or string.
		if v.Kind == vector.Int64 {
			c.I = v.Int64s[:n]
		} else {
			c.Data, c.Off = v.Data, v.Offsets[:n+1]
		}
		return c
	}
	if f.Kind != schema.Primitive {
		c.A = make([]any, n)
		int96 := hasInt96Leaf(f.Node)
		for i := 0; i < n; i++ {
			c.A[i] = value.Get(f, v, i)
			if int96 {
				c.A[i] = microsInside(c.A[i])
			}
		}
		return c
	}
	node := f.Node
	lt := node.Logical
	switch v.Kind {
	case vector.Bool:
		c.B = v.Bools[:n]
	case vector.Int32:
		c.I = make([]int64, n)
		src := v.Int32s[:n]
		if t.Kind == KUint {
			for i, x := range src {
				c.I[i] = int64(uint32(x))
			}
		} else {
			for i, x := range src {
				c.I[i] = int64(x)
			}
		}
		if t.Kind == KTime {
			mul := schema.UnitNanos(lt.Time.Unit) / 1000
			for i := range c.I {
				c.I[i] *= mul
			}
		}
	case vector.Int64:
		switch t.Kind {
		case KTimestamp:
			c.I = scaleUnits(v.Int64s[:n], schema.UnitNanos(lt.Timestamp.Unit), t.Nanos)
		case KTime:
			c.I = scaleUnits(v.Int64s[:n], schema.UnitNanos(lt.Time.Unit), t.Nanos)
		case KTimeTZ:
			c.I = scaleUnits(v.Int64s[:n], schema.UnitNanos(lt.Time.Unit), false)
			for i, us := range c.I {
				c.I[i] = timetzKey(us, 0)
			}
		default:
			c.I = v.Int64s[:n]
		}
	case vector.Int96:
		c.I = make([]int64, n)
		for i := 0; i < n; i++ {
			c.I[i] = value.Int96Micros(v.Int96s[i])
		}
	case vector.Float32:
		c.F = make([]float64, n)
		for i, x := range v.Float32s[:n] {
			c.F[i] = float64(x)
		}
	case vector.Float64:
		c.F = v.Float64s[:n]
	case vector.ByteArray, vector.FixedLenByteArray:
		switch t.Kind {
		case KDecimal:
			if t.Prec <= 18 {
				c.I = make([]int64, n)
				for i := 0; i < n; i++ {
					if !c.IsNull(i) {
						c.I[i] = value.DecimalFromBigEndian(v.Bytes(i), int32(t.Scale)).Unscaled.Int64()
					}
				}
			} else if t.Prec <= 38 {
				c.H = make([]num.Int128, n)
				for i := 0; i < n; i++ {
					if !c.IsNull(i) {
						c.H[i], _ = num.FromBigEndian(v.Bytes(i)) // 38 digits fit 16 bytes
					}
				}
			} else {
				c.A = make([]any, n)
				for i := 0; i < n; i++ {
					if !c.IsNull(i) {
						c.A[i] = value.DecimalFromBigEndian(v.Bytes(i), int32(t.Scale))
					}
				}
			}
		case KUHuge:
			// A DECIMAL(38,0) of this engine's writing (see typeOfField):
			// values 0 to 10^38-1, as the bits of a UHUGEINT slot. The
			// bits of what another writer stored there read as they are.
			c.H = make([]num.Int128, n)
			for i := 0; i < n; i++ {
				if !c.IsNull(i) {
					x, _ := num.FromBigEndian(v.Bytes(i))
					c.H[i] = x.FlipSign()
				}
			}
		case KFloat: // FLOAT16
			c.F = make([]float64, n)
			for i := 0; i < n; i++ {
				if !c.IsNull(i) {
					c.F[i] = float64(value.Float16(v.Bytes(i)))
				}
			}
		case KUUID:
			c.Off = make([]int32, n+1)
			c.Data = make([]byte, 0, 36*n)
			for i := 0; i < n; i++ {
				if !c.IsNull(i) {
					c.Data = append(c.Data, value.UUIDString(v.Bytes(i))...)
				}
				c.Off[i+1] = int32(len(c.Data))
			}
		default:
			if t.Kind == KInterval {
				c.A = make([]any, n)
				for i := 0; i < n; i++ {
					if !c.IsNull(i) {
						c.A[i] = parquetInterval(value.Primitive(node, v, i).(value.Interval))
					}
				}
			} else if v.Kind == vector.ByteArray {
				c.Data, c.Off = v.Data, v.Offsets[:n+1]
			} else {
				c.Data = v.Data[:n*v.Width]
				c.Off = make([]int32, n+1)
				for i := 0; i <= n; i++ {
					c.Off[i] = int32(i * v.Width)
				}
			}
		}
	}
	return c
}

// nullsOf returns the NULL flags of v's first n slots, nil without nulls.
func nullsOf(v *vector.Vector, n int) []bool {
	if v.Valid == nil {
		return nil
	}
	null := make([]bool, n)
	for i := range null {
		null[i] = !v.Valid.Get(i)
	}
	return null
}

// Decoded returns c with its values in place of codes (c itself when it
// is not coded).
func (c *Col) Decoded() *Col {
	if c.Dict == nil {
		return c
	}
	b := newBuilder(c.T, c.Len)
	for i := 0; i < c.Len; i++ {
		b.add(c.Get(i))
	}
	return b.c
}

// scaleUnits converts counts of a time unit into microseconds, or into
// nanoseconds for a TIMESTAMP_NS/TIME_NS column (nanos).
func scaleUnits(src []int64, unitNanos int64, nanos bool) []int64 {
	if nanos {
		if unitNanos == 1 {
			return src
		}
		out := make([]int64, len(src))
		for i, x := range src {
			out[i] = x * unitNanos
		}
		return out
	}
	switch unitNanos {
	case 1e3:
		return src
	case 1e6:
		out := make([]int64, len(src))
		for i, x := range src {
			out[i] = x * 1000
		}
		return out
	default: // nanoseconds: floor to microseconds
		out := make([]int64, len(src))
		for i, x := range src {
			out[i] = floorDiv(x, 1000)
		}
		return out
	}
}

// Conversions between engine representations and Go values.

func microsToTime(us int64) time.Time { return time.UnixMicro(us).UTC() }

// stampToTime is the instant of a TIMESTAMP value of type t.
func stampToTime(t Type, v int64) time.Time {
	if t.Nanos {
		return time.Unix(0, v).UTC()
	}
	return microsToTime(v)
}

// timeValue is the time of day of a TIME value of type t.
func timeValue(t Type, v int64) time.Time {
	if t.Nanos {
		return time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(v))
	}
	return timeOfDay(v)
}
func daysToTime(d int64) time.Time { return time.Unix(d*86400, 0).UTC() }
func timeOfDay(us int64) time.Time {
	return time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(us) * time.Microsecond)
}

func timeToDays(t time.Time) int64 {
	u := t.UTC()
	return time.Date(u.Year(), u.Month(), u.Day(), 0, 0, 0, 0, time.UTC).Unix() / 86400
}

// clockEnd is the time.Time of TIME 24:00:00 (timeOfDay's, value.TimeOfDay's).
var clockEnd = time.Date(1, 1, 2, 0, 0, 0, 0, time.UTC)

// nanosOfDay is t's wall clock time of day in nanoseconds; clockEnd is
// 24:00:00.
func nanosOfDay(t time.Time) int64 {
	if t.Equal(clockEnd) {
		return 86400e9
	}
	return int64(t.Hour())*int64(time.Hour) + int64(t.Minute())*int64(time.Minute) + int64(t.Second())*int64(time.Second) + int64(t.Nanosecond())
}

var pow10 = func() []int64 {
	p := make([]int64, 19)
	p[0] = 1
	for i := 1; i < 19; i++ {
		p[i] = p[i-1] * 10
	}
	return p
}()

func decimalOf(unscaled int64, scale int) value.Decimal {
	return value.DecimalFromInt64(unscaled, int32(scale))
}

// bigOf returns a Decimal slot as value.Decimal.
func (c *Col) Decimal(i int) value.Decimal {
	if c.H != nil && c.T.Kind == KUHuge {
		return uhugeValue(c.H[i])
	}
	if c.H != nil {
		return value.Decimal{Unscaled: c.H[i].Big(), Scale: int32(c.T.Scale)}
	}
	if c.A != nil {
		return c.A[i].(value.Decimal)
	}
	return decimalOf(c.I[i], c.T.Scale)
}

// decFloat is the nearest float to unscaled × 10^-scale.
func decFloat(unscaled int64, scale int) float64 {
	if scale < len(pow10) {
		return float64(unscaled) / float64(pow10[scale])
	}
	return float64(unscaled) / math.Pow10(scale)
}

// rescale changes a decimal's scale (rounding half away from zero when
// reducing); ok false on overflow.
func rescale(u int64, from, to int) (int64, bool) {
	if to == from {
		return u, true
	}
	if to > from {
		d := to - from
		if d >= len(pow10) {
			return 0, u == 0
		}
		m := pow10[d]
		r := u * m
		if u != 0 && (r/m != u) {
			return 0, false
		}
		return r, true
	}
	d := from - to
	if d >= len(pow10) {
		return 0, true
	}
	m := pow10[d]
	q, rem := u/m, u%m
	if rem*2 >= m {
		q++
	} else if rem*2 <= -m {
		q--
	}
	return q, true
}

// decimalToInt64 converts a value.Decimal to unscaled at scale; ok false
// if it does not fit.
func decimalToInt64(d value.Decimal, scale int) (int64, bool) {
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

// BigInt returns row i of a HUGEINT (or any DECIMAL's unscaled value) as
// a new big integer.
func (c *Col) BigInt(i int) *big.Int { return c.Decimal(i).Unscaled }

// Bytes returns the bytes of a string or binary row (aliasing the buffer).
func (c *Col) Bytes(i int) []byte { return c.Str(i) }

// Value returns row i as a Go value: int64, uint64, float64, bool, string,
// []byte, time.Time, exact decimal text, or nested Go values; nil for NULL.
func (c *Col) Value(i int) any { return toGo(c.T, c.Get(i)) }

// hasInt96Leaf reports an INT96 column below n: its SQL type is TIMESTAMP
// (microseconds, as DuckDB reads it), also inside lists and structs.
func hasInt96Leaf(n *schema.Node) bool {
	for _, l := range schema.LeavesUnder(nil, n) {
		if l.Physical == format.Int96 {
			return true
		}
	}
	return false
}

// microsInside truncates the times inside a nested value to microseconds.
func microsInside(v any) any {
	switch x := v.(type) {
	case time.Time:
		return x.Truncate(time.Microsecond)
	case []any:
		for i, e := range x {
			x[i] = microsInside(e)
		}
	case map[string]any:
		for k, e := range x {
			x[k] = microsInside(e)
		}
	case map[any]any:
		for k, e := range x {
			x[k] = microsInside(e)
		}
	}
	return v
}
