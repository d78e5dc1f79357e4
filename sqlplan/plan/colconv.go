package plan

import (
	"time"

	"github.com/carquet-go/carquet/parquet/format"
	"github.com/carquet-go/carquet/parquet/schema"
	"github.com/carquet-go/carquet/parquet/value"
	"github.com/carquet-go/carquet/parquet/vector"
	"github.com/carquet-go/carquet/sqlplan/num"
	"github.com/carquet-go/carquet/sqlplan/vec"

	// Named so: the tests' exec helper takes the package's own name.
	kernels "github.com/carquet-go/carquet/sqlplan/exec"
)

// fromVector converts a scan vector of a column of type t into a Col,
// sharing buffers where the layouts agree.
func fromVector(t Type, v *vector.Vector, n int) *Col {
	c := &Col{T: t, Len: n, Null: kernels.NullsOf(v, n)}
	if t.Kind == KEnum && v.Kind == vector.ByteArray {
		enumFromVector(c, v)
		return c
	}
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
		if t.Kind == KTime || t.Kind == KTimeTZ {
			mul := schema.UnitNanos(lt.Time.Unit) / 1000
			for i := range c.I {
				c.I[i] *= mul
			}
		}
		if t.Kind == KTimeTZ {
			// TIME(MILLIS, UTC) as an INT32: the UTC time of day, offset +00
			// (as the INT64 units below).
			for i, us := range c.I {
				c.I[i] = timetzKey(us, 0)
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
						c.A[i] = vec.ParquetInterval(value.Primitive(node, v, i).(value.Interval))
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

// scaleUnits converts counts of a time unit into microseconds, or into
// nanoseconds for a TIMESTAMP_NS/TIME_NS column (nanos).
func scaleUnits(src []int64, unitNanos int64, nanos bool) []int64 {
	if nanos {
		if unitNanos == 1 {
			return src
		}
		out := make([]int64, len(src))
		for i, x := range src {
			out[i] = scaleFinite(x, unitNanos)
		}
		return out
	}
	switch unitNanos {
	case 1e3:
		return src
	case 1e6:
		out := make([]int64, len(src))
		for i, x := range src {
			out[i] = scaleFinite(x, 1000)
		}
		return out
	default: // nanoseconds: floor to microseconds
		out := make([]int64, len(src))
		for i, x := range src {
			out[i] = vec.FloorDiv(x, 1000)
		}
		return out
	}
}

// scaleFinite is x*m, except for the infinities of a timestamp (the
// int64 extremes, in every unit, as DuckDB writes them), which stay.
func scaleFinite(x, m int64) int64 {
	if vec.InfiniteStamp(x) {
		return x
	}
	return x * m
}

// Conversions between engine representations and Go values (the Go
// values of scalars are vec.GoValue's).

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

// enumFromVector fills c, an ENUM column, with the codes of the text in
// v: a dictionary-encoded page's entries are looked up once each. Text
// that is none of the values (a file edited by hand) reads as NULL.
func enumFromVector(c *Col, v *vector.Vector) {
	n, e := c.Len, c.T.Enum
	c.I = make([]int64, n)
	lookup := func(b []byte) int64 {
		code, ok := e.Code(string(b))
		if !ok {
			return -1
		}
		return code
	}
	set := func(i int, code int64) {
		if code < 0 {
			c.SetNull(i)
			return
		}
		c.I[i] = code
	}
	if d := v.Dict; d != nil && d.Kind == vector.ByteArray {
		codes := make([]int64, d.Len)
		for k := range codes {
			codes[k] = lookup(d.Bytes(k))
		}
		for i, k := range v.Codes[:n] {
			if !c.IsNull(i) {
				set(i, codes[k])
			}
		}
		return
	}
	for i := 0; i < n; i++ {
		if !c.IsNull(i) {
			set(i, lookup(v.Bytes(i)))
		}
	}
}
