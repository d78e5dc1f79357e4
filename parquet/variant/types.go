package variant

import (
	"encoding/hex"
	"math/big"
	"math/bits"
	"strconv"
	"strings"
	"time"
)

// Decoded values are plain Go values, one Go type per Variant physical type
// so that nothing is lost and Encode(Decode(x)) writes x back:
//
//	null                         nil
//	boolean                      bool
//	int8, int16, int32, int64    int8, int16, int32, int64 (exact width kept)
//	float, double                float32, float64
//	decimal4, decimal8, decimal16 Decimal (Width 4, 8 or 16)
//	date                         Date
//	time                         Time
//	timestamp (4 kinds)          Timestamp
//	binary                       []byte
//	string (short or long)       string
//	uuid                         UUID
//	object                       Object (fields sorted by name)
//	array                        []any
//
// Encode also accepts int, uint*, time.Time, map[string]any and json.Number;
// see Encode.

// Object is a decoded Variant object: its fields in the order the encoding
// requires, sorted by name (bytewise), names unique. The order is therefore
// deterministic and Get can binary-search.
type Object []Field

// Field is one name/value pair of an Object.
type Field struct {
	Name  string
	Value any
}

// Get returns the value of the field called name.
func (o Object) Get(name string) (any, bool) {
	lo, hi := 0, len(o)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if o[m].Name < name {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo < len(o) && o[lo].Name == name {
		return o[lo].Value, true
	}
	return nil, false
}

// Decimal is an exact decimal: Unscaled × 10^-Scale, with the unscaled value
// held as a 128-bit two's-complement integer (Hi:Lo).
type Decimal struct {
	Hi    int64  // high 64 bits, sign included
	Lo    uint64 // low 64 bits
	Scale uint8  // 0..38
	// Width is the size in bytes of the encoded unscaled value: 4
	// (decimal4), 8 (decimal8) or 16 (decimal16). Zero lets Encode pick the
	// smallest that holds the value.
	Width uint8
}

// MaxDecimalScale is the largest scale (and precision) Variant decimals
// allow.
const MaxDecimalScale = 38

// DecimalFromInt64 returns unscaled × 10^-scale.
func DecimalFromInt64(unscaled int64, scale int) Decimal {
	return Decimal{Hi: unscaled >> 63, Lo: uint64(unscaled), Scale: uint8(scale)}
}

// DecimalFromBig returns unscaled × 10^-scale; ok is false when unscaled
// does not fit in 128 bits.
func DecimalFromBig(unscaled *big.Int, scale int) (d Decimal, ok bool) {
	if unscaled.BitLen() > 127 {
		return Decimal{}, false
	}
	var mag big.Int
	mag.Abs(unscaled)
	words := mag.Bits()
	var lo, hi uint64
	if bits.UintSize == 64 {
		if len(words) > 0 {
			lo = uint64(words[0])
		}
		if len(words) > 1 {
			hi = uint64(words[1])
		}
	} else {
		b := mag.FillBytes(make([]byte, 16))
		for i := range 8 {
			hi = hi<<8 | uint64(b[i])
			lo = lo<<8 | uint64(b[8+i])
		}
	}
	if unscaled.Sign() < 0 {
		lo, hi = neg128(lo, hi)
	}
	return Decimal{Hi: int64(hi), Lo: lo, Scale: uint8(scale)}, true
}

func neg128(lo, hi uint64) (uint64, uint64) {
	lo = ^lo + 1
	hi = ^hi
	if lo == 0 {
		hi++
	}
	return lo, hi
}

// Int64 returns the unscaled value when it fits in an int64.
func (d Decimal) Int64() (int64, bool) {
	v := int64(d.Lo)
	return v, d.Hi == v>>63
}

// Big returns the unscaled value.
func (d Decimal) Big() *big.Int {
	if v, ok := d.Int64(); ok {
		return big.NewInt(v)
	}
	lo, hi := d.Lo, uint64(d.Hi)
	negative := d.Hi < 0
	if negative {
		lo, hi = neg128(lo, hi)
	}
	b := new(big.Int).SetUint64(hi)
	b.Lsh(b, 64)
	b.Or(b, new(big.Int).SetUint64(lo))
	if negative {
		b.Neg(b)
	}
	return b
}

// String renders the decimal exactly, as SQL and JSON write numbers:
// "12345.6789", "-0.05", "42".
func (d Decimal) String() string {
	var digits string
	if v, ok := d.Int64(); ok {
		digits = strconv.FormatInt(v, 10)
	} else {
		digits = d.Big().String()
	}
	neg := strings.HasPrefix(digits, "-")
	digits = strings.TrimPrefix(digits, "-")
	scale := int(d.Scale)
	if scale > 0 {
		if len(digits) <= scale {
			digits = strings.Repeat("0", scale-len(digits)+1) + digits
		}
		digits = digits[:len(digits)-scale] + "." + digits[len(digits)-scale:]
	}
	if neg {
		return "-" + digits
	}
	return digits
}

// fits reports whether the unscaled value fits in width bytes.
func (d Decimal) fits(width int) bool {
	v, ok := d.Int64()
	switch width {
	case 4:
		return ok && v == int64(int32(v))
	case 8:
		return ok
	}
	return true
}

// Date is a Variant date: days since 1970-01-01.
type Date int32

// Time returns the date at midnight UTC.
func (d Date) Time() time.Time { return time.Unix(int64(d)*86400, 0).UTC() }

// String renders the date as YYYY-MM-DD.
func (d Date) String() string { return d.Time().Format("2006-01-02") }

// Time is a Variant time of day without time zone: microseconds since
// midnight.
type Time int64

// String renders the time as HH:MM:SS.ffffff.
func (t Time) String() string {
	us := int64(t)
	neg := us < 0
	if neg {
		us = -us
	}
	s := us / 1e6
	out := pad2(s/3600) + ":" + pad2(s/60%60) + ":" + pad2(s%60) + "." + padN(us%1e6, 6)
	if neg {
		return "-" + out
	}
	return out
}

func pad2(v int64) string { return padN(v, 2) }

func padN(v int64, n int) string {
	s := strconv.FormatInt(v, 10)
	if len(s) < n {
		s = strings.Repeat("0", n-len(s)) + s
	}
	return s
}

// Timestamp is one of the four Variant timestamp types.
type Timestamp struct {
	// Value counts microseconds (or nanoseconds when Nanos) since the Unix
	// epoch.
	Value int64
	// Nanos selects nanosecond precision (types 18, 19) over microseconds
	// (12, 13).
	Nanos bool
	// NTZ marks a timestamp without time zone: a wall-clock reading rather
	// than an instant (types 13, 19).
	NTZ bool
}

// Time returns the timestamp as a time.Time in UTC (for NTZ timestamps, the
// wall-clock reading as if it were UTC).
func (t Timestamp) Time() time.Time {
	if t.Nanos {
		return time.Unix(0, t.Value).UTC()
	}
	return time.UnixMicro(t.Value).UTC()
}

// String renders the timestamp in ISO 8601 with all its fractional digits:
// "2024-11-07T12:33:54.123456+00:00", or without the offset for NTZ.
func (t Timestamp) String() string {
	layout := "2006-01-02T15:04:05.000000"
	if t.Nanos {
		layout = "2006-01-02T15:04:05.000000000"
	}
	s := t.Time().Format(layout)
	if !t.NTZ {
		s += "+00:00"
	}
	return s
}

// UUID is a Variant uuid, its 16 bytes in big-endian (RFC 4122) order.
type UUID [16]byte

// String renders the UUID in the canonical 8-4-4-4-12 form.
func (u UUID) String() string {
	var b [36]byte
	hex.Encode(b[0:8], u[0:4])
	b[8] = '-'
	hex.Encode(b[9:13], u[4:6])
	b[13] = '-'
	hex.Encode(b[14:18], u[6:8])
	b[18] = '-'
	hex.Encode(b[19:23], u[8:10])
	b[23] = '-'
	hex.Encode(b[24:], u[10:])
	return string(b[:])
}
