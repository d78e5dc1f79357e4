package vec

import (
	"cmp"
	"encoding/binary"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/carquet-go/carquet/parquet/value"
)

// Interval is an INTERVAL value, as DuckDB holds one: calendar months,
// days and microseconds, each kept apart (a month is not a fixed number
// of days, nor a day of microseconds across a DST change), so that a
// Parquet INTERVAL (months, days, milliseconds) reads and writes back
// exactly and `ts + interval` steps the calendar.
//
// Columns of intervals hold these values boxed in Col.A (storage StAny):
// intervals are rare and small in number, and stAny columns already go
// through every generic path (take, append, sort, hash, get) by their
// scalars; only compare and the hash key need to know the type (see
// CompareIntervals and the engine's appendKey), which keeps this least invasive.
type Interval struct {
	Months int64
	Days   int64
	Micros int64
}

const (
	// MicrosPerDay is the microseconds of a day (of a TIMESTAMP's clock,
	// which has no leap seconds).
	MicrosPerDay   = int64(86400e6)
	daysPerMonth   = 30
	microsPerMonth = daysPerMonth * MicrosPerDay
)

// Neg is -iv.
func (iv Interval) Neg() Interval { return Interval{-iv.Months, -iv.Days, -iv.Micros} }

// Add is iv + o, part by part.
func (iv Interval) Add(o Interval) Interval {
	return Interval{iv.Months + o.Months, iv.Days + o.Days, iv.Micros + o.Micros}
}

// MulInt multiplies each part by n.
func (iv Interval) MulInt(n int64) Interval {
	return Interval{iv.Months * n, iv.Days * n, iv.Micros * n}
}

// Scale multiplies the interval by f as DuckDB does: each part times f,
// the fraction of months carried into days (30 a month) and the fraction
// of days into microseconds. ok is false when a part leaves int64.
func (iv Interval) Scale(f float64) (Interval, bool) {
	m := float64(iv.Months) * f
	d := float64(iv.Days)*f + (m-math.Trunc(m))*daysPerMonth
	us := float64(iv.Micros)*f + (d-math.Trunc(d))*float64(MicrosPerDay)
	out := Interval{int64(math.Trunc(m)), int64(math.Trunc(d)), int64(math.Round(us))}
	for _, x := range []float64{m, d, us} {
		if math.IsNaN(x) || x >= math.MaxInt64 || x <= math.MinInt64 {
			return Interval{}, false
		}
	}
	return out, true
}

// Normalized is the interval with microseconds past a day carried into
// days and days past 30 into months, as DuckDB compares, groups and
// orders intervals ('1 month' equals '30 days').
func (iv Interval) Normalized() Interval {
	months := iv.Months + iv.Days/daysPerMonth + iv.Micros/microsPerMonth
	micros := iv.Micros % microsPerMonth
	days := iv.Days%daysPerMonth + micros/MicrosPerDay
	// The days the microseconds bring may make a month again: DuckDB's
	// '15 days 360 hours' equals '1 month'.
	months, days = months+days/daysPerMonth, days%daysPerMonth
	return Interval{months, days, micros % MicrosPerDay}
}

// CompareIntervals orders a and b as DuckDB does: by their normalized
// parts.
func CompareIntervals(a, b Interval) int {
	x, y := a.Normalized(), b.Normalized()
	if c := cmp.Compare(x.Months, y.Months); c != 0 {
		return c
	}
	if c := cmp.Compare(x.Days, y.Days); c != 0 {
		return c
	}
	return cmp.Compare(x.Micros, y.Micros)
}

// AppendIntervalKey encodes iv for hashing: equal intervals (compare 0)
// encode alike.
func AppendIntervalKey(buf []byte, iv Interval) []byte {
	n := iv.Normalized()
	buf = append(buf, 7)
	buf = binary.LittleEndian.AppendUint64(buf, uint64(n.Months))
	buf = binary.LittleEndian.AppendUint64(buf, uint64(n.Days))
	return binary.LittleEndian.AppendUint64(buf, uint64(n.Micros))
}

// FlatMicros is the interval in microseconds, a month counting 30 days (as
// epoch() and averages count it).
func (iv Interval) FlatMicros() int64 {
	return iv.Months*microsPerMonth + iv.Days*MicrosPerDay + iv.Micros
}

// SplitMicros splits a number of microseconds (a difference of
// timestamps) into whole days and the rest, as DuckDB does.
func SplitMicros(us int64) Interval {
	return Interval{Days: us / MicrosPerDay, Micros: us % MicrosPerDay}
}

// AddTo adds the interval (sign -1 subtracts it) to a timestamp in
// microseconds: months on the calendar, then days, then microseconds.
func (iv Interval) AddTo(us int64, sign int64) int64 {
	if iv.Months != 0 {
		us = AddMonths(MicrosToTime(us), sign*iv.Months).UnixMicro()
	}
	return us + sign*(iv.Days*MicrosPerDay+iv.Micros)
}

// FormatInterval writes an interval as DuckDB's CAST to VARCHAR does:
// "1 year 2 months 3 days 04:05:06.789", "-1 day -01:00:00", "00:00:00".
func FormatInterval(iv Interval) string {
	var b strings.Builder
	part := func(n int64, unit string) {
		if n == 0 {
			return
		}
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		fmt.Fprintf(&b, "%d %s", n, unit)
		if n != 1 && n != -1 {
			b.WriteByte('s')
		}
	}
	part(iv.Months/12, "year")
	part(iv.Months%12, "month")
	part(iv.Days, "day")
	if iv.Micros != 0 {
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		us := uint64(iv.Micros)
		if iv.Micros < 0 {
			b.WriteByte('-')
			us = uint64(-iv.Micros) // -MinInt64 wraps to its magnitude
		}
		fmt.Fprintf(&b, "%02d:%02d:%02d", us/3600e6, us%3600e6/60e6, us%60e6/1e6)
		if frac := us % 1e6; frac != 0 {
			b.WriteString(strings.TrimRight(fmt.Sprintf(".%06d", frac), "0"))
		}
	} else if b.Len() == 0 {
		b.WriteString("00:00:00")
	}
	return b.String()
}

// ParquetInterval reads a Parquet INTERVAL: its unsigned 32-bit parts
// taken as signed, as DuckDB reads them (and writes negative parts),
// milliseconds to microseconds.
func ParquetInterval(v value.Interval) Interval {
	return Interval{int64(int32(v.Months)), int64(int32(v.Days)), int64(int32(v.Millis)) * 1000}
}

// IntervalBytes is the 12 bytes of the Parquet INTERVAL of iv: little-
// endian months, days and milliseconds (microseconds truncated), as
// DuckDB writes them; the writer refuses negative parts, as DuckDB.
func IntervalBytes(iv Interval) []byte {
	b := make([]byte, 12)
	binary.LittleEndian.PutUint32(b, uint32(iv.Months))
	binary.LittleEndian.PutUint32(b[4:], uint32(iv.Days))
	binary.LittleEndian.PutUint32(b[8:], uint32(iv.Micros/1000))
	return b
}

// AddMonths adds calendar months, clamping the day to the end of the
// target month (Jan 31 + 1 month is Feb 29 in a leap year), as DuckDB.
func AddMonths(t time.Time, months int64) time.Time {
	y, m, d := t.Date()
	total := int64(y)*12 + int64(m-1) + months
	ny, nm := int(total/12), time.Month(total%12+1)
	if total < 0 && total%12 != 0 {
		ny, nm = int(total/12)-1, time.Month(total%12+13)
	}
	last := time.Date(ny, nm+1, 0, 0, 0, 0, 0, time.UTC).Day()
	if d > last {
		d = last
	}
	h, mi, sec := t.Clock()
	return time.Date(ny, nm, d, h, mi, sec, t.Nanosecond(), time.UTC)
}
