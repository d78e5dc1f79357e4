package value

import (
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"math"
	"reflect"
	"time"

	"github.com/carquet-go/carquet/parquet/format"
	"github.com/carquet-go/carquet/parquet/schema"
	"github.com/carquet-go/carquet/parquet/vector"
)

// Interval is the INTERVAL logical type: independent months, days and
// milliseconds.
type Interval struct {
	Months, Days, Millis uint32
}

func (iv Interval) String() string {
	return fmt.Sprintf("%d months %d days %d ms", iv.Months, iv.Days, iv.Millis)
}

// Float16 converts IEEE 754 half-precision bits (little-endian bytes) to float32.
func Float16(b []byte) float32 {
	h := uint16(b[0]) | uint16(b[1])<<8
	sign := uint32(h>>15) << 31
	exp := uint32(h>>10) & 0x1f
	frac := uint32(h & 0x3ff)
	switch {
	case exp == 0 && frac == 0:
		return math.Float32frombits(sign)
	case exp == 0: // subnormal
		f := float32(frac) / 1024 * float32(math.Pow(2, -14))
		if sign != 0 {
			return -f
		}
		return f
	case exp == 0x1f:
		if frac == 0 {
			return math.Float32frombits(sign | 0x7f800000)
		}
		return math.Float32frombits(sign | 0x7fc00000 | frac<<13)
	}
	return math.Float32frombits(sign | (exp+112)<<23 | frac<<13)
}

// UUIDString formats 16 bytes as xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx.
func UUIDString(b []byte) string {
	var buf [36]byte
	hex.Encode(buf[0:8], b[0:4])
	buf[8] = '-'
	hex.Encode(buf[9:13], b[4:6])
	buf[13] = '-'
	hex.Encode(buf[14:18], b[6:8])
	buf[18] = '-'
	hex.Encode(buf[19:23], b[8:10])
	buf[23] = '-'
	hex.Encode(buf[24:], b[10:16])
	return string(buf[:])
}

// TimeOfDay returns a TIME value as a time.Time on 0001-01-01 UTC.
func TimeOfDay(v int64, unitNanos int64) time.Time {
	return time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(v * unitNanos))
}

// Timestamp converts a count of units since the epoch to time.Time in UTC.
func Timestamp(v int64, unitNanos int64) time.Time {
	switch unitNanos {
	case 1:
		return time.Unix(0, v).UTC()
	case 1e3:
		return time.UnixMicro(v).UTC()
	default:
		return time.UnixMilli(v).UTC()
	}
}

// Date converts days since the epoch to midnight UTC of that day.
func Date(days int32) time.Time {
	return time.Unix(int64(days)*86400, 0).UTC()
}

// Get returns slot i of v as a Go value, interpreting it by f. Null slots
// give nil.
func Get(f *schema.Field, v *vector.Vector, i int) any {
	if v.IsNull(i) {
		return nil
	}
	if IsVariant(f) {
		return getVariant(f, v, i)
	}
	switch f.Kind {
	case schema.Struct:
		m := make(map[string]any, len(f.Children))
		for j, c := range f.Children {
			m[c.Name] = Get(c, v.Children[j], i)
		}
		return m
	case schema.List:
		start, end := v.ListRange(i)
		out := make([]any, 0, end-start)
		for j := start; j < end; j++ {
			out = append(out, Get(f.Children[0], v.Children[0], j))
		}
		return out
	case schema.Map:
		start, end := v.ListRange(i)
		strKeys := true
		keys := make([]any, 0, end-start)
		for j := start; j < end; j++ {
			k := Get(f.Children[0], v.Children[0], j)
			if b, ok := k.([]byte); ok {
				k = string(b)
			} else if k != nil && !reflect.ValueOf(k).Comparable() {
				// Parquet map keys are primitive, but a file may declare
				// any type: a key that cannot be a Go map key (a list, a
				// struct) is keyed by its printed form instead of
				// panicking (found by FuzzOpen).
				k = fmt.Sprint(k)
			}
			if _, ok := k.(string); !ok {
				strKeys = false
			}
			keys = append(keys, k)
		}
		val := func(j int) any {
			if len(f.Children) < 2 {
				return nil
			}
			return Get(f.Children[1], v.Children[1], j)
		}
		if strKeys {
			m := make(map[string]any, len(keys))
			for j, k := range keys {
				m[k.(string)] = val(start + j)
			}
			return m
		}
		m := make(map[any]any, len(keys))
		for j, k := range keys {
			m[k] = val(start + j)
		}
		return m
	}
	return Primitive(f.Node, v, i)
}

// Primitive returns slot i of a primitive vector by the leaf's logical type.
func Primitive(n *schema.Node, v *vector.Vector, i int) any {
	lt := n.Logical
	switch v.Kind {
	case vector.Bool:
		return v.Bools[i]
	case vector.Int32:
		x := v.Int32s[i]
		if lt != nil {
			switch {
			case lt.Date != nil:
				return Date(x)
			case lt.Decimal != nil:
				return DecimalFromInt64(int64(x), lt.Decimal.Scale)
			case lt.Time != nil:
				return TimeOfDay(int64(x), schema.UnitNanos(lt.Time.Unit))
			case lt.Integer != nil:
				return intOf(int64(x), lt.Integer)
			}
		}
		return x
	case vector.Int64:
		x := v.Int64s[i]
		if lt != nil {
			switch {
			case lt.Timestamp != nil:
				return Timestamp(x, schema.UnitNanos(lt.Timestamp.Unit))
			case lt.Decimal != nil:
				return DecimalFromInt64(x, lt.Decimal.Scale)
			case lt.Time != nil:
				return TimeOfDay(x, schema.UnitNanos(lt.Time.Unit))
			case lt.Integer != nil:
				return intOf(x, lt.Integer)
			}
		}
		return x
	case vector.Int96:
		return Int96Time(v.Int96s[i])
	case vector.Float32:
		return v.Float32s[i]
	case vector.Float64:
		return v.Float64s[i]
	case vector.ByteArray, vector.FixedLenByteArray:
		b := v.Bytes(i)
		if lt != nil {
			switch {
			case lt.String != nil, lt.Enum != nil, lt.JSON != nil:
				return string(b)
			case lt.Decimal != nil:
				return DecimalFromBigEndian(b, lt.Decimal.Scale)
			case lt.UUID != nil && len(b) == 16:
				return UUIDString(b)
			case lt.Float16 != nil && len(b) == 2:
				return Float16(b)
			}
		}
		if n.Converted.Set && n.Converted.Value == format.Interval && len(b) == 12 {
			return Interval{binary.LittleEndian.Uint32(b), binary.LittleEndian.Uint32(b[4:]), binary.LittleEndian.Uint32(b[8:])}
		}
		return append([]byte(nil), b...)
	}
	return nil
}

func intOf(x int64, it *format.IntType) any {
	if it.IsSigned {
		switch it.BitWidth {
		case 8:
			return int8(x)
		case 16:
			return int16(x)
		case 32:
			return int32(x)
		}
		return x
	}
	switch it.BitWidth {
	case 8:
		return uint8(x)
	case 16:
		return uint16(x)
	case 32:
		return uint32(x)
	}
	return uint64(x)
}
