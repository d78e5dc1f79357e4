package sqlplan

import (
	"encoding/hex"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
	"time"

	"github.com/carquet-go/carquet/parquet/value"
	"github.com/carquet-go/carquet/sqlplan/function"
	"github.com/carquet-go/carquet/sqlplan/num"
)

// Scalars: one value in the engine's representation for its Type —
// nil for NULL; int64 for KInt, KDate (days), KTime and KTimestamp
// (microseconds), interval for KInterval, and KDecimal up to 18 digits
// (unscaled); uint64 for KUint; float64; bool; string for KString and
// KUUID; []byte for KBytes; value.Decimal for wide decimals; Go values
// for KNested.

// scaleIntervalCol is interval iv times (or, div, divided by) the number
// n, as interval.scale does.
func scaleIntervalCol(iv, n expr, div bool) expr {
	op := " * "
	if div {
		op = " / "
	}
	e := &funcExpr{name: "interval" + op, args: []expr{iv, n}, t: Type{Kind: KInterval}, strict: true, row: func(a []*Col, i int) (any, error) {
		f, err := castScalar(a[1].Get(i), a[1].T, tFloat)
		if err != nil {
			return nil, err
		}
		x := f.(float64)
		if a[1].T.Op() == KInt && !div {
			return a[0].Get(i).(interval).MulInt(a[1].Get(i).(int64)), nil
		}
		if div {
			if x == 0 {
				return nil, errorf("division by zero")
			}
			x = 1 / x
		}
		r, ok := a[0].Get(i).(interval).Scale(x)
		if !ok {
			return nil, errorf("the interval is out of range")
		}
		return r, nil
	}}
	e.setText(iv.String() + op + n.String())
	return e
}

// constCol is a column of n copies of scalar v.
func constCol(t Type, v any, n int) *Col {
	if v == nil {
		return nullCol(t, n)
	}
	c := &Col{T: t, Len: n}
	switch storage(t) {
	case stInt:
		var x int64
		switch y := v.(type) {
		case int64:
			x = y
		case uint64:
			x = int64(y)
		}
		c.I = make([]int64, n)
		for i := range c.I {
			c.I[i] = x
		}
	case stFloat:
		c.F = make([]float64, n)
		x := v.(float64)
		for i := range c.F {
			c.F[i] = x
		}
	case stBool:
		c.B = make([]bool, n)
		x := v.(bool)
		for i := range c.B {
			c.B[i] = x
		}
	case stBytes:
		var s []byte
		switch y := v.(type) {
		case string:
			s = []byte(y)
		case []byte:
			s = y
		}
		c.Off = make([]int32, n+1)
		c.Data = make([]byte, 0, len(s)*n)
		for i := 0; i < n; i++ {
			c.Data = append(c.Data, s...)
			c.Off[i+1] = int32(len(c.Data))
		}
	case stHuge:
		c.H = make([]num.Int128, n)
		x := slot128(t, v)
		for i := range c.H {
			c.H[i] = x
		}
	default:
		c.A = make([]any, n)
		for i := range c.A {
			c.A[i] = v
		}
	}
	return c
}

// castScalar converts scalar v of type from into type to.
func castScalar(v any, from, to Type) (any, error) { return castScalarTry(v, from, to, false) }

// castScalarTry is castScalar; with try, the elements of a list that do
// not convert are NULL (as DuckDB's TRY_CAST), and so is a scalar (by the
// caller: it gets the error).
func castScalarTry(v any, from, to Type, try bool) (any, error) {
	if v == nil {
		return nil, nil
	}
	if _, ok := listElem(to); ok && !(from.Kind == KNested && sameNested(from, to)) {
		return castList(v, from, to, try)
	}
	if from.Bit != to.Bit {
		if err := bitCastError(from, to); err != nil {
			return nil, err
		}
		if bitIntCast(from, to) {
			return castIntBits(v, from, to, try)
		}
		if bitBlobCast(from, to) {
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
	if to.Kind == KTimestamp && to.Coarse > 0 && from.Coarse != to.Coarse {
		if err := coarseCastError(from, to); err != nil {
			return nil, err
		}
		fine := to
		fine.Coarse = 0
		r, err := castScalarTry(v, from, fine, try)
		if r == nil || err != nil {
			return r, err
		}
		return roundToUnit(r.(int64), to.Coarse), nil
	}
	if from.Nanos && !to.Nanos && to.Kind != KString {
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
	if from.Kind == to.Kind && from.Kind != KDecimal {
		if to.Kind == KInt && to.Bits != 0 && to.Bits < 64 {
			return checkIntRange(v.(int64), to)
		}
		if from.Nanos != to.Nanos && (to.Kind == KTimestamp || to.Kind == KTime) {
			return convertTimeUnit(v.(int64), from, to)
		}
		return v, nil
	}
	bad := func() error {
		switch {
		case to.Huge && from.Op() == KString:
			return fmt.Errorf("Could not convert string %s to INT128", quoteText(formatScalar(from, v))) // DuckDB's words
		case from.Huge && to.IsNumeric():
			return fmt.Errorf("HUGEINT %s is out of range for %s", formatScalar(from, v), to.SQLName())
		}
		return fmt.Errorf("cannot cast %s %s to %s", from.SQLName(), quoteText(formatScalar(from, v)), to.SQLName())
	}
	switch to.Op() {
	case KBool:
		switch from.Op() {
		case KInt:
			return v.(int64) != 0, nil
		case KFloat:
			return v.(float64) != 0, nil
		case KString:
			switch strings.ToLower(strings.TrimSpace(v.(string))) {
			case "true", "t", "1", "yes", "y":
				return true, nil
			case "false", "f", "0", "no", "n":
				return false, nil
			}
		}
		return nil, bad()
	case KInt:
		var x int64
		switch from.Op() {
		case KInt:
			x = v.(int64)
		case KBool:
			if v.(bool) {
				x = 1
			}
		case KUint:
			u := v.(uint64)
			if u > math.MaxInt64 {
				return nil, fmt.Errorf("%d is out of range for %s", u, to.SQLName())
			}
			x = int64(u)
		case KFloat:
			f := v.(float64)
			r := math.RoundToEven(f)
			if math.IsNaN(f) || r >= 9.223372036854775807e18 || r < -9.223372036854775808e18 {
				return nil, fmt.Errorf("%v is out of range for %s", f, to.SQLName())
			}
			x = int64(r)
		case KDecimal:
			d := decimalScalar(from, v)
			u, ok := decimalToInt64(d, 0)
			if !ok {
				return nil, fmt.Errorf("%s is out of range for %s", d, to.SQLName())
			}
			x = u
		case KString:
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
		case KDate, KTimestamp, KTime, KInterval:
			return nil, bad()
		default:
			return nil, bad()
		}
		return checkIntRange(x, to)
	case KUint:
		switch from.Op() {
		case KInt:
			if v.(int64) < 0 {
				return nil, fmt.Errorf("%d is out of range for %s", v, to.SQLName())
			}
			return uint64(v.(int64)), nil
		case KFloat:
			f := v.(float64)
			if f < 0 || f >= 1.8446744073709552e19 || math.IsNaN(f) {
				return nil, fmt.Errorf("%v is out of range for %s", f, to.SQLName())
			}
			return uint64(math.RoundToEven(f)), nil
		case KString:
			u, err := strconv.ParseUint(strings.TrimSpace(v.(string)), 10, 64)
			if err != nil {
				return nil, bad()
			}
			return u, nil
		case KDecimal:
			d := decimalScalar(from, v)
			r, _ := new(big.Float).SetRat(decRat(d)).Int(nil)
			if r.Sign() < 0 || !r.IsUint64() {
				return nil, bad()
			}
			return r.Uint64(), nil
		}
		return nil, bad()
	case KFloat:
		switch from.Op() {
		case KInt:
			return float64(v.(int64)), nil
		case KUint:
			return float64(v.(uint64)), nil
		case KBool:
			if v.(bool) {
				return 1.0, nil
			}
			return 0.0, nil
		case KDecimal:
			return decimalScalar(from, v).Float64(), nil
		case KString:
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
	case KDecimal:
		var d value.Decimal
		switch from.Op() {
		case KInt:
			d = value.DecimalFromInt64(v.(int64), 0)
		case KUint:
			d = value.Decimal{Unscaled: new(big.Int).SetUint64(v.(uint64))}
		case KDecimal:
			d = decimalScalar(from, v)
		case KFloat:
			f := v.(float64)
			if math.IsNaN(f) || math.IsInf(f, 0) {
				return nil, bad()
			}
			if to.Huge {
				f = math.RoundToEven(f) // as DuckDB's DOUBLE to HUGEINT (and to BIGINT)
			}
			r := new(big.Rat).SetFloat64(f)
			d = ratDecimal(r, to.Scale)
		case KString:
			r, ok := new(big.Rat).SetString(strings.TrimSpace(v.(string)))
			if !ok {
				return nil, bad()
			}
			d = ratDecimal(r, to.Scale)
		case KBool:
			d = value.DecimalFromInt64(0, 0)
			if v.(bool) {
				d = value.DecimalFromInt64(1, 0)
			}
		default:
			return nil, bad()
		}
		return fitDecimal(d, to)
	case KString:
		if from.Kind == KNested {
			return nestedText(from, v, false)
		}
		return formatScalar(from, v), nil
	case KUUID:
		if from.Kind == KString {
			s := strings.ToLower(strings.TrimSpace(v.(string)))
			h := strings.ReplaceAll(s, "-", "")
			if b, err := hex.DecodeString(h); err == nil && len(b) == 16 {
				return value.UUIDString(b), nil
			}
		}
		return nil, bad()
	case KBytes:
		switch from.Kind {
		case KString, KUUID:
			return function.BlobFromText(v.(string))
		}
		return nil, bad()
	case KDate:
		switch from.Kind {
		case KTimestamp:
			return floorDiv(v.(int64), unitsPerDay(from)), nil
		case KString:
			return function.ParseDateText(v.(string))
		}
		return nil, bad()
	case KTimestamp:
		switch from.Kind {
		case KDate:
			d, per := v.(int64), unitsPerDay(to)
			if d > math.MaxInt64/per || d < math.MinInt64/per {
				return nil, fmt.Errorf("Type DATE with value %s can't be cast to the destination type %s", formatScalar(from, v), to.SQLName())
			}
			return d * per, nil
		case KString:
			return function.ParseTimestampText(v.(string), to)
		}
		return nil, bad()
	case KTime:
		switch from.Kind {
		case KTimestamp:
			day := unitsPerDay(from)
			x := v.(int64) % day
			if x < 0 {
				x += day
			}
			return convertTimeUnit(x, Type{Kind: KTime, Nanos: from.Nanos}, to)
		case KString:
			return function.ParseTimeText(v.(string), to.Nanos)
		}
		return nil, bad()
	case KInterval:
		if from.Op() == KString {
			iv, err := parseIntervalText(v.(string))
			if err != nil {
				return nil, bad()
			}
			return iv, nil
		}
		return nil, bad()
	case KNested:
		return v, nil
	}
	return nil, bad()
}

func quoteText(s string) string { return "'" + s + "'" }

// convertTimeUnit converts a TIMESTAMP or TIME value between microseconds
// and nanoseconds: down it truncates toward zero (as DuckDB's cast does),
// up it is exact or out of range.
func convertTimeUnit(x int64, from, to Type) (any, error) {
	switch {
	case from.Nanos == to.Nanos:
		return x, nil
	case from.Nanos:
		return x / 1000, nil
	}
	if x > math.MaxInt64/1000 || x < math.MinInt64/1000 {
		return nil, fmt.Errorf("%s is out of range for %s", formatScalar(from, x), to.SQLName())
	}
	return x * 1000, nil
}

// timeToNanos is t as nanoseconds since the epoch, or an error when t is
// outside TIMESTAMP_NS's range.
func timeToNanos(t time.Time) (int64, error) {
	ns := t.UnixNano()
	if (t.Year() < 1678 || t.Year() > 2261) && !time.Unix(0, ns).Equal(t) {
		return 0, fmt.Errorf("%v is out of range for TIMESTAMP_NS", t)
	}
	return ns, nil
}

func checkIntRange(x int64, t Type) (any, error) {
	if t.Bits != 0 && t.Bits < 64 {
		lim := int64(1) << (t.Bits - 1)
		if t.Kind == KUint {
			if x < 0 || x >= 2*lim {
				return nil, fmt.Errorf("%d is out of range for %s", x, t.SQLName())
			}
		} else if x < -lim || x >= lim {
			return nil, fmt.Errorf("%d is out of range for %s", x, t.SQLName())
		}
	}
	return x, nil
}

// decimalScalar returns a decimal scalar as value.Decimal.
func decimalScalar(t Type, v any) value.Decimal {
	switch x := v.(type) {
	case value.Decimal:
		return x
	case uint64: // a UBIGINT (an integer literal beyond BIGINT) with a DECIMAL
		return value.Decimal{Unscaled: new(big.Int).SetUint64(x), Scale: int32(t.Scale)}
	}
	return decimalOf(v.(int64), t.Scale)
}

// fitDecimal rescales d to t and checks its precision.
func fitDecimal(d value.Decimal, t Type) (any, error) {
	in := d
	d = ratDecimal(decRat(d), t.Scale)
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

func cmpOrdered[T int64 | uint64 | int32](a, b T) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
