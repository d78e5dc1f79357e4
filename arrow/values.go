package carrow

import (
	"encoding/hex"
	"fmt"
	"math/big"
	"sort"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/decimal256"
	"github.com/apache/arrow-go/v18/arrow/float16"
	"github.com/carquet-go/carquet/parquet/value"
)

// appendValue appends a Go value, as the engine gives the values of
// nested columns (value.Get's forms), to an Arrow builder.
func appendValue(b array.Builder, v any) error {
	if v == nil {
		b.AppendNull()
		return nil
	}
	bad := func() error { return fmt.Errorf("carrow: cannot convert %T to %s", v, b.Type()) }
	switch b := b.(type) {
	case *array.BooleanBuilder:
		x, ok := v.(bool)
		if !ok {
			return bad()
		}
		b.Append(x)
	case *array.Int8Builder:
		x, ok := toInt(v)
		if !ok {
			return bad()
		}
		b.Append(int8(x))
	case *array.Int16Builder:
		x, ok := toInt(v)
		if !ok {
			return bad()
		}
		b.Append(int16(x))
	case *array.Int32Builder:
		x, ok := toInt(v)
		if !ok {
			return bad()
		}
		b.Append(int32(x))
	case *array.Int64Builder:
		x, ok := toInt(v)
		if !ok {
			return bad()
		}
		b.Append(x)
	case *array.Uint8Builder:
		x, ok := toInt(v)
		if !ok {
			return bad()
		}
		b.Append(uint8(x))
	case *array.Uint16Builder:
		x, ok := toInt(v)
		if !ok {
			return bad()
		}
		b.Append(uint16(x))
	case *array.Uint32Builder:
		x, ok := toInt(v)
		if !ok {
			return bad()
		}
		b.Append(uint32(x))
	case *array.Uint64Builder:
		x, ok := toInt(v)
		if !ok {
			return bad()
		}
		b.Append(uint64(x))
	case *array.Float32Builder:
		x, ok := toFloat(v)
		if !ok {
			return bad()
		}
		b.Append(float32(x))
	case *array.Float64Builder:
		x, ok := toFloat(v)
		if !ok {
			return bad()
		}
		b.Append(x)
	case *array.Float16Builder:
		x, ok := toFloat(v)
		if !ok {
			return bad()
		}
		b.Append(float16.New(float32(x)))
	case *array.StringBuilder:
		switch x := v.(type) {
		case string:
			b.Append(x)
		case []byte:
			b.BinaryBuilder.Append(x)
		default:
			b.Append(fmt.Sprint(v))
		}
	case *array.BinaryBuilder:
		switch x := v.(type) {
		case string:
			b.AppendString(x)
		case []byte:
			b.Append(x)
		default:
			return bad()
		}
	case *array.FixedSizeBinaryBuilder:
		switch x := v.(type) {
		case []byte:
			b.Append(x)
		case string: // a UUID's text
			raw, err := hex.DecodeString(strings.ReplaceAll(x, "-", ""))
			if err != nil {
				return bad()
			}
			b.Append(raw)
		default:
			return bad()
		}
	case *array.Date32Builder:
		x, ok := v.(time.Time)
		if !ok {
			return bad()
		}
		b.Append(arrow.Date32FromTime(x))
	case *array.Time32Builder:
		x, ok := v.(time.Time)
		if !ok {
			return bad()
		}
		b.Append(arrow.Time32(sinceMidnight(x) / int64(b.Type().(*arrow.Time32Type).Unit.Multiplier())))
	case *array.Time64Builder:
		x, ok := v.(time.Time)
		if !ok {
			return bad()
		}
		b.Append(arrow.Time64(sinceMidnight(x) / int64(b.Type().(*arrow.Time64Type).Unit.Multiplier())))
	case *array.TimestampBuilder:
		x, ok := v.(time.Time)
		if !ok {
			return bad()
		}
		ts, err := arrow.TimestampFromTime(x, b.Type().(*arrow.TimestampType).Unit)
		if err != nil {
			return err
		}
		b.Append(ts)
	case *array.Decimal128Builder:
		u, err := unscaled(v, b.Type().(*arrow.Decimal128Type).Scale)
		if err != nil {
			return err
		}
		b.Append(decimal128.FromBigInt(u))
	case *array.Decimal256Builder:
		u, err := unscaled(v, b.Type().(*arrow.Decimal256Type).Scale)
		if err != nil {
			return err
		}
		b.Append(decimal256.FromBigInt(u))
	case *array.ListBuilder:
		x, ok := v.([]any)
		if !ok {
			return bad()
		}
		b.Append(true)
		for _, e := range x {
			if err := appendValue(b.ValueBuilder(), e); err != nil {
				return err
			}
		}
	case *array.StructBuilder:
		x, ok := v.(map[string]any)
		if !ok {
			return bad()
		}
		b.Append(true)
		st := b.Type().(*arrow.StructType)
		for i, f := range st.Fields() {
			if err := appendValue(b.FieldBuilder(i), x[f.Name]); err != nil {
				return err
			}
		}
	case *array.MapBuilder:
		var keys, vals []any
		switch x := v.(type) {
		case map[string]any:
			for k, e := range x {
				keys, vals = append(keys, k), append(vals, e)
			}
		case map[any]any:
			for k, e := range x {
				keys, vals = append(keys, k), append(vals, e)
			}
		default:
			return bad()
		}
		// Go maps have no order: entries go by key, for stable output.
		idx := make([]int, len(keys))
		for i := range idx {
			idx[i] = i
		}
		sort.Slice(idx, func(a, c int) bool { return lessKey(keys[idx[a]], keys[idx[c]]) })
		b.Append(true)
		for _, i := range idx {
			if err := appendValue(b.KeyBuilder(), keys[i]); err != nil {
				return err
			}
			if err := appendValue(b.ItemBuilder(), vals[i]); err != nil {
				return err
			}
		}
	default:
		return bad()
	}
	return nil
}

func lessKey(a, b any) bool {
	if x, ok := toInt(a); ok {
		if y, ok := toInt(b); ok {
			return x < y
		}
	}
	return fmt.Sprint(a) < fmt.Sprint(b)
}

func toInt(v any) (int64, bool) {
	switch x := v.(type) {
	case int:
		return int64(x), true
	case int8:
		return int64(x), true
	case int16:
		return int64(x), true
	case int32:
		return int64(x), true
	case int64:
		return x, true
	case uint:
		return int64(x), true
	case uint8:
		return int64(x), true
	case uint16:
		return int64(x), true
	case uint32:
		return int64(x), true
	case uint64:
		return int64(x), true
	}
	return 0, false
}

func toFloat(v any) (float64, bool) {
	switch x := v.(type) {
	case float64:
		return x, true
	case float32:
		return float64(x), true
	}
	if i, ok := toInt(v); ok {
		return float64(i), true
	}
	return 0, false
}

// sinceMidnight is a time of day in nanoseconds (24:00:00 is a day's).
func sinceMidnight(t time.Time) int64 {
	if t.Year() == 1 && t.YearDay() == 2 && t.Hour() == 0 && t.Minute() == 0 && t.Second() == 0 && t.Nanosecond() == 0 {
		return 86400e9
	}
	return int64(t.Hour())*int64(time.Hour) + int64(t.Minute())*int64(time.Minute) + int64(t.Second())*int64(time.Second) + int64(t.Nanosecond())
}

// unscaled returns a decimal value (value.Decimal, its text, or an
// integer) as an unscaled integer at scale.
func unscaled(v any, scale int32) (*big.Int, error) {
	var d value.Decimal
	switch x := v.(type) {
	case value.Decimal:
		d = x
	case string:
		r, ok := new(big.Rat).SetString(x)
		if !ok {
			return nil, fmt.Errorf("carrow: %q is not a decimal", x)
		}
		r.Mul(r, new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(scale)), nil)))
		if !r.IsInt() {
			return nil, fmt.Errorf("carrow: %q has more than %d decimal places", x, scale)
		}
		return r.Num(), nil
	case *big.Int:
		d = value.Decimal{Unscaled: x}
	default:
		i, ok := toInt(v)
		if !ok {
			return nil, fmt.Errorf("carrow: cannot convert %T to a decimal", v)
		}
		d = value.Decimal{Unscaled: big.NewInt(i)}
	}
	u := new(big.Int).Set(d.Unscaled)
	switch diff := scale - d.Scale; {
	case diff > 0:
		u.Mul(u, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(diff)), nil))
	case diff < 0:
		u.Quo(u, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(-diff)), nil))
	}
	return u, nil
}
