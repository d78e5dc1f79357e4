package function

import (
	"encoding/hex"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
	"time"

	"github.com/carquet-go/carquet/parquet/value"
	"github.com/carquet-go/carquet/sqlplan/vec"
)

// castScalar converts scalar v of type from into type to.
func castScalar(v any, from, to vec.Type) (any, error) { return CastScalar(v, from, to, false) }

// CastScalar is castScalar; with try, the elements of a list that do
// not convert are NULL (as DuckDB's TRY_CAST), and so is a scalar (by the
// caller: it gets the error).
func CastScalar(v any, from, to vec.Type, try bool) (any, error) {
	if v == nil {
		return nil, nil
	}
	if narrowsToFloat32(from, to) { // float32.go
		wide, err := CastScalar(v, from, Wide(to), try)
		if err != nil || wide == nil {
			return wide, err
		}
		return narrowFloat(wide.(float64), from, try)
	}
	if textToJSON(from, to) { // jsoncast.go
		s, _ := v.(string)
		if err := checkJSONText([]byte(s)); err != nil {
			if try {
				return nil, nil
			}
			return nil, err
		}
		return s, nil
	}
	if enumCast(from, to) {
		return castEnumScalar(v, from, to, try)
	}
	if u, ok := v.(uint64); ok && from.Op() == vec.KInt {
		v = int64(u) // UTINYINT..UINTEGER compute as BIGINT (Type.Op)
	}
	if listCast(from, to) {
		return Nested.CastList(v, from, to, try)
	}
	if err := infiniteStampError(v, from, to); err != nil {
		return nil, err
	}
	if from.Bit != to.Bit {
		if err := bitCastError(from, to); err != nil {
			return nil, err
		}
		if bitIntCast(from, to) {
			return castIntBits(v, from, to, try)
		}
		if BitBlobCast(from, to) {
			return bitBlobValue(v, to)
		}
		if to.Bit {
			s, _ := v.(string)
			if err := checkBits([]byte(s)); err != nil {
				return nil, err
			}
		}
		return v, nil
	}
	if to.Kind == vec.KTimestamp && to.Coarse > 0 && from.Coarse != to.Coarse {
		if err := coarseCastError(from, to); err != nil {
			return nil, err
		}
		fine := to
		fine.Coarse = 0
		r, err := CastScalar(v, from, fine, try)
		if r == nil || err != nil {
			return r, err
		}
		return coarseStamp(r.(int64), to)
	}
	if from.Nanos && !to.Nanos && to.Kind != vec.KString && !(from.Kind == vec.KTimestamp && vec.InfiniteStamp(v.(int64))) {
		// To anything but text, a TIMESTAMP_NS/TIME_NS is first its
		// microseconds (truncated, as DuckDB's casts).
		v, from.Nanos = v.(int64)/1000, false
	}
	if r, ok, err := castTimeTZ(v, from, to); ok {
		return r, err
	}
	if r, ok, err := castUHuge(v, from, to); ok {
		return r, err
	}
	if from.Kind == to.Kind && from.Kind != vec.KDecimal {
		if to.Kind == vec.KInt && to.Bits != 0 && to.Bits < 64 {
			return checkIntRange(v.(int64), to)
		}
		if to.Kind == vec.KUint && to.Bits != 0 && to.Bits < 64 {
			// UBIGINT or a wider unsigned type into a narrower one:
			// checked like the signed ones, not reinterpreted.
			return checkUintRange(v, to)
		}
		if x, ok := v.(int64); ok && to.Kind == vec.KUint && to.Op() == vec.KUint {
			return uint64(x), nil // a narrow unsigned value widened to UBIGINT
		}
		if from.Nanos != to.Nanos && (to.Kind == vec.KTimestamp || to.Kind == vec.KTime) {
			return ConvertTimeUnit(v.(int64), from, to)
		}
		return v, nil
	}
	bad := func() error {
		switch {
		case to.Huge && from.Op() == vec.KString:
			return fmt.Errorf("Could not convert string %s to INT128", QuoteText(vec.ScalarText(from, v))) // DuckDB's words
		case from.Huge && to.IsNumeric():
			return fmt.Errorf("HUGEINT %s is out of range for %s", vec.ScalarText(from, v), to.SQLName())
		}
		return fmt.Errorf("cannot cast %s %s to %s", from.SQLName(), QuoteText(vec.ScalarText(from, v)), to.SQLName())
	}
	switch to.Op() {
	case vec.KBool:
		switch from.Op() {
		case vec.KInt:
			return v.(int64) != 0, nil
		case vec.KFloat:
			return v.(float64) != 0, nil
		case vec.KString:
			switch strings.ToLower(strings.TrimSpace(v.(string))) {
			case "true", "t", "1", "yes", "y":
				return true, nil
			case "false", "f", "0", "no", "n":
				return false, nil
			}
		}
		return nil, bad()
	case vec.KInt:
		var x int64
		switch from.Op() {
		case vec.KInt:
			x = v.(int64)
		case vec.KBool:
			if v.(bool) {
				x = 1
			}
		case vec.KUint:
			u := v.(uint64)
			if u > math.MaxInt64 {
				return nil, fmt.Errorf("%d is out of range for %s", u, to.SQLName())
			}
			x = int64(u)
		case vec.KFloat:
			f := v.(float64)
			r := math.RoundToEven(f)
			if math.IsNaN(f) || r >= 9.223372036854775807e18 || r < -9.223372036854775808e18 || to.Kind == vec.KUint && f < 0 {
				// A negative number is no unsigned one, even when it
				// rounds to 0 (DuckDB: TRY_CAST(-0.25 AS USMALLINT) is NULL).
				return nil, fmt.Errorf("%v is out of range for %s", f, to.SQLName())
			}
			x = int64(r)
		case vec.KDecimal:
			d := DecimalScalar(from, v)
			u, ok := DecimalToInt64(d, 0)
			if !ok {
				return nil, fmt.Errorf("%s is out of range for %s", d, to.SQLName())
			}
			x = u
		case vec.KString:
			s := strings.TrimSpace(v.(string))
			n, err := strconv.ParseInt(s, 10, 64)
			if err != nil {
				f, ferr := strconv.ParseFloat(s, 64)
				if ferr != nil || math.IsInf(f, 0) || math.IsNaN(f) {
					return nil, bad()
				}
				n = int64(math.RoundToEven(f))
			}
			x = n
		case vec.KDate, vec.KTimestamp, vec.KTime, vec.KInterval:
			return nil, bad()
		default:
			return nil, bad()
		}
		return checkIntRange(x, to)
	case vec.KUint:
		switch from.Op() {
		case vec.KInt:
			if v.(int64) < 0 {
				return nil, fmt.Errorf("%d is out of range for %s", v, to.SQLName())
			}
			return uint64(v.(int64)), nil
		case vec.KFloat:
			f := v.(float64)
			if f < 0 || f >= 1.8446744073709552e19 || math.IsNaN(f) {
				return nil, fmt.Errorf("%v is out of range for %s", f, to.SQLName())
			}
			return uint64(math.RoundToEven(f)), nil
		case vec.KString:
			u, err := strconv.ParseUint(strings.TrimSpace(v.(string)), 10, 64)
			if err != nil {
				return nil, bad()
			}
			return u, nil
		case vec.KDecimal:
			r := roundHalfAway(DecimalScalar(from, v))
			if r.Sign() < 0 || !r.IsUint64() {
				return nil, bad()
			}
			return r.Uint64(), nil
		}
		return nil, bad()
	case vec.KFloat:
		switch from.Op() {
		case vec.KInt:
			return float64(v.(int64)), nil
		case vec.KUint:
			return float64(v.(uint64)), nil
		case vec.KBool:
			if v.(bool) {
				return 1.0, nil
			}
			return 0.0, nil
		case vec.KDecimal:
			return DecimalScalar(from, v).Float64(), nil
		case vec.KString:
			s := strings.ToLower(strings.TrimSpace(v.(string)))
			switch s {
			case "nan":
				return math.NaN(), nil
			case "inf", "infinity", "+inf":
				return math.Inf(1), nil
			case "-inf", "-infinity":
				return math.Inf(-1), nil
			}
			f, err := strconv.ParseFloat(s, 64)
			if err != nil {
				return nil, bad()
			}
			if to.Float32 {
				f = float64(float32(f))
			}
			return f, nil
		}
		return nil, bad()
	case vec.KDecimal:
		var d value.Decimal
		switch from.Op() {
		case vec.KInt:
			d = value.DecimalFromInt64(v.(int64), 0)
		case vec.KUint:
			d = value.Decimal{Unscaled: new(big.Int).SetUint64(v.(uint64))}
		case vec.KDecimal:
			d = DecimalScalar(from, v)
		case vec.KFloat:
			f := v.(float64)
			if math.IsNaN(f) || math.IsInf(f, 0) {
				return nil, bad()
			}
			if to.Huge {
				f = math.RoundToEven(f) // as DuckDB's DOUBLE to HUGEINT (and to BIGINT)
			}
			r := new(big.Rat).SetFloat64(f)
			d = vec.RatDecimal(r, to.Scale)
		case vec.KString:
			r, ok := new(big.Rat).SetString(strings.TrimSpace(v.(string)))
			if !ok {
				return nil, bad()
			}
			d = vec.RatDecimal(r, to.Scale)
		case vec.KBool:
			d = value.DecimalFromInt64(0, 0)
			if v.(bool) {
				d = value.DecimalFromInt64(1, 0)
			}
		default:
			return nil, bad()
		}
		return FitDecimal(d, to)
	case vec.KString:
		if from.Kind == vec.KNested {
			if Nested.Text == nil {
				return nil, errorf("cannot cast %s to %s: nested values are the engine's", from.SQLName(), to.SQLName())
			}
			return Nested.Text(from, v)
		}
		return vec.ScalarText(from, v), nil
	case vec.KUUID:
		if from.Kind == vec.KString {
			s := strings.ToLower(strings.TrimSpace(v.(string)))
			h := strings.ReplaceAll(s, "-", "")
			if b, err := hex.DecodeString(h); err == nil && len(b) == 16 {
				return value.UUIDString(b), nil
			}
		}
		return nil, bad()
	case vec.KBytes:
		switch from.Kind {
		case vec.KString, vec.KUUID:
			return BlobFromText(v.(string))
		}
		return nil, bad()
	case vec.KDate:
		switch from.Kind {
		case vec.KTimestamp:
			if x := v.(int64); vec.InfiniteStamp(x) {
				return infiniteDate(x), nil
			}
			return vec.FloorDiv(v.(int64), vec.UnitsPerDay(from)), nil
		case vec.KString:
			return ParseDateText(v.(string))
		}
		return nil, bad()
	case vec.KTimestamp:
		switch from.Kind {
		case vec.KDate:
			d, per := v.(int64), vec.UnitsPerDay(to)
			if vec.InfiniteDate(d) {
				return infiniteStamp(d), nil
			}
			if d > math.MaxInt64/per || d < math.MinInt64/per {
				return nil, fmt.Errorf("Type DATE with value %s can't be cast to the destination type %s", vec.ScalarText(from, v), to.SQLName())
			}
			return d * per, nil
		case vec.KString:
			return ParseTimestampText(v.(string), to)
		}
		return nil, bad()
	case vec.KTime:
		switch from.Kind {
		case vec.KTimestamp:
			day := vec.UnitsPerDay(from)
			x := v.(int64) % day
			if x < 0 {
				x += day
			}
			return ConvertTimeUnit(x, vec.Type{Kind: vec.KTime, Nanos: from.Nanos}, to)
		case vec.KString:
			return ParseTimeText(v.(string), to.Nanos)
		}
		return nil, bad()
	case vec.KInterval:
		if from.Op() == vec.KString {
			iv, err := ParseIntervalText(v.(string))
			if err != nil {
				return nil, bad()
			}
			return iv, nil
		}
		return nil, bad()
	case vec.KNested:
		return v, nil
	}
	return nil, bad()
}

// ConvertTimeUnit converts a TIMESTAMP or TIME value between microseconds
// and nanoseconds: down it truncates toward zero (as DuckDB's cast does),
// up it is exact or out of range.
func ConvertTimeUnit(x int64, from, to vec.Type) (any, error) {
	switch {
	case from.Nanos == to.Nanos, from.Kind == vec.KTimestamp && vec.InfiniteStamp(x):
		return x, nil
	case from.Nanos:
		return x / 1000, nil
	}
	if x > math.MaxInt64/1000 || x < math.MinInt64/1000 {
		return nil, fmt.Errorf("%s is out of range for %s", vec.ScalarText(from, x), to.SQLName())
	}
	return x * 1000, nil
}

// TimeToNanos is t as nanoseconds since the epoch, or an error when t is
// outside TIMESTAMP_NS's range.
func TimeToNanos(t time.Time) (int64, error) {
	ns := t.UnixNano()
	// The last nanosecond is DuckDB's infinity, not a time (as its text).
	if (t.Year() < 1678 || t.Year() > 2261) && !time.Unix(0, ns).Equal(t) || ns == vec.StampInf {
		return 0, fmt.Errorf("%v is out of range for TIMESTAMP_NS", t)
	}
	return ns, nil
}

func checkIntRange(x int64, t vec.Type) (any, error) {
	if t.Bits != 0 && t.Bits < 64 {
		lim := int64(1) << (t.Bits - 1)
		if t.Kind == vec.KUint {
			if x < 0 || x >= 2*lim {
				return nil, fmt.Errorf("%d is out of range for %s", x, t.SQLName())
			}
		} else if x < -lim || x >= lim {
			return nil, fmt.Errorf("%d is out of range for %s", x, t.SQLName())
		}
	}
	return x, nil
}

// roundHalfAway is d rounded to an integer, halves away from zero, as
// DuckDB's casts of decimals to integers (1.5 is 2, -0.5 is -1).
func roundHalfAway(d value.Decimal) *big.Int {
	if d.Scale <= 0 {
		return new(big.Int).Mul(d.Unscaled, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(-d.Scale)), nil))
	}
	unit := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(d.Scale)), nil)
	q, rem := new(big.Int).QuoRem(new(big.Int).Abs(d.Unscaled), unit, new(big.Int))
	if rem.Lsh(rem, 1).Cmp(unit) >= 0 {
		q.Add(q, big.NewInt(1))
	}
	if d.Unscaled.Sign() < 0 {
		q.Neg(q)
	}
	return q
}

// checkUintRange checks an unsigned value (a UBIGINT's uint64 or a
// narrower one's int64) against the range of the narrow unsigned type t.
func checkUintRange(v any, t vec.Type) (any, error) {
	if u, ok := v.(uint64); ok {
		if u > math.MaxInt64 {
			return nil, fmt.Errorf("%d is out of range for %s", u, t.SQLName())
		}
		v = int64(u)
	}
	return checkIntRange(v.(int64), t)
}

// DecimalScalar returns a decimal scalar as value.Decimal.
func DecimalScalar(t vec.Type, v any) value.Decimal {
	switch x := v.(type) {
	case value.Decimal:
		return x
	case uint64: // a UBIGINT (an integer literal beyond BIGINT) with a DECIMAL
		return value.Decimal{Unscaled: new(big.Int).SetUint64(x), Scale: int32(t.Scale)}
	}
	return DecimalOf(v.(int64), t.Scale)
}

// FitDecimal rescales d to t and checks its precision.
func FitDecimal(d value.Decimal, t vec.Type) (any, error) {
	in := d
	d = vec.RatDecimal(vec.DecRat(d), t.Scale)
	if !t.FitsBig(d.Unscaled) {
		if t.Huge {
			return nil, fmt.Errorf("%s is out of range for HUGEINT", d)
		}
		return nil, fmt.Errorf("Could not cast value %s to %s", in, t.SQLName()) // DuckDB's words
	}
	if t.Prec <= 18 {
		return d.Unscaled.Int64(), nil
	}
	return d, nil
}

// NestedValues are the casts of nested values (lists, structs, maps),
// whose Go forms and text live with the engine's nested values in
// package sqlplan; it sets Nested in its init, before any cast runs.
type NestedValues struct {
	// ListElem is the element type of a list type (false for others).
	ListElem func(t vec.Type) (vec.Type, bool)
	// CastList casts a list, or the text of one, to the list type to, and
	// a struct or a map, or their text, to another struct or map type.
	CastList func(v any, from, to vec.Type, try bool) (any, error)
	// Text is a nested value's text, as CAST to VARCHAR writes it.
	Text func(t vec.Type, v any) (string, error)
	// Map is the value of a MAP of key type kt and value type vt (its
	// keys distinct and not NULL), as histogram makes.
	Map func(kt, vt vec.Type, keys, vals []any) (any, error)
}

// Nested is how CastScalar reaches nested values.
var Nested NestedValues

// listCast reports a cast to a nested type that Nested.CastList makes
// (element by element, field by field): to a list type, from text, or
// between two nested types, not of one type; never before the engine has set Nested
// (a cast it refuses then, as a cast to a type it does not know).
func listCast(from, to vec.Type) bool {
	if to.Kind != vec.KNested || Nested.ListElem == nil || Nested.CastList == nil {
		return false
	}
	if from.Kind == vec.KNested {
		return !SameNested(from, to)
	}
	if from.IsStringy() {
		return true // the text of a list, struct or map
	}
	_, ok := Nested.ListElem(to)
	return ok || vec.IsUnion(to) // a value into a UNION's member
}
