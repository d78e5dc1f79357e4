package function

import (
	"crypto/rand"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"math"
	"runtime/debug"
	"time"

	"github.com/carquet-go/carquet/sqlplan/vec"
)

// Date, time, interval and UUID functions of DuckDB's list that carquet
// lacked, with DuckDB's (v1.5) ranges and messages: to_years and the other
// interval constructors of calendar units, julian, nanosecond, make_time,
// make_timestamp_ms/_ns, uuidv7 and the UUID extractors, constant_or_null,
// version.

var (
	tInterval = vec.Type{Kind: vec.KInterval}
	tUUID     = vec.Type{Kind: vec.KUUID}
	tTime     = vec.Type{Kind: vec.KTime}
)

func init() {
	register(map[string]*Scalar{
		"to_years":     {Min: 1, Max: 1, Rule: Sig(tInterval, tInteger), Batch: monthsInterval(12, "years")},
		"to_months":    {Min: 1, Max: 1, Rule: Sig(tInterval, tInteger), Batch: monthsInterval(1, "months")},
		"to_quarters":  {Min: 1, Max: 1, Rule: Sig(tInterval, tInteger), Batch: monthsInterval(3, "quarters")},
		"to_decades":   {Min: 1, Max: 1, Rule: Sig(tInterval, tInteger), Batch: monthsInterval(120, "decades")},
		"to_centuries": {Min: 1, Max: 1, Rule: Sig(tInterval, tInteger), Batch: monthsInterval(1200, "centuries")},
		"to_millennia": {Min: 1, Max: 1, Rule: Sig(tInterval, tInteger), Batch: monthsInterval(12000, "millennia")},
		"to_weeks":     {Min: 1, Max: 1, Rule: Sig(tInterval, tInteger), Batch: weeksInterval},
		"julian":       {Min: 1, Max: 1, Rule: Sig(tFloat, tTimestamp), Batch: julianBatch},
		"nanosecond":   {Min: 1, Max: 1, Rule: nanosecondRule, Exact: true, Batch: nanosecondBatch},
		"make_time":    {Min: 3, Max: 3, Rule: Sig(tTime, tInt, tInt, tFloat), Row: makeTimeRow},
		"make_timestamp_ms": {Min: 1, Max: 1, Rule: Sig(tTimestamp, tInt), Row: func(a []*vec.Col, i int) (any, error) {
			ms := a[0].I[i]
			if ms > math.MaxInt64/1000 || ms < math.MinInt64/1000 {
				return nil, fmt.Errorf("make_timestamp_ms(%d) is out of the TIMESTAMP range", ms)
			}
			return ms * 1000, nil
		}},
		"make_timestamp_ns": {Min: 1, Max: 1, Rule: Sig(vec.Type{Kind: vec.KTimestamp, Nanos: true}, tInt), Row: func(a []*vec.Col, i int) (any, error) {
			return a[0].I[i], nil
		}},
		"uuidv7":                 {Min: 0, Max: 0, Rule: Sig(tUUID), Row: uuidv7Row, Volatile: true},
		"uuid_extract_version":   {Min: 1, Max: 1, Rule: Sig(vec.Type{Kind: vec.KUint, Bits: 32}, tUUID), Row: uuidVersionRow},
		"uuid_extract_timestamp": {Min: 1, Max: 1, Rule: Sig(vec.Type{Kind: vec.KTimestamp, TZ: true}, tUUID), Row: uuidTimestampRow},
		"constant_or_null":       {Min: 2, Max: -1, Rule: firstArgType, NonStrict: true, Row: constantOrNullRow},
		"version":                {Min: 0, Max: 0, Rule: Sig(tString), Row: func([]*vec.Col, int) (any, error) { return carquetVersion(), nil }},
	})
}

// monthsInterval makes INTERVALs of n calendar units of months months
// each; the months must fit DuckDB's 32 bits.
func monthsInterval(months int64, unit string) func(a []*vec.Col, n int) (*vec.Col, error) {
	return func(a []*vec.Col, n int) (*vec.Col, error) {
		out := &vec.Col{T: tInterval, Len: n, Null: vec.MergeNulls(n, a...), A: make([]any, n)}
		for i, v := range a[0].I[:n] {
			if out.Null != nil && out.Null[i] {
				continue
			}
			m := v * months
			if m > math.MaxInt32 || m < math.MinInt32 {
				return nil, fmt.Errorf("Interval value %d %s out of range", v, unit)
			}
			out.A[i] = vec.Interval{Months: m}
		}
		return out, nil
	}
}

// weeksInterval is to_weeks: 7 days a week, within 32 bits of days.
func weeksInterval(a []*vec.Col, n int) (*vec.Col, error) {
	out := &vec.Col{T: tInterval, Len: n, Null: vec.MergeNulls(n, a...), A: make([]any, n)}
	for i, v := range a[0].I[:n] {
		if out.Null != nil && out.Null[i] {
			continue
		}
		d := v * 7
		if d > math.MaxInt32 || d < math.MinInt32 {
			return nil, fmt.Errorf("Interval value %d weeks out of range", v)
		}
		out.A[i] = vec.Interval{Days: d}
	}
	return out, nil
}

// unixJulianDay is the Julian day number of 1970-01-01.
const unixJulianDay = 2440588

// julianBatch is the Julian day of a timestamp, the time of day its
// fraction (a DATE is its midnight).
func julianBatch(a []*vec.Col, n int) (*vec.Col, error) {
	out := &vec.Col{T: tFloat, Len: n, Null: vec.MergeNulls(n, a...), F: make([]float64, n)}
	for i, us := range a[0].I[:n] {
		if vec.InfiniteStamp(us) {
			out.F[i] = math.Inf(int(us>>63 | 1))
			continue
		}
		const perDay = float64(vec.MicrosPerDay)
		days := math.Floor(float64(us) / perDay)
		out.F[i] = days + unixJulianDay + (float64(us)-days*perDay)/perDay
	}
	return out, nil
}

// nanosecondRule keeps a TIMESTAMP_NS at full precision (the binder
// leaves it so for nanosecond: keepsNanos); others are TIMESTAMPs.
func nanosecondRule(args []vec.Type) ([]vec.Type, vec.Type, error) {
	if args[0].Kind == vec.KTimestamp && args[0].Nanos {
		return nil, tInt, nil
	}
	return []vec.Type{tTimestamp}, tInt, nil
}

// nanosecondBatch is the nanoseconds within the minute (seconds included),
// as DuckDB's nanosecond().
func nanosecondBatch(a []*vec.Col, n int) (*vec.Col, error) {
	out := &vec.Col{T: tInt, Len: n, Null: vec.MergeNulls(n, a...), I: make([]int64, n)}
	perMinute, scale := int64(60e6), int64(1000)
	if a[0].T.Nanos {
		perMinute, scale = 60e9, 1
	}
	for i, v := range a[0].I[:n] {
		r := v % perMinute
		if r < 0 {
			r += perMinute
		}
		out.I[i] = r * scale
	}
	return out, nil
}

// makeTimeRow is make_time(hour, minute, seconds) as a TIME.
func makeTimeRow(a []*vec.Col, i int) (any, error) {
	h, m, s := a[0].I[i], a[1].I[i], a[2].F[i]
	if h < 0 || h > 24 || m < 0 || m >= 60 || !(s >= 0 && s < 60) {
		return nil, fmt.Errorf("Time out of range: %d:%d:%v", h, m, s)
	}
	us := (h*60+m)*60e6 + int64(math.Round(s*1e6))
	if us > vec.MicrosPerDay {
		return nil, fmt.Errorf("Time out of range: %d:%d:%v", h, m, s)
	}
	return us, nil
}

// uuidBytes decodes a UUID's 36-character text.
func uuidBytes(s []byte) ([16]byte, error) {
	var b [16]byte
	if len(s) != 36 {
		return b, fmt.Errorf("invalid UUID %q", s)
	}
	clean := make([]byte, 0, 32)
	for _, c := range s {
		if c != '-' {
			clean = append(clean, c)
		}
	}
	if _, err := hex.Decode(b[:], clean); err != nil {
		return b, fmt.Errorf("invalid UUID %q", s)
	}
	return b, nil
}

func uuidVersionRow(a []*vec.Col, i int) (any, error) {
	b, err := uuidBytes(a[0].Str(i))
	if err != nil {
		return nil, err
	}
	return int64(b[6] >> 4), nil
}

// uuidTimestampRow is the creation time of a version 7 UUID: its first 48
// bits count milliseconds since 1970.
func uuidTimestampRow(a []*vec.Col, i int) (any, error) {
	b, err := uuidBytes(a[0].Str(i))
	if err != nil {
		return nil, err
	}
	if v := b[6] >> 4; v != 7 {
		return nil, fmt.Errorf("Given UUID is with version %d, not version 7.", v)
	}
	ms := int64(binary.BigEndian.Uint64(b[:8]) >> 16)
	return ms * 1000, nil
}

// uuidv7Row makes a version 7 UUID: the time in milliseconds, then random
// bits (RFC 9562).
func uuidv7Row([]*vec.Col, int) (any, error) {
	var b [16]byte
	if _, err := rand.Read(b[6:]); err != nil {
		return nil, err
	}
	ms := uint64(time.Now().UnixMilli())
	for k := 0; k < 6; k++ {
		b[k] = byte(ms >> (40 - 8*k))
	}
	b[6] = b[6]&0x0f | 0x70
	b[8] = b[8]&0x3f | 0x80
	h := hex.EncodeToString(b[:])
	return h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:], nil
}

// firstArgType types a function whose result is its first argument.
func firstArgType(args []vec.Type) ([]vec.Type, vec.Type, error) {
	return nil, args[0], nil
}

// constantOrNullRow is constant_or_null(a, b...): a, or NULL where any b
// is NULL.
func constantOrNullRow(a []*vec.Col, i int) (any, error) {
	for _, c := range a {
		if c.IsNull(i) {
			return nil, nil
		}
	}
	return a[0].Get(i), nil
}

// carquetVersion is what version() gives: carquet and its module version
// (DuckDB gives its own, v1.5.6).
func carquetVersion() string {
	if info, ok := debug.ReadBuildInfo(); ok {
		if info.Main.Path == "github.com/carquet-go/carquet" && info.Main.Version != "" {
			return "carquet " + info.Main.Version
		}
		for _, d := range info.Deps {
			if d.Path == "github.com/carquet-go/carquet" && d.Version != "" {
				return "carquet " + d.Version
			}
		}
	}
	return "carquet (devel)"
}
