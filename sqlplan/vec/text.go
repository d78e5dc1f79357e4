package vec

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// The text of scalars, as DuckDB casts them to VARCHAR: it lives with the
// values so that the kernels (the fallback order and keys of values they
// cannot read typed) and the functions (casts, concat, date formatting)
// share one rendering.

// ScalarText renders a scalar of type t as text, as DuckDB casts it to
// VARCHAR (also behind concat and JSON); values of no text of their own
// (nested ones) as the JSON of their Go value.
func ScalarText(t Type, v any) string {
	switch t.Kind {
	case KDate, KTime, KTimestamp:
		if x, ok := v.(int64); ok {
			return FormatTemporal(t, x)
		}
	case KTimeTZ:
		if x, ok := v.(int64); ok {
			return string(AppendTimeTZ(nil, x))
		}
	}
	switch x := GoValue(t, v).(type) {
	case nil:
		return ""
	case string:
		return x
	case []byte:
		return BlobText(x)
	case int64:
		if t.Kind == KBool {
			return strconv.FormatBool(x != 0)
		}
		return strconv.FormatInt(x, 10)
	case uint64:
		return strconv.FormatUint(x, 10)
	case float64:
		if t.Float32 {
			return FormatFloatBits(x, 32)
		}
		return FormatFloat(x)
	case bool:
		return strconv.FormatBool(x)
	default:
		b, err := json.Marshal(x)
		if err != nil {
			return fmt.Sprint(x)
		}
		return string(b)
	}
}

// FormatFloat writes a float the way DuckDB casts DOUBLE to VARCHAR.
func FormatFloat(f float64) string { return FormatFloatBits(f, 64) }

// FormatFloatBits is FormatFloat with the shortest digits that read back
// as the same float of that many bits (32 for FLOAT): in fixed notation
// when the decimal exponent is from -4 to 15 (an integer with ".0":
// 2255340.75, 1000000000000000.0), else as 1.5e+16 or 1.234e-05, as
// DuckDB writes them (Go's %g turns to exponents from 1e+06 on).
func FormatFloatBits(f float64, bits int) string {
	switch {
	case math.IsNaN(f):
		return "nan"
	case math.IsInf(f, 1):
		return "inf"
	case math.IsInf(f, -1):
		return "-inf"
	}
	s := strconv.FormatFloat(f, 'e', -1, bits)
	if exp, err := strconv.Atoi(s[strings.LastIndexByte(s, 'e')+1:]); err != nil || exp < -4 || exp > 15 {
		return s
	}
	s = strconv.FormatFloat(f, 'f', -1, bits)
	if !strings.Contains(s, ".") {
		s += ".0"
	}
	return s
}

// AppendTimeTZ writes a TIMETZ as DuckDB does: the time of day, then the
// offset as ±HH, with :MM and :SS when they are not zero.
func AppendTimeTZ(b []byte, k int64) []byte {
	us, off := TimeTZParts(k)
	b = AppendClock(b, us, false)
	sign := byte('+')
	if off < 0 {
		sign, off = '-', -off
	}
	b = AppendTwoDigits(append(b, sign), off/3600)
	if off%3600 != 0 {
		b = AppendTwoDigits(append(b, ':'), off/60%60)
		if off%60 != 0 {
			b = AppendTwoDigits(append(b, ':'), off%60)
		}
	}
	return b
}

// AppendTwoDigits appends v (0..99) as two digits.
func AppendTwoDigits(b []byte, v int64) []byte { return append(b, byte('0'+v/10), byte('0'+v%10)) }

// DuckDB's infinite DATE and TIMESTAMP values, as it stores them (and
// writes them to Parquet): the largest int32 (int64) and its negation, so
// that plain integer order, min/max and statistics put them above and
// below every finite value. TIMESTAMP_NS shares the TIMESTAMP pair.
const (
	DateInf     = math.MaxInt32
	DateNegInf  = -math.MaxInt32
	StampInf    = math.MaxInt64
	StampNegInf = -math.MaxInt64
)

// InfiniteDate reports whether a day number is one of the infinities.
func InfiniteDate(days int64) bool { return days >= DateInf || days <= DateNegInf }

// InfiniteStamp reports whether a TIMESTAMP value (any unit) is one of
// the infinities; MaxInt64-1 is DuckDB's last finite one.
func InfiniteStamp(v int64) bool { return v == StampInf || v <= StampNegInf }

// appendInfinity writes "infinity" or "-infinity" for an infinite value
// (v above or below zero).
func appendInfinity(b []byte, v int64) []byte {
	if v < 0 {
		b = append(b, '-')
	}
	return append(b, "infinity"...)
}

// AppendDate writes a day number as DuckDB does: YYYY-MM-DD with at least
// four year digits, years before 1 as "YYYY-MM-DD (BC)", the infinities
// as "infinity" and "-infinity".
func AppendDate(b []byte, days int64) []byte {
	if InfiniteDate(days) {
		return appendInfinity(b, days)
	}
	y, m, d := CivilFromDays(days)
	bc := y <= 0
	if bc {
		y = 1 - y
	}
	for p := int64(1000); p > y; p /= 10 {
		b = append(b, '0')
	}
	b = strconv.AppendInt(b, y, 10)
	b = AppendTwoDigits(append(b, '-'), m)
	b = AppendTwoDigits(append(b, '-'), d)
	if bc {
		b = append(b, " (BC)"...)
	}
	return b
}

// AppendClock writes a time of day in microseconds (in nanoseconds with
// nanos) as HH:MM:SS[.fraction], the fraction without trailing zeros;
// 24:00:00 stays 24:00:00.
func AppendClock(b []byte, v int64, nanos bool) []byte {
	unit := int64(1e6)
	if nanos {
		unit = 1e9
	}
	sec, frac := v/unit, v%unit
	b = AppendTwoDigits(b, sec/3600)
	b = AppendTwoDigits(append(b, ':'), sec/60%60)
	b = AppendTwoDigits(append(b, ':'), sec%60)
	if frac != 0 {
		b = append(b, '.')
		for p := unit / 10; frac != 0; p /= 10 {
			b = append(b, byte('0'+frac/p))
			frac %= p
		}
	}
	return b
}

// AppendTimestamp writes a TIMESTAMP of type t as DuckDB does: the date,
// a space and the time of day, and "+00" for TIMESTAMPTZ.
func AppendTimestamp(b []byte, t Type, v int64) []byte {
	if InfiniteStamp(v) {
		return appendInfinity(b, v) // no zone either, as DuckDB's
	}
	day := UnitsPerDay(t)
	days := FloorDiv(v, day)
	b = AppendDate(b, days)
	b = AppendClock(append(b, ' '), v-days*day, t.Nanos)
	if t.TZ {
		b = append(b, "+00"...)
	}
	return b
}

// FormatTemporal is the text of a DATE, TIME or TIMESTAMP value.
func FormatTemporal(t Type, v int64) string {
	var buf [48]byte
	switch t.Kind {
	case KDate:
		return string(AppendDate(buf[:0], v))
	case KTime:
		return string(AppendClock(buf[:0], v, t.Nanos))
	}
	return string(AppendTimestamp(buf[:0], t, v))
}

// FloorDiv is a/b rounded toward negative infinity.
func FloorDiv(a, b int64) int64 {
	q := a / b
	if (a%b != 0) && (a < 0) != (b < 0) {
		q--
	}
	return q
}

// UnitsPerDay is the count of a TIMESTAMP/TIME value's units in a day.
func UnitsPerDay(t Type) int64 {
	if t.Nanos {
		return 86400e9
	}
	return 86400e6
}

// CivilFromDays is the proleptic Gregorian date of a day number.
func CivilFromDays(days int64) (y, m, d int64) {
	z := days + 719468
	era := FloorDiv(z, 146097)
	doe := z - era*146097
	yoe := (doe - doe/1460 + doe/36524 - doe/146096) / 365
	doy := doe - (365*yoe + yoe/4 - yoe/100)
	mp := (5*doy + 2) / 153
	d = doy - (153*mp+2)/5 + 1
	m = mp + 3
	if m > 12 {
		m -= 12
	}
	y = yoe + era*400
	if m <= 2 {
		y++
	}
	return y, m, d
}

// BlobText is BLOB to VARCHAR.
func BlobText(b []byte) string {
	const digits = "0123456789ABCDEF"
	out := make([]byte, 0, len(b))
	for _, c := range b {
		if c >= 32 && c <= 126 && c != '\\' && c != '\'' && c != '"' {
			out = append(out, c)
		} else {
			out = append(out, '\\', 'x', digits[c>>4], digits[c&15])
		}
	}
	return string(out)
}
