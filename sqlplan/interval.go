package sqlplan

import (
	"encoding/binary"
	"fmt"
	"math"
	"strings"

	"github.com/carquet-go/carquet/parquet/value"
)

// interval is an INTERVAL value, as DuckDB holds one: calendar months,
// days and microseconds, each kept apart (a month is not a fixed number
// of days, nor a day of microseconds across a DST change), so that a
// Parquet INTERVAL (months, days, milliseconds) reads and writes back
// exactly and `ts + interval` steps the calendar.
//
// Columns of intervals hold these values boxed in Col.A (storage stAny):
// intervals are rare and small in number, and stAny columns already go
// through every generic path (take, append, sort, hash, get) by their
// scalars; only compare and the hash key need to know the type (see
// compareIntervals and appendKey), which keeps this least invasive.
type interval struct {
	months int64
	days   int64
	micros int64
}

const (
	daysPerMonth   = 30
	microsPerMonth = daysPerMonth * microsPerDay
)

func (iv interval) neg() interval { return interval{-iv.months, -iv.days, -iv.micros} }

func (iv interval) add(o interval) interval {
	return interval{iv.months + o.months, iv.days + o.days, iv.micros + o.micros}
}

// mulInt multiplies each part by n.
func (iv interval) mulInt(n int64) interval {
	return interval{iv.months * n, iv.days * n, iv.micros * n}
}

// scale multiplies the interval by f as DuckDB does: each part times f,
// the fraction of months carried into days (30 a month) and the fraction
// of days into microseconds. ok is false when a part leaves int64.
func (iv interval) scale(f float64) (interval, bool) {
	m := float64(iv.months) * f
	d := float64(iv.days)*f + (m-math.Trunc(m))*daysPerMonth
	us := float64(iv.micros)*f + (d-math.Trunc(d))*float64(microsPerDay)
	out := interval{int64(math.Trunc(m)), int64(math.Trunc(d)), int64(math.Round(us))}
	for _, x := range []float64{m, d, us} {
		if math.IsNaN(x) || x >= math.MaxInt64 || x <= math.MinInt64 {
			return interval{}, false
		}
	}
	return out, true
}

// normalized is the interval with microseconds past a day carried into
// days and days past 30 into months, as DuckDB compares, groups and
// orders intervals ('1 month' equals '30 days').
func (iv interval) normalized() interval {
	months := iv.months + iv.days/daysPerMonth + iv.micros/microsPerMonth
	micros := iv.micros % microsPerMonth
	days := iv.days%daysPerMonth + micros/microsPerDay
	return interval{months, days, micros % microsPerDay}
}

func compareIntervals(a, b interval) int {
	x, y := a.normalized(), b.normalized()
	if c := cmpOrdered(x.months, y.months); c != 0 {
		return c
	}
	if c := cmpOrdered(x.days, y.days); c != 0 {
		return c
	}
	return cmpOrdered(x.micros, y.micros)
}

// appendIntervalKey encodes iv for hashing: equal intervals (compare 0)
// encode alike.
func appendIntervalKey(buf []byte, iv interval) []byte {
	n := iv.normalized()
	buf = append(buf, 7)
	buf = binary.LittleEndian.AppendUint64(buf, uint64(n.months))
	buf = binary.LittleEndian.AppendUint64(buf, uint64(n.days))
	return binary.LittleEndian.AppendUint64(buf, uint64(n.micros))
}

// micros is the interval in microseconds, a month counting 30 days (as
// epoch() and averages count it).
func (iv interval) flatMicros() int64 {
	return iv.months*microsPerMonth + iv.days*microsPerDay + iv.micros
}

// microsInterval splits a number of microseconds (a difference of
// timestamps) into whole days and the rest, as DuckDB does.
func splitMicros(us int64) interval {
	return interval{days: us / microsPerDay, micros: us % microsPerDay}
}

// addTo adds the interval (sign -1 subtracts it) to a timestamp in
// microseconds: months on the calendar, then days, then microseconds.
func (iv interval) addTo(us int64, sign int64) int64 {
	if iv.months != 0 {
		us = addMonths(microsToTime(us), sign*iv.months).UnixMicro()
	}
	return us + sign*(iv.days*microsPerDay+iv.micros)
}

// formatInterval writes an interval as DuckDB's CAST to VARCHAR does:
// "1 year 2 months 3 days 04:05:06.789", "-1 day -01:00:00", "00:00:00".
func formatInterval(iv interval) string {
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
	part(iv.months/12, "year")
	part(iv.months%12, "month")
	part(iv.days, "day")
	if iv.micros != 0 {
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		us := uint64(iv.micros)
		if iv.micros < 0 {
			b.WriteByte('-')
			us = uint64(-iv.micros) // -MinInt64 wraps to its magnitude
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

// parquetInterval reads a Parquet INTERVAL: its unsigned 32-bit parts
// taken as signed, as DuckDB reads them (and writes negative parts),
// milliseconds to microseconds.
func parquetInterval(v value.Interval) interval {
	return interval{int64(int32(v.Months)), int64(int32(v.Days)), int64(int32(v.Millis)) * 1000}
}

// intervalBytes is the 12 bytes of the Parquet INTERVAL of iv: little-
// endian months, days and milliseconds (microseconds truncated), as
// DuckDB writes them; the writer refuses negative parts, as DuckDB.
func intervalBytes(iv interval) []byte {
	b := make([]byte, 12)
	binary.LittleEndian.PutUint32(b, uint32(iv.months))
	binary.LittleEndian.PutUint32(b[4:], uint32(iv.days))
	binary.LittleEndian.PutUint32(b[8:], uint32(iv.micros/1000))
	return b
}
