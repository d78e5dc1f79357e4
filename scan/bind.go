package scan

import (
	"bytes"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
	"time"

	"github.com/carquet-go/carquet/parquet/format"
	"github.com/carquet-go/carquet/parquet/schema"
	"github.com/carquet-go/carquet/parquet/value"
)

// domain is the space in which a column's values and a predicate's
// constants are compared: physical values mapped to an order-preserving
// Go type.
type domain uint8

const (
	domNone  domain = iota // not comparable here: no pruning, evaluated by value
	domInt                 // int64 order (signed ints, dates, times, timestamps, int decimals)
	domUint                // uint64 order (unsigned ints)
	domFloat               // float64 order, NaN aware
	domBytes               // unsigned byte-wise order (strings, binary, UUID)
	domBool                // false < true
)

// colInfo describes how to compare a primitive column.
type colInfo struct {
	node     *schema.Node
	physical format.Type
	dom      domain
	// unitNanos is the unit of a TIMESTAMP/TIME column (1e3 = micros).
	unitNanos int64
	isDate    bool
	isTime    bool
	isStamp   bool
	// scale of a decimal column backed by INT32/INT64, -1 otherwise.
	scale int32
}

func describe(n *schema.Node) colInfo {
	ci := colInfo{node: n, physical: n.Physical, scale: -1}
	lt := n.Logical
	switch n.Physical {
	case format.Boolean:
		ci.dom = domBool
	case format.Int32, format.Int64:
		ci.dom = domInt
		if lt != nil {
			switch {
			case lt.Integer != nil && !lt.Integer.IsSigned:
				ci.dom = domUint
			case lt.Date != nil:
				ci.isDate = true
			case lt.Timestamp != nil:
				ci.isStamp, ci.unitNanos = true, schema.UnitNanos(lt.Timestamp.Unit)
			case lt.Time != nil:
				ci.isTime, ci.unitNanos = true, schema.UnitNanos(lt.Time.Unit)
			case lt.Decimal != nil:
				ci.scale = lt.Decimal.Scale
			}
		}
	case format.Float, format.Double:
		ci.dom = domFloat
	case format.ByteArray, format.FixedLenByteArray:
		ci.dom = domBytes
		if lt != nil && (lt.Decimal != nil || lt.Float16 != nil) {
			ci.dom = domNone
		}
		if n.Converted.Set && (n.Converted.Value == format.Decimal || n.Converted.Value == format.Interval) {
			ci.dom = domNone
		}
	default: // INT96
		ci.dom = domNone
	}
	return ci
}

// bound is a constant converted into a column's domain. For an integer
// domain a constant that falls between two integers (a decimal or float
// constant against an integer column) is kept as frac: the comparison
// is then adjusted (x < 2.5 ⇔ x <= 2).
type bound struct {
	i    int64
	u    uint64
	f    float64
	b    []byte
	frac int8 // 0: exact; +1: the constant lies just above i; -1: just below
	// never: the constant cannot equal any value of the column (out of
	// range or not an integer): = is false, <> is true, ranges still apply.
	never bool
	// low/high: the constant lies below/above every value of the domain.
	low, high bool
	// origin is the constant as given, for columns compared by value.
	origin any
}

// bindConst converts a Go constant into the column's domain. ok is false
// when the constant has no meaning for the column (a string against an
// integer column that does not parse): the predicate is then evaluated by
// value, without pruning.
func bindConst(ci colInfo, v any) (bound, bool) {
	switch ci.dom {
	case domBool:
		switch x := v.(type) {
		case bool:
			if x {
				return bound{i: 1}, true
			}
			return bound{i: 0}, true
		case int64:
			return bound{i: x}, true
		}
		return bound{}, false
	case domBytes:
		switch x := v.(type) {
		case string:
			if ci.node.Logical != nil && ci.node.Logical.UUID != nil {
				if b, ok := parseUUID(x); ok {
					return bound{b: b}, true
				}
			}
			return bound{b: []byte(x)}, true
		case []byte:
			return bound{b: x}, true
		}
		return bound{}, false
	case domFloat:
		switch x := v.(type) {
		case float64:
			return bound{f: x}, true
		case int64:
			return bound{f: float64(x)}, true
		case value.Decimal:
			return bound{f: x.Float64()}, true
		case string:
			f, err := strconv.ParseFloat(strings.TrimSpace(x), 64)
			return bound{f: f}, err == nil
		}
		return bound{}, false
	case domUint:
		r, ok := toRat(v)
		if !ok {
			return bound{}, false
		}
		return ratBound(r, true), true
	case domInt:
		switch x := v.(type) {
		case time.Time:
			return bindTime(ci, x)
		case string:
			if ci.isDate || ci.isStamp || ci.isTime {
				t, ok := parseTimeLiteral(x)
				if !ok {
					return bound{}, false
				}
				return bindTime(ci, t)
			}
		}
		if ci.isDate || ci.isStamp || ci.isTime {
			return bound{}, false
		}
		r, ok := toRat(v)
		if !ok {
			return bound{}, false
		}
		if ci.scale > 0 {
			r = new(big.Rat).Mul(r, new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(ci.scale)), nil)))
		}
		return ratBound(r, false), true
	}
	return bound{}, false
}

// ratBound places a rational constant on the int64 (or uint64) line.
func ratBound(r *big.Rat, unsigned bool) bound {
	fl := new(big.Int).Quo(r.Num(), r.Denom()) // truncates toward zero
	exact := r.IsInt()
	var b bound
	if !exact {
		b.never = true
		// floor: truncation rounds negatives up.
		if r.Sign() < 0 {
			fl.Sub(fl, big.NewInt(1))
		}
		b.frac = 1 // the constant lies between fl and fl+1
	}
	if unsigned {
		if fl.Sign() < 0 {
			return bound{low: true, never: true}
		}
		if !fl.IsUint64() {
			return bound{high: true, never: true}
		}
		b.u = fl.Uint64()
		return b
	}
	if !fl.IsInt64() {
		if fl.Sign() < 0 {
			return bound{low: true, never: true}
		}
		return bound{high: true, never: true}
	}
	b.i = fl.Int64()
	return b
}

func toRat(v any) (*big.Rat, bool) {
	switch x := v.(type) {
	case int64:
		return new(big.Rat).SetInt64(x), true
	case uint64:
		return new(big.Rat).SetUint64(x), true
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return nil, false
		}
		return new(big.Rat).SetFloat64(x), true
	case bool:
		if x {
			return big.NewRat(1, 1), true
		}
		return new(big.Rat), true
	case value.Decimal:
		if x.Unscaled == nil {
			return new(big.Rat), true
		}
		p := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(abs32(x.Scale))), nil)
		if x.Scale >= 0 {
			return new(big.Rat).SetFrac(x.Unscaled, p), true
		}
		return new(big.Rat).SetInt(new(big.Int).Mul(x.Unscaled, p)), true
	case string:
		r, ok := new(big.Rat).SetString(strings.TrimSpace(x))
		return r, ok
	}
	return nil, false
}

func abs32(x int32) int32 {
	if x < 0 {
		return -x
	}
	return x
}

func bindTime(ci colInfo, t time.Time) (bound, bool) {
	switch {
	case ci.isDate:
		// Days since the epoch; a time within a day lies between days.
		u := t.UTC()
		day := time.Date(u.Year(), u.Month(), u.Day(), 0, 0, 0, 0, time.UTC)
		b := bound{i: day.Unix() / 86400}
		if !u.Equal(day) {
			b.frac, b.never = 1, true
		}
		return b, true
	case ci.isStamp:
		ns := t.UnixNano()
		if t.Year() < 1678 || t.Year() > 2261 {
			// Outside int64 nanoseconds: work in microseconds (a unit of
			// one, to the column's microseconds per unit; none fit a
			// nanosecond column).
			us := t.UnixMicro()
			return unitBound(us, 1, ci.unitNanos/1000)
		}
		return unitBound(ns, 1, ci.unitNanos)
	case ci.isTime:
		u := t.UTC()
		ns := int64(u.Hour())*int64(time.Hour) + int64(u.Minute())*int64(time.Minute) + int64(u.Second())*int64(time.Second) + int64(u.Nanosecond())
		return unitBound(ns, 1, ci.unitNanos)
	}
	return bound{}, false
}

// unitBound converts v (in units of have) into units of want, marking a
// remainder as a fraction.
func unitBound(v, have, want int64) (bound, bool) {
	if want <= 0 {
		return bound{}, false
	}
	if have >= want {
		return bound{i: v * (have / want)}, true
	}
	div := want / have
	q := v / div
	r := v % div
	if r < 0 {
		q--
		r += div
	}
	if r != 0 {
		return bound{i: q, frac: 1, never: true}, true
	}
	return bound{i: q}, true
}

var timeLayouts = []string{
	"2006-01-02 15:04:05.999999999Z07:00", "2006-01-02T15:04:05.999999999Z07:00",
	"2006-01-02 15:04:05.999999999", "2006-01-02T15:04:05.999999999", "2006-01-02 15:04", "2006-01-02",
	"15:04:05.999999999", "15:04:05", "15:04",
}

// parseTimeLiteral parses the date/time text forms SQL users write.
func parseTimeLiteral(s string) (time.Time, bool) {
	s = strings.TrimSpace(s)
	for _, l := range timeLayouts {
		if t, err := time.ParseInLocation(l, s, time.UTC); err == nil {
			if strings.HasPrefix(l, "15") {
				t = t.AddDate(1, 0, 0) // year 0 → 0001-01-01
			}
			return t, true
		}
	}
	return time.Time{}, false
}

func parseUUID(s string) ([]byte, bool) {
	h := strings.ReplaceAll(s, "-", "")
	if len(h) != 32 {
		return nil, false
	}
	out := make([]byte, 16)
	for i := 0; i < 16; i++ {
		x, err := strconv.ParseUint(h[2*i:2*i+2], 16, 8)
		if err != nil {
			return nil, false
		}
		out[i] = byte(x)
	}
	return out, true
}

// cmpInt compares a column value x with a bound: -1, 0 or +1.
func (b *bound) cmpInt(x int64) int {
	switch {
	case b.low:
		return 1
	case b.high:
		return -1
	case x < b.i:
		return -1
	case x > b.i:
		return 1
	case b.frac > 0:
		return -1 // x == floor(c) < c
	}
	return 0
}

func (b *bound) cmpUint(x uint64) int {
	switch {
	case b.low:
		return 1
	case b.high:
		return -1
	case x < b.u:
		return -1
	case x > b.u:
		return 1
	case b.frac > 0:
		return -1
	}
	return 0
}

func (b *bound) cmpBytes(x []byte) int { return bytes.Compare(x, b.b) }

// cmpFloat compares the way DuckDB and PostgreSQL order floats: NaN
// equals NaN and is greater than every other value; -0 equals +0.
func (b *bound) cmpFloat(x float64) int {
	xn, cn := math.IsNaN(x), math.IsNaN(b.f)
	switch {
	case xn && cn:
		return 0
	case xn:
		return 1
	case cn:
		return -1
	case x < b.f:
		return -1
	case x > b.f:
		return 1
	}
	return 0
}

// holds reports whether `x op c` holds given c := compare(x, const).
func holds(op Op, c int) bool {
	switch op {
	case Eq:
		return c == 0
	case Ne:
		return c != 0
	case Lt:
		return c < 0
	case Le:
		return c <= 0
	case Gt:
		return c > 0
	default:
		return c >= 0
	}
}

func errorf(format string, args ...any) error { return fmt.Errorf("scan: "+format, args...) }
