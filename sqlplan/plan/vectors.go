package plan

import (
	"encoding/hex"
	"errors"
	"fmt"
	"github.com/carquet-go/carquet/sqlplan/function"
	"math"
	"math/big"
	"sort"
	"strings"
	"time"

	"github.com/carquet-go/carquet/parquet/format"
	"github.com/carquet-go/carquet/parquet/schema"
	"github.com/carquet-go/carquet/parquet/value"
	"github.com/carquet-go/carquet/parquet/vector"
	"github.com/carquet-go/carquet/sqlplan/vec"
	"github.com/carquet-go/carquet/writer"
)

// Values to Parquet column vectors: what INSERT and CREATE TABLE AS hand
// the writer, per physical and logical type.

// rescaleUnits converts times counted in units of have nanoseconds into
// units of want nanoseconds in place: to milliseconds by rounding, to
// another coarser unit by flooring, to a finer one exactly or with an
// out-of-range error.
func rescaleUnits(xs []int64, have, want int64) error {
	for i, x := range xs {
		if vec.InfiniteStamp(x) {
			// The infinities are the int64 extremes in every unit, as
			// DuckDB writes them (a TIMESTAMP_MS one too).
			continue
		}
		switch {
		case have == want:
		case have < want && want == 1e6:
			// Into milliseconds (a TIMESTAMP_MS column): rounded, as
			// DuckDB's cast to TIMESTAMP_MS.
			xs[i] = function.RoundToUnit(x, want/have) / (want / have)
		case have < want:
			xs[i] = vec.FloorDiv(x, want/have)
		default:
			m := have / want
			if x > math.MaxInt64/m || x < math.MinInt64/m {
				return fmt.Errorf("time value %d is out of range for the file's unit", x)
			}
			xs[i] = x * m
		}
	}
	return nil
}

// ToVector converts a column of a field's SQL type into the physical
// vector the writer takes.
func ToVector(c *Col, f *schema.Field) (*vector.Vector, error) {
	if c.T.Kind == KEnum {
		// An ENUM column is stored as its values' text (the writer
		// makes them a dictionary).
		text, err := function.CastCol(c, Type{Kind: KString}, false)
		if err != nil {
			return nil, err
		}
		c = text
	}
	n := c.Len
	v := &vector.Vector{Len: n}
	if c.Null != nil {
		v.Valid = vector.NewBitmap(n, true)
		for i, null := range c.Null[:n] {
			if null {
				v.Valid.Clear(i)
			}
		}
	}
	if f.Kind != schema.Primitive {
		vals := make([]any, n)
		for i := 0; i < n; i++ {
			if !c.IsNull(i) {
				vals[i] = c.A[i]
			}
		}
		return nestedVector(vals, f)
	}
	node := f.Node
	t := TypeOfField(f)
	switch node.Physical {
	case format.Boolean:
		v.Kind = vector.Bool
		v.Bools = make([]bool, n)
		copy(v.Bools, c.B)
	case format.Int32:
		v.Kind = vector.Int32
		v.Int32s = make([]int32, n)
		for i := 0; i < n; i++ {
			if c.I != nil {
				v.Int32s[i] = int32(c.I[i])
			}
		}
		if t.Kind == KTime && node.Logical.Time.Unit.Millis != nil {
			for i := range v.Int32s {
				v.Int32s[i] = int32(c.I[i] / 1000)
			}
		}
	case format.Int64:
		v.Kind = vector.Int64
		v.Int64s = make([]int64, n)
		copy(v.Int64s, c.I)
		if c.T.Kind == KTimeTZ {
			for i, k := range v.Int64s {
				v.Int64s[i] = timetzUTC(k)
			}
		}
		if lt := node.Logical; lt != nil && (lt.Timestamp != nil || lt.Time != nil) && (c.T.Kind == KTimestamp || c.T.Kind == KTime) {
			unit := format.TimeUnit{}
			if lt.Timestamp != nil {
				unit = lt.Timestamp.Unit
			} else {
				unit = lt.Time.Unit
			}
			have := int64(1000) // the column's values: microseconds or nanoseconds
			if c.T.Nanos {
				have = 1
			}
			if err := rescaleUnits(v.Int64s, have, schema.UnitNanos(unit)); err != nil {
				return nil, fmt.Errorf("column %s: %w", f.Name, err)
			}
		}
	case format.Int96:
		v.Kind = vector.Int96
		v.Int96s = make([][12]byte, n)
		for i := 0; i < n; i++ {
			v.Int96s[i] = value.Int96Of(time.UnixMicro(c.I[i]))
		}
	case format.Float:
		v.Kind = vector.Float32
		v.Float32s = make([]float32, n)
		for i := 0; i < n; i++ {
			v.Float32s[i] = float32(c.F[i])
		}
	case format.Double:
		v.Kind = vector.Float64
		v.Float64s = make([]float64, n)
		copy(v.Float64s, c.F)
	case format.ByteArray, format.FixedLenByteArray:
		v.Kind = vector.ByteArray
		width := node.TypeLength
		if node.Physical == format.FixedLenByteArray {
			v.Kind = vector.FixedLenByteArray
			v.Width = width
		} else {
			v.Offsets = make([]int32, 1, n+1)
		}
		for i := 0; i < n; i++ {
			var b []byte
			if !c.IsNull(i) {
				switch t.Kind {
				case KDecimal, KUHuge:
					d := c.Decimal(i)
					if lt := node.Logical; lt != nil && lt.Decimal != nil && d.Unscaled.CmpAbs(pow10Big(int(lt.Decimal.Precision))) >= 0 {
						// A HUGEINT past 38 digits: no Parquet DECIMAL holds it.
						return nil, fmt.Errorf("%s does not fit the file's DECIMAL(%d,%d)", d, lt.Decimal.Precision, lt.Decimal.Scale)
					}
					w := width
					if node.Physical == format.ByteArray {
						w = (d.Unscaled.BitLen()+8)/8 + 1
					}
					b = bigEndian(d.Unscaled, w)
				case KUUID:
					h, err := hex.DecodeString(strings.ReplaceAll(string(c.Str(i)), "-", ""))
					if err != nil || len(h) != 16 {
						return nil, fmt.Errorf("bad UUID %q", c.Str(i))
					}
					b = h
				case KFloat:
					b = float16Bytes(float32(c.F[i]))
				case KInterval:
					iv := c.A[i].(Interval)
					if iv.Months < 0 || iv.Days < 0 || iv.Micros < 0 {
						return nil, errors.New("Parquet files do not support negative intervals")
					}
					b = vec.IntervalBytes(iv)
				default:
					b = c.Str(i)
				}
			}
			if v.Kind == vector.FixedLenByteArray {
				if len(b) == 0 {
					b = make([]byte, width)
				}
				if len(b) != width {
					return nil, fmt.Errorf("value of %d bytes for FIXED_LEN_BYTE_ARRAY(%d)", len(b), width)
				}
				v.Data = append(v.Data, b...)
			} else {
				v.Data = append(v.Data, b...)
				v.Offsets = append(v.Offsets, int32(len(v.Data)))
			}
		}
	}
	return v, nil
}

func bigEndian(u *big.Int, width int) []byte {
	out := make([]byte, width)
	x := new(big.Int).Set(u)
	if x.Sign() < 0 {
		x.Add(x, new(big.Int).Lsh(big.NewInt(1), uint(8*width)))
	}
	x.FillBytes(out)
	return out
}

func float16Bytes(f float32) []byte {
	bits := math.Float32bits(f)
	sign := uint16(bits>>16) & 0x8000
	exp := int((bits>>23)&0xff) - 127 + 15
	frac := uint16(bits>>13) & 0x3ff
	var h uint16
	switch {
	case f != f:
		h = 0x7e00
	case exp >= 31:
		h = sign | 0x7c00
	case exp <= 0:
		h = sign
	default:
		h = sign | uint16(exp)<<10 | frac
	}
	return []byte{byte(h), byte(h >> 8)}
}

// nestedVector builds the vector of a nested field from Go values
// ([]any for lists, map[string]any for structs, maps for maps).
func nestedVector(vals []any, f *schema.Field) (*vector.Vector, error) {
	n := len(vals)
	v := &vector.Vector{Len: n}
	anyNull := false
	for _, x := range vals {
		if x == nil {
			anyNull = true
		}
	}
	if anyNull {
		v.Valid = vector.NewBitmap(n, true)
		for i, x := range vals {
			if x == nil {
				v.Valid.Clear(i)
			}
		}
	}
	switch f.Kind {
	case schema.Primitive:
		t := TypeOfField(f)
		b := NewBuilder(t, n)
		for i, x := range vals {
			sv, err := goScalar(x, t)
			if err != nil {
				return nil, fmt.Errorf("%s[%d]: %w", f.Name, i, err)
			}
			b.Add(sv)
		}
		return ToVector(b.C, f)
	case schema.Struct:
		v.Kind = vector.Struct
		for _, child := range f.Children {
			sub := make([]any, n)
			for i, x := range vals {
				if m, ok := x.(map[string]any); ok {
					sub[i] = m[child.Name]
				} else if x != nil {
					return nil, fmt.Errorf("%s: %T is not a struct", f.Name, x)
				}
			}
			cv, err := nestedVector(sub, child)
			if err != nil {
				return nil, err
			}
			v.Children = append(v.Children, cv)
		}
	case schema.List:
		v.Kind = vector.List
		v.Offsets = make([]int32, 1, n+1)
		var elems []any
		for _, x := range vals {
			if x != nil {
				l, ok := x.([]any)
				if !ok {
					return nil, fmt.Errorf("%s: %T is not a list", f.Name, x)
				}
				elems = append(elems, l...)
			}
			v.Offsets = append(v.Offsets, int32(len(elems)))
		}
		cv, err := nestedVector(elems, f.Children[0])
		if err != nil {
			return nil, err
		}
		v.Children = []*vector.Vector{cv}
	case schema.Map:
		v.Kind = vector.Map
		v.Offsets = make([]int32, 1, n+1)
		var keys, values []any
		for _, x := range vals {
			switch m := x.(type) {
			case nil:
			case map[string]any:
				ks := make([]string, 0, len(m))
				for k := range m {
					ks = append(ks, k)
				}
				sort.Strings(ks)
				for _, k := range ks {
					keys, values = append(keys, k), append(values, m[k])
				}
			case map[any]any:
				for k, val := range m {
					keys, values = append(keys, k), append(values, val)
				}
			default:
				return nil, fmt.Errorf("%s: %T is not a map", f.Name, x)
			}
			v.Offsets = append(v.Offsets, int32(len(keys)))
		}
		kv, err := nestedVector(keys, f.Children[0])
		if err != nil {
			return nil, err
		}
		v.Children = []*vector.Vector{kv}
		if len(f.Children) > 1 {
			vv, err := nestedVector(values, f.Children[1])
			if err != nil {
				return nil, err
			}
			v.Children = append(v.Children, vv)
		}
	}
	return v, nil
}

// goScalar converts a Go value (as value.Get returns) to a scalar of t.
func goScalar(x any, t Type) (any, error) {
	if x == nil {
		return nil, nil
	}
	var st Type
	var sv any
	switch y := x.(type) {
	case time.Time:
		st, sv = Type{Kind: KTimestamp}, y.UnixMicro()
		if sec := y.Unix(); t.Kind == KTimestamp && (sec > math.MaxInt64/1_000_000 || sec < math.MinInt64/1_000_000) {
			// Past the microseconds' range: the infinity of a column in a
			// coarser unit (DuckDB's TIMESTAMP_MS infinity is the largest
			// millisecond count), as statistics give it.
			sv = int64(vec.StampInf)
			if sec < 0 {
				sv = int64(vec.StampNegInf)
			}
			return sv, nil
		}
		if t.Nanos && t.Kind == KTimestamp {
			return function.TimeToNanos(y)
		}
		switch t.Kind {
		case KDate:
			return function.TimeToDays(y), nil
		case KTime:
			return function.ConvertTimeUnit(nanosOfDay(y.UTC()), Type{Kind: KTime, Nanos: true}, t)
		}
	case value.Decimal:
		st, sv = Type{Kind: KDecimal, Prec: 38, Scale: int(y.Scale)}, y
	case float32:
		st, sv = tFloat, float64(y)
	default:
		var err error
		st, sv, err = argScalar(x)
		if err != nil {
			return nil, err
		}
	}
	return CastScalar(sv, st, t)
}

// TimeUnitOf is the Parquet unit a TIME or TIMESTAMP column of type t is
// written in.
func TimeUnitOf(t Type) writer.TimeUnit {
	switch {
	case t.Nanos:
		return writer.Nanos
	case t.Coarse == 1000:
		return writer.Millis
	}
	return writer.Micros
}
