// Package canon renders the values that carquet and the peer libraries
// return in one canonical text form, so that values read by different
// libraries compare as strings. The normalisation rules, which every
// comparison in sqltests relies on:
//
//   - null is "null"; booleans are "true"/"false".
//   - integers of every width and signedness are their decimal digits.
//   - floats: NaN is "NaN" whatever its payload; otherwise the shortest
//     decimal that round-trips at the value's own width (float32 at 32
//     bits), so equal strings mean equal bits, -0 included.
//   - decimals are exact: unscaled × 10^-scale written with exactly
//     scale fractional digits ("-12.340").
//   - strings are Go-quoted; binary values are "0x" and lower-case hex.
//   - time.Time (DATE, TIME, TIMESTAMP, INT96) is converted to UTC and
//     written with nanoseconds: "2023-11-10T00:00:00.000000000Z"; TIME
//     values sit on 0001-01-01.
//   - intervals are "interval(months,days,micros)".
//   - structs are "{name:value,...}" in name order; lists "[v,...]";
//     maps "map{key:value,...}" ordered by the rendered key (Go maps carry
//     no order), duplicate keys keeping the last value.
//
// Peer-specific conversions (DuckDB decimals, arrow arrays, ...) happen in
// package peers before rendering.
package canon

import (
	"encoding/hex"
	"fmt"
	"math"
	"math/big"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/carquet-go/carquet/parquet/value"
)

// Interval is an interval with microsecond resolution (DuckDB's and
// Arrow's MonthDayNano fit; Parquet's milliseconds are converted).
type Interval struct {
	Months, Days int64
	Micros       int64
}

// Entry is one key/value pair of a map.
type Entry struct{ Key, Value any }

// Map is a map whose entries came in order (it is rendered sorted all the same).
type Map []Entry

// Decimal is an exact decimal from a peer: Unscaled × 10^-Scale.
type Decimal struct {
	Unscaled *big.Int
	Scale    int
}

// Raw is text already in canonical form (used for Variant JSON).
type Raw string

// Time formats t as canonical text.
func Time(t time.Time) string {
	return t.UTC().Format("2006-01-02T15:04:05.000000000Z")
}

// Float64 formats f canonically.
func Float64(f float64) string {
	if math.IsNaN(f) {
		return "NaN"
	}
	return strconv.FormatFloat(f, 'g', -1, 64)
}

// Float32 formats f canonically at 32 bits.
func Float32(f float32) string {
	if f != f {
		return "NaN"
	}
	return strconv.FormatFloat(float64(f), 'g', -1, 32)
}

// DecimalString writes unscaled × 10^-scale exactly.
func DecimalString(unscaled *big.Int, scale int) string {
	return value.Decimal{Unscaled: unscaled, Scale: int32(scale)}.String()
}

// Value renders v canonically.
func Value(v any) string {
	var b strings.Builder
	write(&b, v)
	return b.String()
}

func write(b *strings.Builder, v any) {
	switch x := v.(type) {
	case nil:
		b.WriteString("null")
	case bool:
		b.WriteString(strconv.FormatBool(x))
	case int:
		b.WriteString(strconv.FormatInt(int64(x), 10))
	case int8:
		b.WriteString(strconv.FormatInt(int64(x), 10))
	case int16:
		b.WriteString(strconv.FormatInt(int64(x), 10))
	case int32:
		b.WriteString(strconv.FormatInt(int64(x), 10))
	case int64:
		b.WriteString(strconv.FormatInt(x, 10))
	case uint:
		b.WriteString(strconv.FormatUint(uint64(x), 10))
	case uint8:
		b.WriteString(strconv.FormatUint(uint64(x), 10))
	case uint16:
		b.WriteString(strconv.FormatUint(uint64(x), 10))
	case uint32:
		b.WriteString(strconv.FormatUint(uint64(x), 10))
	case uint64:
		b.WriteString(strconv.FormatUint(x, 10))
	case *big.Int:
		b.WriteString(x.String())
	case float32:
		b.WriteString(Float32(x))
	case float64:
		b.WriteString(Float64(x))
	case string:
		b.WriteString(strconv.Quote(x))
	case Raw:
		b.WriteString(string(x))
	case []byte:
		b.WriteString("0x")
		b.WriteString(hex.EncodeToString(x))
	case time.Time:
		b.WriteString(Time(x))
	case value.Decimal:
		b.WriteString(x.String())
	case Decimal:
		b.WriteString(DecimalString(x.Unscaled, x.Scale))
	case value.Interval:
		write(b, Interval{Months: int64(x.Months), Days: int64(x.Days), Micros: int64(x.Millis) * 1000})
	case Interval:
		fmt.Fprintf(b, "interval(%d,%d,%d)", x.Months, x.Days, x.Micros)
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		b.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(k)
			b.WriteByte(':')
			write(b, x[k])
		}
		b.WriteByte('}')
	case []any:
		b.WriteByte('[')
		for i, e := range x {
			if i > 0 {
				b.WriteByte(',')
			}
			write(b, e)
		}
		b.WriteByte(']')
	case map[any]any:
		m := make(Map, 0, len(x))
		for k, e := range x {
			m = append(m, Entry{k, e})
		}
		writeMap(b, m)
	case Map:
		writeMap(b, x)
	default:
		fmt.Fprintf(b, "<%T %v>", v, v)
	}
}

func writeMap(b *strings.Builder, m Map) {
	last := map[string]string{}
	for _, e := range m {
		last[Value(e.Key)] = Value(e.Value)
	}
	keys := make([]string, 0, len(last))
	for k := range last {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	b.WriteString("map{")
	for i, k := range keys {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(k)
		b.WriteByte(':')
		b.WriteString(last[k])
	}
	b.WriteByte('}')
}
